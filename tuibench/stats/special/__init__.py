"""Normal and Student t distribution functions and log-gamma: numpy only, vectorised.

Importing scipy.special costs about 0.1 s at start-up (its array-API layer imports
numpy.f2py, numpy.testing, ...), a fifth of a small report; the statistics need only these.
Same values, edge cases and argument order as scipy.special, to near double precision
(tests/core/test_special.py holds the figures):

- ndtr: Cephes' rational approximations of erf/erfc, with exp(-x^2/2) split so that the
  tails keep full relative precision (1e-15 down to 1e-300).
- ndtri: Wichura's AS 241 (PPND16), about 1e-16.
- gammaln: Cephes' lgam (rational approximation on [2, 3), recurrence, Stirling series).
- stdtr: the regularized incomplete beta I_x(df/2, 1/2) by continued fractions (modified
  Lentz, masked), and for large df near the centre DiDonato and Morris' BGRAT expansion,
  which takes log(x) rather than x (x rounds to 1 there and would cost digits).
- stdtrit: Hill's ACM 396 start, then Newton steps on the log of the tail in log|t|.
"""

from tuibench.stats.special.gamma import gammaln
from tuibench.stats.special.normal import ndtr, ndtri
from tuibench.stats.special.student_t import stdtr, stdtrit

__all__ = ["gammaln", "ndtr", "ndtri", "stdtr", "stdtrit"]
