"""Results that grew by whole new files: the new files' rows merged into the loaded ones.

A reload after a benchmark wrote one more `iter-<N>` file need not number, check and sort
ten million samples again: the new files are loaded on their own (`load.load_found` over
them only, the same readers and checks) and their rows, in the loaded set's name codes, are
put in place among the loaded ones by one gather. That gives exactly what a full load gives
only when nothing the new files hold depends on the other files, so `grown` answers None
(load everything) unless:

- the new files brought no problem, nothing set aside, no reader notes, and no name of a
  benchmark, metric or system the loaded results do not have (lookalike names, the
  catalogue's natural order and the systems' order then stay as they are);
- each of their metrics has the catalogue row (unit, direction, mean kind) it has now (no
  unit to convert, no direction to reconcile);
- none of their (system, benchmark, metric, iteration) is loaded already (the same results
  twice: the full load leaves the later file's out, with a problem).

The caller (incremental.py) checks what only it sees: every file numbers its iterations
itself (an `iter-<N>` folder, or the native format's own column), no file lists systems
or carries settings, no new file is a byte copy of a loaded one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.model.results import ResultSet

NAMES = ("system", "benchmark", "metric")
SLICE_ROWS = 1 << 16  # rows of a run copied as a slice; shorter runs are gathered
CHUNKS = 8  # merges whose pieces the merged rows may keep as separate chunks


@dataclass
class Iterations:
    """Where every iteration's samples are in a ResultSet's `samples` (sorted by names,
    iteration, sample): their name codes and iteration, first row and count."""

    keys: np.ndarray  # (iterations, 4) int64: system, benchmark, metric codes, iteration
    start: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, samples: pl.DataFrame) -> Iterations:
        cols = [samples[k].to_physical().to_numpy().astype(np.int64) for k in NAMES]
        cols.append(samples["iteration"].to_numpy())
        edge = np.zeros(samples.height, dtype=bool)
        edge[:1] = True
        for a in cols:
            edge[1:] |= a[1:] != a[:-1]
        start = np.flatnonzero(edge)
        count = np.diff(np.r_[start, samples.height])
        return cls(np.stack([a[start] for a in cols], axis=1), start, count)

    @classmethod
    def of_table(cls, iterations: pl.DataFrame) -> Iterations:
        """From a table of the iterations in sample order with their `samples` (an
        analysis's): no pass over the samples."""
        cols = [iterations[k].to_physical().to_numpy().astype(np.int64) for k in NAMES]
        cols.append(iterations["iteration"].to_numpy().astype(np.int64))
        count = iterations["samples"].to_numpy().astype(np.int64)
        start = np.r_[0, np.cumsum(count)[:-1]].astype(np.int64) if len(count) else count
        return cls(np.stack(cols, axis=1), start, count)


@dataclass
class Growth:
    """The grown results, where their iterations are, and for each iteration its position
    among the previous results' iterations (-1: a new one)."""

    rs: ResultSet
    iterations: Iterations
    source: np.ndarray


def grown(old: ResultSet, before: Iterations, new: ResultSet, position: dict[str, int]):
    """`old` with the rows of `new` (the new files loaded on their own) merged in, as a full
    load of all the files gives it; None when that cannot be had this way (module doc).
    `position`: every file's place in discovery's order, by its shown path."""
    if new.problems or new.set_aside or new.notes.height or new.samples.height == 0:
        return None
    if [s.name for s in new.systems] != old.system_names:
        return None
    for a, b in zip(new.systems, old.systems, strict=True):  # what files say of a system
        if not a.metadata.items() <= b.metadata.items():
            return None
    samples = _recoded(new.samples, old.samples.schema)
    if samples is None or not _same_catalogue(old.metrics, new.metrics):
        return None
    added = Iterations.of(samples)
    keys = np.concatenate([before.keys, added.keys])
    order = _merged_order(before.keys, added.keys)
    keys = keys[order]
    if (keys[1:] == keys[:-1]).all(axis=1).any():
        return None  # an iteration loaded already: the same results twice
    count = np.r_[before.count, added.count][order]
    start = np.r_[before.start, added.start + old.samples.height][order]
    first = np.r_[0, np.cumsum(count)[:-1]]
    merged = _pieces(pl.concat([old.samples, samples], rechunk=False), start, count)
    source = np.where(order < len(before.start), order, -1)
    files = sorted([*old.files, *new.files], key=lambda f: position.get(f.path, len(position)))
    rs = ResultSet(
        samples=merged,
        metrics=old.metrics,
        systems=old.systems,
        problems=old.problems,
        files=files,
        root=old.root,
        notes=old.notes,
        set_aside=old.set_aside,
        configured_reference=old.configured_reference,
        first_by_name=old.first_by_name,
    )
    return Growth(rs, Iterations(keys, first, count), source)


def _merged_order(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The order of the rows of a then b (keys, each sorted) that sorts them: where the
    keys fit in one integer, each of b's rows finds its place among a's by a binary search
    (a sort of every loaded iteration again cost 10 ms at 200,000); else a sort."""
    both = np.concatenate([a, b])
    if not len(b) or not len(a):
        return np.lexsort(both.T[::-1])
    low, high = both.min(axis=0), both.max(axis=0)
    bits = [int(x).bit_length() for x in high - low]
    if sum(bits) > 62:
        return np.lexsort(both.T[::-1])
    shift = np.cumsum([0, *bits[::-1]])[:-1][::-1]  # the last column lowest
    packed = ((both - low) << shift).sum(axis=1)
    ka, kb = packed[: len(a)], packed[len(a) :]
    if (np.diff(ka) < 0).any() or (np.diff(kb) < 0).any():
        return np.lexsort(both.T[::-1])
    at = np.searchsorted(ka, kb, side="right") + np.arange(len(b))  # b's places
    order = np.empty(len(both), dtype=np.int64)
    from_a = np.ones(len(both), dtype=bool)
    from_a[at] = False
    order[from_a] = np.arange(len(a))
    order[at] = np.arange(len(a), len(both))
    return order


def _pieces(both: pl.DataFrame, start: np.ndarray, count: np.ndarray) -> pl.DataFrame:
    """The rows of the iterations at `start` (`count` rows each), in that order: runs of
    iterations that follow one another in `both` are one slice when long (a gather of
    every row took four times as long); the short runs between two long ones are one
    gather (thousands of slices cost 10 us each, and every later pass over a frame of
    thousands of chunks paid for them: a select 15 ms a column)."""
    cut = np.r_[True, start[1:] != start[:-1] + count[:-1]]
    lo = start[cut]
    n = np.add.reduceat(count, np.flatnonzero(cut)) if len(count) else count
    if not len(n):
        return both.clear()
    long = n >= SLICE_ROWS
    # Pieces: each long run, and each stretch of short runs between them.
    piece = np.cumsum(np.r_[True, long[1:] | long[:-1]]) - 1
    parts = []
    for k in np.flatnonzero(np.r_[True, piece[1:] != piece[:-1]]):
        if long[k]:
            parts.append(both.slice(int(lo[k]), int(n[k])))
            continue
        runs = piece == piece[k]
        a, b = lo[runs], n[runs]
        rows = np.repeat(a - np.r_[0, np.cumsum(b)[:-1]], b) + np.arange(int(b.sum()))
        parts.append(both[pl.Series(rows.astype(np.uint32 if len(both) < 1 << 32 else np.int64))])
    # The slices stay views of the loaded rows (no copy of ten million rows, no memory
    # twice); each merge adds pieces again, so now and then one copy.
    merged = pl.concat(parts, rechunk=False)
    return merged.rechunk() if merged.n_chunks() > CHUNKS * len(parts) + 64 else merged


def _recoded(samples: pl.DataFrame, schema: pl.Schema) -> pl.DataFrame | None:
    """The new rows with the name codes of the loaded results; None when a name is new."""
    casts = []
    for k in NAMES:
        have, want = samples.schema[k], schema[k]
        if have == want:
            continue
        assert isinstance(have, pl.Enum) and isinstance(want, pl.Enum)  # loader's names
        if not set(have.categories.to_list()) <= set(want.categories.to_list()):
            return None
        # Each name once, then every row by its code: a gather, no text per row.
        coded = have.categories.cast(want)
        casts.append(coded.gather(samples[k].to_physical()).alias(k))
    return samples.with_columns(casts) if casts else samples


def _same_catalogue(old: pl.DataFrame, new: pl.DataFrame) -> bool:
    """Whether every metric of the new files has the loaded catalogue's row as it is."""
    names = [pl.col(k).cast(pl.String) for k in ("benchmark", "metric")]
    a = old.with_columns(names)
    b = new.with_columns(names)
    joined = b.join(a, on=["benchmark", "metric"], how="left", suffix="_old", nulls_equal=True)
    if joined.height != b.height:
        return False
    for k in ("unit", "better", "mean_kind"):
        same = joined.select(pl.col(k).eq_missing(pl.col(f"{k}_old")).all()).item()
        if not same:
            return False
    return joined.select(pl.col("mean_kind_old").is_not_null().all()).item()
