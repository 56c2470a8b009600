"""mmtests: `extract-mmtests.pl --print-json` objects and parse-results TSV."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tuibench.core.formats import mmtests, read_file

DATA = Path(__file__).parents[1] / "data" / "mmtests"
NAME = "mmtests"


def rows(result, metric: str, system: str | None = None) -> list[tuple]:
    f = result.frame
    f = f.filter(f["metric"] == metric)
    if system is not None:
        f = f.filter(f["system"] == system)
    return list(zip(f["iteration"], f["sample"], f["value"], strict=True))


def only(result, name: str) -> set:
    return set(result.frame[name].to_list())


# ---------------------------------------------------------------- extract-mmtests JSON


def test_extract_json_values_as_perl_strings():
    r = read_file(DATA / "siege.json")
    assert r.format == NAME
    assert r.problems == []
    assert only(r, "benchmark") == {"siege"}
    assert rows(r, "1") == [
        (0, 1, 2201.53), (0, 2, 2188.04), (0, 3, 2215.90),
        (1, 1, 2197.20), (1, 2, 2230.11), (1, 3, 2204.75),
    ]  # fmt: skip
    assert [v for _, _, v in rows(r, "4")] == [
        7980.44, 8012.67, 7954.12, 8033.50, 7991.08, 8020.29
    ]  # fmt: skip
    assert only(r, "better") == {"higher"}  # _PreferredVal: Higher
    assert only(r, "unit") == {"Transactions/second"}
    assert r.metadata == {"mmtests run": "baseline"}
    assert "system" not in r.frame.columns  # the folder names the system


def test_generic_shellpack_module_is_named_after_its_shellpack():
    r = read_file(DATA / "dbench-shellpack.json")
    assert r.problems == []
    assert only(r, "benchmark") == {"dbench"}
    assert [v for _, _, v in rows(r, "loadfile-1")] == [
        12.01, 11.87, 12.30, 12.12, 11.95, 12.44, 12.08, 11.90
    ]  # fmt: skip
    assert {i for i, _, _ in rows(r, "loadfile-1")} == {0, 1}
    # iteration 0 has no data for loadfile-4 (a null entry): only iteration 1
    assert rows(r, "loadfile-4") == [(1, 1, 40.12), (1, 2, 39.87)]
    assert only(r, "unit") == {"ms"}  # Time (milliseconds)
    assert only(r, "better") == {"lower"}  # no _PreferredVal: mmtests assumes Lower


def test_several_runs_in_one_file_each_become_a_system():
    r = read_file(DATA / "blogbench-runs.json")
    assert r.problems == []
    assert only(r, "benchmark") == {"blogbench"}
    assert only(r, "system") == {"baseline", "patched"}
    assert rows(r, "Read", "baseline") == [(0, 1, 612345.0), (1, 2, 608876.0)]
    assert rows(r, "Write", "patched") == [(0, 1, 4602.0), (1, 2, 4587.0)]
    assert only(r, "better") == {"higher"}
    assert only(r, "unit") == {None}  # UNKNOWN


def test_broken_extract_json_reports_where_and_keeps_the_good_values():
    r = read_file(DATA / "broken-extract.json")
    assert r.format == NAME
    where = {p.where: p.reason for p in r.problems}
    assert set(where) == {
        "_PreferredVal",
        "_ResultData['time-4'][0].Values[1]",
        "_ResultData['time-4'][1].SampleNrs",
        "_ResultData['time-8']",
        "_ResultData['time-16'][0]",
    }
    assert "'n/a'" in where["_ResultData['time-4'][0].Values[1]"]
    assert "Sideways" in where["_PreferredVal"]
    assert only(r, "benchmark") == {"hackbench"}
    assert [(i, v) for i, _, v in rows(r, "time-4")] == [
        (0, 0.512), (0, 0.498), (1, 0.505), (1, 0.509)
    ]  # fmt: skip
    assert only(r, "unit") == {"s"}  # from _PlotYaxes
    assert only(r, "better") == {None}


def test_old_layout_and_monitor_modules(tmp_path):
    old = tmp_path / "kernbench.json"
    old.write_text(json.dumps({"_ModuleName": "ExtractKernbench", "_ResultData": [[1, 2.5]]}))
    r = read_file(old)
    assert r.format == NAME and r.frame.height == 0
    assert [p.where for p in r.problems] == ["_ResultData"]
    assert "old mmtests" in r.problems[0].reason

    mon = tmp_path / "vmstat.json"
    data = {"us": [{"SampleNrs": [0, 10], "Values": [12, 14]}]}
    mon.write_text(json.dumps({"_ModuleName": "MonitorVmstat", "_ResultData": data}))
    r = read_file(mon)
    assert r.problems == []
    assert only(r, "benchmark") == {"monitor/vmstat"}
    assert rows(r, "us") == [(0, 0, 12.0), (0, 10, 14.0)]


def test_module_without_a_usable_name_is_named_after_the_file(tmp_path):
    p = tmp_path / "pgbench.json"
    p.write_text(
        json.dumps(
            {
                "_ModuleName": "ExtractShellpack",
                "_ShellpackRoot": "",
                "_ResultData": {"tps-8": [{"SampleNrs": [1], "Values": [5]}]},
            }
        )
    )
    assert only(read_file(p), "benchmark") == {"pgbench"}


def test_matches_only_extract_objects():
    assert mmtests.matches_json({"_ModuleName": "ExtractX", "_ResultData": {}})
    assert mmtests.matches_json([{"_ModuleName": "ExtractX", "_ResultData": {}}])
    assert not mmtests.matches_json([])
    assert not mmtests.matches_json({"benchmarks": []})
    assert not mmtests.matches_json([{"_ModuleName": "ExtractX", "_ResultData": {}}, 3])


# ---------------------------------------------------------------- parse-results TSV


def test_parse_results_tsv_builds_mmtests_labels():
    r = read_file(DATA / "dbench.tsv")
    assert r.format == NAME
    assert r.problems == []
    assert only(r, "benchmark") == {"dbench"}
    assert set(r.frame["metric"]) == {"loadfile-1", "loadfile-8", "tput-1", "tput-8"}
    assert rows(r, "loadfile-1") == [(None, 1, 0.0120), (None, 2, 0.0115), (None, 3, 0.0131)]
    assert rows(r, "tput-8") == [(None, 1, 1411.02)]
    assert only(r, "unit") == {None} and only(r, "better") == {None}


def test_tsv_prefix_file_name_and_two_factors_in_an_mmtests_logs_folder():
    r = read_file(DATA / "tsv-hackbench")
    assert only(r, "benchmark") == {"hackbench"}
    assert rows(r, "time-16") == [(None, 1, 1.873), (None, 2, 1.902)]
    r = read_file(DATA / "netperf-udp" / "logs" / "parse-results.tsv")
    assert only(r, "benchmark") == {"netperf-udp"}  # generic file name: the folder above logs/
    assert rows(r, "recv-64-ipv4") == [(None, 1, 1201.7), (None, 2, 1199.9)]
    assert rows(r, "send-64") == [(None, 1, 1234.5), (None, 2, 1240.1)]


def test_malformed_tsv_lines_are_problems_with_their_line():
    r = read_file(DATA / "malformed.tsv")
    assert r.format == NAME
    by_line = {p.line: p.reason for p in r.problems}
    assert set(by_line) == {7, 8, 9, 10, 11}
    assert "'failed'" in by_line[7]
    assert "found 4" in by_line[8]
    assert "interval 'last'" in by_line[9]
    assert "empty metric" in by_line[10]
    assert "finite" in by_line[11]
    good = [*range(1, 7), *range(12, 23)]
    assert rows(r, "tput-4") == [(None, i, 100 + i + 0.5) for i in good]


@pytest.mark.parametrize(
    ("name", "benchmark"),
    [
        ("pgbench.tsv", "pgbench"),
        ("tsv-pgbench", "pgbench"),
        ("parse-results-pgbench.txt", "pgbench"),
        ("pgbench.tsv.gz", "pgbench"),
        ("pgbench-ro", "pgbench-ro"),
    ],
)
def test_benchmark_name_from_the_file_name(tmp_path, name, benchmark):
    p = tmp_path / name
    text = "tps\t8\t_\t1\t1234.5\t_\ntps\t8\t_\t2\t1240.0\t_\n"
    if name.endswith(".gz"):
        p.write_bytes(gzip.compress(text.encode()))
    else:
        p.write_text(text)
    r = read_file(p)
    assert r.format == NAME
    assert only(r, "benchmark") == {benchmark}
    assert rows(r, "tps-8") == [(None, 1, 1234.5), (None, 2, 1240.0)]


def test_non_integer_intervals_leave_samples_in_file_order(tmp_path):
    p = tmp_path / "fio.tsv"
    p.write_text("lat\tread\t_\t0.5\t10\t_\nlat\tread\t_\t1.5\t11\t_\n")
    assert rows(read_file(p), "lat-read") == [(None, None, 10.0), (None, None, 11.0)]


def test_sniff_leaves_headers_and_other_text_alone(tmp_path):
    p = tmp_path / "x.tsv"
    native = "benchmark\tmetric\tfactor\tsample\tvalue\tunit\nb\tm\t_\t1\t2.5\ts\n"
    assert not mmtests.sniff(p, native)
    assert not mmtests.sniff(p, "a\tb\tc\n1\t2\t3\n")
    assert not mmtests.sniff(p, "")
    mostly_bad = "t\t1\t_\t1\t2\t_\n" + "t\t1\t_\t1\tx\t_\n" * 3
    assert not mmtests.sniff(p, mostly_bad)
    assert mmtests.sniff(p, "t\t1\t_\t1\t2\t_\nt\t1\t_\t2\t3")  # last line cut by the head
