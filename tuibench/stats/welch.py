"""Welch's t-test from per-side moments."""

from __future__ import annotations

import numpy as np

from tuibench.stats import special


def welch(
    m1: np.ndarray,
    v1: np.ndarray,
    n1: np.ndarray,
    m2: np.ndarray,
    v2: np.ndarray,
    n2: np.ndarray,
    where: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Welch t-test from moments: (p-value, Welch-Satterthwaite df).

    Same as scipy.stats.ttest_ind(a, b, equal_var=False). Where both variances are zero the
    test is degenerate: p = 1 for equal means and p = 0 for different ones (an exact,
    noiseless difference). NaN where a side has fewer than two values. `where` (boolean,
    per element): p only there, NaN elsewhere (the t distribution is most of the cost; a
    comparison reads no p of its reference rows).
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        a, b = v1 / n1, v2 / n2
        se2 = a + b
        t = (m1 - m2) / np.sqrt(se2)
        df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
        if where is None:
            p = 2.0 * special.stdtr(df, -np.abs(t))
        else:
            p = np.full(np.shape(t), np.nan)
            p[where] = 2.0 * special.stdtr(df[where], -np.abs(t[where]))
    zero = (v1 == 0) & (v2 == 0)
    p = np.where(zero, np.where(m1 == m2, 1.0, 0.0), p)
    if where is not None:
        p = np.where(where, p, np.nan)
    df = np.where(zero, n1 + n2 - 2, df)
    bad = (n1 < 2) | (n2 < 2) | np.isnan(v1) | np.isnan(v2)
    p = np.where(bad, np.nan, p)
    return p, df
