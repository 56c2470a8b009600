"""Every row's sorted samples as slices of a few arrays, for an analysis that grew.

A full analysis keeps its rows' sorted samples one row after another in one array. After a
reload that touched some rows, the others' samples are where the previous analysis kept
them: copying all of them into one new array (80 MB at 10^7 samples, the costliest step
of such a reload) is put off until something needs every row at once (a reference not
ranked yet, `sorted_rows()`); what needs a few rows (the U tests and shifts of the pairs
that changed) gathers only theirs. Arrays whose rows were all replaced are let go, and
the pieces are joined once they hold much more than the rows' samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Join the pieces once the arrays hold this many times the rows' samples (the rest are
# samples of rows analysed again since), or this many arrays.
MOST_HELD, MOST_ARRAYS = 1.5, 8


@dataclass
class RowSamples:
    """Row i's samples: arrays[array[i]][start[i] : start[i] + n[i]], sorted."""

    arrays: tuple[np.ndarray, ...]
    array: np.ndarray
    start: np.ndarray
    n: np.ndarray

    @classmethod
    def whole(cls, values: np.ndarray, start: np.ndarray, n: np.ndarray) -> RowSamples:
        return cls((values,), np.zeros(len(n), dtype=np.int64), start, n)

    @classmethod
    def spliced(cls, parts: list[RowSamples], at: np.ndarray) -> RowSamples:
        """The rows of `parts` one after the other, then taken in the order `at`; arrays
        no row uses any more are let go."""
        arrays = [a for p in parts for a in p.arrays]
        shift = np.cumsum([0] + [len(p.arrays) for p in parts[:-1]])
        array = np.concatenate([p.array + k for p, k in zip(parts, shift, strict=True)])[at]
        start = np.concatenate([p.start for p in parts])[at]
        n = np.concatenate([p.n for p in parts])[at]
        used = np.zeros(len(arrays), dtype=bool)
        used[array] = True
        renumber = np.cumsum(used) - 1
        kept = tuple(a for a, u in zip(arrays, used, strict=True) if u)
        return cls(kept, renumber[array], start, n)

    def too_scattered(self) -> bool:
        held = sum(len(a) for a in self.arrays)
        return len(self.arrays) > MOST_ARRAYS or held > MOST_HELD * max(int(self.n.sum()), 1)

    def of(self, rows: np.ndarray, n: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The samples of `rows` (repeats allowed; `n`: the first n[i] of each, all by
        default) one row after the other, and where each row's begin there: a gather from
        each array."""
        n = self.n[rows] if n is None else n
        first = np.r_[0, np.cumsum(n)[:-1]].astype(np.int64)
        out = np.empty(int(n.sum()), dtype=np.result_type(*self.arrays))
        which = self.array[rows]
        for k, values in enumerate(self.arrays):
            mine = which == k
            if mine.any():
                out[spans(first[mine], n[mine])] = values[spans(self.start[rows][mine], n[mine])]
        return out, first

    def joined(self) -> np.ndarray:
        """Every row's samples one row after the other, in one array: runs of rows that
        follow one another in one array are copied as one slice."""
        which, start, n = self.array, self.start, self.n
        if not len(n):
            return self.arrays[0][:0].copy()
        cut = np.r_[True, (which[1:] != which[:-1]) | (start[1:] != start[:-1] + n[:-1])]
        lo, size = start[cut], np.add.reduceat(n, np.flatnonzero(cut))
        out = np.empty(int(size.sum()), dtype=np.result_type(*self.arrays))
        at = 0
        for k, a, b in zip(which[cut], lo, size, strict=True):
            out[at : at + b] = self.arrays[k][a : a + b]
            at += b
        return out


def spans(start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The positions start[i] .. start[i] + count[i], one run after the other."""
    first = np.r_[0, np.cumsum(count)[:-1]].astype(np.int64)
    out = np.repeat(np.asarray(start, dtype=np.int64) - first, count)
    out += np.arange(int(np.sum(count)), dtype=np.int64)
    return out
