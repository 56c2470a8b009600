"""Tukey's fences per group and how many samples lie beyond them."""

from __future__ import annotations

import numpy as np

from tuibench.stats.samples.blocks import SORT_CHUNK, rows_of

MILD, EXTREME = 1.5, 3.0  # Tukey's fences, in interquartile ranges


def tukey(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tukey's fences of every group and how many of its samples lie beyond them: see
    `tukey_and_medians`, without the medians."""
    return tukey_and_medians(values, starts, counts)[:5]


def tukey_and_medians(
    values: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    sorted_out: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tukey's fences of every group and how many of its samples lie beyond them.

    Quartiles by numpy's default (linear interpolation). Mild fences: Q1 - 1.5 IQR and
    Q3 + 1.5 IQR; extreme: Q1 - 3 IQR and Q3 + 3 IQR. Returns per group (low fence, high
    fence, samples below the low mild fence, above the high mild fence, beyond an extreme
    fence on either side), and the median (the mean of the middle two for even counts),
    from one sort of every group. The median always lies inside the mild fences, so removing
    the samples beyond them never empties a group. `sorted_out` (as long as `values`, groups
    covering it): receives every group's samples sorted in place of the group, for a later
    sort of larger spans made of these runs (`sort_within(..., runs=True)`).
    """
    values = np.asarray(values, dtype=np.float64)
    ng = len(starts)
    low, high = np.empty(ng), np.empty(ng)
    n_low, n_high, n_ext = (np.zeros(ng, dtype=np.int64) for _ in range(3))
    median = np.full(ng, np.nan)
    for n in np.unique(counts[counts > 0]):
        idx = np.flatnonzero(counts == n)
        step = max(1, SORT_CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            where = rows_of(starts, part, int(n))
            x = np.sort(values[where].reshape(len(part), n), axis=1)
            if sorted_out is not None:
                sorted_out[where] = x.ravel()
            q = []
            for frac in (0.25, 0.75):
                pos = frac * (n - 1)
                i = int(np.floor(pos))
                j = min(i + 1, int(n) - 1)
                q.append(x[:, i] + (pos - i) * (x[:, j] - x[:, i]))
            q1, q3 = q
            median[part] = (x[:, (int(n) - 1) // 2] + x[:, int(n) // 2]) / 2
            iqr = q3 - q1
            low[part], high[part] = q1 - MILD * iqr, q3 + MILD * iqr
            n_low[part], n_high[part], n_ext[part] = _beyond(
                x, low[part], high[part], q1 - EXTREME * iqr, q3 + EXTREME * iqr
            )
    return low, high, n_low, n_high, n_ext, median


def _beyond(
    x: np.ndarray, low: np.ndarray, high: np.ndarray, ext_low: np.ndarray, ext_high: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of x: values below low, above high, and beyond either extreme fence. A few
    columns are added one by one: a sum along rows of 3 was most of the time at 2 M
    iterations of 3 samples."""
    if x.shape[1] > 8:
        ext = (x < ext_low[:, None]) | (x > ext_high[:, None])
        return (x < low[:, None]).sum(axis=1), (x > high[:, None]).sum(axis=1), ext.sum(axis=1)
    below, above, beyond = (np.zeros(len(x), dtype=np.int64) for _ in range(3))
    for col in x.T:
        below += col < low
        above += col > high
        beyond += (col < ext_low) | (col > ext_high)
    return below, above, beyond
