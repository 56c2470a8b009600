"""The contract every format reader follows, and helpers they share.

A reader module in this package defines:

- ``NAME``: the human name of the format, shown by ``tuibench inspect``.
- Either ``matches_json(obj) -> bool`` and ``read_json(obj, path) -> ReadResult`` for a
  JSON format (the registry parses the file once and offers the object to each JSON reader),
- or ``sniff(path, head) -> bool`` and ``read(path) -> ReadResult`` for anything else
  (``head`` is the first 64 KiB of the file, decompressed if gzipped, as text).

A reader never raises for bad content: it returns what it could read plus problems.
The registry turns any unexpected exception into a problem as a last resort.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import lzma
import math
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import polars as pl

from tuibench.ingest.opening import open_regular
from tuibench.model.problems import Problem

# Columns a reader may emit. `benchmark`, `metric`, `value` are required. Names may come as
# Categorical instead of String (the native reader codes them: see native.NAMES).
#  iteration: the reader's own iteration number inside the file (pyperf runs, native
#             `iteration` column); null means "this file is one iteration".
#  sample:    position inside the iteration; null means "row order".
#  unit:      canonical unit string (e.g. "ns", "s", "B", "ns/op", "MB/s").
#  better:    the direction the producer states:
#             "lower" or "higher" when it says which way is better;
#             "unknown" when it says nothing and nobody should guess (Google Benchmark
#             user counters, mmtests parse-results TSV ops, custom Go x/op units);
#             null when the format has no such notion: the loader infers from unit/name.
#             The loader gives tuibench.toml precedence, then the reader's explicit value,
#             then inference; the catalogue holds "lower" | "higher" | null (unknown).
READER_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.String(),
    "metric": pl.String(),
    "value": pl.Float64(),
    "iteration": pl.Int64(),
    "sample": pl.Int64(),
    "unit": pl.String(),
    "better": pl.String(),
}

HEAD_BYTES = 64 * 1024


@dataclass
class ReadResult:
    # The samples: a frame in READER_SCHEMA, or Columns that become one when `frame` is
    # first asked for (the loader joins the columns of many small files into one frame).
    data: pl.DataFrame | Columns
    problems: list[Problem] = field(default_factory=list)
    # Free-form facts about the system found in the file (Go's `cpu: ...` lines, pyperf
    # hostname, ...). Shown by inspect and the explorer; never used for statistics.
    metadata: dict[str, str] = field(default_factory=dict)
    # True when `iteration` numbers are global for the system (the native format's own
    # column); False when they only number iterations inside this file.
    global_iterations: bool = False
    # Set by the registry: the detected format's NAME.
    format: str = ""
    # Systems the rows name (a `system` column), in the order the file lists them when
    # that order means something (mmtests `-n base,patched`: the first is the reference).
    systems: list[str] = field(default_factory=list)
    # (benchmark, metric, text): facts a reader of the comparison must see beside the
    # row (only aggregates were available, failed runs included, a doubtful direction).
    notes: list[tuple[str, str, str]] = field(default_factory=list)
    # (kind, reason) when the file holds no results at all (a README, a picture): set
    # aside and counted in one line (set_aside.py), not a problem.
    set_aside: tuple[str, str] | None = None
    # benchmark -> a setting it ran with that its name leaves out (Go's GOMAXPROCS as
    # `cpu:4`, dropped when the file ran it with one setting only). When files of one system
    # ran it with different settings, the loader puts the setting back (`Spin/cpu:4`).
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def frame(self) -> pl.DataFrame:
        if isinstance(self.data, Columns):
            self.data = self.data.frame()
        return self.data

    @frame.setter
    def frame(self, frame: pl.DataFrame) -> None:
        self.data = frame


def empty_frame() -> pl.DataFrame:
    return pl.DataFrame(schema=READER_SCHEMA)


def frame_from_columns(columns: dict[str, list]) -> pl.DataFrame:
    """Build a reader frame from equal-length column lists; missing optional columns are null."""
    n = len(columns["value"])
    data = {}
    for name, dtype in READER_SCHEMA.items():
        col = columns.get(name)
        data[name] = pl.Series(
            name, col if col is not None else [None] * n, dtype=dtype, strict=False
        )
    return pl.DataFrame(data)


class Records:
    """Accumulates samples row by row for readers of nested formats (JSON)."""

    __slots__ = ("cols",)

    def __init__(self) -> None:
        self.cols: dict[str, list] = {k: [] for k in READER_SCHEMA}

    def add(
        self,
        benchmark: str,
        metric: str,
        value: float,
        *,
        iteration: int | None = None,
        sample: int | None = None,
        unit: str | None = None,
        better: str | None = None,
    ) -> None:
        c = self.cols
        c["benchmark"].append(benchmark)
        c["metric"].append(metric)
        c["value"].append(value)
        c["iteration"].append(iteration)
        c["sample"].append(sample)
        c["unit"].append(unit)
        c["better"].append(better)

    def __len__(self) -> int:
        return len(self.cols["value"])

    def frame(
        self, problem: Callable[[str, str], None] | None = None, where: str = ""
    ) -> pl.DataFrame:
        """The samples frame. Names polars cannot store (unpaired surrogates from JSON
        escapes) are repaired with '?' and reported through `problem(reason, where)`."""
        try:
            return frame_from_columns(self.cols)
        except UnicodeEncodeError:
            self._repair_names(problem, where)
            return frame_from_columns(self.cols)

    def data(
        self, problem: Callable[[str, str], None] | None = None, where: str = ""
    ) -> Columns | pl.DataFrame:
        """The samples for a ReadResult: Columns when they are few (the loader joins the
        columns of many files into one frame), else `frame()` at once (the lists of many
        large files would fill the memory, and checking the names costs as much as the
        frame). Names are repaired as `frame()` repairs them."""
        if len(self) > COLUMNS_ROWS:
            return self.frame(problem, where)
        try:
            for col in ("benchmark", "metric"):
                "".join(dict.fromkeys(self.cols[col])).encode("utf-8")
        except UnicodeEncodeError:
            self._repair_names(problem, where)
        except TypeError:  # not all text: building the frame here says what is wrong
            return self.frame(problem, where)
        return Columns(self.cols)

    def _repair_names(self, problem: Callable[[str, str], None] | None, where: str) -> None:
        for col in ("benchmark", "metric"):
            self.cols[col] = [s.encode("utf-8", "replace").decode("utf-8") for s in self.cols[col]]
        if problem is not None:
            problem("some names hold characters that are not valid Unicode; shown as '?'", where)


COLUMNS_ROWS = 100_000  # see Records.data


@dataclass
class Columns:
    """A reader's samples as equal-length Python lists (READER_SCHEMA's names), before they
    become a frame: a frame per small file costs more polars work than reading it."""

    cols: dict[str, list]

    def __len__(self) -> int:
        return len(self.cols["value"])

    def frame(self) -> pl.DataFrame:
        return frame_from_columns(self.cols)


def as_number(x: object) -> float | None:
    """A finite float from a JSON value, or None (bools, strings, NaN, inf and integers too
    large for a float are not numbers)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    try:
        f = float(x)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def describe(x: object) -> str:
    """A JSON value in words, for problem messages."""
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if isinstance(x, str):
        return f"the string {x[:40]!r}" if x else "an empty string"
    if isinstance(x, list):
        return f"a list of {len(x)} item(s)"
    if isinstance(x, dict):
        return "an object"
    return repr(x)


MAX_PROBLEMS = 10  # per file, listed one by one before the rest are summarised


def cap_problems(problems: list[Problem], path: Path) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return [
        *problems[:MAX_PROBLEMS],
        Problem(str(path), f"{more} more problem(s) of the same kinds in this file"),
    ]


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
XZ_MAGIC = b"\xfd7zXZ\x00"

# A compressed file may expand to RATIO times its size (never less than FLOOR, never more
# than CEILING). Real results compress 3 to 20 times; a file that expands further is a
# decompression bomb, reported instead of filling the memory.
DECOMPRESSED_RATIO = 50
DECOMPRESSED_FLOOR = 32 * 2**20
DECOMPRESSED_CEILING = 2**30
_CHUNK = 2**20


class TooLarge(Exception):
    """A compressed file that expands past its ceiling (the message says so, for people)."""


def decompressed_limit(compressed_size: int) -> int:
    return min(DECOMPRESSED_CEILING, max(DECOMPRESSED_FLOOR, DECOMPRESSED_RATIO * compressed_size))


class _Capped(io.RawIOBase):
    """The output of a decompressing stream, read in chunks; past the limit, TooLarge."""

    def __init__(self, stream, kind: str, compressed_size: int, raw=None):
        self._stream = stream
        self._raw = raw  # the file under the stream (GzipFile and LZMAFile leave it open)
        self._kind = kind
        self._limit = decompressed_limit(compressed_size)
        self._count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._stream.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self._count += n
        if self._count > self._limit:
            raise TooLarge(
                f"{self._kind} file expands past {self._limit // 2**20} MiB ("
                f"{DECOMPRESSED_RATIO} times its size, at most {DECOMPRESSED_CEILING // 2**30} "
                "GiB): not read, as a guard against decompression bombs"
            )
        return n

    def close(self) -> None:
        self._stream.close()
        if self._raw is not None:
            self._raw.close()
        super().close()


def available_memory() -> int | None:
    """Bytes this process can still allocate (free memory, `ulimit -v`, the control group's
    limit: `memory_limits`), None when unknown."""
    from tuibench.util import memory_limits

    return memory_limits.available_memory()


def compression(path: Path) -> str | None:
    """'gzip', 'zstd' or 'xz' when the file's first bytes say so."""
    with open_regular(path) as fh:
        return _magic_kind(fh.read(6))


def open_binary(path: Path):
    """Open a file, decompressing gzip, zstd (mmtests' `--json-export`) or xz on the fly;
    the output is capped (TooLarge). The caller closes what it gets. The file is opened
    without blocking and read up to the size it had when found (`opening.open_regular`)."""
    raw = open_regular(path)
    try:
        kind = _magic_kind(raw.peek(6)[:6])
        if kind is None:
            return raw
        stream: gzip.GzipFile | lzma.LZMAFile | BinaryIO  # the last: zstandard's reader
        if kind == "gzip":
            stream = gzip.GzipFile(fileobj=raw, mode="rb")
        elif kind == "zstd":
            import zstandard  # only files that need it pay for the import

            stream = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        else:
            stream = lzma.LZMAFile(raw, "rb")  # noqa: SIM115
    except BaseException:
        raw.close()
        raise
    return io.BufferedReader(_Capped(stream, kind, raw.raw.limit, raw), _CHUNK)


def _magic_kind(magic: bytes) -> str | None:
    if magic[:2] == b"\x1f\x8b":
        return "gzip"
    if magic[:4] == ZSTD_MAGIC:
        return "zstd"
    if magic[:6] == XZ_MAGIC:
        return "xz"
    return None


def _replace_and_count(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)  # registered for reading text only
    _replaced.count = getattr(_replaced, "count", 0) + 1
    return "\ufffd", err.end


# Bytes that are not UTF-8 are read as U+FFFD, and counted (per thread), so that
# `formats.read_file` can say so: a name holding them is not the name written.
_replaced = threading.local()
codecs.register_error("tuibench.replace", _replace_and_count)


def replaced_count() -> int:
    """How many undecodable byte runs text files opened here have met in this thread."""
    return getattr(_replaced, "count", 0)


def open_text(path: Path):
    """Open a possibly compressed file as text (UTF-8, undecodable bytes replaced and
    counted: `replaced_count`)."""
    return io.TextIOWrapper(open_binary(path), encoding="utf-8", errors="tuibench.replace")


class JsonError(Exception):
    """Invalid JSON, with the 1-based line where the parser stopped."""

    def __init__(self, reason: str, line: int | None):
        super().__init__(reason)
        self.reason = reason
        self.line = line


def load_json(path: Path) -> object:
    """Parse a JSON file (plain or gzipped). Accepts bare NaN/Infinity (Google Benchmark)."""
    try:
        with open_text(path) as fh:
            text = fh.read()
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        raise JsonError(f"cannot read: {exc}", None) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        what = "truncated JSON" if exc.pos >= len(text.rstrip()) else "invalid JSON"
        raise JsonError(f"{what}: {exc.msg} (column {exc.colno})", exc.lineno) from exc
    except RecursionError as exc:
        raise JsonError("invalid JSON: nested too deeply", None) from exc
