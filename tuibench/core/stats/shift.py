"""The shift the Mann-Whitney U test is about: the Hodges-Lehmann estimate.

The Hodges-Lehmann estimate of the shift between samples x and y is the median of every
pairwise difference x_i - y_j. Where the pairs are too many (more than `MAX_PAIRS` for a
row), the difference of the two medians stands in for it.
"""

from __future__ import annotations

import numpy as np

from tuibench.core.stats.blocks import CHUNK

MAX_PAIRS = 10_000  # pairwise differences per row beyond which the medians are used


def group_medians(sorted_values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Median of every group of an array sorted within each group; NaN for empty groups."""
    x = np.asarray(sorted_values, dtype=np.float64)
    starts, counts = np.asarray(starts, dtype=np.int64), np.asarray(counts, dtype=np.int64)
    has = counts > 0
    lo = np.where(has, starts + (counts - 1) // 2, 0)
    hi = np.where(has, starts + counts // 2, 0)
    if len(x) == 0:
        return np.full(len(counts), np.nan)
    return np.where(has, (x[lo] + x[hi]) / 2, np.nan)


def hodges_lehmann(
    values: np.ndarray,
    x_start: np.ndarray,
    x_n: np.ndarray,
    y_start: np.ndarray,
    y_n: np.ndarray,
    max_pairs: int = MAX_PAIRS,
) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the shift of group x against group y (both taken from `values`).

    Returns (shift, exact): the median of all x_i - y_j where n_x * n_y <= max_pairs
    (exact True), else median(x) - median(y) (exact False); `values` must be sorted within
    each group for the medians. NaN where a side is empty.
    """
    v = np.asarray(values, dtype=np.float64)
    xs, xn = np.asarray(x_start, dtype=np.int64), np.asarray(x_n, dtype=np.int64)
    ys, yn = np.asarray(y_start, dtype=np.int64), np.asarray(y_n, dtype=np.int64)
    pairs = xn * yn
    out = group_medians(v, xs, xn) - group_medians(v, ys, yn)
    exact = (pairs > 0) & (pairs <= max_pairs)
    rows = np.flatnonzero(exact)
    lo = 0
    while lo < len(rows):  # blocks of rows holding at most CHUNK pairs in all
        cum = np.cumsum(pairs[rows[lo:]])
        hi = lo + max(1, int(np.searchsorted(cum, CHUNK, side="right")))
        part = rows[lo:hi]
        p = pairs[part]
        row = np.repeat(np.arange(len(part)), p)
        k = np.arange(int(p.sum())) - np.repeat(np.cumsum(p) - p, p)
        ny = yn[part][row]
        d = v[xs[part][row] + k // ny] - v[ys[part][row] + k % ny]
        d = d[np.lexsort((d, row))]
        first = np.cumsum(p) - p
        out[part] = (d[first + (p - 1) // 2] + d[first + p // 2]) / 2
        lo = hi
    out[pairs == 0] = np.nan
    return out, exact
