"""The per-iteration value: the median of B subselection means (mmtests' method).

Per iteration, B subsets of 80 % of its samples (without replacement), the mean of each (of
the iteration's kind: arithmetic, or harmonic for rates), and the median of those B means.
Groups of one size share one B x n selection matrix; each group rotates its samples by a
shift derived from its own values, so every number depends only on that group's data.
Small groups use the whole matrix (cached); large ones draw the same rows a block at a time,
so memory stays of the order of the samples whatever B.

Where every subset can be listed, C(n, m) <= B (up to 10 samples at B = 100), the matrix
holds each once: the exact median of the subset means, the value random draws estimate. A
draw's noise is largest there: at two samples each subset is one sample, and the median of
B draws was one sample or the other by the seed's choice (a verdict could follow the seed).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from tuibench.stats.samples.blocks import CHUNK, one_blas_thread, sizes

SUBSET_FRACTION = 0.8
MAX_SUBSELECTIONS = 10_000  # B: time grows with it (memory does not, see selection_blocks)
CACHED_MAX = 1 << 16  # B x n up to this: one cached selection matrix (512 KB)
SMALL_CHUNK = 1 << 16  # gathered samples per block of small groups: fits in cache
HASH_CHUNK = 1 << 16  # samples hashed at once
KEPT_ROTATED = 1 << 24  # rotated samples of large groups kept between blocks (128 MB)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: a stable, well-spread hash of uint64 values (a new array)."""
    out = np.array(x, dtype=np.uint64)
    _mix_inplace(out, np.empty_like(out))
    return out


def _mix_inplace(x: np.ndarray, tmp: np.ndarray) -> None:
    """`_mix` in place, with a scratch array of the same shape (unsigned ops wrap)."""
    x += _GOLDEN
    for shift, mult in ((30, _M1), (27, _M2)):
        np.right_shift(x, np.uint64(shift), out=tmp)
        x ^= tmp
        x *= mult
    np.right_shift(x, np.uint64(31), out=tmp)
    x ^= tmp


def subset_size(n: int | np.ndarray) -> int | np.ndarray:
    return np.maximum(1, np.floor(SUBSET_FRACTION * np.asarray(n) + 1e-9).astype(np.int64))


def every_subset(n: int, b: int) -> bool:
    """Whether the C(n, m) subsets of n samples are at most b: then each is taken once.
    C(n, m) >= n (m < n from 2 samples on): past b samples it is never computed, which at
    a million samples in one iteration took seconds."""
    return n <= b and math.comb(n, int(subset_size(n))) <= b


def subset_count(n: int, b: int) -> int:
    """Rows of the selection matrix: every subset once, or b random ones."""
    return math.comb(n, int(subset_size(n))) if every_subset(n, b) else b


def _rng(n: int, b: int, seed: int) -> np.random.Generator:
    return np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, n, b])


@lru_cache(maxsize=256)
def selection_matrix(n: int, b: int, seed: int) -> np.ndarray:
    """B x n matrix of 0/1: row j selects a uniformly random subset of floor(0.8 n) samples.

    Depends only on (n, B, seed), never on what else is loaded. Row j is the floor(0.8 n)
    smallest of n uniform keys, the j-th n keys drawn from a generator seeded by (seed, n, B).
    Cached: only for small n (B n <= CACHED_MAX); larger sizes go through `selection_blocks`.
    Where C(n, m) <= B, instead every subset once (`every_subset`), whatever the seed.
    """
    m = int(subset_size(n))
    if every_subset(n, b):
        sel = np.zeros((subset_count(n, b), n))
        for row, picked in enumerate(itertools.combinations(range(n), m)):
            sel[row, list(picked)] = 1.0
        sel.flags.writeable = False
        return sel
    picks = np.argsort(_rng(n, b, seed).random((b, n)), axis=1)[:, :m]
    sel = np.zeros((b, n))
    np.put_along_axis(sel, picks, 1.0, axis=1)
    sel.flags.writeable = False
    return sel


def selection_blocks(n: int, b: int, seed: int) -> Iterator[tuple[int, np.ndarray]]:
    """The rows of `selection_matrix(n, b, seed)` a few at a time: (first row, k x n block).

    Memory is bounded by CHUNK elements per block whatever n and B (the whole matrix is
    B x n: 19 GB for 24 million samples). The same keys are drawn in the same order, and
    each row selects the same floor(0.8 n) smallest keys (see `_smallest`).
    """
    if b * n <= CACHED_MAX or every_subset(n, b):
        yield 0, selection_matrix(n, b, seed)
        return
    m = int(subset_size(n))
    rng = _rng(n, b, seed)
    rows = max(1, CHUNK // n)
    for lo in range(0, b, rows):
        k = min(rows, b - lo)
        block = np.empty((k, n))
        for i in range(k):  # one row of keys at a time: n doubles, not k n
            block[i] = _smallest(rng.random(n), m)
        yield lo, block
        del block  # the caller has let go of it too: one block alive at a time


def _smallest(keys: np.ndarray, m: int) -> np.ndarray:
    """Mask of the m smallest of n uniform keys, without sorting them all.

    The m-th smallest lies within a few standard deviations of m / n: every key below that
    window is in, and only the keys inside it are partitioned. Exactly the m smallest (as
    argsort's first m); the full partition is the fallback when the window misses or keys
    tie (probability about n / 2^53).
    """
    n = len(keys)
    p = m / n
    half = 10.0 * math.sqrt(p * (1 - p) / n) + 2.0 / n
    low, high = p - half, p + half
    below = keys < low
    need = m - int(np.count_nonzero(below))
    if need > 0:
        window = (keys >= low) & (keys < high)
        inside = keys[window]
        if len(inside) >= need:
            t = np.partition(inside, need - 1)[need - 1]
            window &= keys <= t
            window |= below
            if int(np.count_nonzero(window)) == m:
                return window
    mask = np.zeros(n, dtype=bool)
    mask[np.argpartition(keys, m - 1)[:m]] = True
    return mask


def group_shift(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, seed: int
) -> np.ndarray:
    """A per-group rotation in [0, n) derived from the seed and the group's own values.

    Rotating a group's samples before applying the shared selection matrix gives each group
    its own subsets, while keeping every number a function of that group's data only.
    Groups tile `values` from starts[0]; each hash sums its group's in wrapping uint64.
    """
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    salt = _mix(np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64))[0]
    total = np.zeros(len(starts), dtype=np.uint64)
    if len(starts):
        h = np.empty(min(len(bits), HASH_CHUNK), dtype=np.uint64)
        tmp = np.empty_like(h)
        # A cache-sized piece at a time, summed into the groups it covers: no hash of every
        # sample at once (an 80 MB array of fresh pages at 10^7 samples).
        for lo in range(int(starts[0]), len(bits), HASH_CHUNK):
            part = h[: min(HASH_CHUNK, len(bits) - lo)]
            np.bitwise_xor(bits[lo : lo + len(part)], salt, out=part)
            _mix_inplace(part, tmp[: len(part)])
            first = np.searchsorted(starts, lo, side="right") - 1  # the group holding lo
            last = np.searchsorted(starts, lo + len(part))  # groups starting before the end
            cuts = np.r_[0, starts[first + 1 : last] - lo]
            total[first:last] += np.add.reduceat(part, cuts)
    return (_mix(total) % counts.astype(np.uint64)).astype(np.int64)


def _rotated(x: np.ndarray, starts: np.ndarray, shift: np.ndarray, n: int) -> np.ndarray:
    """groups x n: each group's samples rotated left by its shift."""
    if len(starts) == 1:  # one (large) group: two slices, no index array
        s, r = int(starts[0]), int(shift[0])
        return np.concatenate((x[s + r : s + n], x[s : s + r]))[None, :]
    cols = np.arange(n) + shift[:, None]
    cols[cols >= n] -= n
    cols += starts[:, None]
    return x[cols]


def _reciprocal_rows(rows: np.ndarray, harmonic: np.ndarray) -> np.ndarray:
    """Groups' samples (a fresh copy, one group per row) on the scale where their mean is
    arithmetic: reciprocals in harmonic rows, NaN for a non-positive sample there (no
    harmonic mean). In place, block by block: no reciprocal copy of every sample."""
    if harmonic.any():
        h = rows[harmonic]
        with np.errstate(divide="ignore", invalid="ignore"):
            r = 1.0 / h
        r[~(h > 0)] = np.nan
        rows[harmonic] = r
    return rows


def _median_of_means(sums: np.ndarray, m: int, harmonic: np.ndarray) -> np.ndarray:
    """Per row, the median of the subset means: sums / m, or m / sums on the reciprocal
    scale of harmonic rows.

    np.median's own steps, in place: a partition at the middle, then the mean of the middle
    two (B even), NaN for a row holding a NaN (NaNs sort last). The partition is of the
    sums: dividing by m keeps their order and the reciprocal reverses it, which maps the
    middle pair onto itself, so only the two middle sums are turned into means (the same
    numbers as turning all B first)."""
    b = sums.shape[1]
    middle = sorted({(b - 1) // 2, b // 2})
    sums.partition(middle, axis=1)
    lo, hi = sums[:, middle[0]] / m, sums[:, middle[-1]] / m
    if harmonic.any():
        with np.errstate(divide="ignore"):
            lo[harmonic], hi[harmonic] = 1.0 / lo[harmonic], 1.0 / hi[harmonic]
    out = 0.5 * (lo + hi)
    out[np.isnan(sums[:, -1])] = np.nan
    return out


def _values_of_size(
    x: np.ndarray,
    starts: np.ndarray,
    shift: np.ndarray,
    harmonic: np.ndarray,
    n: int,
    b: int,
    seed: int,
) -> np.ndarray:
    """The iteration values of the groups that all have n samples."""
    if n <= 3:  # two or three samples: a few distinct subsets, counted (`_few_samples`)
        out, done = _few_samples(x, starts, shift, harmonic, n, b, seed)
        if not done.all():
            rest = np.flatnonzero(~done)
            out[rest] = _by_matrix(x, starts[rest], shift[rest], harmonic[rest], n, b, seed)
        return out
    return _by_matrix(x, starts, shift, harmonic, n, b, seed)


def _by_matrix(
    x: np.ndarray,
    starts: np.ndarray,
    shift: np.ndarray,
    harmonic: np.ndarray,
    n: int,
    b: int,
    seed: int,
) -> np.ndarray:
    """`_values_of_size`, by the B subsets' sums: one matrix product per block of groups."""
    m = int(subset_size(n))
    step = max(1, SMALL_CHUNK // n)  # groups per block: the gathered samples stay in cache
    out = np.empty(len(starts))
    if b * n <= CACHED_MAX or every_subset(n, b):  # the common case: one small matrix
        sel_t = selection_matrix(n, b, seed).T
        for lo in range(0, len(starts), step):
            part = slice(lo, lo + step)
            rows = _reciprocal_rows(_rotated(x, starts[part], shift[part], n), harmonic[part])
            out[part] = _median_of_means(rows @ sel_t, m, harmonic[part])
        return out
    # Large n: the subsets a block at a time, every group's B sums kept (B n > CACHED_MAX:
    # fewer sums than samples). Each part's groups are rotated once and kept for the next
    # blocks while they hold at most KEPT_ROTATED samples in all (rotating them again for
    # every block was a third of the step at 10^7 samples), else rotated again each time.
    step = max(1, CHUNK // n)
    sums = np.empty((len(starts), subset_count(n, b)))
    parts = [slice(lo, lo + step) for lo in range(0, len(starts), step)]
    keep = len(starts) * n <= KEPT_ROTATED
    rotated: list[np.ndarray | None] = [None] * len(parts)
    for j, block in selection_blocks(n, b, seed):
        span = slice(j, j + len(block))
        for i, part in enumerate(parts):
            xr = rotated[i]
            if xr is None:
                xr = _reciprocal_rows(_rotated(x, starts[part], shift[part], n), harmonic[part])
                if keep:
                    rotated[i] = xr
            sums[part, span] = (block @ xr.T).T  # no transposed copy of the block
        del block  # before the generator makes the next one
    del rotated
    for lo in range(0, len(starts), step):
        part = slice(lo, lo + step)
        out[part] = _median_of_means(sums[part], m, harmonic[part])
    return out


def _few_samples(
    x: np.ndarray,
    starts: np.ndarray,
    shift: np.ndarray,
    harmonic: np.ndarray,
    n: int,
    b: int,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """`_by_matrix` for groups of 2 or 3 samples, without the B x n product: a subset of
    one or two samples is one of n, so the B sums are n distinct sums, each as many times
    as the selection matrix has its row (the product adds one or two nonzero terms, exact
    in any order, so these are its numbers). The median of the B means is read from the n
    sums sorted, with their counts. Only for groups of finite nonzero samples (positive
    in harmonic groups): elsewhere a NaN, an infinity or a signed zero could come out of
    the product otherwise; those are left to `_by_matrix` (`done` False).

    At 2 M iterations of 3 samples the product and the partition of 200 M sums were the
    costliest part of the analysis."""
    sel = selection_matrix(n, b, seed)
    # Each row leaves out one sample (n = 3) or keeps one (n = 2), of the rotated group:
    # sample (column + shift) mod n of the group as stored.
    col = np.argmin(sel, axis=1) if n == 3 else np.argmax(sel, axis=1)
    times = np.bincount(col, minlength=n)
    v = _columns(x, starts, n)
    done = np.ones(len(starts), dtype=bool)
    for j in range(n):
        if harmonic.any():  # as `_reciprocal_rows`
            with np.errstate(divide="ignore", invalid="ignore"):
                v[j] = np.where(harmonic, np.where(v[j] > 0, 1.0 / v[j], np.nan), v[j])
        done &= np.isfinite(v[j]) & (v[j] != 0)
    # n = 3: the sum leaving out sample j is the other two's.
    sums = [v[1] + v[2], v[0] + v[2], v[0] + v[1]] if n == 3 else v
    counts = [times[(j - shift) % n] for j in range(n)]
    for i, j in ((0, 1), (1, 2), (0, 1))[: 2 * n - 3]:  # sort the n sums, counts alongside
        swap = sums[j] < sums[i]
        sums[i], sums[j] = np.where(swap, sums[j], sums[i]), np.where(swap, sums[i], sums[j])
        counts[i], counts[j] = (
            np.where(swap, counts[j], counts[i]),
            np.where(swap, counts[i], counts[j]),
        )
    rows = len(sel)  # b, or every subset once
    middle = sorted({(rows - 1) // 2, rows // 2})

    def kth(k: int) -> np.ndarray:  # the k-th smallest of the B sums (from 0)
        below = counts[0]
        out = np.where(k < below, sums[0], sums[1])
        if n == 3:
            out = np.where(k < below + counts[1], out, sums[2])
        return out

    m = int(subset_size(n))
    lo, hi = kth(middle[0]) / m, kth(middle[-1]) / m
    if harmonic.any():
        with np.errstate(divide="ignore"):
            lo[harmonic], hi[harmonic] = 1.0 / lo[harmonic], 1.0 / hi[harmonic]
    return 0.5 * (lo + hi), done


def _columns(x: np.ndarray, starts: np.ndarray, n: int) -> list[np.ndarray]:
    """The j-th sample of every group, for j < n: strided views when the groups lie one
    after another (gathering them took 0.02 to 0.06 s of CPU at 2 M iterations of 3)."""
    first, k = (int(starts[0]), len(starts)) if len(starts) else (0, 0)
    if k and first + n * k <= len(x) and (starts == first + n * np.arange(k)).all():
        return [x[first + j : first + j + n * k : n] for j in range(n)]
    return [x[starts + j] for j in range(n)]


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
    non-positive sample has no harmonic mean: NaN (the caller says why). Memory is bounded
    whatever the size of an iteration (see `selection_blocks`).
    """
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    hmean = np.asarray(hmean, dtype=bool)
    out = np.empty(len(starts))
    if len(starts) == 0:
        return out
    shift = group_shift(values, starts, counts, seed)

    single = counts == 1
    out[single] = values[starts[single]]
    out[single & hmean & ~(values[starts] > 0)] = np.nan
    with one_blas_thread(len(values)):
        for n in sizes(counts, 1):
            idx = np.flatnonzero(counts == n)
            out[idx] = _values_of_size(values, starts[idx], shift[idx], hmean[idx], int(n), b, seed)
    return out
