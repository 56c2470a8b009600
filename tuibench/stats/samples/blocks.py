"""Block sizes that bound memory when many groups are processed at once, and sorting
inside contiguous groups."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Literal

import numpy as np

CHUNK = 1 << 22  # gathered elements per block: bounds memory on huge inputs
SORT_CHUNK = 1 << 20  # elements per block of rows sorted at once: small enough to reuse memory
THREADS_FROM = 1 << 18  # elements from which BLAS is held to one thread
MERGE_RUNS_FROM = 256  # sorted runs from this length are merged, not sorted afresh


def one_blas_thread(size: int) -> AbstractContextManager:
    """Many small matrix products (subselections, bootstrap replicates): BLAS threads cost
    more than they give (2 to 4 times slower on a busy 2-core machine). Only worth asking
    for on large inputs (threadpoolctl takes a moment to find the libraries)."""
    if size < THREADS_FROM:
        return nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(1, user_api="blas")


def sizes(counts: np.ndarray, above: int = 0) -> np.ndarray:
    """The distinct counts above `above`, ascending: `np.unique(counts[counts > above])`,
    without its sort (or hash) of every count when they are all the same, the usual case
    (every iteration has as many samples): 40 ms at 2 M iterations, per kernel."""
    counts = np.asarray(counts)
    if len(counts) and (low := counts.min()) == counts.max():
        return counts[:1].copy() if low > above else counts[:0].copy()
    return np.unique(counts[counts > above])


def rows_of(starts: np.ndarray, part: np.ndarray, n: int) -> slice | np.ndarray:
    """Where the groups `part` (all of n values, in order, not overlapping) lie in the flat
    array: a slice when they are adjacent (the usual case: no index array, and reading and
    writing them is a plain copy), else the index of every value. `values[where]` reshaped
    to len(part) x n holds one group per row."""
    first, size = int(starts[part[0]]), len(part) * n
    if int(starts[part[-1]]) - first == size - n:
        return slice(first, first + size)
    return (starts[part, None] + np.arange(n)[None, :]).ravel()


def groups_in_order(
    x: np.ndarray, first: np.ndarray, new_starts: np.ndarray, counts: np.ndarray, g: np.ndarray
) -> np.ndarray:
    """The groups of x one after another in the order g (group g[i] starts at first[i] in
    x, counts[i] long; new_starts: where each begins in the result). When every group has
    one size and they tile x, whole rows of x seen as a matrix are gathered: no index of
    every sample (two arrays of 8 bytes a sample, 6 M samples at 200,000 metrics)."""
    k = int(counts[0]) if len(counts) else 0
    if k and len(x) == len(counts) * k and (counts == k).all() and (first == g * k).all():
        return x.reshape(-1, k)[g].ravel()
    return x[np.repeat(first - new_starts, counts) + np.arange(int(counts.sum()))]


def sort_within(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, runs: np.ndarray | None = None
) -> np.ndarray:
    """Every group's values sorted in place of the group (groups contiguous, in order).

    Groups of one size are sorted together as rows of a matrix: far faster than a global
    lexsort by (group, value), and the only loop is over distinct sizes. `runs`: `values`
    (float64) is made of sorted runs of these lengths, one after another (each iteration's
    samples, `tukey_and_medians`), and is sorted in place. When the shortest run has
    MERGE_RUNS_FROM values or more, a stable sort merges them (timsort: 10 runs of 250,000
    in a third of a fresh sort's time); shorter runs are sorted afresh, which numpy's
    vectorised quicksort does 1.5-10 times faster than timsort (which extends runs under
    64 by insertion).
    """
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    shortest = int(runs.min()) if runs is not None and len(runs) else 0
    kind: Literal["stable"] | None = "stable" if shortest >= MERGE_RUNS_FROM else None
    out = values if runs is not None else np.asarray(values, dtype=np.float64).copy()
    for n in sizes(counts, 1):
        idx = np.flatnonzero(counts == n)
        step = max(1, SORT_CHUNK // int(n))
        for lo in range(0, len(idx), step):
            where = rows_of(starts, idx[lo : lo + step], int(n))
            block = out[where].reshape(-1, int(n))
            block.sort(axis=1, kind=kind)
            if not isinstance(where, slice):  # a view sorts in place; a copy goes back
                out[where] = block.ravel()
    return out
