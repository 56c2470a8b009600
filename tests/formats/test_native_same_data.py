"""The same samples written as CSV, as Parquet with String, Categorical or Enum names, and
as JSON Lines read as the same rows, the same problems (each at its line or row) and the
same report: the readers of coded names and of JSON Lines work per distinct value or in
one polars call, and must not change a thing."""

from __future__ import annotations

import json

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tuibench.cli import main
from tuibench.ingest.formats import native, native_jsonl
from tuibench.ingest.load import load

NAMES = ["system", "benchmark", "metric", "unit", "better"]
# Values no row uses: unused categories of the Enum columns' type (written into the file),
# and in the process's Categorical pool (blanks, an empty name, a wrong direction).
UNUSED = ["b-unused", " padded ", "", "SIDEWAYS", "Higher"]


def _samples() -> pl.DataFrame:
    rows = []
    for s, system in enumerate(["base", "new"]):
        for bench in ["b1", "b2"]:
            for metric, unit, betters in [
                ("time", "ms", ["Lower", "lower"]),
                ("tput", None, ["HIGHER", "higher", None]),
            ]:
                for it in range(3):
                    for smp in range(2):
                        value = 10.0 + s + it * 0.25 + smp * 0.5 + (bench == "b2")
                        better = betters[(it + smp) % len(betters)]
                        rows.append((system, bench, metric, it, smp, value, unit, better))
    rows[5] = (*rows[5][:7], "sideways")  # a bad direction: that row is skipped
    rows[9] = (*rows[9][:5], None, *rows[9][6:])  # a value missing: skipped
    schema = ["system", "benchmark", "metric", "iteration", "sample", "value", "unit", "better"]
    return pl.DataFrame(rows, schema=schema, orient="row")


# Where the problem of row i is: CSV lines count the header, JSON Lines from 1, Parquet
# rows from 0.
WRITERS = {
    "csv": (lambda df, p: df.write_csv(p), 2),
    "jsonl": (lambda df, p: df.write_ndjson(p), 1),
    "parquet": (lambda df, p: df.write_parquet(p), 0),
    "categorical.parquet": (
        lambda df, p: df.with_columns(pl.col(NAMES).cast(pl.Categorical)).write_parquet(p),
        0,
    ),
    "enum.parquet": (
        lambda df, p: df.with_columns(
            pl.col(c).cast(pl.Enum(sorted({*df[c].drop_nulls(), *UNUSED}))) for c in NAMES
        ).write_parquet(p),
        0,
    ),
}


@pytest.fixture(autouse=True)
def _unused_categories():
    """Categories no row of the files uses, in the pool every Categorical column shares."""
    pool = pl.Series(UNUSED, dtype=pl.Categorical)
    yield
    del pool


def _written(tmp_path, kind: str) -> tuple:
    write, first = WRITERS[kind]
    folder = tmp_path / kind.replace(".", "-")
    folder.mkdir(parents=True)
    path = folder / f"data.{kind.split('.')[-1]}"
    write(_samples(), path)
    return folder, path, first


def _read(tmp_path, kind: str) -> tuple[pl.DataFrame, list]:
    _, path, first = _written(tmp_path, kind)
    got = native.read(path)
    frame = got.frame.with_columns(pl.col(c).cast(pl.String) for c in NAMES)
    return frame, [(p.reason, None if p.line is None else p.line - first) for p in got.problems]


def test_the_string_forms_read_as_expected(tmp_path):
    frame, problems = _read(tmp_path, "csv")
    assert problems == [
        ("row skipped: better must be 'lower' or 'higher', not 'sideways'", 5),
        ("row skipped: value '(empty)' is not a number", 9),
    ]
    want = _samples().with_columns(pl.col("better").str.to_lowercase())
    want = want.with_row_index().filter(~pl.col("index").is_in([5, 9])).drop("index")
    assert_frame_equal(frame.select(want.columns), want)


@pytest.mark.parametrize("kind", [k for k in WRITERS if k != "csv"])
def test_each_form_reads_as_csv(tmp_path, kind):
    want_frame, want_problems = _read(tmp_path, "csv")
    frame, problems = _read(tmp_path, kind)
    assert_frame_equal(frame, want_frame)
    assert problems == want_problems


def _report(tmp_path, kind: str) -> dict:
    folder, _, _ = _written(tmp_path, kind)
    out = tmp_path / f"{kind}.json"
    assert main(["report", str(folder), "--format", "json", "--output", str(out)]) == 0
    report = json.loads(out.read_text())
    report["problems"] = [p["reason"] for p in report["problems"]]
    return report


@pytest.mark.parametrize("kind", ["jsonl", "categorical.parquet", "enum.parquet"])
def test_each_form_loads_and_reports_as_csv(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    want, got = (load([_written(tmp_path / k, k)[0]]) for k in ("csv", kind))
    for part in ("samples", "metrics"):  # names as text: the folders' names differ
        a, b = (getattr(rs, part) for rs in (got, want))
        names = [c for c in a.columns if c in NAMES]
        assert_frame_equal(
            a.cast(dict.fromkeys(names, pl.String)), b.cast(dict.fromkeys(names, pl.String))
        )
    assert _report(tmp_path / "r", kind) == _report(tmp_path / "r", "csv")


def test_the_json_lines_are_read_by_polars_in_one_call(tmp_path):
    _, path, _ = _written(tmp_path, "jsonl")
    assert b'"unit":null' in path.read_bytes()  # explicit nulls, counted by the key check
    assert native_jsonl.read(path.read_bytes()) is not None
