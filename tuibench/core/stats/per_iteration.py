"""Per-iteration values other than the subselection median: the plain mean and the median.

`--iteration-value` chooses which value stands for an iteration: `subselection` (mmtests'
method, subselection.py), `mean` (the iteration's arithmetic or harmonic mean), `median`
(the median of its samples) or `trimmed` (the mean of the samples inside the iteration's
1.5 IQR Tukey fences: the caller drops the others, then asks for the mean).
"""

from __future__ import annotations

import numpy as np

from tuibench.core.stats.blocks import SORT_CHUNK

ITERATION_VALUES = ("subselection", "mean", "median", "trimmed")


def iteration_means(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, hmean: np.ndarray
) -> np.ndarray:
    """The mean of every iteration: arithmetic, or harmonic where `hmean` (per iteration).

    An Hmean iteration with a non-positive sample has no harmonic mean: NaN.
    """
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    out = np.full(len(counts), np.nan)
    if len(counts) == 0:
        return out
    ids = np.repeat(np.arange(len(counts)), counts)
    h = np.repeat(np.asarray(hmean, dtype=bool), counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(h, np.where(values > 0, 1.0 / values, np.nan), values)
        m = np.bincount(ids, weights=x, minlength=len(counts)) / counts
        return np.where(np.asarray(hmean, dtype=bool), 1.0 / m, m)


def iteration_medians(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The median of every iteration's samples (the mean of the middle two for even counts)."""
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    out = np.full(len(counts), np.nan)
    for n in np.unique(counts[counts > 0]):
        idx = np.flatnonzero(counts == n)
        cols = np.arange(n)
        step = max(1, SORT_CHUNK // int(n))
        lo_i, hi_i = (int(n) - 1) // 2, int(n) // 2
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            x = np.sort(values[starts[part, None] + cols[None, :]], axis=1)
            out[part] = (x[:, lo_i] + x[:, hi_i]) / 2
    return out
