"""hyperfine --export-json: the project's example and hand-made cases."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.json_readers import hyperfine

NAME = "hyperfine JSON"
DATA = Path(__file__).resolve().parents[1] / "data" / "hyperfine"
# The repository is checked out next to `shared/`; a fresh clone has no fixtures.
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures"


def fixture(*parts: str) -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("shared fixtures are not checked out next to the repository")
    return FIXTURES.joinpath(*parts)


def series(frame: pl.DataFrame, benchmark: str, metric: str) -> list[float]:
    rows = frame.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))
    return rows.sort("sample")["value"].to_list()


def test_example() -> None:
    path = fixture("examples", "hyperfine_minimal.json")
    result = read_file(path)
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    doc = json.loads(path.read_text())
    for entry in doc["results"]:
        name = f"{entry['command']} {{delay={entry['parameters']['delay']}}}"
        assert series(frame, name, "time") == entry["times"]
        assert series(frame, name, "memory") == entry["memory_usage_byte"]
    assert set(frame["benchmark"]) == {"sleep 0.1 {delay=0.1}", "sleep 0.2 {delay=0.2}"}
    assert frame.height == 20  # 2 commands x 5 runs x (time, memory); user/system are means
    kinds = {m: (u, b) for m, u, b in frame.select("metric", "unit", "better").unique().rows()}
    assert kinds == {"time": ("s", "lower"), "memory": ("B", "lower")}
    assert frame["iteration"].null_count() == frame.height
    assert frame.filter(pl.col("metric") == "time")["sample"].to_list() == [0, 1, 2, 3, 4] * 2


def test_parameters_user_system_and_a_single_run() -> None:
    result = read_file(DATA / "params.json")
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    gcc = "make -j 4 {compiler=gcc, threads=4}"  # sorted by parameter name
    clang = "make -j 4 {compiler=clang, threads=4}"
    assert set(frame["benchmark"]) == {gcc, clang, "./once"}
    assert series(frame, gcc, "time") == [1.9, 2.0, 2.1]
    assert series(frame, gcc, "user") == [4.9, 5.0, 5.1]
    assert series(frame, gcc, "system") == [0.9, 1.0, 1.1]
    assert series(frame, gcc, "memory") == [1000, 1100, 1200]
    assert series(frame, clang, "time") == [1.7, 1.8, 1.9]
    assert set(frame.filter(pl.col("benchmark") == clang)["metric"]) == {"time"}  # scalar means
    assert series(frame, "./once", "time") == [0.5]  # stddev: null after one run
    units = dict(frame.select("metric", "unit").unique().iter_rows())
    assert units == {"time": "s", "user": "s", "system": "s", "memory": "B"}


def test_failed_runs_are_reported_and_still_loaded() -> None:
    result = read_file(DATA / "failures.json")
    frame = result.frame
    # the same command twice: its samples continue the numbering
    assert series(frame, "./flaky --fast", "time") == [0.19, 0.2, 0.21, 0.2, 0.3]
    assert frame["sample"].sort().to_list() == [0, 1, 2, 3, 4]
    [problem] = result.problems
    assert problem.where == "results[0].exit_codes"
    assert "./flaky --fast" in problem.reason
    assert "3 of 4 runs failed" in problem.reason
    assert "signal" in problem.reason and "include the failed runs" in problem.reason


def test_bad_content_is_reported_and_the_rest_loads() -> None:
    result = read_file(DATA / "bad.json")
    assert result.format == NAME
    frame = result.frame
    assert series(frame, "ok", "time") == [1.0, 2.0]
    assert series(frame, "strings", "time") == [1.0, 3.0]
    assert series(frame, "odd_params", "time") == [4.0]
    assert series(frame, "bad_memory", "time") == [5.0]
    assert set(frame["benchmark"]) == {"ok", "strings", "odd_params", "bad_memory"}
    problems = {p.where: p.reason for p in result.problems}
    assert set(problems) == {
        "results[1].times[1]",
        "results[2].times",
        "results[3].times",
        "results[4].command",
        "results[5].parameters",
        "results[5].exit_codes",
        "results[6].memory_usage_byte",
        "results[7]",
    }
    assert "the string 'fast'" in problems["results[1].times[1]"]
    assert "empty list" in problems["results[2].times"]
    assert "missing" in problems["results[3].times"]
    assert "should be a list" in problems["results[5].exit_codes"]


@pytest.mark.parametrize("doc", [{"results": "none"}, {"results": []}, {"results": None}])
def test_results_not_a_list(tmp_path: Path, doc: dict) -> None:
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc))
    result = read_file(path)
    assert result.format == NAME
    assert result.frame.height == 0
    [problem] = result.problems
    assert problem.where == "results"


def test_matches_only_hyperfine() -> None:
    assert hyperfine.matches_json({"results": [{"command": "x", "times": [1.0]}]})
    assert not hyperfine.matches_json({"benchmarks": [{"name": "BM_x", "real_time": 1.0}]})
    assert not hyperfine.matches_json({"results": [{"name": "x"}], "other": 1})
    assert not hyperfine.matches_json(["results"])


def test_real_ignore_failure_rows_say_how_many_runs_failed() -> None:
    path = DATA / "real" / "ignore-failure.json"
    result = read_file(path)
    raw = json.loads(path.read_text())["results"]
    failed = {r["command"]: sum(c != 0 for c in r["exit_codes"]) for r in raw}
    assert failed["true"] == 0 and failed["false"] == 6 and 0 < failed[raw[0]["command"]] < 6
    notes = {(b, m): t for b, m, t in result.notes}
    assert set(notes) == {(c, "time") for c, n in failed.items() if n}
    for command, n in failed.items():
        if n:
            assert notes[(command, "time")].startswith(f"{n} of 6 runs failed")
        assert series(result.frame, command, "time") == next(
            r["times"] for r in raw if r["command"] == command
        )


def test_failures_of_one_command_in_two_results_add_up() -> None:
    [(bench, metric, text)] = read_file(DATA / "failures.json").notes
    assert (bench, metric) == ("./flaky --fast", "time") and text.startswith("3 of 5 runs failed")
