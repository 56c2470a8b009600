"""JMH, asv, Catch2 XML, nanobench and Google Benchmark CSV: real output of each tool
(tests/data/<format>/README.md says how it was made), every count and centre recomputed
here from the raw file with the standard library."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import statistics
from pathlib import Path

import polars as pl
import pytest

from tuibench.ingest.formats import read_file

DATA = Path(__file__).resolve().parents[1] / "data"


def groups(r, *keys: str) -> dict:
    """{(benchmark, metric, ...): [values in sample order]} of a reader's frame."""
    f = r.frame.sort("iteration", "sample", nulls_last=False)
    out: dict = {}
    for row in f.iter_rows(named=True):
        out.setdefault(tuple(row[k] for k in keys), []).append(row["value"])
    return out


def column(r, name: str) -> set:
    return set(r.frame[name].to_list())


# ---------------------------------------------------------------- JMH


def test_jmh_forks_are_iterations_and_measurement_iterations_samples():
    path = DATA / "jmh" / "fs2-benchmark.json"
    raw = json.loads(path.read_text())
    r = read_file(path)
    assert r.format == "JMH JSON" and r.problems == []
    got = groups(r, "benchmark", "iteration")
    expected = {
        (run["benchmark"], fork): values
        for run in raw
        for fork, values in enumerate(run["primaryMetric"]["rawData"])
    }
    assert len(expected) == 9 * 5  # 9 benchmarks, 5 forks each
    assert got == expected
    assert all(len(v) == 5 for v in got.values())  # 5 measurement iterations per fork
    for run in raw:  # JMH's score is the mean over every fork's iterations
        f = r.frame.filter(pl.col("benchmark") == run["benchmark"])
        assert f["value"].mean() == pytest.approx(run["primaryMetric"]["score"], rel=1e-12)
    assert column(r, "metric") == {"thrpt"}
    assert column(r, "unit") == {"ops/s"} and column(r, "better") == {"higher"}


def test_jmh_params_modes_and_gc_profiler_metrics():
    path = DATA / "jmh" / "scala-blake3-intel.json.gz"
    raw = json.loads(gzip.decompress(path.read_bytes()))
    r = read_file(path)
    assert r.format == "JMH JSON" and r.problems == []
    got = groups(r, "benchmark", "metric")
    expected = {}
    for run in raw:
        name = run["benchmark"] + "".join(f"/{k}:{v}" for k, v in run["params"].items())
        metrics = {run["mode"]: run["primaryMetric"], **run["secondaryMetrics"]}
        for key, metric in metrics.items():
            for values in metric["rawData"]:
                expected.setdefault((name, key.lstrip("·")), []).extend(values)
    assert len({b for b, _ in expected}) == 24
    assert got == expected
    kinds = dict(r.frame.select("metric", "better").unique().iter_rows())
    assert kinds["avgt"] == "lower"
    assert kinds["gc.alloc.rate"] == "lower"  # MB/sec, yet an allocation rate is a cost
    units = dict(r.frame.select("metric", "unit").unique().iter_rows())
    assert units["avgt"] == "us/op" and units["gc.alloc.rate.norm"] == "B/op"
    assert r.metadata["jmh"] == "1.32"


def test_jmh_sample_mode_histograms_give_their_means(tmp_path):
    run = {
        "benchmark": "a.B.c",
        "mode": "sample",
        "primaryMetric": {
            "scoreUnit": "us/op",
            "rawDataHistogram": [[[[1.0, 3], [5.0, 1]], [[2.0, 2]]]],
        },
        "secondaryMetrics": {"my.counter": {"scoreUnit": "ops", "rawData": [[7.0, 8.0]]}},
    }
    (tmp_path / "r.json").write_text(json.dumps([run]))
    r = read_file(tmp_path / "r.json")
    assert groups(r, "metric") == {("sample",): [2.0, 2.0], ("my.counter",): [7.0, 8.0]}
    kinds = dict(r.frame.select("metric", "better").unique().iter_rows())
    assert kinds == {"sample": "lower", "my.counter": "unknown"}


# ---------------------------------------------------------------- asv

ASV = DATA / "asv" / "results"


@pytest.mark.parametrize("path", sorted((ASV / "testbox").glob("*-existing-*.json")))
def test_asv_samples_params_and_units(path):
    raw = json.loads(path.read_text())
    rows = {k: dict(zip(raw["result_columns"], v, strict=False)) for k, v in raw["results"].items()}
    r = read_file(path)
    assert r.format == "asv results" and r.problems == []
    got = groups(r, "benchmark", "metric")
    time_sum = rows["bench_small.TimeSuite.time_sum"]
    names = [f"/n:{n}/kind:{k}" for n in ("10", "100") for k in ("list", "tuple")]
    for i, suffix in enumerate(names):
        values = got["bench_small.TimeSuite.time_sum" + suffix, "time"]
        assert values == time_sum["samples"][i] and len(values) == 14
        assert statistics.median(values) == time_sum["result"][i]  # asv's own centre
    assert got["bench_small.time_sort", "time"] == rows["bench_small.time_sort"]["samples"][0]
    assert got["bench_small.mem_list", "memory"] == [8056.0]
    assert got["bench_small.track_answer", "value"] == [42.0]
    assert len(got) == 7
    kinds = {m: (u, b) for m, u, b in r.frame.select("metric", "unit", "better").unique().rows()}
    assert kinds == {
        "time": ("s", "lower"),
        "memory": ("B", "lower"),
        "value": ("answers", "unknown"),
    }
    assert {(b, m) for b, m, _ in r.notes} == {
        ("bench_small.mem_list", "memory"),
        ("bench_small.track_answer", "value"),
    }


@pytest.mark.parametrize("name", ["benchmarks.json", "testbox/machine.json"])
def test_asv_own_files_are_recognised_and_give_nothing(name):
    r = read_file(ASV / name)
    assert r.format == "asv results" and r.problems == [] and r.frame.height == 0


def test_asv_without_benchmarks_json_names_params_by_position(tmp_path):
    src = next((ASV / "testbox").glob("b40347db-*.json"))
    shutil.copy(src, tmp_path / src.name)
    r = read_file(tmp_path / src.name)
    assert "bench_small.TimeSuite.time_sum/param1:10/param2:list" in column(r, "benchmark")
    assert ("bench_small.track_answer", "value") in {
        (b, m) for b, m in groups(r, "benchmark", "metric")
    }


# ---------------------------------------------------------------- Catch2


@pytest.mark.parametrize("name", ["run1.xml", "run2.xml"])
def test_catch2_xml_gives_each_benchmark_mean_as_the_file_value(name):
    path = DATA / "catch2" / name
    text = path.read_text()
    means = re.findall(
        r'<BenchmarkResults name="([^"]+)" samples="(\d+)".*?<mean value="([^"]+)"', text, re.S
    )
    r = read_file(path)
    assert r.format == "Catch2 XML" and r.problems == []
    cases = {"sort 1000": "sorting", "stable_sort 1000": "sorting", "append 50": "strings"}
    expected = {(f"{cases[n]}/{n}", "time"): [float(v)] for n, _, v in means}
    assert len(expected) == 3
    assert groups(r, "benchmark", "metric") == expected
    assert column(r, "unit") == {"ns"} and column(r, "better") == {"lower"}
    assert all("only the mean" in t and "20 samples" in t for _, _, t in r.notes)
    assert len(r.notes) == 3


def test_catch2_failed_benchmark_is_a_problem(tmp_path):
    text = (DATA / "catch2" / "run1.xml").read_text()
    text = text.replace('<mean value="363.963"', '<failed message="boom"/><mean value="363.963"', 1)
    (tmp_path / "r.xml").write_text(text)
    r = read_file(tmp_path / "r.xml")
    assert [p.reason for p in r.problems] == ["benchmark 'strings/append 50' has no result: boom"]
    assert r.frame.height == 2


# ---------------------------------------------------------------- nanobench


@pytest.mark.parametrize("name", ["run1.json", "run2.json", "run3.json"])
def test_nanobench_json_epochs_are_samples_per_unit(name):
    path = DATA / "nanobench" / name
    raw = json.loads(path.read_text())
    r = read_file(path)
    assert r.format == "nanobench JSON" and r.problems == []
    got = groups(r, "benchmark", "metric")
    assert len(got) == 3  # no counters: perf_event_open failed, nanobench wrote zeros
    for result in raw["results"]:
        values = got[f"{result['title']}/{result['name']}", "time"]
        assert len(values) == result["epochs"] == 21
        batch = result["batch"]
        assert values == [m["elapsed"] / batch for m in result["measurements"]]
        assert statistics.median(values) == pytest.approx(result["median(elapsed)"] / batch)


def test_nanobench_counters_are_read_when_measured(tmp_path):
    raw = json.loads((DATA / "nanobench" / "run1.json").read_text())
    for m in raw["results"][0]["measurements"]:
        m["instructions"], m["branchmisses"] = 1000.0, 2.0
    (tmp_path / "n.json").write_text(json.dumps(raw))
    r = read_file(tmp_path / "n.json")
    name = f"{raw['results'][0]['title']}/{raw['results'][0]['name']}"
    got = groups(r, "benchmark", "metric")
    batch = raw["results"][0]["batch"]
    assert got[name, "instructions"] == [1000.0 / batch] * 21
    assert len([k for k in got if k[0] == name]) == 7  # time and the six counters


def test_nanobench_csv_is_named_as_a_summary():
    r = read_file(DATA / "nanobench" / "run1.csv")
    assert r.format == "summary without samples" and r.frame.height == 0
    assert "nanobench CSV" in r.problems[0].reason
    assert "templates::json()" in r.problems[0].reason


# ---------------------------------------------------------------- Google Benchmark CSV

GB = DATA / "gbench" / "csv"


def test_gbench_csv_reads_what_the_json_of_the_same_run_holds():
    csv_r, json_r = read_file(GB / "run.csv"), read_file(GB / "run.json")
    assert csv_r.format == "Google Benchmark CSV" and csv_r.problems == []
    assert json_r.format == "Google Benchmark JSON" and json_r.problems == []
    c, j = groups(csv_r, "benchmark", "metric"), groups(json_r, "benchmark", "metric")
    assert c.keys() == j.keys()
    assert len(c) == 5 * 2 + 4 * 1  # real and cpu time of 5 benchmarks; `items` of 4
    for key in c:
        assert len(c[key]) == len(j[key]) == 5  # --benchmark_repetitions=5
        assert c[key] == pytest.approx(j[key], rel=1e-5)  # the CSV keeps 6 digits
    units = {
        (m, u, b) for m, u, b in csv_r.frame.select("metric", "unit", "better").unique().rows()
    }
    assert units == {
        ("real_time", "ns", "lower"),
        ("cpu_time", "ns", "lower"),
        ("items", None, "unknown"),
    }


def test_gbench_csv_errors_point_to_their_line(tmp_path):
    lines = (GB / "run.csv").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith('"sum_list",'))
    lines[at] = '"sum_list",,,,,,,,true,"it broke"'
    (tmp_path / "g.csv").write_text("\n".join(lines) + "\n")
    r = read_file(tmp_path / "g.csv")
    assert [(p.line, p.reason) for p in r.problems] == [
        (at + 1, "benchmark 'sum_list' failed: it broke; no samples from this entry")
    ]


def test_gbench_console_output_is_named_with_the_flag_to_use():
    r = read_file(GB / "console.txt")
    assert r.format == "summary without samples" and r.frame.height == 0
    assert "Google Benchmark console output" in r.problems[0].reason
    assert "--benchmark_out=<file>.json --benchmark_out_format=json" in r.problems[0].reason


# ---------------------------------------------------------------- hyperfine summaries

HF = DATA / "hyperfine" / "summaries"


@pytest.mark.parametrize("name", ["hf.csv", "scan.csv", "hf.md", "scan.md", "hf.org"])
def test_hyperfine_summary_exports_are_named_with_the_flag_to_use(name):
    r = read_file(HF / name)
    assert r.format == "summary without samples" and r.frame.height == 0
    assert len(r.problems) == 1 and "--export-json" in r.problems[0].reason
    assert r.problems[0].reason.startswith("hyperfine")


def test_hyperfine_json_of_the_same_run_is_read():
    r = read_file(HF / "hf.json")
    assert r.format == "hyperfine JSON"
    assert {k: len(v) for k, v in groups(r, "benchmark", "metric").items() if k[1] == "time"} == {
        ("sleep 0.01", "time"): 5,
        ("sleep 0.02", "time"): 5,
    }
