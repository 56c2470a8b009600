"""The per-iteration value: the median of B subselection means (mmtests' method).

Per iteration, B subsets of 80 % of its samples (without replacement), the mean of each (of
the iteration's kind: arithmetic, or harmonic for rates), and the median of those B means.
Groups of one size share one B x n selection matrix; each group rotates its samples by a
shift derived from its own values, so every number depends only on that group's data.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tuibench.core.stats.blocks import CHUNK

SUBSET_FRACTION = 0.8
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: a stable, well-spread hash of uint64 values."""
    with np.errstate(over="ignore"):
        x = (x + _GOLDEN).astype(np.uint64)
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
        return x ^ (x >> np.uint64(31))


def subset_size(n: int | np.ndarray) -> int | np.ndarray:
    return np.maximum(1, np.floor(SUBSET_FRACTION * np.asarray(n) + 1e-9).astype(np.int64))


@lru_cache(maxsize=256)
def selection_matrix(n: int, b: int, seed: int) -> np.ndarray:
    """B x n matrix of 0/1: row j selects a uniformly random subset of floor(0.8 n) samples.

    Depends only on (n, B, seed), never on what else is loaded.
    """
    m = int(subset_size(n))
    rng = np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, n, b])
    picks = np.argsort(rng.random((b, n)), axis=1)[:, :m]
    sel = np.zeros((b, n))
    np.put_along_axis(sel, picks, 1.0, axis=1)
    sel.flags.writeable = False
    return sel


def group_shift(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, seed: int
) -> np.ndarray:
    """A per-group rotation in [0, n) derived from the seed and the group's own values.

    Rotating a group's samples before applying the shared selection matrix gives each group
    its own subsets, while keeping every number a function of that group's data only.
    """
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    h = _mix(bits ^ _mix(np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)))
    with np.errstate(over="ignore"):
        total = np.add.reduceat(h, starts) if len(starts) else h[:0]
    return (_mix(total) % counts.astype(np.uint64)).astype(np.int64)


def iteration_values(
    values: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    hmean: np.ndarray,
    b: int = 100,
    seed: int = 0,
) -> np.ndarray:
    """The robust value of every iteration: median of `b` subselection means.

    values: all samples, each iteration's samples contiguous; starts/counts: one entry per
    iteration; hmean: per iteration, True for the harmonic mean. An Hmean iteration with a
    non-positive sample has no harmonic mean: NaN (the caller says why).
    """
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    hmean = np.asarray(hmean, dtype=bool)
    out = np.empty(len(starts))
    if len(starts) == 0:
        return out
    per_sample_h = np.repeat(hmean, counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(per_sample_h, np.where(values > 0, 1.0 / values, np.nan), values)
    shift = group_shift(values, starts, counts, seed)

    single = counts == 1
    out[single] = values[starts[single]]
    out[single & hmean & ~(values[starts] > 0)] = np.nan
    for n in np.unique(counts[counts > 1]):
        idx = np.flatnonzero(counts == n)
        sel_t = selection_matrix(int(n), b, seed).T  # n x B
        m = float(subset_size(n))
        cols = np.arange(n)
        step = max(1, CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            gather = starts[part, None] + (cols[None, :] + shift[part, None]) % n
            means = (x[gather] @ sel_t) / m  # groups x B
            h = hmean[part]
            if h.any():
                with np.errstate(divide="ignore"):
                    means[h] = 1.0 / means[h]
            out[part] = np.median(means, axis=1)
    return out
