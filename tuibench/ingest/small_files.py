"""Small native files (CSV/TSV, Parquet, JSON Lines), set aside and parsed a batch at a time.

Reading a file through the format registry costs 15 to 20 polars calls, about 1.5 ms:
60,000 files of 20 samples took 89 s against 0.65 s for the same rows in 3 files. Files
that are surely native and small (under SMALL bytes) are set aside here instead, grouped,
and each group is parsed and checked as one frame (`native.read_many`,
`read_parquet_many`, `read_jsonl_many`):

- CSV/TSV with a native header on the first line, valid UTF-8, no quotes, no blank lines:
  grouped by header line;
- Parquet with the required columns: grouped by schema;
- JSON Lines whose first line is a native record: one group, parsed line by line.

The result is the same as reading them one by one: the same rows, problems and line numbers
per file. A group that cannot be parsed as one, and files a batch leaves out, are read one
by one (where each file's problem is told).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np
import polars as pl

from tuibench.ingest.discover import Unit
from tuibench.ingest.formats import _looks_binary, native
from tuibench.ingest.formats.base import HEAD_BYTES, cap_problems
from tuibench.model.problems import Problem

SMALL = 256 * 1024  # bytes; larger files are read one by one (per-file cost is then noise)
BATCHED = True  # False: every file is read on its own (tests compare the two ways)

CSV, PARQUET, JSONL = "csv", "parquet", "jsonl"


@dataclass
class Group:
    kind: str
    key: object  # CSV: the header line; Parquet: the schema
    index: list[int] = field(default_factory=list)  # positions of the units in the load
    units: list[Unit] = field(default_factory=list)
    bodies: list = field(default_factory=list)  # CSV: bytes after the header; JSONL: text


@dataclass
class Batch:
    """One group parsed: the rows of all its files, and each file's problems."""

    index: list[int]
    units: list[Unit]
    frame: pl.DataFrame  # reader columns, `system` (filled per file), `_file`, `_rank`, ...
    problems: list[list[Problem]]
    others: list[int]  # files (`_file`) with rows that name a system other than their folder


class SmallFiles:
    def __init__(self) -> None:
        self.groups: dict[tuple[str, object], Group] = {}

    def take(self, i: int, unit: Unit, data: bytes) -> bool:
        """Set the file aside when it is a small plain native file of a known system;
        `data` is its start (SMALL + 1 bytes at most, opened as `opening` opens files)."""
        if not BATCHED or unit.system is None:  # rows of a loose file must name their system
            return False
        sorted_out = _sort_out(unit.path, data)
        if sorted_out is None:
            return False
        kind, key, body = sorted_out
        group = self.groups.get((kind, key))
        if group is None:
            if kind == CSV and native._separator(cast(str, key)) is None:  # once per header
                return False
            group = self.groups[kind, key] = Group(kind, key)
        group.index.append(i)
        group.units.append(unit)
        group.bodies.append(body)
        return True

    def parse(self) -> tuple[list[Batch], list[tuple[int, Unit]]]:
        """The parsed groups, and the files that must be read one by one."""
        batches: list[Batch] = []
        leftovers: list[tuple[int, Unit]] = []
        for group in self.groups.values():
            paths = [u.path for u in group.units]
            try:
                parsed = _parse(group, paths)
            except Exception:  # read one by one, where each file's problem is told
                parsed = None
            if parsed is None:
                leftovers.extend(zip(group.index, group.units, strict=True))
                continue
            frame, problems, alone = parsed
            kept = sorted(set(range(len(paths))) - set(alone))
            leftovers.extend((group.index[k], group.units[k]) for k in alone)
            problems = [cap_problems(problems[k], paths[k]) for k in kept]
            frame, others = _per_file(frame, group)
            index, units = [group.index[k] for k in kept], [group.units[k] for k in kept]
            batches.append(Batch(index, units, frame, problems, others))
        return batches, sorted(leftovers, key=lambda x: x[0])


def _parse(
    group: Group, paths: list[Path]
) -> tuple[pl.DataFrame, list[list[Problem]], list[int]] | None:
    """Frame (`__file`: position in the group), problems per file, files left out."""
    if group.kind == JSONL:
        return native.read_jsonl_many(paths, group.bodies)
    if group.kind == PARQUET:
        return *native.read_parquet_many(paths), []
    assert isinstance(group.key, str)  # a CSV group's key is its header line
    parsed = native.read_many(paths, group.key, group.bodies)
    return None if parsed is None else (*parsed, [])


def _sort_out(path: Path, data: bytes) -> tuple[str, object, object] | None:
    """(kind, group key, body) of a file a batch can take, as `read_file` would see it."""
    if len(data) > SMALL or not data:
        return None
    if data[:4] == b"PAR1":
        key = _parquet_key(path)
        return None if key is None else (PARQUET, key, None)
    if data[:1] == b"{":
        text = _jsonl_body(path, data)
        return None if text is None else (JSONL, None, text)
    split = _header_and_body(data)
    return None if split is None else (CSV, *split)


def _header_and_body(data: bytes) -> tuple[str, bytes] | None:
    if data[:1] in b" \t\r\n\xef{[":
        return None
    if b'"' in data or b"\n\n" in data or b"\n\r\n" in data or _looks_binary(data[:HEAD_BYTES]):
        return None
    if native._lone_cr(data):  # old Mac line ends: `read` turns them into LF
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    line, _, rest = text.partition("\n")
    header = line.rstrip("\r")
    body = data[len(line) + 1 :] if rest else b""
    if body and not body.endswith(b"\n"):
        body += b"\n"
    return header, body


def _jsonl_body(path: Path, data: bytes) -> str | None:
    """The text of a file `read_file` would give the native reader as JSON Lines."""
    head = data[:HEAD_BYTES]
    if _looks_binary(head) or not native.sniff(path, head.decode("utf-8", errors="replace")):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:  # `read` tells where
        return None


def _parquet_key(path: Path) -> tuple | None:
    """The schema of a Parquet file polars can read with others by path, with the required
    columns and names that cannot clash with the batch's own (`__file`, `__path`)."""
    name = str(path)
    if not _plain_path(name):
        return None
    try:
        schema = pl.scan_parquet(name, glob=False).collect_schema()  # the name, no pattern
    except Exception:  # read_file says what is wrong
        return None
    names = [c.strip().lower() for c in schema]
    if len(set(names)) < len(names) or any(c.startswith("__") for c in names):
        return None
    if not set(native.REQUIRED) <= set(names):
        return None
    return tuple(schema.items())


def _plain_path(name: str) -> bool:
    """UTF-8 (polars takes paths as text) and nothing polars could read as a URL (glob
    characters are fine: `read_parquet_many` reads paths as names)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "://" not in name


def _per_file(frame: pl.DataFrame, group: Group) -> tuple[pl.DataFrame, list[int]]:
    """What the loader adds to each file's rows, for all files of the group at once (one
    polars call), and the files whose rows name other systems than their folder's."""
    f = frame["__file"]
    systems = pl.Series([u.system for u in group.units], dtype=pl.String).gather(f)
    files = np.asarray(group.index, dtype=np.int64)[f.to_numpy()]
    named = "system" in frame.columns
    frame = frame.select(
        pl.exclude("__file", "system"),
        (pl.col("system").fill_null(systems) if named else pl.lit(systems)).alias("system"),
        pl.lit(pl.Series(files)).alias("_file"),
        pl.lit(pl.Series([u.rank for u in group.units], dtype=pl.Int64).gather(f)).alias("_rank"),
        pl.lit(pl.Series([u.iteration for u in group.units], dtype=pl.Int64).gather(f)).alias(
            "_file_iteration"
        ),
        pl.lit(True).alias("_global"),
    )
    if not named:
        return frame, []
    others = np.unique(files[(frame["system"] != systems).to_numpy()])
    return frame, others.tolist()
