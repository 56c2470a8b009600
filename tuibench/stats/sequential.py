"""Anytime-valid confidence sequences for the mean of paired differences (`tuibench decide`).

The differences are d_i = log(system's iteration i) - log(reference's iteration i). For
Gaussian d_i with unknown mean mu and unknown variance, the scale-invariant mixture
likelihood ratio (Lai 1976; Howard et al. 2021, Wang & Ramdas 2023) of mu against the data,
with the effect size mu/sigma mixed over N(0, 1/c),

    M_n(mu) = sqrt(c / (n + c)) * (S2 / (S2 - S1^2 / (n + c)))^(n / 2),
    S1 = sum(d_i - mu),  S2 = sum((d_i - mu)^2),

is a nonnegative martingale with M_1 = 1 under the true mu. By Ville's inequality it ever
reaches 1/alpha with probability at most alpha, whenever and however often it is looked
at: {mu : M_n(mu) < 1/alpha} covers mu at every n at once with probability 1 - alpha. Its
half-width has a closed form (`half_width`). The variance is estimated from the data
itself (the scale mixture), so no variance has to be known or bounded.
"""

from __future__ import annotations

import numpy as np

# The mixture's precision on mu/sigma, fixed before any data: 0.5 gives the narrowest
# sequence from about 5 to 15 iterations (half-widths of 2.6, 1.5, 1.2, 0.9 standard
# deviations at 5, 8, 10, 15 pairs, alpha 0.05), where benchmark loops usually stop.
MIXTURE_C = 0.5

# Extra iterations tried when estimating how many more would settle an undecided metric.
EXTRA = np.r_[np.arange(1, 31), 35, 40, 50, 60, 80, 100, 150, 200, 300, 500, 1000]


@np.errstate(all="ignore")
def half_width(n: np.ndarray, var: np.ndarray, alpha: float, c: float = MIXTURE_C) -> np.ndarray:
    """Half-width of the confidence sequence around the mean of n differences whose mean
    squared deviation (divided by n, not n - 1) is `var`; inf while it is unbounded.

    M_n(mu) >= 1/alpha  <=>  u >= var * a / (1 - a), u = (mean - mu)^2, with
    q = (alpha^2 c / (n + c))^(1/n) and a = (1 - q)(n + c)/n; for a >= 1 no mu is excluded.
    """
    n = np.asarray(n, dtype=float)
    q = (alpha**2 * c / (n + c)) ** (1.0 / n)
    a = (1.0 - q) * (n + c) / n
    hw = np.sqrt(np.asarray(var, dtype=float) * a / (1.0 - a))
    return np.where((n >= 2) & (a < 1), hw, np.inf)


@np.errstate(all="ignore")
def log_mixture(d: np.ndarray, mu: float, c: float = MIXTURE_C) -> float:
    """log M_n(mu) of the differences d, straight from its definition (for checking)."""
    y = np.asarray(d, dtype=float) - mu
    n, s1, s2 = len(y), y.sum(), (y * y).sum()
    return 0.5 * np.log(c / (n + c)) - n / 2 * np.log1p(-(s1 * s1) / (n + c) / s2)


def settles(mean: np.ndarray, hw: np.ndarray, low: float | None, high: float | None) -> np.ndarray:
    """Whether an interval mean +/- hw (log scale) decides: it excludes 0, or it lies
    inside [low, high] (the log of the practical margin; None: no margin)."""
    out = (mean - hw > 0) | (mean + hw < 0)
    if low is not None and high is not None:
        out |= (mean - hw >= low) & (mean + hw <= high)
    return out


@np.errstate(all="ignore")
def more_iterations(
    n: np.ndarray,
    mean: np.ndarray,
    sd: np.ndarray,
    alpha: float,
    low: float | None,
    high: float | None,
) -> np.ndarray:
    """How many more pairs would likely settle each row, were its mean and standard
    deviation (n - 1 divisor) to stay as they are now; -1 when 1,000 more would not."""
    m = n[:, None] + EXTRA[None, :]
    var = (sd * sd)[:, None] * (m - 1) / m  # the expected mean squared deviation
    ok = settles(mean[:, None], half_width(m, var, alpha), low, high)
    first = np.argmax(ok, axis=1)
    return np.where(ok.any(axis=1) & (n >= 2), EXTRA[first], -1)
