"""Readers' results -> each file's FileRecord and problems, the systems files name, and the
rows of all files tagged with their file (`system`, `_file`, `_rank`, `_file_iteration`,
`_global`), in file order.

A frame per small file, and the polars calls that tag it, cost more than reading the file.
So the rows of readers that give Columns (the JSON readers, for files of up to
`base.COLUMNS_ROWS` rows) stay Python lists until one frame is built for all of them, and
batches of small native files (small_files.py) come as one frame each. What files say
about systems (names, listed order, metadata, notes) is applied in file order, whatever
order the files were read in: the result is the one of reading them one by one.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np
import polars as pl

from tuibench.ingest import small_files
from tuibench.ingest.discover import Unit, display_path
from tuibench.ingest.formats import native
from tuibench.ingest.formats.base import READER_SCHEMA, Columns, ReadResult, frame_from_columns
from tuibench.ingest.small_files import Batch
from tuibench.model.problems import Problem
from tuibench.model.results import NOTES_SCHEMA, FileRecord
from tuibench.model.set_aside import SetAside
from tuibench.model.systems import SystemInfo, file_stem

# A file's distinct (system, benchmark, metric), asked for only when the reader has notes.
Rows = Callable[[], list[tuple[str, str, str]]]


@dataclass
class Said:
    """What one file says about systems."""

    named: list[str]  # the systems its rows name
    listed: list[str] = field(default_factory=list)  # systems in an order that means something
    metadata: dict[str, str] = field(default_factory=dict)
    notes: list[tuple[str, str, str, str]] = field(default_factory=list)  # NOTES_SCHEMA rows


@dataclass
class Collected:
    frames: list[pl.DataFrame]  # rows in file order
    files: list[FileRecord | None]  # None: set aside
    problems: list[Problem]  # every file's, in file order
    listed: dict[str, int]  # systems files list in a meaningful order -> position
    delegated: set[str]  # folder systems whose files name their own systems
    notes: pl.DataFrame  # NOTES_SCHEMA
    set_aside: list[SetAside]  # files found to hold no results, in file order


@dataclass
class _Deferred:
    index: int
    columns: Columns
    system: str
    global_iterations: bool


class Collector:
    def __init__(self, units: list[Unit], systems: dict[str, SystemInfo]) -> None:
        self.units = units
        self.systems = systems  # gains the systems that rows name
        self.files: list[FileRecord | None] = [None] * len(units)  # None: set aside
        self.own: list[list[Problem]] = [[] for _ in units]
        self.said: list[Said | None] = [None] * len(units)
        self.frames: list[pl.DataFrame] = []
        self.deferred: list[_Deferred] = []
        self.aside: dict[int, SetAside] = {}
        # file -> (its frame in `frames`, its one system, ReadResult.settings)
        self.settings: dict[int, tuple[int, str, dict[str, str]]] = {}
        self.twins: dict[int, Problem] = {}  # files with another system's bytes (`twin`)

    def add(self, i: int, result: ReadResult) -> None:
        """One file, as its reader read it."""
        unit = self.units[i]
        result.problems = shown(result.problems)
        self.own[i].extend(result.problems)
        if result.set_aside is not None:  # no results in it: no file record
            self.aside[i] = SetAside(display_path(unit.path), *result.set_aside)
            return
        data = result.data
        if isinstance(data, Columns) and small_files.BATCHED:
            named, rows = self._defer(i, unit, data, result.global_iterations)
        else:
            named, rows = self._tag(i, unit, result)
            if result.settings and len(named) == 1:
                self.settings[i] = (len(self.frames) - 1, named[0], result.settings)
        notes = _file_notes(result.notes, rows()) if result.notes else []
        self.said[i] = Said(named, list(result.systems), result.metadata, notes)
        if unit.system is not None and set(named) <= {unit.system}:
            label = unit.system
        else:  # the rows name their systems (a multi-run file): list them, in file order
            label = ", ".join(result.systems or sorted(named))
        fmt = result.format or "unknown"
        self.files[i] = FileRecord(
            display_path(unit.path), label, fmt, 0, 0, 0, 0, list(result.problems)
        )

    def skip(self, i: int, problem: Problem) -> None:
        """A file not read (the same data as another): its problem only, no file record."""
        self.own[i].extend(shown([problem]))

    def twin(self, i: int, problem: Problem) -> None:
        """A file read although another system's has the same bytes: `problem` says so,
        unless it held no results (empty files alike compare nothing)."""
        self.twins[i] = problem

    def add_batch(self, batch: Batch) -> None:
        """Small native files parsed as one (small_files.py)."""
        labels: dict[int, str] = {}
        if batch.others:  # files whose rows name systems other than their folder's
            named = (
                batch.frame.filter(pl.col("_file").is_in(batch.others))
                .group_by("_file")
                .agg(pl.col("system").unique().sort())
            )
            for i, names in named.iter_rows():
                labels[i] = ", ".join(names)
                self.said[i] = Said(names)
        for i, unit, problems in zip(batch.index, batch.units, batch.problems, strict=True):
            own = shown(problems)
            self.own[i].extend(own)
            assert unit.system is not None  # batches take files of known systems only
            self.files[i] = FileRecord(
                display_path(unit.path), labels.get(i, unit.system), native.NAME, 0, 0, 0, 0, own
            )
        self.frames.append(batch.frame)

    def finish(self) -> Collected:
        listed: dict[str, int] = {}
        delegated: set[str] = set()
        notes: list[tuple[str, str, str, str]] = []
        for unit, said in zip(self.units, self.said, strict=True):
            if said is None:
                continue
            folder = unit.system
            if folder is not None and set(said.named) - {folder}:
                delegated.add(folder)
            for name in [*said.listed, *said.named]:
                if name not in self.systems:
                    self.systems[name] = SystemInfo(name=name, path=str(unit.path))
            for name in said.listed:
                listed.setdefault(name, len(listed))
            notes.extend(said.notes)
            if said.metadata and folder in self.systems:
                for k, v in said.metadata.items():
                    self.systems[folder].metadata.setdefault(k, v)
        self._settings_kept_apart()
        frames = _in_file_order([*self.frames, *self._deferred_frame()])
        self._tell_twins(frames)
        problems = [p for own in self.own for p in own]
        aside = [self.aside[i] for i in sorted(self.aside)]
        return Collected(frames, self.files, problems, listed, delegated, _notes(notes), aside)

    def _tell_twins(self, frames: list[pl.DataFrame]) -> None:
        """The problem of each twin (`twin`) that gave rows: first among its file's."""
        if not self.twins:
            return
        asked = pl.col("_file").is_in(list(self.twins))
        gave = {i for f in frames for i in f.filter(asked)["_file"].unique().to_list()}
        for i in sorted(gave):
            self.own[i][:0] = shown([self.twins[i]])

    def _settings_kept_apart(self) -> None:
        """A benchmark that files of one system ran with different settings (Go's `-cpu 2`
        in one file, `-cpu 4` in another) is one benchmark per setting, not its iterations
        pooled: the setting goes back into the name, `Spin/cpu:4`, as in one file."""
        seen: dict[tuple[str, str], set[str]] = {}
        for _, system, settings in self.settings.values():
            for bench, setting in settings.items():
                seen.setdefault((system, bench), set()).add(setting)
        for k, system, settings in self.settings.values():
            renames = {
                b: f"{b}/{setting}" for b, setting in settings.items() if len(seen[system, b]) > 1
            }
            if renames:
                frame = self.frames[k]
                self.frames[k] = frame.with_columns(
                    pl.col("benchmark").cast(pl.String).replace(renames)
                )

    def _defer(
        self, i: int, unit: Unit, columns: Columns, global_iterations: bool
    ) -> tuple[list[str], Rows]:
        """Keep the rows as lists. Readers that give Columns have no `system` column."""
        if not len(columns):
            return [], lambda: []
        system = unit.system
        if system is None:
            system = _lone_file_system(unit.path, self.own[i])
        self.deferred.append(_Deferred(i, columns, system, global_iterations))
        pairs = zip(columns.cols["benchmark"], columns.cols["metric"], strict=True)
        return [system], lambda: [(system, b, m) for b, m in dict.fromkeys(pairs)]

    def _tag(self, i: int, unit: Unit, result: ReadResult) -> tuple[list[str], Rows]:
        """The file's own frame with its system and the loader's columns."""
        own = self.own[i]
        frame = result.frame
        default_system = unit.system
        if "system" in frame.columns and frame["system"].null_count() < frame.height:
            frame = frame.with_columns(pl.col("system").fill_null(pl.lit(default_system)))
        elif default_system is not None:
            frame = frame.with_columns(pl.lit(default_system, pl.String).alias("system"))
        elif frame.height:
            name = _lone_file_system(unit.path, own)
            frame = frame.with_columns(pl.lit(name, pl.String).alias("system"))
        else:
            frame = frame.with_columns(pl.lit(None, pl.String).alias("system"))
        if frame["system"].null_count():
            own.append(
                Problem(
                    str(unit.path),
                    "rows without a system: this file sits "
                    "at the top of the results folder, so each row needs a "
                    "'system' column; those rows were skipped",
                )
            )
            frame = frame.filter(pl.col("system").is_not_null())
        named = frame["system"].unique(maintain_order=True).to_list()
        frame = frame.with_columns(
            pl.lit(i, pl.Int64).alias("_file"),
            pl.lit(unit.rank, pl.Int64).alias("_rank"),
            pl.lit(unit.iteration, pl.Int64).alias("_file_iteration"),
            pl.lit(result.global_iterations).alias("_global"),
        )
        self.frames.append(frame)
        names = pl.col("system", "benchmark", "metric").cast(pl.String)
        return named, lambda: frame.select(names).unique(maintain_order=True).rows()

    def _deferred_frame(self) -> list[pl.DataFrame]:
        """One frame for the rows of every deferred file."""
        parts = self.deferred
        if not parts:
            return []
        cols = {
            k: list(itertools.chain.from_iterable(_column(p.columns, k) for p in parts))
            for k in READER_SCHEMA
        }
        part = pl.Series(np.repeat(np.arange(len(parts)), [len(p.columns) for p in parts]))
        tags = [
            pl.Series("system", [p.system for p in parts], dtype=pl.String),
            pl.Series("_file", [p.index for p in parts], dtype=pl.Int64),
            pl.Series("_rank", [self.units[p.index].rank for p in parts], dtype=pl.Int64),
            pl.Series(
                "_file_iteration", [self.units[p.index].iteration for p in parts], dtype=pl.Int64
            ),
            pl.Series("_global", [p.global_iterations for p in parts], dtype=pl.Boolean),
        ]
        return [frame_from_columns(cols).hstack([t.gather(part) for t in tags])]


def _column(columns: Columns, name: str) -> list:
    col = columns.cols.get(name)
    return col if col is not None else [None] * len(columns)


def _in_file_order(frames: list[pl.DataFrame]) -> list[pl.DataFrame]:
    """Frames whose rows are in file order, as reading the files one by one gives them
    (files of one iteration then pool their samples in the same order)."""
    spans = sorted(  # a non-empty Int64 column's min and max are ints
        (cast(int, f["_file"].min()), cast(int, f["_file"].max()), k)
        for k, f in enumerate(frames)
        if f.height
    )
    if all(a[1] < b[0] for a, b in itertools.pairwise(spans)):
        return [frames[k] for *_, k in spans]
    return [pl.concat(frames, how="diagonal_relaxed").sort("_file", maintain_order=True)]


def shown(problems: list[Problem]) -> list[Problem]:
    """Problems whose paths can be printed (names that are not UTF-8 get U+FFFD). The others
    stay the same objects: `inspect` finds a file's problems by identity."""
    return [
        p if (text := display_path(p.path)) == p.path else dataclasses.replace(p, path=text)
        for p in problems
    ]


def _lone_file_system(path: Path, problems: list[Problem]) -> str:
    """A lone file without a system column is one system, named after the file."""
    name = file_stem(path)
    text = display_path(name)
    if text != name:
        problems.append(
            Problem(str(path), f"the name is not valid UTF-8; the system is shown as {text!r}")
        )
    return text


def _file_notes(
    said: list[tuple[str, str, str]], rows: list[tuple[str, str, str]]
) -> list[tuple[str, str, str, str]]:
    """A reader's (benchmark, metric, note) for every system the file's rows name: `rows`
    are the file's distinct (system, benchmark, metric)."""
    by_pair: dict[tuple[str, str], list[str]] = {}
    for bench, metric, note in said:
        by_pair.setdefault((bench, metric), []).append(note)
    return [(s, b, m, note) for s, b, m in rows for note in by_pair.get((b, m), ())]


def _notes(rows: list[tuple[str, str, str, str]]) -> pl.DataFrame:
    return pl.DataFrame(list(dict.fromkeys(rows)), schema=NOTES_SCHEMA, orient="row")
