"""Per-iteration values other than the subselection median: the plain mean and the median.

`--iteration-value` chooses which value stands for an iteration: `subselection` (mmtests'
method, subselection.py), `mean` (the iteration's arithmetic or harmonic mean), `median`
(the median of its samples) or `trimmed` (the mean of the samples inside the iteration's
1.5 IQR Tukey fences: the caller drops the others, then asks for the mean).
"""

from __future__ import annotations

import numpy as np

from tuibench.stats.moments import segment_min, segment_sums
from tuibench.stats.samples.blocks import SORT_CHUNK, rows_of, sizes

ITERATION_VALUES = ("subselection", "mean", "median", "trimmed")


def iteration_means(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, hmean: np.ndarray
) -> np.ndarray:
    """The mean of every iteration: arithmetic, or harmonic where `hmean` (per iteration).

    An Hmean iteration with a non-positive sample has no harmonic mean: NaN.
    """
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    hmean = np.asarray(hmean, dtype=bool)
    if len(counts) == 0:
        return np.full(0, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = segment_sums(values, starts, counts, reciprocal=hmean) / counts
        m = np.where(hmean, 1.0 / m, m)
    # A non-positive sample (or a NaN) in an Hmean iteration: no harmonic mean.
    return np.where(hmean & ~(segment_min(values, starts, counts) > 0), np.nan, m)


def iteration_medians(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The median of every iteration's samples (the mean of the middle two for even counts)."""
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    out = np.full(len(counts), np.nan)
    for n in sizes(counts):
        idx = np.flatnonzero(counts == n)
        step = max(1, SORT_CHUNK // int(n))
        lo_i, hi_i = (int(n) - 1) // 2, int(n) // 2
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            x = np.sort(values[rows_of(starts, part, int(n))].reshape(len(part), n), axis=1)
            out[part] = (x[:, lo_i] + x[:, hi_i]) / 2
    return out
