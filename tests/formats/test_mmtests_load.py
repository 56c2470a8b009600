"""Loading real mmtests output: systems, their order, directions, raw log folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load

REAL = Path(__file__).parents[1] / "data" / "mmtests-real"
RUNS = ["5.8-vanilla", "5.8-patched", "5.9-vanilla"]


def catalogue(rs) -> dict[tuple[str, str], str | None]:
    return {(b, m): better for b, m, _, better, _ in rs.metrics.iter_rows()}


def verdicts(rs, reference: str) -> dict[tuple[str, str, str], str]:
    rows = Analysis(rs).compare(reference).rows
    rows = rows.filter(pl.col("system") != reference)
    return {
        (s, b, m): v
        for s, b, m, v in rows.select("system", "benchmark", "metric", "verdict").iter_rows()
    }


def test_per_run_folders_give_one_benchmark_per_test_and_no_phantom():
    rs = load([REAL / "json"])
    assert rs.problems == []
    assert rs.system_names == ["5.8-patched", "5.8-vanilla"]  # folders: natural order
    assert sorted(rs.samples["benchmark"].unique().cast(pl.String)) == [
        "hackbench-process-pipes",
        "hackbench-thread-sockets",
        "stream",
    ]
    got = verdicts(rs, "5.8-vanilla")
    changed = {k[1:]: v for k, v in got.items() if v not in ("same",)}
    # the planted changes (8 % and 3 % slower, 6 % faster, 8 % less bandwidth), each
    # in the direction mmtests' _PreferredVal gives
    assert changed == {
        ("hackbench-process-pipes", "time-16"): "worse",
        ("hackbench-process-pipes", "time-64"): "worse",
        ("hackbench-process-pipes", "time-128"): "worse",
        ("hackbench-thread-sockets", "time-4"): "better",
        ("stream", "Add-1"): "worse",
        ("stream", "Triad-1"): "worse",
    }


@pytest.mark.parametrize(
    "path", ["runs", "runs/stream.json", "json-export/stream-json-export.json.zst"]
)
def test_multi_run_files_keep_the_n_order_and_add_no_phantom(path):
    rs = load([REAL / path])
    assert rs.problems == []
    assert rs.system_names == RUNS  # not natural order: 5.8-vanilla is mmtests' reference
    assert [f.system for f in rs.files] == [", ".join(RUNS)]  # what inspect lists
    got = verdicts(rs, rs.system_names[0])
    changed = {k: v for k, v in got.items() if v != "same"}
    assert changed == {
        ("5.8-patched", "stream", "Add-1"): "worse",
        ("5.8-patched", "stream", "Triad-1"): "worse",
    }


def test_system_toml_order_wins_over_the_file_order(tmp_path):
    shutil.copy(REAL / "runs" / "stream.json", tmp_path / "stream.json")
    (tmp_path / "5.9-vanilla").mkdir()
    (tmp_path / "5.9-vanilla" / "system.toml").write_text("order = 0\n")
    rs = load([tmp_path])
    assert rs.system_names == ["5.9-vanilla", "5.8-vanilla", "5.8-patched"]


def test_parse_results_tsv_direction_is_unknown_unless_tuibench_toml_says(tmp_path):
    rs = load([REAL / "tsv"])
    assert rs.problems == []
    assert set(catalogue(rs).values()) == {None}
    shutil.copytree(REAL / "tsv", tmp_path / "tsv")
    (tmp_path / "tsv" / "tuibench.toml").write_text(
        '[metrics."stream:*"]\nbetter = "higher"\nunit = "MB/s"\n'
        '[metrics."hackbench-*:time-*"]\nbetter = "lower"\nunit = "s"\n'
    )
    cat = catalogue(load([tmp_path / "tsv"]))
    assert cat[("stream", "Add-1")] == "higher"
    assert cat[("hackbench-process-pipes", "time-64")] == "lower"


def test_lower_marked_throughput_note_reaches_the_result_set(tmp_path):
    mod = {
        "_ModuleName": "ExtractShellpackdbench4",
        "_PreferredVal": "Lower",
        "_ResultData": {"tput-1": [{"SampleNrs": [1, 2], "Values": [265.1, 270.2]}]},
    }
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        (tmp_path / run / "dbench4.json").write_text(json.dumps(mod))
    rs = load([tmp_path])
    notes = rs.notes.sort("system")
    assert notes.select("system", "benchmark", "metric").rows() == [
        ("a", "dbench4", "tput-1"),
        ("b", "dbench4", "tput-1"),
    ]
    assert "--sub-heading" in notes["note"][0]
    assert catalogue(rs) == {("dbench4", "tput-1"): None}  # the mark contradicts the name
    rows = Analysis(rs).compare("a").rows
    assert all("--sub-heading" in n for n in rows["note"])  # beside the row, both systems


def make_work_log(root: Path, layout: str = "run") -> Path:
    """A raw work/log tree. `layout`: "run" (tests-activity at the run's level, as older
    mmtests wrote) or "iter" (as run-mmtests.sh writes now: mmtests-activity at the run's
    level, tests-activity, tests-timestamp and more in each iter-N)."""
    log = root / "work" / "log"
    for run, tests in (
        ("5.8-vanilla", ["stream", "hackbench-process-pipes"]),
        ("5.8-patched", ["stream"]),
    ):
        (log / run).mkdir(parents=True)
        if layout == "run":
            (log / run / "tests-activity").write_text("1600000000 start :: stream\n")
            (log / run / "tests-timestamp").write_text("start :: 1600000000\n")
        else:
            (log / run / "mmtests-activity").write_text("1600000000 run-mmtests start\n")
        for it in range(3):
            if layout == "iter":
                (log / run / f"iter-{it}").mkdir()
                for name in ("tests-activity", "tests-timestamp", "tests-sysstate"):
                    (log / run / f"iter-{it}" / name).write_text("start :: 1600000000\n")
                (log / run / f"iter-{it}" / "dmesg.gz").write_bytes(b"\x1f\x8b\x08\x00")
                (log / run / f"iter-{it}" / "os-release").write_text('NAME="Debian"\n')
            for test in tests:
                logs = log / run / f"iter-{it}" / test / "logs"
                logs.mkdir(parents=True)
                (logs / f"{test}-1.log").write_text("Function  Best Rate MB/s\nCopy: 11000.1\n")
                (logs / "time.1").write_text("0.01 user 0.02 system\n")
    return log


@pytest.mark.parametrize("layout", ["run", "iter"])
def test_raw_work_log_tree_is_one_problem_per_run_saying_what_to_run(tmp_path, layout):
    log = make_work_log(tmp_path, layout)
    rs = load([log])
    assert rs.empty
    by_path = {Path(p.path).name: p.reason for p in rs.problems}
    assert set(by_path) == {"5.8-vanilla", "5.8-patched"}
    assert (
        "extract-mmtests.pl -d work/log -b hackbench-process-pipes -n 5.8-vanilla --print-json"
        in by_path["5.8-vanilla"]
    )
    assert "-b stream -n 5.8-vanilla" in by_path["5.8-vanilla"]
    rs = load([log / "5.8-patched"])
    assert [p.reason.count("extract-mmtests.pl") for p in rs.problems] == [1]


@pytest.mark.parametrize("layout", ["run", "iter"])
@pytest.mark.parametrize("given", ["work", "mmtests root"])
def test_the_work_folder_or_the_checkout_given_instead_of_work_log(tmp_path, given, layout):
    make_work_log(tmp_path, layout)
    (tmp_path / "bin").mkdir()  # an mmtests checkout holds scripts and configs beside work/
    (tmp_path / "bin" / "extract-mmtests.pl").write_text("#!/usr/bin/perl\n")
    (tmp_path / "config").write_text("export MMTESTS=stream\n")
    rs = load([tmp_path / "work" if given == "work" else tmp_path])
    assert rs.empty and rs.system_names == []
    runs = [p for p in rs.problems if "extract-mmtests.pl -d work/log" in p.reason]
    assert sorted(Path(p.path).name for p in runs) == ["5.8-patched", "5.8-vanilla"]
    others = [p for p in rs.problems if p not in runs]
    assert len(others) == 1 and "raw mmtests logs" in others[0].reason  # not one per file
