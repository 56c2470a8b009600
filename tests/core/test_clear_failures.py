"""Every failure is one clear problem or line, never an internal error, and never loses
more than what is wrong: a line, a row, a file."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from tuibench.cli import main
from tuibench.ingest.load import load

CSV = "benchmark,metric,iteration,value\nx,t,0,10\nx,t,1,11\nx,t,2,12\n"


def _two_systems(root):
    for s in ("a", "b"):
        (root / s).mkdir(parents=True)
        # Not byte copies of each other (those are a problem of their own): b ends its
        # values in ".0".
        head, rows = CSV.split("\n", 1)
        (root / s / "d.csv").write_text(
            CSV if s == "a" else head + "\n" + rows.replace("\n", ".0\n")
        )
    return root


def _reasons(rs) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in rs.problems:
        out.setdefault(p.path.rsplit("/", 1)[-1], []).append(p.reason)
    return out


@pytest.mark.parametrize("where", ["a/system.toml", "tuibench.toml"])
@pytest.mark.parametrize("nest", ["[" * 500 + "]" * 500, "{a=" * 500 + "1" + "}" * 500])
def test_toml_nested_too_deep_is_a_problem(tmp_path, where, nest):
    root = _two_systems(tmp_path / "r")
    (root / where).write_text(f"x = {nest}\n")
    rs = load([str(root)])
    assert rs.system_names == ["a", "b"] and rs.samples.height == 6
    name = where.rsplit("/", 1)[-1]
    assert _reasons(rs)[name] == ["invalid TOML: nested too deeply; not read"]


def test_deep_json_lines_record_loses_that_line_only(tmp_path):
    root = _two_systems(tmp_path / "r")
    rec = '{"benchmark":"y","metric":"t","iteration":%d,"value":%d}'
    lines = [rec % (i, 10 + i) for i in range(3)]
    lines.insert(1, '{"benchmark":' + "[" * 5000 + "]" * 5000 + ',"metric":"t","value":1}')
    (root / "b" / "e.jsonl").write_text("\n".join(lines) + "\n")
    rs = load([str(root)])
    [problem] = rs.problems
    assert (problem.line, problem.reason) == (2, "invalid JSON: nested too deeply")
    got = rs.samples.filter(pl.col("benchmark") == "y")
    assert got["value"].to_list() == [10.0, 11.0, 12.0]


def test_nan_and_inf_iterations_lose_their_rows_only(tmp_path):
    root = _two_systems(tmp_path / "r")
    (root / "b" / "d.csv").write_text(
        "benchmark,metric,iteration,sample,value\n"
        "x,t,0,0,10\nx,t,NaN,1,11\nx,t,1,inf,12\nx,t,-inf,0,12\nx,t,2,0,13\nx,t,1,0,12\n"
    )
    rs = load([str(root)])
    reasons = [(p.line, p.reason) for p in rs.problems]
    assert reasons == [
        (3, "row skipped: iteration 'NaN' is not a whole number"),
        (4, "row skipped: sample 'inf' is not a whole number"),
        (5, "row skipped: iteration '-inf' is not a whole number"),
    ]
    b = rs.samples.filter(pl.col("system") == "b").sort("iteration")
    assert b["value"].to_list() == [10.0, 12.0, 13.0]


def test_nan_iterations_in_parquet_and_json_lines(tmp_path):
    root = _two_systems(tmp_path / "r")
    frame = pl.DataFrame(
        {"benchmark": ["y"] * 3, "metric": ["t"] * 3, "iteration": [0.0, float("nan"), 2.0]}
    ).with_columns(value=pl.lit(1.0))
    frame.write_parquet(root / "b" / "n.parquet")
    (root / "a" / "n.jsonl").write_text(
        '{"benchmark":"y","metric":"t","iteration":NaN,"value":1}\n'
        '{"benchmark":"y","metric":"t","iteration":1,"value":1}\n'
    )
    rs = load([str(root)])
    assert sorted((p.path.rsplit("/", 1)[-1], p.line, p.reason) for p in rs.problems) == [
        ("n.jsonl", 1, "row skipped: iteration 'nan' is not a whole number"),
        ("n.parquet", 1, "row skipped: iteration nan is not a whole number"),
    ]
    assert rs.samples.filter(pl.col("benchmark") == "y").height == 3


def _parquet(path, **columns):
    base = {"benchmark": ["x"] * 3, "metric": ["t"] * 3, "iteration": [0, 1, 2]}
    base["value"] = [10.0, 11.0, 12.0]
    pl.DataFrame({**base, **columns}).write_parquet(path)


@pytest.mark.parametrize(
    "columns, reason",
    [
        ({"benchmark": [b"x"] * 3}, "column 'benchmark' is Binary, not text"),
        ({"unit": [b"ms"] * 3}, "column 'unit' is Binary, not text"),
        ({"value": [[10.0]] * 3}, "column 'value' is List(Float64), not a number"),
        ({"iteration": [[0], [1], [2]]}, "column 'iteration' is List(Int64), not a number"),
        ({"benchmark": [["x"]] * 3}, "column 'benchmark' is List(String), not text"),
        ({"value": [{"a": 1.0}] * 3}, "column 'value' is Struct({'a': Float64}), not a number"),
        ({"value": [True, False, True]}, "column 'value' is Boolean, not a number"),
    ],
)
def test_parquet_of_wrong_types_is_a_short_problem(tmp_path, columns, reason):
    root = _two_systems(tmp_path / "r")
    _parquet(root / "b" / "odd.parquet", **columns)
    rs = load([str(root)])
    [problem] = rs.problems
    assert problem.reason == f"cannot be parsed: {reason}"
    assert rs.samples.height == 6


def test_parquet_decimals_are_numbers(tmp_path):
    root = _two_systems(tmp_path / "r")
    values = pl.Series([Decimal("10.5"), Decimal("11"), Decimal("12.25")], dtype=pl.Decimal(10, 2))
    _parquet(root / "b" / "dec.parquet", benchmark=["y"] * 3, value=values)
    rs = load([str(root)])
    assert not rs.problems
    got = rs.samples.filter(pl.col("benchmark") == "y").sort("iteration")["value"]
    assert got.to_list() == [10.5, 11.0, 12.25]


def test_many_small_parquet_files_of_a_wrong_type_each_say_so(tmp_path):
    """Small files are read in one batch; a wrong type there sends each to be read alone."""
    root = _two_systems(tmp_path / "r")
    for i in range(6):
        _parquet(root / "b" / f"odd{i}.parquet", benchmark=[b"x%d" % i] * 3)
    rs = load([str(root)])
    reasons = _reasons(rs)
    assert len(reasons) == 6
    assert all(
        r == ["cannot be parsed: column 'benchmark' is Binary, not text"] for r in reasons.values()
    )


def test_reader_errors_never_dump_an_expression(tmp_path, monkeypatch):
    from tuibench.ingest import formats

    root = _two_systems(tmp_path / "r")

    def boom(path):
        raise pl.exceptions.InvalidOperationError(
            "`is_finite` operation not supported\n\nThis error occurred in the following "
            "expression:\n\tcol(value)" + "x" * 900
        )

    monkeypatch.setattr(formats, "_read_file", boom)
    rs = load([str(root)])
    for p in rs.problems:
        assert p.reason == (
            "could not be read (InvalidOperationError: `is_finite` operation not supported)"
        )


@pytest.mark.parametrize(
    "args, words",
    [
        (["--seed", "-1"], "argument --seed: must be between 0 and 2^64 - 1, not -1"),
        (["--seed", "18446744073709551616"], "argument --seed: must be between 0 and 2^64 - 1"),
        (["--seed", "1e3"], "argument --seed: not a whole number: 1e3"),
        (["--subselections", "1e3"], "argument --subselections: not a whole number: 1e3"),
        (["--subselections", "0"], "argument --subselections: must be at least 1, not 0"),
    ],
)
def test_options_are_checked_when_parsed(tmp_path, capsys, args, words):
    root = _two_systems(tmp_path / "r")
    for command in (["report"], []):  # the explorer parses the same options
        with pytest.raises(SystemExit) as exc:
            main([*command, str(root), *args])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert words in err and "_" not in err.split("error:")[1].replace("--", "")


def test_largest_seed_runs(tmp_path, capsys):
    root = _two_systems(tmp_path / "r")
    assert main(["report", str(root), "--seed", str(2**64 - 1), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]


def test_hyperfine_negative_times_are_a_problem(tmp_path):
    """hyperfine's own output, with two times made negative (a clock that stepped back)."""
    real = Path(__file__).parents[1] / "data" / "hyperfine" / "real" / "ignore-failure.json"
    doc = json.loads(real.read_text())
    result = doc["results"][0]
    n = len(result["times"])
    result["times"][1] = -result["times"][1]
    result["times"][3] = -0.5
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "h.json").write_text(json.dumps(doc))
    rs = load([str(tmp_path / "a")])
    [negative] = [p for p in rs.problems if "negative" in p.reason]
    assert negative.reason.startswith(f"command {result['command']!r}: 2 of {n} time values are")
    assert negative.where == "results[0].times[1]"
    times = rs.samples.filter(
        (pl.col("benchmark") == result["command"]) & (pl.col("metric") == "time")
    )
    assert times.height == n - 2 and (times["value"] >= 0).all()


@pytest.mark.parametrize("systems", [1, 2])
def test_a_short_series_says_it_needs_three_systems(tmp_path, capsys, systems):
    root = _two_systems(tmp_path / "r")
    path = root / "a" if systems == 1 else root
    assert main(["report", str(path), "--series"]) == 0
    out = capsys.readouterr().out
    assert "A series needs three systems or more" in out and "No change points among" not in out
    assert main(["report", str(path), "--series", "--format", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert notes[0].startswith("A series needs three systems or more")
    assert ("with two (a, b)" in notes[0]) == (systems == 2)


def test_a_series_of_three_says_no_change_points(tmp_path, capsys):
    root = _two_systems(tmp_path / "r")
    (root / "c").mkdir()
    (root / "c" / "d.csv").write_text(CSV)
    assert main(["report", str(root), "--series"]) == 0
    out = capsys.readouterr().out
    assert "No change points among 1 tested metric(s)." in out
    assert "A series needs three systems" not in out
    assert "p < 0 " not in out  # no level was reached: none is quoted


def test_found_by_the_corpus(tmp_path, capsys):
    """Each once stopped a report or lost a file without a word (tests/hostile)."""
    from tuibench.model.systems import natural_key

    assert sorted(["a²", "a10", "a9"], key=natural_key) == ["a9", "a10", "a²"]
    root = _two_systems(tmp_path / "r")
    (root / "iter-1").mkdir()
    (root / "iter-1" / "d.csv").write_text(CSV)
    (root / "b" / "deep.jsonl").write_text('{"benchmark":' + "[" * 3000 + "]" * 3000 + "}\n")
    names = "x\x85y\u2028z²"
    (root / "b" / "n.csv").write_text(f"benchmark,metric,iteration,value\n{names},t,0,1\n")
    assert main(["report", str(root), "--format", "json"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert names in {r["benchmark"] for r in doc["rows"]}
    reasons = {p["path"].rsplit("/", 1)[-1]: p["reason"] for p in doc["problems"]}
    assert reasons["iter-1"].startswith("an iter-<N> folder beside system folders")
    assert reasons["deep.jsonl"].startswith("invalid JSON: nested too deeply")
