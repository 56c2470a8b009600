"""Per-group counts, means, variances and t intervals, by bincount over group ids."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from tuibench.stats import special


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


PIECE = 1 << 18  # samples worked on at once: temporaries stay in cache, never fresh pages


def _pieces(starts: np.ndarray, counts: np.ndarray) -> Iterator[np.ndarray]:
    """Consecutive runs of segments (in order) spanning about PIECE samples each (a larger
    segment alone), as index arrays. Temporaries of a piece's size, reused from one to the
    next, instead of arrays of every sample: those are fresh pages, whose zeroing by the
    kernel cost more than the arithmetic at 10^7 samples."""
    ends = starts + counts
    i, m = 0, len(starts)
    while i < m:
        j = max(i + 1, int(np.searchsorted(ends, starts[i] + PIECE, side="right")))
        yield np.arange(i, min(j, m))
        i = j


def _on_scale(x: np.ndarray, counts: np.ndarray, reciprocal: np.ndarray) -> np.ndarray:
    """A copy of x (segments of `counts`) with 1/x in the segments marked `reciprocal`."""
    y = x.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(1.0, x, out=y, where=np.repeat(reciprocal, counts))
    return y


def segment_sums(
    x: np.ndarray, starts: np.ndarray, counts: np.ndarray, reciprocal: np.ndarray | None = None
) -> np.ndarray:
    """Sum of every segment x[starts[i] : starts[i] + counts[i]] (0 when empty); of 1/x
    in the segments where `reciprocal` (the scale of a harmonic mean).

    Segments are in order and do not overlap (gaps are allowed). One `reduceat` over x: no
    per-sample group ids (numpy's pairwise summation inside each segment).
    """
    x = np.asarray(x, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    if reciprocal is None or not np.any(reciprocal):
        return _sums(x, starts, counts)
    if (k := _even_width(starts, counts, len(x))) is not None:
        return _strided_sum(x, len(counts), k, np.asarray(reciprocal, dtype=bool))
    out = np.zeros(len(counts))
    plain = ~np.asarray(reciprocal, dtype=bool)
    out[plain] = _sums(x, starts[plain], counts[plain])
    rec = np.flatnonzero(~plain)
    for part in _pieces(starts[rec], counts[rec]):
        g = rec[part]
        lo, hi = int(starts[g[0]]), int(starts[g[-1]] + counts[g[-1]])
        with np.errstate(divide="ignore"):
            y = 1.0 / x[lo:hi]  # gaps between the segments too: not summed
        out[g] = _sums(y, starts[g] - lo, counts[g])
    return out


def _sums(x: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    if (k := _even_width(starts, counts, len(x))) is not None:
        return _strided_sum(x, len(counts), k)
    out = np.zeros(len(counts))
    has = counts > 0
    if not has.any():
        return out
    s = starts[has]
    # Cut points: each segment's start and end; reduceat sums from one cut to the next, so
    # every other sum is a segment (the ones between are gaps, or empty and discarded).
    cuts = np.stack([s, s + counts[has]], axis=1).ravel()
    if cuts[-1] >= len(x):
        cuts = cuts[:-1]
    out[has] = np.add.reduceat(x, cuts)[::2]
    return out


def segment_moments(
    x: np.ndarray, starts: np.ndarray, counts: np.ndarray, reciprocal: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and sample variance (ddof 1; NaN below 2) of every segment of x, on
    the reciprocal scale in the segments marked `reciprocal`.

    The segments tile x: in order, without gaps (counts sum to len(x)).
    """
    x = np.asarray(x, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    rec = np.zeros(len(counts), bool) if reciprocal is None else np.asarray(reciprocal, bool)
    n = counts.astype(np.float64)
    var = np.zeros(len(counts))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = segment_sums(x, starts, counts, rec) / n
        if (k := _even_width(starts, counts, len(x))) is not None:
            var = _strided_squares(x, mean, k, rec)
        for g in _pieces(starts, counts) if k is None else ():
            lo, hi = int(starts[g[0]]), int(starts[g[-1]] + counts[g[-1]])
            dev = _on_scale(x[lo:hi], counts[g], rec[g]) if rec[g].any() else x[lo:hi].copy()
            np.subtract(dev, np.repeat(mean[g], counts[g]), out=dev)
            np.multiply(dev, dev, out=dev)
            var[g] = _sums(dev, starts[g] - lo, counts[g])
        var /= n - 1
    var[n < 2] = np.nan
    return n, mean, var


def segment_min(x: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Smallest value of every non-empty segment (NaN if it holds a NaN; NaN when empty)."""
    counts = np.asarray(counts, dtype=np.int64)
    if (k := _even_width(starts, counts, len(x))) is not None:
        return _strided_min(np.asarray(x, dtype=np.float64), len(counts), k)
    out = np.full(len(counts), np.nan)
    has = counts > 0
    if has.any():
        s = np.asarray(starts, dtype=np.int64)[has]
        cuts = np.stack([s, s + counts[has]], axis=1).ravel()
        if cuts[-1] >= len(x):
            cuts = cuts[:-1]
        out[has] = np.minimum.reduceat(np.asarray(x, dtype=np.float64), cuts)[::2]
    return out


EVEN_MAX = 8  # segments of one width up to this are reduced by strided passes


def _even_width(starts: np.ndarray, counts: np.ndarray, size: int) -> int | None:
    """The width of the segments when they all have one (1..EVEN_MAX) and tile x from 0 on:
    then a reduction is a few strided passes, not a `reduceat` of every cut (4x faster at
    10^6 iterations of 3 samples)."""
    if not len(counts) or not 0 < counts[0] <= EVEN_MAX:
        return None
    k = int(counts[0])
    if len(counts) * k > size or not (counts == k).all():
        return None
    starts = np.asarray(starts, dtype=np.int64)
    return k if (starts == np.arange(0, len(counts) * k, k)).all() else None


def _strided_min(x: np.ndarray, n: int, k: int) -> np.ndarray:
    """Smallest of each of the n segments of width k tiling x, in `reduceat`'s order (each
    one compared with the smallest before it): the same values, NaN included."""
    out = x[0 : n * k : k].copy()
    for j in range(1, k):
        np.minimum(out, x[j : n * k : k], out=out)
    return out


def _strided_sum(x: np.ndarray, n: int, k: int, reciprocal: np.ndarray | None = None) -> np.ndarray:
    """Sum of each of the n segments of width k (at most 8) tiling x, added as `reduceat`
    adds them, so to the same bits: the first value plus the sum of the others, which
    numpy adds one by one from -0.0 below 8 values (its pairwise summation's base case).
    Of 1/x in the segments marked `reciprocal`."""
    rest = np.full(n, -0.0)
    for j in range(1, k):
        rest += _column(x, j, n, k, reciprocal)
    return _column(x, 0, n, k, reciprocal) + rest


def _column(x: np.ndarray, j: int, n: int, k: int, reciprocal: np.ndarray | None) -> np.ndarray:
    """The j-th value of each of the n segments of width k tiling x (1/x where
    `reciprocal`): a strided view, or a copy when some are reciprocals."""
    col = x[j : n * k : k]
    if reciprocal is None or not reciprocal.any():
        return col
    out = col.copy()
    with np.errstate(divide="ignore"):
        np.divide(1.0, col, out=out, where=reciprocal)
    return out


def _strided_squares(x: np.ndarray, mean: np.ndarray, k: int, reciprocal: np.ndarray) -> np.ndarray:
    """Sum of squared deviations from `mean` of each segment of width k tiling x (on the
    reciprocal scale where marked), column by column: the same bits as the deviations of
    every sample summed by `_strided_sum`, without a temporary the size of x."""
    n = len(mean)
    rest = np.full(n, -0.0)
    for j in range(1, k):
        dev = np.subtract(_column(x, j, n, k, reciprocal), mean)
        rest += np.multiply(dev, dev, out=dev)
    dev = np.subtract(_column(x, 0, n, k, reciprocal), mean)
    return np.multiply(dev, dev, out=dev) + rest


def group_sums(flags: np.ndarray, group: np.ndarray, ngroups: int) -> np.ndarray:
    """How many flags are set per group id (integers)."""
    w = np.asarray(flags, dtype=np.float64)
    return np.bincount(group, weights=w, minlength=ngroups).round().astype(np.int64)


def pooled_moments(
    it_n: np.ndarray, it_mean: np.ndarray, it_var: np.ndarray, group: np.ndarray, ngroups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sample variance (ddof 1) of all the samples of each group, from the moments
    of its parts (iterations): no second pass over the samples."""
    n = np.bincount(group, weights=it_n, minlength=ngroups)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=it_n * it_mean, minlength=ngroups) / n
        dev = it_mean - mean[group]
        ss = np.where(it_n > 1, (it_n - 1) * np.nan_to_num(it_var), 0.0) + it_n * dev * dev
        var = np.bincount(group, weights=ss, minlength=ngroups) / (n - 1)
    var[n < 2] = np.nan
    return mean, var


def relative_sd(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Relative standard deviation in percent, 100 s / |mean|; NaN where undefined."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 100.0 * np.sqrt(var) / np.abs(mean)
    return np.where(np.isfinite(out), out, np.nan)


def t_quantile(q: float, df: np.ndarray) -> np.ndarray:
    """Student t quantile, vectorised; NaN where df < 1."""
    df = np.asarray(df, dtype=np.float64)
    out = np.full(df.shape, np.nan)
    ok = df >= 1
    out[ok] = _stdtrit(df[ok], q)
    return out


def _stdtrit(df: np.ndarray, q: float) -> np.ndarray | float:
    """`special.stdtrit`, solved once when every df is the same (as when every metric has
    as many iterations): the same number, each element's steps being the same. Only then:
    with several values, how many are solved at once moves the last bit."""
    if len(df) > 1 and (df == df[0]).all():
        return float(special.stdtrit(df[:1], q)[0])
    return special.stdtrit(df, q)


def t_interval(
    mean: np.ndarray, var: np.ndarray, n: np.ndarray, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Student t interval for the mean: mean -/+ t(1-a/2, n-1) s / sqrt(n)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        half = t_quantile(0.5 + level / 2, n - 1) * np.sqrt(var / n)
    return mean - half, mean + half
