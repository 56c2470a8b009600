"""Tukey's fences per group and how many samples lie beyond them."""

from __future__ import annotations

import numpy as np

from tuibench.stats.samples.blocks import SORT_CHUNK, rows_of, sizes

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
    sort of larger spans made of these runs (`sort_within(..., runs=counts)`).
    """
    values = np.asarray(values, dtype=np.float64)
    ng = len(starts)
    low, high = np.empty(ng), np.empty(ng)
    n_low, n_high, n_ext = (np.zeros(ng, dtype=np.int64) for _ in range(3))
    median = np.full(ng, np.nan)
    for n in sizes(counts):
        idx = np.flatnonzero(counts == n)
        step = max(1, SORT_CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            where = rows_of(starts, part, int(n))
            x = _sorted_rows(values, where, len(part), int(n), sorted_out)
            # The groups' figures by a slice when they are adjacent (the usual case): a
            # write through an index array took most of this at 2 M groups of 3 samples.
            at = slice(part[0], part[-1] + 1) if part[-1] - part[0] == len(part) - 1 else part
            q = []
            for frac in (0.25, 0.75):
                pos = frac * (n - 1)
                i = int(np.floor(pos))
                j = min(i + 1, int(n) - 1)
                q.append(x[:, i] + (pos - i) * (x[:, j] - x[:, i]))
            q1, q3 = q
            median[at] = (x[:, (int(n) - 1) // 2] + x[:, int(n) // 2]) / 2
            iqr = q3 - q1
            mild = q1 - MILD * iqr, q3 + MILD * iqr
            low[at], high[at] = mild
            beyond = _beyond_sorted if n >= BISECT_FROM else _beyond
            n_low[at], n_high[at], n_ext[at] = beyond(
                x, *mild, q1 - EXTREME * iqr, q3 + EXTREME * iqr
            )
    return low, high, n_low, n_high, n_ext, median


def _sorted_rows(
    values: np.ndarray, where: slice | np.ndarray, rows: int, n: int, out: np.ndarray | None
) -> np.ndarray:
    """values[where] as `rows` x n, each row sorted; also written to out[where] if given.
    A slice of `out` is sorted in place (np.sort's own copy and sort, without a second
    copy of the result into `out`)."""
    if out is not None and isinstance(where, slice):
        x = out[where].reshape(rows, n)
        np.copyto(x, values[where].reshape(rows, n))
        x.sort(axis=1)
        return x
    x = np.sort(values[where].reshape(rows, n), axis=1)
    if out is not None:
        out[where] = x.ravel()
    return x


BISECT_FROM = 256  # sorted rows from this length are counted beyond fences by bisection


def _beyond_sorted(
    x: np.ndarray, low: np.ndarray, high: np.ndarray, ext_low: np.ndarray, ext_high: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_beyond` of rows sorted ascending (NaN last), by a bisection of every row at once:
    a few values per row instead of every one (at 10^7 samples in rows of 250,000 the
    comparisons of every sample were a fifth of the step). A NaN fence counts nothing, as
    a comparison with it is false."""
    finite = _prefix(x, lambda v, r: ~np.isnan(v))  # NaNs sort last

    def above(fence: np.ndarray) -> np.ndarray:
        upto = _prefix(x, lambda v, r: v <= fence[r])
        return np.where(np.isnan(fence), 0, finite - upto)

    def below(fence: np.ndarray) -> np.ndarray:
        return _prefix(x, lambda v, r: v < fence[r])

    return below(low), above(high), below(ext_low) + above(ext_high)


def _prefix(x: np.ndarray, holds) -> np.ndarray:
    """Per row of x, the length of the prefix where `holds(value, row)` is true (true on a
    prefix of every row, then false)."""
    k, n = x.shape
    rows = np.arange(k)
    lo, hi = np.zeros(k, dtype=np.int64), np.full(k, n, dtype=np.int64)
    for _ in range(n.bit_length()):  # each step halves every open interval [lo, hi)
        open_ = lo < hi
        mid = (lo + hi) // 2
        yes = holds(x[rows, np.minimum(mid, n - 1)], rows)
        lo = np.where(open_ & yes, mid + 1, lo)
        hi = np.where(open_ & ~yes, mid, hi)
    return lo


def _beyond(
    x: np.ndarray, low: np.ndarray, high: np.ndarray, ext_low: np.ndarray, ext_high: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of x: values below low, above high, and beyond either extreme fence. A few
    columns are added one by one: a sum along rows of 3 was most of the time at 2 M
    iterations of 3 samples. Counted in bytes (at most 8 a row), then widened: adding
    booleans to 64-bit counters converts every column first."""
    if x.shape[1] > 8:
        ext = (x < ext_low[:, None]) | (x > ext_high[:, None])
        return (x < low[:, None]).sum(axis=1), (x > high[:, None]).sum(axis=1), ext.sum(axis=1)
    below, above, beyond = (np.zeros(len(x), dtype=np.int8) for _ in range(3))
    out, far = np.empty(len(x), dtype=bool), np.empty(len(x), dtype=bool)
    for col in x.T:
        below += np.less(col, low, out=out)
        above += np.greater(col, high, out=out)
        np.less(col, ext_low, out=out)
        beyond += np.logical_or(out, np.greater(col, ext_high, out=far), out=out)
    return below.astype(np.int64), above.astype(np.int64), beyond.astype(np.int64)
