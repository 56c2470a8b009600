"""Google Benchmark JSON: real upstream files, the project's examples and hand-made cases."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.json_readers import gbench

NAME = "Google Benchmark JSON"
DATA = Path(__file__).resolve().parents[1] / "data" / "gbench"
# The repository is checked out next to `shared/`; a fresh clone has no fixtures.
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures"

TEST1 = [
    "BM_SameTimes",
    "BM_2xFaster",
    "BM_2xSlower",
    "BM_1PercentFaster",
    "BM_1PercentSlower",
    "BM_10PercentFaster",
    "BM_10PercentSlower",
    "BM_100xSlower",
    "BM_100xFaster",
    "BM_10PercentCPUToTime",
    "BM_ThirdFaster",
    "BM_NotBadTimeUnit",
    "BM_DifferentTimeUnit",
    "BM_hasLabel",
]
TEST2 = [
    "BM_Hi",
    "BM_Zero",
    "BM_Zero/4",
    "Prefix/BM_Zero",
    "Prefix/BM_Zero/3",
    "BM_One",
    "BM_One/4",
    "Prefix/BM_One",
    "Prefix/BM_One/3",
    "BM_Bye",
]
# file -> {benchmark: samples per metric}, counted by reading each file.
UPSTREAM = {
    "test1_run1.json": dict.fromkeys(TEST1, 1),
    "test1_run2.json": dict.fromkeys(TEST1, 1),
    "test2_run.json": dict.fromkeys(TEST2, 1),
    # BM_One and short are aggregates here; BM_Two has no run_type, medium is "iteration".
    "test3_run0.json": {"BM_Two": 2, "medium": 2},
    "test3_run1.json": {"BM_One": 1, "BM_Two": 1, "short": 1, "medium": 1},
    "test5_run0.json": {"BM_ManyRepetitions": 1},
    "test5_run1.json": {"BM_ManyRepetitions": 1},
}


def fixture(*parts: str) -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("shared fixtures are not checked out next to the repository")
    return FIXTURES.joinpath(*parts)


def counts(frame: pl.DataFrame, metric: str) -> dict[str, int]:
    rows = frame.filter(pl.col("metric") == metric).group_by("benchmark").len()
    return dict(rows.iter_rows())


def value(frame: pl.DataFrame, benchmark: str, metric: str, sample: int = 0) -> float:
    row = frame.filter(
        (pl.col("benchmark") == benchmark)
        & (pl.col("metric") == metric)
        & (pl.col("sample") == sample)
    )
    assert row.height == 1, row
    return row["value"][0]


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_files(name: str) -> None:
    result = read_file(fixture("gbench", name))
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    assert counts(frame, "real_time") == UPSTREAM[name]
    assert counts(frame, "cpu_time") == UPSTREAM[name]
    assert set(frame["metric"]) == {"real_time", "cpu_time"}
    assert set(frame["unit"]) == {"ns"} and set(frame["better"]) == {"lower"}
    assert frame["iteration"].null_count() == frame.height
    assert result.metadata["num_cpus"] == "4"
    assert result.metadata["date"] == "2016-08-02 17:44:46"


def test_upstream_time_units_become_ns() -> None:
    frame = read_file(fixture("gbench", "test1_run1.json")).frame
    assert value(frame, "BM_NotBadTimeUnit", "real_time") == pytest.approx(0.4e9)
    assert value(frame, "BM_NotBadTimeUnit", "cpu_time") == pytest.approx(0.5e9)
    assert "MyComplexityTest" not in set(frame["benchmark"])  # BigO / RMS rows
    frame = read_file(fixture("gbench", "test2_run.json")).frame
    assert value(frame, "BM_Hi", "real_time") == pytest.approx(42e6)
    frame = read_file(fixture("gbench", "test5_run0.json")).frame
    assert value(frame, "BM_ManyRepetitions", "cpu_time") == pytest.approx(1000e9)


def test_upstream_entries_without_times_are_problems() -> None:
    result = read_file(fixture("gbench", "test4_run.json"))
    assert result.format == NAME
    assert result.frame.height == 0
    # 8 iteration entries carry no times at all; the 4 aggregates are skipped silently.
    assert len(result.problems) == 8
    assert all("no real_time and no cpu_time" in p.reason for p in result.problems)
    assert result.problems[0].where == "benchmarks[0]"


@pytest.mark.parametrize("name", ["test4_run0.json", "test4_run1.json"])
def test_upstream_only_a_percentage_aggregate(name: str) -> None:
    result = read_file(fixture("gbench", name))
    assert result.frame.height == 0
    assert len(result.problems) == 1
    assert "only aggregate" in result.problems[0].reason


@pytest.mark.parametrize(
    "name", ["gbench_synthetic_baseline.json", "gbench_synthetic_contender.json"]
)
def test_examples(name: str) -> None:
    path = fixture("examples", name)
    result = read_file(path)
    assert result.format == NAME
    frame = result.frame
    doc = json.loads(path.read_text())
    reps = [b for b in doc["benchmarks"] if b["run_name"] == "BM_memcpy/64"]
    reps = [b for b in reps if b["run_type"] == "iteration"]
    assert len(reps) == 3
    assert counts(frame, "real_time") == {"BM_memcpy/64": 3, "BM_parse/threads:2": 1}
    assert counts(frame, "bytes_per_second") == {"BM_memcpy/64": 3}
    assert counts(frame, "items_per_second") == {"BM_parse/threads:2": 1}
    for i, rep in enumerate(reps):
        assert value(frame, "BM_memcpy/64", "real_time", i) == rep["real_time"]
        assert value(frame, "BM_memcpy/64", "bytes_per_second", i) == rep["bytes_per_second"]
    parse = next(b for b in doc["benchmarks"] if b["name"] == "BM_parse/threads:2")
    assert value(frame, "BM_parse/threads:2", "cpu_time") == pytest.approx(parse["cpu_time"] * 1e6)
    units = dict(frame.select("metric", "unit").unique().iter_rows())
    assert units == {
        "real_time": "ns",
        "cpu_time": "ns",
        "bytes_per_second": "B/s",
        "items_per_second": "items/s",
    }
    better = dict(frame.select("metric", "better").unique().iter_rows())
    assert better["bytes_per_second"] == "higher" and better["real_time"] == "lower"
    [problem] = result.problems
    assert problem.where == "benchmarks[7]"
    assert "BM_error" in problem.reason and "failed to open device" in problem.reason
    assert result.metadata["host_name"] == "bench-host"
    assert result.metadata["library_version"] == "v1.9.5"
    assert result.metadata["executable"] == "./bm_memcpy"


def test_old_format_repetitions_and_aggregates() -> None:
    result = read_file(DATA / "old_format.json")
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    expected = {
        "BM_Copy/8": 3,
        "BM_Sort/1024": 1,
        "BM_Sort/2048": 1,
        "BM_Slow": 1,
        "BM_Mid": 1,
        "BM_NoUnit": 1,
    }
    assert counts(frame, "real_time") == expected
    copy = frame.filter((pl.col("benchmark") == "BM_Copy/8") & (pl.col("metric") == "real_time"))
    assert copy.sort("sample")["value"].to_list() == [10.0, 12.0, 11.0]
    assert copy.sort("sample")["sample"].to_list() == [0, 1, 2]
    assert value(frame, "BM_Sort/1024", "cpu_time") == pytest.approx(1500.0)
    assert value(frame, "BM_Slow", "real_time") == pytest.approx(0.25e9)
    assert value(frame, "BM_Mid", "real_time") == pytest.approx(3e6)
    assert value(frame, "BM_NoUnit", "real_time") == 7.0  # no time_unit: ns
    assert result.metadata["library_build_type"] == "debug"
    assert result.metadata["cpu_scaling_enabled"] == "true"


def test_new_format_counters_errors_and_skips() -> None:
    result = read_file(DATA / "new_format.json")
    frame = result.frame
    assert set(frame["benchmark"]) == {"BM_encode/4096", "BM_decode/threads:4"}
    kinds = {m: (u, b) for m, u, b in frame.select("metric", "unit", "better").unique().iter_rows()}
    assert kinds == {
        "real_time": ("ns", "lower"),
        "cpu_time": ("ns", "lower"),
        "bytes_per_second": ("B/s", "higher"),
        "items_per_second": ("items/s", "higher"),
        "frames_per_second": ("/s", "higher"),
        "cache_misses": (None, "unknown"),  # a user counter: the JSON says nothing
        "max_bytes_used": ("B", "lower"),
        "allocs_per_iter": (None, "lower"),
    }
    for metric in kinds:
        assert counts(frame, metric)["BM_encode/4096"] == 2  # aggregates are not samples
    assert value(frame, "BM_encode/4096", "real_time", 1) == pytest.approx(151.5e3)
    assert value(frame, "BM_encode/4096", "cache_misses", 1) == 118.0
    assert value(frame, "BM_decode/threads:4", "cpu_time") == pytest.approx(9.75e6)
    assert [p.where for p in result.problems] == ["benchmarks[4]", "benchmarks[5]"]
    failed, skipped = (p.reason for p in result.problems)
    assert "BM_encode/bad" in failed and "input file missing" in failed
    assert "BM_encode/gpu" in skipped and "no GPU on this machine" in skipped
    assert result.metadata["host_name"] == "lab-7"
    assert "caches" not in result.metadata


def test_same_benchmark_in_seconds_and_nanoseconds() -> None:
    seconds = read_file(DATA / "unit_s.json").frame.sort("metric")
    nanoseconds = read_file(DATA / "unit_ns.json").frame.sort("metric")
    assert seconds["unit"].to_list() == ["ns", "ns"]
    assert seconds["value"].to_list() == pytest.approx(nanoseconds["value"].to_list())
    assert value(seconds, "BM_Wait", "real_time") == pytest.approx(1.5e9)


def test_nan_and_infinity_tokens() -> None:
    result = read_file(DATA / "nan.json")
    assert result.format == NAME
    frame = result.frame
    assert frame["value"].is_finite().all()
    assert counts(frame, "real_time") == {"BM_Fine": 1, "BM_Inf": 1}
    assert counts(frame, "cpu_time") == {"BM_Fine": 1, "BM_NaN": 1}
    assert counts(frame, "items_per_second") == {}
    wheres = [p.where for p in result.problems]
    assert wheres == [
        "benchmarks[1].real_time",
        "benchmarks[2].cpu_time",
        "benchmarks[2].items_per_second",
    ]
    assert "NaN" in result.problems[0].reason and "BM_NaN" in result.problems[0].reason
    assert "Infinity" in result.problems[1].reason


def test_wrong_types_are_problems_and_the_rest_loads() -> None:
    result = read_file(DATA / "bad_types.json")
    assert result.format == NAME
    assert counts(result.frame, "real_time") == {"BM_Good": 1, "BM_Counter": 1}
    assert counts(result.frame, "cpu_time") == {"BM_Good": 1, "BM_String": 1, "BM_Counter": 1}
    problems = {p.where: p.reason for p in result.problems}
    assert set(problems) == {
        "benchmarks[1]",
        "benchmarks[2].real_time",
        "benchmarks[3].name",
        "benchmarks[4].time_unit",
        "benchmarks[5].run_type",
        "benchmarks[6].hits",
    }
    assert "found the string '5.0'" in problems["benchmarks[2].real_time"]
    assert "'minutes'" in problems["benchmarks[4].time_unit"]
    assert "'warmup'" in problems["benchmarks[5].run_type"]
    assert "should be a number" in problems["benchmarks[6].hits"]


def test_benchmarks_not_a_list() -> None:
    result = read_file(DATA / "not_a_list.json")
    assert result.format == NAME
    assert result.frame.height == 0
    [problem] = result.problems
    assert problem.where == "benchmarks" and "should be a list" in problem.reason
    assert result.metadata["host_name"] == "h"


def test_only_aggregates_gives_the_mean_as_one_sample_with_a_note() -> None:
    result = read_file(DATA / "only_aggregates.json")
    assert result.problems == []
    assert result.frame.select("benchmark", "metric", "value", "sample").rows() == [
        ("BM_X", "real_time", 1.0, 0),
        ("BM_X", "cpu_time", 1.0, 0),
    ]
    assert [(b, m) for b, m, _ in result.notes] == [("BM_X", "real_time"), ("BM_X", "cpu_time")]


def real_means(path: Path) -> dict[tuple[str, str], float]:
    """(run_name, key) -> value of the `_mean` aggregate entries, with the json module."""
    out = {}
    for e in json.loads(path.read_text())["benchmarks"]:
        if e["aggregate_name"] == "mean":
            for key in ("real_time", "cpu_time", "items", "bytes_per_second"):
                if key in e:
                    out[(e["run_name"], key)] = e[key]
    return out


def test_real_aggregates_only_file_loads_each_mean_with_a_note() -> None:
    path = DATA / "aggregates-only" / "base" / "run-1.json"
    result = read_file(path)
    assert result.format == NAME and result.problems == []
    frame = result.frame
    got = {(b, m): v for b, m, v in frame.select("benchmark", "metric", "value").iter_rows()}
    assert got == real_means(path)  # time_unit is ns: the values as written
    assert set(frame["sample"]) == {0}  # one sample per benchmark and metric
    assert {(b, m) for b, m, _ in result.notes} == set(got)
    assert all("only aggregates were available" in t for _, _, t in result.notes)
    assert "the mean of 3 repetitions" in result.notes[0][2]
    kinds = {m: b for m, b in frame.select("metric", "better").unique().iter_rows()}
    assert kinds == {
        "real_time": "lower",
        "cpu_time": "lower",
        "bytes_per_second": "higher",
        "items": "unknown",  # a user counter
    }


def test_real_aggregates_only_files_are_iterations_and_rows_say_so() -> None:
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load

    rs = load([DATA / "aggregates-only"])
    assert rs.problems == [] and rs.system_names == ["base", "patched"]
    per_iteration = rs.samples.group_by("system", "benchmark", "metric", "iteration").len()
    assert set(per_iteration["len"]) == {1} and set(per_iteration["iteration"]) == {0, 1}
    better = {(b, m): x for b, m, _, x, _ in rs.metrics.iter_rows()}
    assert better[("sum_list/repeats:3", "items")] is None  # unknown in the catalogue
    rows = Analysis(rs).compare("base").rows
    assert all("only aggregates were available" in n for n in rows["note"])


def test_real_user_counter_has_an_unknown_direction() -> None:
    frame = read_file(DATA / "user-counters.json").frame
    items = frame.filter(pl.col("metric") == "items")
    assert (
        items.height == 3 and set(items["better"]) == {"unknown"} and set(items["unit"]) == {None}
    )


def test_matches_only_google_benchmark() -> None:
    assert gbench.matches_json({"benchmarks": [{"name": "BM_x", "real_time": 1, "cpu_time": 1}]})
    assert gbench.matches_json({"context": {}, "benchmarks": "broken"})
    pyperf = {"version": "1.0", "benchmarks": [{"metadata": {"name": "x"}, "runs": []}]}
    pytest_benchmark = {
        "machine_info": {},
        "benchmarks": [{"name": "test_x", "fullname": "t.py::test_x", "stats": {"data": [1.0]}}],
    }
    assert not gbench.matches_json(pyperf)
    assert not gbench.matches_json(pytest_benchmark)
    assert not gbench.matches_json({"results": [{"command": "x", "times": [1.0]}]})
    assert not gbench.matches_json([{"name": "BM_x", "real_time": 1}])


def test_name_that_is_not_valid_unicode(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    doc = {"benchmarks": [{"name": "BM_\ud800x", "real_time": 1.0, "cpu_time": 2.0}]}
    path.write_text(json.dumps(doc))  # the lone surrogate is written as a \ud800 escape
    result = read_file(path)
    assert result.format == NAME
    assert set(result.frame["benchmark"]) == {"BM_?x"}
    assert "not valid Unicode" in result.problems[0].reason
