"""Google Benchmark CSV (``--benchmark_out=<file> --benchmark_out_format=csv``).

The library writes its context (date, CPU, caches, load) as plain lines, then a header
``name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,
error_occurred,error_message`` followed by the user counters' names, then one row per run.
Each row is turned into the entry the JSON output holds and read exactly as the JSON is
(see gbench.py): repetitions are samples, the file is one iteration, aggregates
(``_mean``, ``_median``, ``_stddev``, ``_cv``, ``_BigO``, ``_RMS``) are summaries, errored
and skipped runs are problems. The CSV has no ``run_type``, so a row is taken for an
aggregate by its name's suffix; an aggregate's ``iterations`` field is its number of
repetitions. Problems point to the row's line.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, open_text
from tuibench.ingest.formats.json_readers import gbench
from tuibench.model.problems import Problem

NAME = "Google Benchmark CSV"

HEADER = "name,iterations,real_time,cpu_time,time_unit"
_WHERE = re.compile(r"benchmarks\[(\d+)\]")


def sniff(path: Path, head: str) -> bool:
    return any(line.startswith(HEADER) for line in head.splitlines()[:64])


def read(path: Path) -> ReadResult:
    with open_text(path) as fh:
        lines = fh.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADER))
    rows = list(csv.reader(lines[start:]))
    header, body = rows[0], rows[1:]
    entries = [_entry(dict(zip(header, row, strict=False))) for row in body]
    result = gbench.read_entries({}, entries, path)
    result.problems = [_at_line(p, start + 2) for p in result.problems]
    return result


def _entry(row: dict[str, str]) -> dict:
    """The JSON entry of one CSV row: empty fields left out, numbers parsed."""
    entry: dict = {}
    for key, text in row.items():
        if text == "" or key in ("label", "error_occurred", "error_message"):
            continue
        entry[key] = text if key in ("name", "time_unit") else _number(text)
    if row.get("error_occurred") == "true":
        entry.update(error_occurred=True, error_message=row.get("error_message", ""))
    elif row.get("error_message"):
        entry.update(skipped=True, skip_message=row["error_message"])
    name = entry.get("name", "")
    for suffix in gbench.AGGREGATE_SUFFIXES:
        if isinstance(name, str) and name.endswith(suffix):
            entry.update(run_type="aggregate", aggregate_name=suffix[1:])
            entry.update(run_name=name[: -len(suffix)], repetitions=entry.get("iterations"))
            return entry
    entry["run_type"] = "iteration"
    return entry


def _number(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text  # gbench.read_entries reports it as not a number


def _at_line(problem: Problem, first_row_line: int) -> Problem:
    match = _WHERE.match(problem.where or "")
    if match is None:
        return problem
    return Problem(problem.path, problem.reason, line=first_row_line + int(match.group(1)))
