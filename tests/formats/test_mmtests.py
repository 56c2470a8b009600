"""mmtests: `extract-mmtests.pl --print-json` objects and parse-results TSV."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.text_readers import mmtests

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

REAL = Path(__file__).parents[1] / "data" / "mmtests-real"


def raw_values(path: Path, op: str, run: str | None = None) -> list[list[float]]:
    """The Values of one op, per iteration, read with nothing but the json module."""
    obj = json.loads(path.read_text())
    mods = obj if isinstance(obj, list) else [obj]
    mod = next(m for m in mods if run is None or m["_TestName"] == run)
    return [[float(v) for v in it["Values"]] for it in mod["_ResultData"][op]]


@pytest.mark.parametrize("run", ["5.8-vanilla", "5.8-patched"])
def test_real_print_json_names_each_alias_after_its_test(run):
    for test in ("hackbench-process-pipes", "hackbench-thread-sockets"):
        path = REAL / "json" / run / f"{test}.json"
        r = read_file(path)
        assert r.format == NAME and r.problems == [] and r.notes == []
        # both share _ShellpackRoot .../hackbench: the name comes from _ModuleName
        assert only(r, "benchmark") == {test}
        assert only(r, "better") == {"lower"}  # _PreferredVal: Lower
        assert only(r, "unit") == {None}  # _PlotYaxis: UNKNOWN
        assert r.metadata == {"mmtests run": run}
        assert "system" not in r.frame.columns  # the folder names the system
        for op in set(r.frame["metric"]):
            want = raw_values(path, op)
            got = rows(r, op)
            assert [v for _, _, v in got] == [v for it in want for v in it]
            assert [i for i, _, _ in got] == [i for i, it in enumerate(want) for _ in it]
            assert [s for _, s, _ in got] == [s for it in want for s in range(1, len(it) + 1)]


def table_cells(name: str, stat: str) -> dict[str, list[float]]:
    """{op: [value of each run]} from one statistic's lines of an mmtests compare table."""
    out = {}
    for line in (REAL / "compare-mmtests" / name).read_text().splitlines():
        if line.startswith(stat + " "):
            cells = line.replace("*", " ").replace("(", " ").replace(")", " ").split()
            out[cells[1]] = [float(x) for x in cells[2::2]]
    return out


def pooled_mean(result, op: str, system: str | None = None, harmonic: bool = False) -> float:
    values = [v for _, _, v in rows(result, op, system)]
    if harmonic:
        return len(values) / sum(1 / v for v in values)
    return sum(values) / len(values)


def test_real_values_give_mmtests_own_means():
    """The samples read reproduce the Amean/Hmean of compare-mmtests.pl's own tables."""
    amean = table_cells("hackbench-process-pipes.txt", "Amean")
    assert len(amean) == 5
    for k, run in enumerate(["5.8-vanilla", "5.8-patched"]):
        r = read_file(REAL / "json" / run / "hackbench-process-pipes.json")
        for op, cells in amean.items():
            assert pooled_mean(r, op) == pytest.approx(cells[k], abs=6e-5), (run, op)
    hmean = table_cells("stream.txt", "Hmean")
    assert len(hmean) == 4
    r = read_file(REAL / "runs" / "stream.json")
    for k, run in enumerate(["5.8-vanilla", "5.8-patched", "5.9-vanilla"]):
        for op, cells in hmean.items():
            assert pooled_mean(r, op, run, harmonic=True) == pytest.approx(cells[k], abs=0.006)


def test_real_multi_run_json_keeps_the_n_order():
    r = read_file(REAL / "runs" / "stream.json")
    assert r.problems == []
    assert r.systems == ["5.8-vanilla", "5.8-patched", "5.9-vanilla"]  # -n order
    assert only(r, "benchmark") == {"stream"}
    assert only(r, "better") == {"higher"} and only(r, "unit") == {"MB/sec"}
    for run in r.systems:
        want = raw_values(REAL / "runs" / "stream.json", "Triad-1", run)
        assert [v for _, _, v in rows(r, "Triad-1", run)] == [v for it in want for v in it]


def test_real_json_export_zst_is_one_system_per_module_in_order():
    path = REAL / "json-export" / "stream-json-export.json.zst"
    r = read_file(path)
    assert r.format == NAME and r.problems == []
    assert r.systems == ["5.8-vanilla", "5.8-patched", "5.9-vanilla"]
    assert only(r, "benchmark") == {"stream"}
    same = read_file(REAL / "runs" / "stream.json").frame
    keys = ["system", "metric", "iteration", "sample"]
    assert r.frame.sort(keys).equals(same.sort(keys))


def test_json_export_xz_reads_the_same(tmp_path):
    import lzma

    import zstandard

    with (REAL / "json-export" / "stream-json-export.json.zst").open("rb") as fh:
        raw = zstandard.ZstdDecompressor().stream_reader(fh).read()
    p = tmp_path / "stream-json-export.json.xz"
    p.write_bytes(lzma.compress(raw))
    r = read_file(p)
    assert r.problems == [] and r.systems == ["5.8-vanilla", "5.8-patched", "5.9-vanilla"]
    assert r.frame.height == read_file(REAL / "runs" / "stream.json").frame.height


def test_extract_json_values_as_perl_strings():
    r = read_file(DATA / "siege.json")
    assert r.format == NAME
    assert r.problems == []
    assert only(r, "benchmark") == {"siege"}  # ExtractSiege
    assert rows(r, "1") == [
        (0, 1, 2201.53), (0, 2, 2188.04), (0, 3, 2215.90),
        (1, 1, 2197.20), (1, 2, 2230.11), (1, 3, 2204.75),
    ]  # fmt: skip
    assert only(r, "better") == {"higher"}  # _PreferredVal: Higher
    assert only(r, "unit") == {"Transactions/second"}


def test_old_shellpack_module_without_the_test_is_named_after_its_file():
    # Older mmtests write `_ModuleName: ExtractShellpack`: the file name, not the root
    r = read_file(DATA / "dbench.json")
    assert r.problems == []
    assert only(r, "benchmark") == {"dbench"}
    assert {i for i, _, _ in rows(r, "loadfile-1")} == {0, 1}
    # iteration 0 has no data for loadfile-4 (a null entry): only iteration 1
    assert rows(r, "loadfile-4") == [(1, 1, 40.12), (1, 2, 39.87)]
    assert only(r, "unit") == {"ms"}  # Time (milliseconds)
    assert only(r, "better") == {"lower"}  # no _PreferredVal: mmtests assumes Lower


def test_generic_file_name_falls_back_to_the_shellpack_root(tmp_path):
    p = tmp_path / "parse-results.json"
    mod = {
        "_ModuleName": "ExtractShellpack",
        "_ShellpackRoot": "/x/shellpack_src/src/pgbench",
        "_ResultData": {"tps-8": [{"SampleNrs": [1], "Values": [5]}]},
    }
    p.write_text(json.dumps(mod))
    assert only(read_file(p), "benchmark") == {"pgbench"}


def test_throughput_op_marked_lower_gets_a_note(tmp_path):
    p = tmp_path / "dbench4.json"
    data = {
        "tput-1": [{"SampleNrs": [1], "Values": [265.1]}],
        "loadfile-1": [{"SampleNrs": [1], "Values": [0.012]}],
    }
    mod = {"_ModuleName": "ExtractShellpackdbench4", "_PreferredVal": "Lower", "_ResultData": data}
    p.write_text(json.dumps(mod))
    r = read_file(p)
    # The mark contradicts the name: neither is taken, and the note says why.
    better = dict(r.frame.select("metric", "better").unique().iter_rows())
    assert better == {"tput-1": "unknown", "loadfile-1": "lower"}
    assert [(b, m) for b, m, _ in r.notes] == [("dbench4", "tput-1")]
    assert "--sub-heading" in r.notes[0][2]
    assert '[metrics."dbench4:tput-1"] better = "higher"' in r.notes[0][2]


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


def test_matches_only_extract_objects():
    assert mmtests.matches_json({"_ModuleName": "ExtractX", "_ResultData": {}})
    assert mmtests.matches_json([{"_ModuleName": "ExtractX", "_ResultData": {}}])
    assert not mmtests.matches_json([])
    assert not mmtests.matches_json({"benchmarks": []})
    assert not mmtests.matches_json([{"_ModuleName": "ExtractX", "_ResultData": {}}, 3])


# ---------------------------------------------------------------- parse-results TSV


def test_real_parse_results_tsv_builds_mmtests_labels():
    path = REAL / "tsv" / "5.8-vanilla" / "iter-1" / "hackbench-process-pipes.tsv"
    r = read_file(path)
    assert r.format == NAME and r.problems == []
    assert only(r, "benchmark") == {"hackbench-process-pipes"}
    assert set(r.frame["metric"]) == {"time-1", "time-4", "time-16", "time-64", "time-128"}
    # the same samples extract-mmtests.pl put in the JSON's second iteration
    want = raw_values(REAL / "json" / "5.8-vanilla" / "hackbench-process-pipes.json", "time-64")
    assert rows(r, "time-64") == [(None, k + 1, v) for k, v in enumerate(want[1])]
    assert only(r, "unit") == {None}
    assert only(r, "better") == {"unknown"}  # the TSV says nothing about direction


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


# ---------------------------------------------------------------- shellpack.yaml beside TSVs

SHELLPACK_DBENCH = """\
default-metric: loadfile

metrics:
  - loadfile
  - tput
  - op

summarise: Normalisedops
PlotType: client-candlesticks  # comments are ignored

loadfile:
  title: Loadfile Completion Times
  units: TIME_MSECONDS

tput:
  title: Throughput from T0->Tn
  units: MBYTES_PER_SECOND
"""


def tsv_in_iter_folder(root: Path, test: str, text: str) -> Path:
    p = root / "base" / "iter-0" / f"{test}.tsv"
    p.parent.mkdir(parents=True)
    p.write_text(text)
    return p


def test_shellpack_yaml_beside_the_tsvs_gives_units_and_directions(tmp_path):
    tsv = tsv_in_iter_folder(
        tmp_path,
        "dbench4",
        "loadfile\t1\t_\t1\t12.0\t_\ntput\t1\t_\t1\t265.1\t_\nop\t1\t_\t1\t0.3\t_\n",
    )
    (tmp_path / "base" / "dbench4.shellpack.yaml").write_text(SHELLPACK_DBENCH)
    r = read_file(tsv)
    kinds = {m: (u, b) for m, u, b in r.frame.select("metric", "unit", "better").iter_rows()}
    assert kinds == {
        "loadfile-1": ("ms", "lower"),
        "tput-1": ("MB/s", "higher"),
        "op-1": (None, "unknown"),  # listed, but the yaml says nothing about it
    }


def test_shellpack_yaml_preferhigher_and_other_tests_yaml_do_not_mix(tmp_path):
    tsv = tsv_in_iter_folder(tmp_path, "stream", "Copy\t1\t_\t1\t11185.7\t_\n")
    (tmp_path / "base" / "iter-0" / "shellpack.yaml").write_text(
        "metrics:\n  - Copy\npreferhigher: true\nPlotYaxis: MB/sec\n"
    )
    assert only(read_file(tsv), "better") == {"higher"}
    other = tsv_in_iter_folder(tmp_path / "x", "hackbench", "time\t1\t_\t1\t0.1\t_\n")
    (tmp_path / "x" / "base" / "stream.shellpack.yaml").write_text("preferhigher: true\n")
    assert only(read_file(other), "better") == {"unknown"}  # stream's yaml is not hackbench's


def test_shellpack_metric_block_wins_over_the_file_wide_preference():
    from tuibench.ingest.formats.text_readers import shellpack

    spec = shellpack.parse(
        "preferhigher: true\nmetrics:\n  - lat\n  - tput\n  - fails\n"
        "lat:\n  units: TIME_USECONDS\nfails:\n  preferhigher: false\n"
    )
    assert spec["metrics"] == ["lat", "tput", "fails"]
    assert shellpack._metric(spec, "lat") == ("us", "lower")
    assert shellpack._metric(spec, "tput") == (None, "higher")
    assert shellpack._metric(spec, "fails") == (None, "lower")


# ------------------------------------------------- netperf: ops as mmtests names them

NETPERF = Path(__file__).resolve().parents[1] / "data" / "mmtests" / "netperf-real"


@pytest.mark.parametrize("it", ["iter-0", "iter-1"])
def test_real_netperf_tsv_takes_units_and_direction_from_its_shellpack_yaml(it):
    path = NETPERF / "5.8-vanilla" / it / "netperf-udp.tsv"
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    r = read_file(path)
    assert r.problems == []
    got = {}
    for m, v in r.frame.select("metric", "value").iter_rows():
        got.setdefault(m, []).append(v)
    expected = {}
    for metric, a, b, _, value, _ in rows:  # the label mmtests' ExtractShellpack builds
        expected.setdefault(f"{metric}-{a}-{b}", []).append(float(value))
    assert got == expected and len(got) == 6 and all(len(v) == 3 for v in got.values())
    # the yaml names `udpstream-send` / `udpstream-recv` (MBITS_PER_SECOND, preferhigher)
    assert only(r, "better") == {"higher"} and only(r, "unit") == {"Mbit/s"}


def test_shellpack_top_level_preferhigher_reaches_ops_named_without_factors(tmp_path):
    folder = tmp_path / "base" / "iter-0"
    folder.mkdir(parents=True)
    real = NETPERF / "5.8-vanilla" / "iter-0" / "netperf-udp.tsv"
    text = real.read_text() + "udpstream\tloss\t64\t4\t12.5\t_\n"
    (folder / "netperf-udp.tsv").write_text(text)
    (tmp_path / "base" / "shellpack.yaml").write_text(
        "metrics:\n  - udpstream-send\n  - udpstream-recv\npreferhigher: true\n"
    )
    r = read_file(folder / "netperf-udp.tsv")
    kinds = dict(r.frame.select("metric", "better").unique().iter_rows())
    assert kinds["udpstream-send-64"] == kinds["udpstream-recv-16384"] == "higher"
    assert kinds["udpstream-loss-64"] == "unknown"  # the yaml does not list it


def test_shellpack_yaml_keys_follow_mmtests_graph_lookup():
    from tuibench.ingest.formats.text_readers import shellpack

    assert shellpack.yaml_keys("udpstream-send-64", "udpstream") == [
        "udpstream-send-64",
        "udpstream-send",
        "udpstream",
    ]
    assert shellpack.yaml_keys("tput-1", "tput") == ["tput-1", "tput"]
