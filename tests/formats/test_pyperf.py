"""pyperf JSON: real upstream files (plain and gzipped), examples and hand-made cases."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.json_readers import pyperf

NAME = "pyperf JSON"
DATA = Path(__file__).resolve().parents[1] / "data" / "pyperf"
# The repository is checked out next to `shared/`; a fresh clone has no fixtures.
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures"

LISTS = ("[1]*1000", "[1,2]*1000", "[1,2,3]*1000")
# file -> (metric, unit, {benchmark: (runs with values, values)}), counted by reading each file.
UPSTREAM = {
    "pyperf_doc_outliers.json.gz": ("time", "s", {"timeit": (20, 60)}),
    "pyperf_doc_py2.json.gz": ("time", "s", {"timeit": (20, 60)}),
    "pyperf_doc_py3.json.gz": ("time", "s", {"timeit": (20, 60)}),
    "pyperf_doc_timeit_strip.json.gz": ("time", "s", {"timeit": (3, 9)}),
    "pyperf_mult_list_py36.json": ("time", "s", dict.fromkeys(LISTS, (20, 60))),
    "pyperf_mult_list_py36_tags.json": ("time", "s", dict.fromkeys(LISTS, (20, 60))),
    "pyperf_mult_list_py37.json": ("time", "s", dict.fromkeys(LISTS, (20, 60))),
    "pyperf_mult_list_py37_tags.json": ("time", "s", dict.fromkeys(LISTS, (20, 60))),
    "pyperf_mult_list_py38.json": ("time", "s", dict.fromkeys(LISTS, (20, 60))),
    # no unit anywhere in the file: pyperf's default, seconds
    "pyperf_telco.json": ("time", "s", {"telco": (40, 120)}),
    "pyperf_track_memory.json": ("memory", "B", {"timeit": (3, 3)}),
}


def fixture(*parts: str) -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("shared fixtures are not checked out next to the repository")
    return FIXTURES.joinpath(*parts)


def shape(frame: pl.DataFrame) -> dict[str, tuple[int, int]]:
    """benchmark -> (distinct iterations, samples)."""
    rows = frame.group_by("benchmark").agg(pl.col("iteration").n_unique(), pl.len())
    return {b: (i, n) for b, i, n in rows.iter_rows()}


def load(path: Path) -> dict:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_files(name: str) -> None:
    path = fixture("pyperf", name)
    metric, unit, expected = UPSTREAM[name]
    result = read_file(path)
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    assert shape(frame) == expected
    assert set(frame["metric"]) == {metric}
    assert set(frame["unit"]) == {unit}
    assert set(frame["better"]) == {"lower"}
    # iterations are numbered 0.. per benchmark; samples are positions inside a run
    for bench, (runs, _) in expected.items():
        its = frame.filter(pl.col("benchmark") == bench)["iteration"].unique().sort()
        assert its.to_list() == list(range(runs))
    # every value of every run comes back, warmups do not
    doc = load(path)
    values = [v for b in doc["benchmarks"] for r in b["runs"] for v in r.get("values", [])]
    assert sorted(frame["value"].to_list()) == sorted(values)
    assert result.metadata["hostname"] == doc["metadata"]["hostname"]
    assert result.metadata["python_version"] == doc["metadata"]["python_version"]
    assert "python_cflags" not in result.metadata


def test_upstream_first_run_of_a_benchmark() -> None:
    path = fixture("pyperf", "pyperf_mult_list_py37.json")
    doc = load(path)
    frame = read_file(path).frame
    runs = [r for r in doc["benchmarks"][1]["runs"] if "values" in r]
    first = frame.filter((pl.col("benchmark") == "[1,2]*1000") & (pl.col("iteration") == 0))
    assert first.sort("sample")["value"].to_list() == runs[0]["values"]
    last = frame.filter((pl.col("benchmark") == "[1,2]*1000") & (pl.col("iteration") == 19))
    assert last.sort("sample")["value"].to_list() == runs[19]["values"]


@pytest.mark.parametrize("name", ["pyperf_minimal_ref.json", "pyperf_minimal_changed.json"])
def test_examples(name: str) -> None:
    path = fixture("examples", name)
    result = read_file(path)
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    assert shape(frame) == {"json_loads": (2, 6), "json_dumps": (2, 6)}
    doc = load(path)
    loads = doc["benchmarks"][0]["runs"]
    assert "values" not in loads[0]  # the calibration run
    second = frame.filter((pl.col("benchmark") == "json_loads") & (pl.col("iteration") == 1))
    assert second.sort("sample")["value"].to_list() == loads[2]["values"]
    assert result.metadata == {"hostname": "bench-host", "perf_version": "2.9.0"}


def test_metadata_inheritance_and_units() -> None:
    result = read_file(DATA / "inherit.json")
    assert result.format == NAME
    assert result.problems == []
    frame = result.frame
    assert shape(frame) == {"startup": (3, 6), "peak_rss": (2, 2), "allocations": (1, 3)}
    kinds = {b: (m, u) for b, m, u in frame.select("benchmark", "metric", "unit").unique().rows()}
    assert kinds == {
        "startup": ("time", "s"),  # unit from the suite
        "peak_rss": ("memory", "B"),  # unit from the benchmark, name from each run
        "allocations": ("value", None),
    }
    startup = frame.filter(pl.col("benchmark") == "startup").sort("iteration", "sample")
    assert startup["value"].to_list() == [0.25, 0.26, 0.27, 0.28, 0.29, 0.30]  # no warmups
    assert startup["iteration"].to_list() == [0, 0, 1, 1, 2, 2]
    assert startup["sample"].to_list() == [0, 1, 0, 1, 0, 1]
    assert result.metadata["hostname"] == "lab-3"
    assert result.metadata["cpu_model_name"] == "Example CPU @ 3.00GHz"
    assert result.metadata["cpu_count"] == "8"
    assert "python_cflags" not in result.metadata


def test_gzipped_file_reads_the_same(tmp_path: Path) -> None:
    gz = tmp_path / "inherit.json.gz"
    with open(DATA / "inherit.json", "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    plain = read_file(DATA / "inherit.json")
    packed = read_file(gz)
    assert packed.format == NAME
    assert packed.frame.equals(plain.frame)


def test_single_benchmark_without_name_uses_file_name(tmp_path: Path) -> None:
    result = read_file(DATA / "single_unnamed.json")
    assert result.problems == []
    assert shape(result.frame) == {"single_unnamed": (2, 3)}
    gz = tmp_path / "nightly.json.gz"
    gz.write_bytes(gzip.compress((DATA / "single_unnamed.json").read_bytes()))
    assert set(read_file(gz).frame["benchmark"]) == {"nightly"}


def test_bad_content_is_reported_and_the_rest_loads() -> None:
    result = read_file(DATA / "bad.json")
    assert result.format == NAME
    assert shape(result.frame) == {
        "good": (1, 2),
        "strings": (1, 2),
        "empty_values": (1, 1),
        "bad_run": (1, 1),
    }
    strings = result.frame.filter(pl.col("benchmark") == "strings").sort("sample")
    assert strings["sample"].to_list() == [0, 3]  # positions in the run are kept
    problems = {p.where: p.reason for p in result.problems}
    assert set(problems) == {
        "benchmarks[1].runs[0].values[1]",
        "benchmarks[2].runs[0].values",
        "benchmarks[3].runs[0]",
        "benchmarks[4].runs",
        "benchmarks[5].runs[0]",
        "benchmarks[6].runs",
        "benchmarks[7]",
        "benchmarks[8].runs[0]",
    }
    assert "2 of 4 values" in problems["benchmarks[1].runs[0].values[1]"]
    assert "empty list" in problems["benchmarks[2].runs[0].values"]
    assert "'minute'" in problems["benchmarks[3].runs[0]"]
    assert "2 runs" in problems["benchmarks[3].runs[0]"]
    assert "calibration" in problems["benchmarks[4].runs"]
    assert "no benchmark name" in problems["benchmarks[8].runs[0]"]


def test_benchmarks_not_a_list() -> None:
    result = read_file(DATA / "not_a_list.json")
    assert result.format == NAME
    assert result.frame.height == 0
    [problem] = result.problems
    assert problem.where == "benchmarks" and "should be a list" in problem.reason


def test_matches_only_pyperf() -> None:
    assert pyperf.matches_json({"version": "1.0", "benchmarks": [{"runs": []}]})
    assert pyperf.matches_json({"version": "1.0", "metadata": {}, "benchmarks": None})
    gbench = {"context": {}, "benchmarks": [{"name": "BM_x", "real_time": 1.0}]}
    pytest_benchmark = {"version": "4.0.0", "machine_info": {}, "benchmarks": []}
    assert not pyperf.matches_json(gbench)
    assert not pyperf.matches_json(pytest_benchmark)
    assert not pyperf.matches_json({"results": []})
