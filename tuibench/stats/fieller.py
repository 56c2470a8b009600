"""Fieller's interval for a ratio of two independent means."""

from __future__ import annotations

import numpy as np

from tuibench.stats.moments import t_quantile


def fieller(
    num: np.ndarray,
    var_num: np.ndarray,
    den: np.ndarray,
    var_den: np.ndarray,
    df: np.ndarray,
    level: float = 0.95,
    where: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fieller's interval for num / den from two independent means and their variances.

    var_num, var_den: variances of the means (s^2 / k). The t quantile uses `df` (Welch-
    Satterthwaite). Returns (low, high, unbounded): unbounded where the denominator is not
    significantly different from 0 (den^2 <= t^2 var_den): the interval is then not a
    finite range, and low/high are NaN. `where` (boolean, per element): the interval only
    there, NaN elsewhere (the t quantile is most of the cost; a comparison reads no
    interval of its reference rows).
    """
    if where is None:
        t = t_quantile(0.5 + level / 2, df)
    else:
        t = np.full(np.shape(df), np.nan)
        t[where] = t_quantile(0.5 + level / 2, np.asarray(df)[where])
    t2 = t * t
    with np.errstate(invalid="ignore", divide="ignore"):
        a = den * den - t2 * var_den
        disc = num * num * var_den + den * den * var_num - t2 * var_num * var_den
        root = t * np.sqrt(np.maximum(disc, 0.0))
        low = (num * den - root) / a
        high = (num * den + root) / a
    unbounded = ~(a > 0) & ~np.isnan(a)
    bad = unbounded | np.isnan(a) | np.isnan(disc) | np.isnan(t)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high), unbounded
