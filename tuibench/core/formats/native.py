"""The native tidy format: one row per sample, in CSV, TSV, Parquet or JSON Lines.

Required columns `benchmark`, `metric`, `value`; optional `iteration`, `sample`, `unit`,
`better`, `system`. A row that cannot be used (a value that is not a number, a bad
`better`) is reported with its line and skipped; the other rows load.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from tuibench.core.formats.base import READER_SCHEMA, ReadResult, empty_frame
from tuibench.core.problems import Problem

NAME = "native"
REQUIRED = ("benchmark", "metric", "value")
OPTIONAL = ("iteration", "sample", "unit", "better", "system")
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
        first = stripped.split("\n", 1)[0]
        try:
            obj = json.loads(first)
        except json.JSONDecodeError:
            return False
        return isinstance(obj, dict) and set(REQUIRED) <= set(obj)
    return _separator(head) is not None


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
    and lines that could not be parsed at all (JSON Lines only)."""
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic == b"PAR1":
        df = pl.read_parquet(path)
        return df.rename({c: c.strip().lower() for c in df.columns}), 0, []
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    body = text.lstrip("\ufeff")
    skipped = len(body) - len(body.lstrip("\r\n \t"))
    first_line = text[: len(text) - len(body) + skipped].count("\n") + 1
    body = body.lstrip("\r\n \t")
    if body.startswith("{"):
        df, bad = _read_jsonl(body, first_line)
        return df, first_line, bad
    sep = _separator(body)
    if sep is None:  # header without the required names: parse anyway to say what is missing
        sep = "\t" if "\t" in body.split("\n", 1)[0] else ","
    df = pl.read_csv(
        body.encode(), separator=sep, infer_schema=False, truncate_ragged_lines=True, quote_char='"'
    )
    df = df.rename({c: c.strip().lower() for c in df.columns})
    return df, first_line + 1, []


def _read_jsonl(body: str, first_line: int) -> tuple[pl.DataFrame, list[tuple[int, str]]]:
    """JSON Lines parsed line by line so that one bad line is one problem, not a lost file."""
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
        if not isinstance(obj, dict):
            bad.append((first_line + i, "a JSON Lines record must be an object"))
            continue
        obj = {
            str(k).lower(): (None if v is None else str(v) if not isinstance(v, str) else v)
            for k, v in obj.items()
        }
        obj["__line"] = str(first_line + i)
        rows.append(obj)
    df = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()
    return df, bad


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

    if "__line" in raw.columns:
        line_no = raw["__line"].cast(pl.Int64)
    else:
        line_no = pl.int_range(first_line, first_line + raw.height, eager=True)
    df = raw.with_columns(line_no.alias("__line"))
    for c in OPTIONAL:
        if c not in df.columns:
            df = df.with_columns(pl.lit(None, pl.String).alias(c))

    s = pl.col
    checked = df.with_columns(
        _text(df, "benchmark"),
        _text(df, "metric"),
        _text(df, "unit"),
        _text(df, "system"),
        _text(df, "better").str.to_lowercase().alias("__better"),
        _number(df, "value").alias("__v"),
        _number(df, "iteration").alias("__it"),
        _number(df, "sample").alias("__sa"),
    )
    # A cheap mask over all rows first; readable reasons only for the (few) bad rows.
    given = lambda c: s(c).is_not_null() & (s(c).cast(pl.String) != "")  # noqa: E731
    bad_mask = (
        s("benchmark").is_null()
        | (s("benchmark") == "")
        | s("metric").is_null()
        | (s("metric") == "")
        | s("__v").is_null()
        | ~s("__v").is_finite()
        | (given("iteration") & (s("__it").is_null() | (s("__it") != s("__it").floor())))
        | (given("sample") & (s("__sa").is_null() | (s("__sa") != s("__sa").floor())))
        | (given("__better") & ~s("__better").is_in(["lower", "higher"]))
    )
    checked = checked.with_columns(bad_mask.alias("__bad"))
    bad = checked.filter(s("__bad"))
    if bad.height:
        for row in bad.head(MAX_LISTED).iter_rows(named=True):
            problems.append(Problem(str(path), f"row skipped: {_reason(row)}", line=row["__line"]))
        if bad.height > MAX_LISTED:
            problems.append(
                Problem(
                    str(path),
                    f"{bad.height - MAX_LISTED} more bad rows skipped (same kinds of errors)",
                )
            )
    good = checked.filter(~s("__bad"))
    frame = good.select(
        s("benchmark"),
        s("metric"),
        s("__v").alias("value"),
        s("__it").cast(pl.Int64).alias("iteration"),
        s("__sa").cast(pl.Int64).alias("sample"),
        pl.when(s("unit") == "").then(None).otherwise(s("unit")).alias("unit"),
        pl.when(s("__better") == "").then(None).otherwise(s("__better")).alias("better"),
        pl.when(s("system") == "").then(None).otherwise(s("system")).alias("system"),
    ).cast({k: v for k, v in READER_SCHEMA.items()})
    if frame["system"].null_count() == frame.height:
        frame = frame.drop("system")
    return ReadResult(frame, problems, global_iterations=True)


def _text(df: pl.DataFrame, name: str) -> pl.Expr:
    return pl.col(name).cast(pl.String).str.strip_chars()


def _number(df: pl.DataFrame, name: str) -> pl.Expr:
    col = pl.col(name)
    if df.schema[name] == pl.String:
        col = col.str.strip_chars()
    return col.cast(pl.Float64, strict=False)


def _reason(row: dict) -> str:
    """Why one row cannot be used, in words."""
    if not row["benchmark"]:
        return "empty benchmark name"
    if not row["metric"]:
        return "empty metric name"
    if row["__v"] is None:
        shown = row["value"] if row["value"] not in (None, "") else "(empty)"
        return f"value {shown!r} is not a number"
    if row["__v"] != row["__v"] or row["__v"] in (float("inf"), float("-inf")):
        return f"value {row['value']!r} is not a finite number"
    for col, key in (("iteration", "__it"), ("sample", "__sa")):
        if row[col] not in (None, "") and (row[key] is None or row[key] != int(row[key])):
            return f"{col} {row[col]!r} is not a whole number"
    return f"better must be 'lower' or 'higher', not {row['better']!r}"
