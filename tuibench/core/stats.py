"""Vectorised statistics over many groups at once (numpy/scipy only: no polars, no I/O).

Groups are contiguous runs in flat arrays, described by `starts` and `counts`. Every
function works on all groups in one go; the only Python loops are over distinct group
sizes (a handful), never over groups.

The method (DESIGN.md, "Statistics"):
1. per iteration, the median of B subselection means (80 % of the samples, without
   replacement), of the mean kind (arithmetic, or harmonic for rates);
2. per system, the mean of those values with a Student t interval across iterations
   (on reciprocals for harmonic means);
3. against the reference, Welch's t-test with Welch-Satterthwaite degrees of freedom.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import special

SUBSET_FRACTION = 0.8
CHUNK = 1 << 22  # gathered elements per block: bounds memory on huge inputs

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


def group_moments(
    x: np.ndarray, group: np.ndarray, ngroups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and sample variance (ddof 1; NaN below 2) of `x` per group id."""
    n = np.bincount(group, minlength=ngroups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=x, minlength=ngroups) / n
        dev = x - mean[group]
        var = np.bincount(group, weights=dev * dev, minlength=ngroups) / (n - 1)
    var[n < 2] = np.nan
    return n, mean, var


def t_quantile(q: float, df: np.ndarray) -> np.ndarray:
    """Student t quantile, vectorised; NaN where df < 1."""
    df = np.asarray(df, dtype=np.float64)
    out = np.full(df.shape, np.nan)
    ok = df >= 1
    out[ok] = special.stdtrit(df[ok], q)
    return out


def t_interval(
    mean: np.ndarray, var: np.ndarray, n: np.ndarray, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Student t interval for the mean: mean -/+ t(1-a/2, n-1) s / sqrt(n)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        half = t_quantile(0.5 + level / 2, n - 1) * np.sqrt(var / n)
    return mean - half, mean + half


def welch(
    m1: np.ndarray, v1: np.ndarray, n1: np.ndarray, m2: np.ndarray, v2: np.ndarray, n2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Welch t-test from moments: (p-value, Welch-Satterthwaite df).

    Same as scipy.stats.ttest_ind(a, b, equal_var=False). Where both variances are zero the
    test is degenerate: p = 1 for equal means and p = 0 for different ones (an exact,
    noiseless difference). NaN where a side has fewer than two values.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        a, b = v1 / n1, v2 / n2
        se2 = a + b
        t = (m1 - m2) / np.sqrt(se2)
        df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
        p = 2.0 * special.stdtr(df, -np.abs(t))
    zero = (v1 == 0) & (v2 == 0)
    p = np.where(zero, np.where(m1 == m2, 1.0, 0.0), p)
    df = np.where(zero, n1 + n2 - 2, df)
    bad = (n1 < 2) | (n2 < 2) | np.isnan(v1) | np.isnan(v2)
    p = np.where(bad, np.nan, p)
    return p, df
