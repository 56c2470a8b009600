"""Variances of many metrics moderated toward what the metrics share: limma's empirical
Bayes (Smyth 2004, "Linear models and empirical Bayes methods for assessing differential
expression in microarray experiments").

A metric's variance estimate s^2 with d degrees of freedom is taken as drawn around its
true variance, and the true variances of the metrics as drawn from a scaled inverse
chi-square distribution with d0 degrees of freedom around s0^2. Both are fitted to the
metrics' log s^2 by moments (the mean and the variance beyond what chance gives d degrees
of freedom). The moderated variance (d0 s0^2 + d s^2) / (d0 + d) then has d0 + d degrees
of freedom: a t built on it is Student's t under that model. When the metrics' variances
differ more than their estimates do by chance, d0 is small and little is borrowed; when
they are alike, d0 is large and a metric with three degrees of freedom of its own is
tested nearly as if its variance were known. Fewer than MIN_METRICS estimates fit no
prior (d0 = 0: each metric on its own).
"""

from __future__ import annotations

import numpy as np

from tuibench.stats.special.polygamma import digamma, trigamma, trigamma_inverse

MIN_METRICS = 20  # below this the fit of d0 is itself too noisy to lean on
D0_MAX = 1e4  # d0 of variances that scatter no more than chance: as good as known


def fit_prior(s2: np.ndarray, df: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(s0^2, d0) per column of s2 (rows: metrics; NaN: no estimate) with df (broadcast).
    Where a column has fewer than MIN_METRICS estimates: (NaN, 0)."""
    s2 = np.atleast_2d(np.asarray(s2, dtype=np.float64).T).T
    df = np.broadcast_to(np.asarray(df, dtype=np.float64), s2.shape)
    ok = np.isfinite(s2) & (s2 >= 0) & (df > 0)
    count = ok.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        # A variance of exactly 0 (rounded values) has no log: raise it to a small share of
        # its column's median, as limma does.
        masked = np.where(ok, s2, np.inf)
        floor = (
            1e-5 * np.sort(masked, axis=0)[np.maximum(count - 1, 0) // 2, np.arange(s2.shape[1])]
        )
        half = np.where(ok, df, 1.0) / 2
        e = np.log(np.maximum(np.where(ok, s2, 1.0), floor)) - digamma(half) + np.log(half)
        e = np.where(ok, e, 0.0)
        mean = e.sum(axis=0) / count
        spread = np.where(ok, (e - mean) ** 2, 0.0).sum(axis=0) / (count - 1)
        chance = np.where(ok, trigamma(half), 0.0).sum(axis=0) / count
        excess = spread - chance
        d0 = np.where(excess > 0, 2 * trigamma_inverse(np.maximum(excess, 1e-300)), D0_MAX)
        d0 = np.minimum(d0, D0_MAX)
        s0 = np.exp(mean + digamma(d0 / 2) - np.log(d0 / 2))
    few = count < MIN_METRICS
    return np.where(few, np.nan, s0), np.where(few, 0.0, d0)


def moderate(
    s2: np.ndarray, df: np.ndarray, s0: np.ndarray, d0: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The moderated variance and its degrees of freedom (s2, df where d0 is 0)."""
    with np.errstate(invalid="ignore"):
        post = np.where(d0 > 0, (d0 * s0 + df * s2) / (d0 + df), s2)
    return post, df + d0
