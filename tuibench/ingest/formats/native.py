"""The native tidy format: one row per sample, in CSV, TSV, Parquet or JSON Lines.

Required columns `benchmark`, `metric`, `value`; optional `iteration`, `sample`, `unit`,
`better`, `system`. A row that cannot be used (a value that is not a number, a bad
`better`) is reported with its line and skipped; the other rows load.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import cast

import numpy as np
import orjson
import polars as pl

from tuibench.ingest.formats import native_jsonl
from tuibench.ingest.formats.base import (
    HEAD_BYTES,
    READER_SCHEMA,
    ReadResult,
    TooLarge,
    compression,
    empty_frame,
    open_binary,
)
from tuibench.ingest.formats.category_pool import blanks, pool_has_blanks
from tuibench.ingest.opening import grew, open_regular, polars_source
from tuibench.model.problems import Problem
from tuibench.util import memory_limits

NAME = "native"
REQUIRED = ("benchmark", "metric", "value")
OPTIONAL = ("iteration", "sample", "unit", "better", "system")
INT64_LIMIT = 2.0**63  # iteration and sample numbers are 64-bit integers
MAX_LISTED = 5  # bad rows listed one by one before summarising the rest


def _header_fields(line: str, sep: str) -> list[str]:
    return [f.strip().strip('"').strip().lower() for f in line.split(sep)]


def _separator(head: str) -> str | None:
    first = next((ln for ln in head.splitlines() if ln.strip()), "")
    for sep in ("\t", ","):
        if set(REQUIRED) <= set(_header_fields(first, sep)):
            return sep
    return None


def sniff(path: Path, head: str) -> bool:
    """CSV/TSV with the required header, or JSON Lines whose first record has those keys."""
    stripped = head.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{"):
        first = re.split(r"\r\n?|\n", stripped, maxsplit=1)[0]  # LF, CRLF or CR alone
        try:
            obj = json.loads(first)
        except (json.JSONDecodeError, RecursionError):
            return False
        return isinstance(obj, dict) and set(REQUIRED) <= set(obj)
    return _separator(head) is not None


# Peak memory of loading a native text file, per byte of it: measured 4.5 (rows grouped by
# benchmark, as harnesses write them) to 8.3 (a different benchmark on every row).
MEMORY_PER_BYTE = 8


def _refuse_when_too_large(path: Path) -> None:
    """A file that would need more memory than the machine has free, or more address space
    than `ulimit -v` leaves, is a problem, not a process killed half-way (a 2 GB CSV took
    11.7 GB and aborted; polars aborts the process when an allocation fails)."""
    why = memory_limits.too_large(os.path.getsize(path) * MEMORY_PER_BYTE)
    if why:
        raise TooLarge(f"{why} (convert it to Parquet, or load it on a larger machine)")


def read(path: Path) -> ReadResult:
    try:
        raw, first_line, bad_lines = _read_raw(path)
    except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ReadResult(empty_frame(), [Problem(str(path), f"cannot be parsed: {msg}")])
    problems = [Problem(str(path), reason, line=line) for line, reason in bad_lines]
    return _validate(path, raw, first_line, problems)


def _read_raw(path: Path) -> tuple[pl.DataFrame, int, list[tuple[int, str]]]:
    """All columns as strings (numbers are checked row by row later), the line of row 0,
    and lines that could not be parsed at all (JSON Lines only).

    A plain CSV/TSV file is parsed by polars from the file itself: holding its text (and
    copies of it) in Python took 11.7 GB for a 2 GB file. Polars opens the file already
    opened and checked here (`opening.polars_source`), never what the path names by then;
    a file that grew since it was found is given as its first bytes instead."""
    with open_regular(path) as fh:
        head = fh.read(HEAD_BYTES)
        if head[:4] == b"PAR1":
            return _read_parquet(polars_source(fh) or path), 0, []
        _refuse_when_too_large(path)
        lead = _lead(head)
        data: bytes | None = None  # None: polars reads the file
        source = polars_source(fh)
        if compression(path) or lead == len(head):
            with open_binary(path) as raw:  # gzip output is capped
                head = raw.read()
            lead = _lead(head)
            data = head[lead:] if lead else head
        elif lead or source is None or grew(fh) or _lone_cr(head[lead:]):
            fh.seek(lead)  # polars takes LF or CRLF line ends only
            data = fh.read()
        if data is not None and _lone_cr(data[:HEAD_BYTES]):
            data = as_lf(data)
        what = data if data is not None else source
        assert what is not None  # without a name for polars the bytes were read above
        return _parse_raw(path, head, lead, what, fh)


def _parse_raw(
    path: Path, head: bytes, lead: int, source: bytes | str, fh
) -> tuple[pl.DataFrame, int, list[tuple[int, str]]]:
    first_line = len(LINE_END.findall(head[:lead])) + 1
    start = head[lead : lead + HEAD_BYTES]
    if start.startswith(b"{"):
        raw = _whole(source, fh)
        not_utf8 = _undecodable(raw, first_line)
        fast = None if not_utf8 else native_jsonl.read(raw)
        if fast is not None:
            return fast, first_line, []
        df, bad = _read_jsonl(raw.decode("utf-8", "replace"), first_line)
        return df, first_line, not_utf8 + bad
    text = start.decode("utf-8", "replace")
    sep = _separator(text)
    if sep is None:  # header without the required names: parse anyway to say what is missing
        sep = "\t" if "\t" in re.split(r"\r\n?|\n", text, maxsplit=1)[0] else ","
    undecodable: list[tuple[int, str]] = []
    try:
        df = _parse_csv(source, sep, "utf8")
    except pl.exceptions.ComputeError as exc:
        if "utf-8" not in str(exc):
            raise
        undecodable = _undecodable(_whole(source, fh), first_line)
        df = _parse_csv(source, sep, "utf8-lossy")
    df = df.rename({c: c.strip().lower() for c in df.columns})
    return df, first_line + 1, undecodable


def _whole(source: bytes | str, fh) -> bytes:
    """The bytes parsed: `source` itself, or the opened file's (capped) content."""
    if isinstance(source, bytes):
        return source
    fh.seek(0)
    # Asked for its whole size at once: read() alone goes 8 KB at a time (0.1 s in 70 MB).
    limit = getattr(getattr(fh, "raw", None), "limit", None)
    if not isinstance(limit, int):
        return fh.read()
    data = fh.read(limit)
    rest = fh.read()
    return data + rest if rest else data


def _parse_csv(source: Path | bytes | str, sep: str, encoding: str) -> pl.DataFrame:
    """Every column as text. Strict UTF-8 first (no slower), so that a file with other
    bytes (Latin-1 names) is told, not silently read with U+FFFD in its names."""
    return pl.read_csv(
        source,
        separator=sep,
        infer_schema=False,
        truncate_ragged_lines=True,
        quote_char='"',
        encoding=encoding,
        glob=False,
    )


def _undecodable(data: bytes, first_line: int) -> list[tuple[int, str]]:
    """A problem at the first byte that is not UTF-8 (`data` starts at line `first_line`),
    or none when it all decodes."""
    if data.isascii():  # 50 times as fast as decoding, and nearly always so
        return []
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + len(LINE_END.findall(data, 0, exc.start))
        byte = data[exc.start]
        return [
            (
                line,
                f"not valid UTF-8 (byte 0x{byte:02X} here, maybe more below): such bytes are "
                "read as U+FFFD, so names holding them are not the names written; save the "
                "file as UTF-8",
            )
        ]
    return []


LINE_END = re.compile(rb"\r\n|\r|\n")


def _lone_cr(head: bytes) -> bool:
    """Whether the text has old Mac line ends: its first line ends with a CR alone, which
    polars does not take for a line end (the whole file would be one header line and no
    data rows). A CR inside a later field of an LF file is left as it is."""
    end = LINE_END.search(head)
    return end is not None and end.group() == b"\r"


def as_lf(data: bytes) -> bytes:
    """Every line end (CRLF, or CR alone) as LF, as Python's text files read them."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _lead(data: bytes) -> int:
    """Bytes before the header: byte order marks, then blank space and empty lines."""
    i = 0
    while data.startswith(b"\xef\xbb\xbf", i):
        i += 3
    return len(data) - len(data[i:].lstrip(b"\r\n \t"))


def _read_jsonl(body: str, first_line: int) -> tuple[pl.DataFrame, list[tuple[int, str]]]:
    """The records as `_jsonl_rows` gives them, in one frame, built a column at a time:
    records with the same keys (in a file, nearly always all of them) are grouped, so the
    keys are lowercased once per group and no dict is built per record."""
    shapes: dict[tuple, list[tuple]] = {}
    bad: list[tuple[int, str]] = []
    loads = _loads_for(body)
    for i, line in enumerate(body.splitlines()):
        if not line.strip():
            continue
        obj = _record(line, first_line + i, bad, loads)
        if obj is not None:
            shapes.setdefault(tuple(obj), []).append((*obj.values(), str(first_line + i), i))
    frames = [_shape_frame(keys, records) for keys, records in shapes.items()]
    if not frames:
        return pl.DataFrame(), bad
    df = pl.concat(frames, how="diagonal") if len(frames) > 1 else frames[0]
    return (df.sort(ROW) if len(frames) > 1 else df).drop(ROW), bad


def _shape_frame(keys: tuple, records: list[tuple]) -> pl.DataFrame:
    """Records sharing `keys`, as `_jsonl_rows` makes them (lowercased keys, values as text,
    `__line`), with their position (ROW)."""
    names = [str(k).lower() for k in keys]
    if len(set(names)) < len(names) or "__line" in names or ROW in names:  # as dicts
        rows = []
        for *values, line, pos in records:
            row = {str(k).lower(): _text(v) for k, v in zip(keys, values, strict=True)}
            row["__line"], row[ROW] = line, pos
            rows.append(row)
        return pl.DataFrame(rows, infer_schema_length=None)
    columns = list(zip(*records, strict=True))
    data = {n: [_text(v) for v in col] for n, col in zip(names, columns, strict=False)}
    data["__line"] = list(columns[-2])
    return pl.DataFrame(data).with_columns(pl.Series(ROW, columns[-1], dtype=pl.Int64))


ROW = "\x00row"  # a record's position, while records are grouped by their keys


def _text(v: object) -> str | None:
    return None if v is None else v if isinstance(v, str) else str(v)


# A run of 19 digits may be an integer beyond 64 bits, which orjson reads as a float: such
# a file is parsed with the standard library throughout.
LONG_INTEGER = re.compile(r"\d{19}")


def _loads_for(body: str):
    return json.loads if LONG_INTEGER.search(body) else _fast_loads


def _fast_loads(line: str) -> object:
    """orjson (three times as fast); what it refuses (NaN, 1e400, lone surrogates, bad
    JSON) goes to the standard library, which takes the first three and words the error."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


def _record(line: str, line_no: int, bad: list[tuple[int, str]], loads) -> dict | None:
    try:
        obj = loads(line)
    except json.JSONDecodeError as exc:
        bad.append((line_no, f"invalid JSON: {exc.msg}"))
        return None
    if not isinstance(obj, dict):
        bad.append((line_no, "a JSON Lines record must be an object"))
        return None
    return obj


def _jsonl_rows(body: str, first_line: int) -> tuple[list[dict], list[tuple[int, str]]]:
    """JSON Lines parsed line by line so that one bad line is one problem, not a lost file:
    the records with their text values and `__line`, and the bad lines."""
    rows: list[dict] = []
    bad: list[tuple[int, str]] = []
    for i, line in enumerate(body.splitlines()):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            bad.append((first_line + i, f"invalid JSON: {exc.msg}"))
            continue
        except RecursionError:  # the decoder recurses once per level: this line only
            bad.append((first_line + i, "invalid JSON: nested too deeply"))
            continue
        if not isinstance(obj, dict):
            bad.append((first_line + i, "a JSON Lines record must be an object"))
            continue
        obj = {
            str(k).lower(): (None if v is None else str(v) if not isinstance(v, str) else v)
            for k, v in obj.items()
        }
        obj["__line"] = str(first_line + i)
        rows.append(obj)
    return rows, bad


def _read_parquet(path: Path | str) -> pl.DataFrame:
    """A Parquet file with its names coded as Categorical (`_checked`) during the scan, which
    reads a piece of the file at a time: the text of every name (16 bytes a row and column)
    is never held at once. At 10^7 rows: 0.12 s and 570 MB less than reading, then coding."""
    scan = pl.scan_parquet(path, glob=False)
    scan = scan.rename({c: c.strip().lower() for c in scan.collect_schema().names()})
    schema = scan.collect_schema()
    text = [c for c in NAMES if schema.get(c) == pl.String]
    scan = scan.with_columns(_parquet_casts(schema))
    return scan.with_columns(pl.col(text).cast(pl.Categorical)).collect()


def _parquet_casts(schema: pl.Schema) -> list[pl.Expr]:
    """Decimal numbers as floats; ValueError naming the column and its type for what is
    neither text (names) nor a number (value, iteration, sample): binary, nested, dates."""
    casts = []
    for c in (*REQUIRED, *OPTIONAL):
        dtype = schema.get(c)
        shown = str(dtype) if len(str(dtype)) <= 60 else str(dtype)[:59] + "…"
        if dtype is None or dtype in (pl.String, pl.Categorical, pl.Null):
            continue
        if c in NUMERIC_TEXT and dtype.is_decimal():
            casts.append(pl.col(c).cast(pl.Float64))
        elif c not in NUMERIC_TEXT and not isinstance(dtype, pl.Enum):
            raise ValueError(f"column {c!r} is {shown}, not text")
        elif c in NUMERIC_TEXT and not (dtype.is_integer() or dtype.is_float()):
            raise ValueError(f"column {c!r} is {shown}, not a number")
    return casts


def _validate(
    path: Path, raw: pl.DataFrame, first_line: int, problems: list[Problem]
) -> ReadResult:
    if raw.height == 0:
        problems.append(Problem(str(path), "no data rows (only a header, or empty)"))
        return ReadResult(empty_frame(), problems, global_iterations=True)
    missing = [c for c in REQUIRED if c not in raw.columns]
    if missing:
        problems.append(
            Problem(
                str(path),
                f"missing required column(s): {', '.join(missing)} "
                f"(found: {', '.join(raw.columns)})",
                line=1,
            )
        )
        return ReadResult(empty_frame(), problems, global_iterations=True)

    frame, bad_rows = _checked(raw, first_line)
    problems.extend(_bad_row_problems([path], bad_rows)[0])
    if "system" in frame.columns and frame["system"].null_count() == frame.height:
        frame = frame.drop("system")
    return ReadResult(frame, problems, global_iterations=True)


def _checked(raw: pl.DataFrame, first_line: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The usable rows in the reader's columns (plus `system` and `__file` when present),
    and the bad rows with their `__line` and each column as read (`__x`)."""
    # One boolean mask over all rows, computed without copying the columns: at 10^7 rows a
    # copy per check is most of the load time. Readable reasons only for the bad rows.
    names = [c for c in (*REQUIRED, *OPTIONAL) if c in raw.columns]
    text = [c for c in names if raw.schema[c] in (pl.String, pl.Categorical) and c in NAMES]
    raw = raw.with_columns(
        pl.col(c).cast(pl.Categorical) for c in text if raw.schema[c] == pl.String
    )
    blank = _with_blanks(raw, text)
    # `better`'s distinct values, found once: its cleaning and its check both work on them.
    given = raw["better"].unique().drop_nulls() if "better" in text else None
    cols = {c: _clean(raw, c, c in blank, given if c == "better" else None) for c in names}
    # Numbers given as text are parsed once, into columns: each use of the parsing
    # expression (null, whole, in range, the output) parsed every row again.
    parsed = [c for c in NUMERIC_TEXT if c in cols and raw.schema[c] == pl.String]
    if parsed:
        raw = raw.with_columns(cols[c].alias(f"__{c}") for c in parsed)
        cols.update({c: pl.col(f"__{c}") for c in parsed})
    bad = _bad_mask(raw, cols, given)
    n_bad = int(raw.select(bad.sum()).item() or 0)
    bad_rows = pl.DataFrame()
    if n_bad:
        if "__line" in raw.columns:
            line_no = pl.col("__line").cast(pl.Int64)
        else:
            line_no = pl.int_range(first_line, first_line + pl.len(), dtype=pl.Int64)
        bad_rows = raw.with_columns(
            line_no.alias("__line"), *(e.alias(f"__{c}") for c, e in cols.items())
        ).filter(bad)
        raw = raw.filter(~bad)
    exprs = [
        cols[c].alias(c) if c in cols else pl.lit(None, READER_SCHEMA[c]).alias(c)
        for c in READER_SCHEMA
    ]
    if "system" in cols:
        exprs.append(cols["system"].alias("system"))
    if "__file" in raw.columns:
        exprs.append(pl.col("__file"))
    numbers = {c: t for c, t in READER_SCHEMA.items() if c not in NAMES}
    # polars' cast() wants a Mapping keyed by its exact key union (Mapping keys are invariant)
    return raw.select(exprs).cast(numbers), bad_rows  # type: ignore[arg-type]


def _bad_row_problems(paths: list[Path], bad_rows: pl.DataFrame) -> list[list[Problem]]:
    """Per file: its first MAX_LISTED bad rows in words, then how many more were skipped."""
    out: list[list[Problem]] = [[] for _ in paths]
    if bad_rows.is_empty():
        return out
    if "__file" not in bad_rows.columns:
        bad_rows = bad_rows.with_columns(pl.lit(0, pl.Int64).alias("__file"))
    first = bad_rows.filter(pl.int_range(pl.len()).over("__file") < MAX_LISTED)
    for row in first.iter_rows(named=True):
        path = str(paths[row["__file"]])
        out[row["__file"]].append(Problem(path, f"row skipped: {_reason(row)}", line=row["__line"]))
    for f, n in bad_rows.group_by("__file").len().iter_rows():
        if n > MAX_LISTED:
            out[f].append(
                Problem(
                    str(paths[f]), f"{n - MAX_LISTED} more bad rows skipped (same kinds of errors)"
                )
            )
    return out


def read_many(
    paths: list[Path], header: str, bodies: list[bytes]
) -> tuple[pl.DataFrame, list[list[Problem]]] | None:
    """Small CSV/TSV files that share one header line (and hold no quotes and no blank
    lines, so that each line is one row), parsed with one polars call: per file, polars
    calls cost 1.5 ms, which is all of the time for 60,000 files of 20 rows.

    The frame has the reader's columns, `system` when the header has it, and `__file` (the
    position in `paths`); the problems are per file, as `read` gives them. None when the
    files cannot be parsed as one: the caller reads them one by one."""
    sep = _separator(header)
    names = [c.strip().lower() for c in header.split(sep)] if sep else []
    if not sep or not names or "" in names or len(set(names)) < len(names):
        return None
    counts = np.array([b.count(b"\n") for b in bodies], dtype=np.int64)
    try:
        raw = pl.read_csv(
            b"".join(bodies),
            has_header=False,
            schema=dict.fromkeys(names, pl.String),
            separator=sep,
            truncate_ragged_lines=True,
            quote_char=None,
        )
    except pl.exceptions.PolarsError:
        return None
    if raw.height != counts.sum():
        return None
    file_of_row = np.repeat(np.arange(len(bodies), dtype=np.int64), counts)
    first_row = np.repeat(np.cumsum(counts) - counts, counts)
    raw = raw.with_columns(
        pl.Series("__file", file_of_row),
        pl.Series("__line", np.arange(raw.height, dtype=np.int64) - first_row + 2),
    )
    frame, bad_rows = _checked(raw, 2)
    problems = _bad_row_problems(paths, bad_rows)
    for f in np.flatnonzero(counts == 0):
        problems[f].append(Problem(str(paths[f]), "no data rows (only a header, or empty)"))
    return frame, problems


def read_parquet_many(paths: list[Path]) -> tuple[pl.DataFrame, list[list[Problem]]]:
    """Small Parquet files of one schema, with the required columns and no `__` names (the
    caller groups them so), read with one polars call and checked once; frame and problems
    as `read_many` gives them. Raises what polars raises: the caller then reads them one by
    one, where each file's problem is told."""
    names = [str(p) for p in paths]
    raw = pl.read_parquet(names, include_file_paths="__path", hive_partitioning=False, glob=False)
    raw = raw.rename({c: c.strip().lower() for c in raw.columns})
    raw = raw.with_columns(_parquet_casts(raw.schema))
    raw = raw.with_columns(
        pl.col("__path")
        .replace_strict(names, range(len(names)), return_dtype=pl.Int64)
        .alias("__file"),
        pl.int_range(pl.len(), dtype=pl.Int64).over("__path").alias("__line"),  # row, as `read`
    ).drop("__path")
    frame, bad_rows = _checked(raw, 0)
    problems = _bad_row_problems(paths, bad_rows)
    counts = np.bincount(raw["__file"].to_numpy(), minlength=len(paths))
    for f in np.flatnonzero(counts == 0):
        problems[f].append(Problem(str(paths[f]), "no data rows (only a header, or empty)"))
    return frame, problems


def read_jsonl_many(
    paths: list[Path], bodies: list[str]
) -> tuple[pl.DataFrame, list[list[Problem]], list[int]] | None:
    """Small JSON Lines files parsed line by line as `read` parses them, with the records
    of all files in one frame checked once; frame and problems as `read_many` gives them.

    Files that `read` would reject as a whole (no usable record, a required key missing in
    all records) or whose keys could clash with `__file` and `__line` are left out: their
    positions come third, for the caller to read one by one. None when none is left."""
    records: list[dict] = []
    problems: list[list[Problem]] = []
    alone: list[int] = []
    for f, (path, body) in enumerate(zip(paths, bodies, strict=True)):
        rows, bad = _jsonl_rows(body, 1)
        keys = set().union(*rows) - {"__line"}
        if not rows or not set(REQUIRED) <= keys or any(k.startswith("__") for k in keys):
            alone.append(f)
            problems.append([])
            continue
        for row in rows:
            row["__file"] = f
        records.extend(rows)
        problems.append([Problem(str(path), reason, line=line) for line, reason in bad])
    if not records:
        return None
    frame, bad_rows = _checked(pl.DataFrame(records, infer_schema_length=None), 1)
    for own, more in zip(problems, _bad_row_problems(paths, bad_rows), strict=True):
        own.extend(more)
    return frame, problems, alone


NUMERIC_TEXT = ("value", "iteration", "sample")  # always stripped, then parsed
# Names: coded as Categorical (`_checked`) and emitted so: a name repeats on every sample,
# so checks and comparisons of codes cost little where those of the text cost most of a
# large file's load.
NAMES = ("benchmark", "metric", "unit", "better", "system")


def _clean(df: pl.DataFrame, name: str, blanks: bool, given: pl.Series | None = None) -> pl.Expr:
    """The column as the reader emits it; text from CSV is stripped (names only where
    `blanks`: some value has surrounding blanks), empty text is null. `given`: the
    column's distinct values when they are known already."""
    col = pl.col(name)
    dtype = df.schema[name]
    if name in NUMERIC_TEXT:
        if dtype == pl.String:
            col = col.str.strip_chars()
        return col.cast(pl.Float64, strict=False) if not dtype.is_numeric() else col
    if dtype == pl.Categorical:
        col = _per_value(df[name] if given is None else given, col, blanks, name == "better")
    else:  # text work on the text
        col = col.cast(pl.String)
        if blanks:
            col = col.str.strip_chars()
        if name == "better":
            col = col.str.to_lowercase()
        col = col.cast(pl.Categorical)
    if name in ("unit", "better", "system"):
        col = pl.when(col == "").then(None).otherwise(col)
    return col


def _per_value(values: pl.Series, col: pl.Expr, strip: bool, lower: bool) -> pl.Expr:
    """`col` (Categorical) stripped and/or lowercased, worked out once per distinct value:
    casting 10^7 rows to text, lowercasing and coding them again was half the load of a
    file with a `better` column. Values that do not change are left alone (the common
    case: nothing to replace)."""
    if not (strip or lower):
        return col
    given = values.unique().drop_nulls().cast(pl.String)
    clean = given.str.strip_chars() if strip else given
    clean = clean.str.to_lowercase() if lower else clean
    moved = given != clean
    if not moved.any():
        return col
    return col.replace(given.filter(moved), clean.filter(moved))


def _with_blanks(df: pl.DataFrame, text: list[str]) -> set[str]:
    """The columns among `text` (read as text, now Categorical) where some value has
    surrounding blanks: stripping copies a column, so it is skipped elsewhere. Only the
    first value of every run of equal codes is looked at: a name repeats on every sample,
    and a unique() over 10^7 names was half the load time."""
    if not text:
        return set()
    # Categorical columns share their categories (polars' global ones): when no name coded
    # so far in the process has blanks, none of these columns has (at 10^7 rows the look
    # at every column's runs below took 0.1 s).
    dtypes = (cast(pl.Categorical, df.schema[c]) for c in text)  # `text` are Categorical
    pools = {(d.categories.name(), d.categories.namespace()): d for d in dtypes}
    if not any(pool_has_blanks(d) for d in pools.values()):
        return set()
    heads = [df[c].gather(np.flatnonzero(code_changes(df[c]))).unique() for c in text]
    return {c for c, h in zip(text, heads, strict=True) if blanks(h.cast(pl.String))}


def code_changes(col: pl.Series) -> np.ndarray:
    """Whether each value of an integer or Categorical column differs from the one before
    (the first always does; nulls equal one another), by comparing codes in numpy."""
    ids = col.to_physical()
    out = np.ones(len(ids), dtype=bool)
    if ids.null_count():
        null = ids.is_null().to_numpy()
        out[1:] = null[1:] != null[:-1]
        ids = ids.fill_null(0)
    else:
        out[1:] = False
    a = ids.to_numpy()
    out[1:] |= a[1:] != a[:-1]
    return out


def _bad_mask(
    df: pl.DataFrame, cols: dict[str, pl.Expr], better: pl.Series | None = None
) -> pl.Expr:
    bad = pl.lit(False)
    for c in ("benchmark", "metric"):
        bad = bad | cols[c].is_null() | (cols[c] == "")
    v = cols["value"]
    bad = bad | v.is_null() | ~v.is_finite()
    for c in ("iteration", "sample"):
        if c in cols and not df.schema[c].is_integer():
            given = pl.col(c).is_not_null() & (pl.col(c).cast(pl.String).str.len_bytes() > 0)
            x = cols[c]
            # NaN equals NaN in polars: is_finite says it (and inf) is no whole number.
            whole = x.is_finite() & (x == x.floor())
            bad = bad | (given & (x.is_null() | ~whole | (x.abs() >= INT64_LIMIT)))
    if "better" in cols:
        bad = bad | _bad_direction(df, cols["better"], better)
    return bad


def _bad_direction(df: pl.DataFrame, better: pl.Expr, values: pl.Series | None) -> pl.Expr:
    """Rows whose `better` (as `_clean` makes it) is neither lower nor higher. For a coded
    column, decided on the distinct values (`values`, when known already): the rows are
    then only looked up by code, and not at all when every value is right."""
    if df.schema["better"] != pl.Categorical:
        return better.is_not_null() & ~better.is_in(["lower", "higher"])
    if values is None:
        values = df["better"].unique().drop_nulls()
    given = values.to_frame("better")
    clean = given.select(better).to_series()
    wrong = given.to_series().filter(clean.is_not_null() & ~clean.is_in(["lower", "higher"]))
    if wrong.is_empty():
        return pl.lit(False)
    return pl.col("better").is_in(wrong.implode()).fill_null(False)  # null: not given


def _reason(row: dict) -> str:
    """Why one row cannot be used, in words (`__x` is column x as the reader reads it)."""
    if not row["__benchmark"]:
        return "empty benchmark name"
    if not row["__metric"]:
        return "empty metric name"
    value = row["__value"]
    if value is None:
        shown = row["value"] if row["value"] not in (None, "") else "(empty)"
        return f"value {shown!r} is not a number"
    if value != value or value in (float("inf"), float("-inf")):
        return f"value {row['value']!r} is not a finite number"
    for col in ("iteration", "sample"):
        x = row.get(f"__{col}")
        if row.get(col) not in (None, "") and (x is None or not math.isfinite(x) or x != int(x)):
            return f"{col} {row[col]!r} is not a whole number"
        if x is not None and abs(x) >= INT64_LIMIT:
            return (
                f"{col} {row[col]!r} does not fit a 64-bit integer (at most ±9223372036854775807)"
            )
    return f"better must be 'lower' or 'higher', not {row['better']!r}"
