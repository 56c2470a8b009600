"""pytest-benchmark JSON saved with its per-round data."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.json_readers import pytest_benchmark

DATA = Path(__file__).parents[1] / "data" / "pytest_benchmark"
NAME = "pytest-benchmark JSON"
ENCODE = "tests/test_codec.py::test_encode[1k]"
DECODE = "tests/test_codec.py::test_decode"


def values(result, benchmark: str) -> list[float]:
    f = result.frame
    return f.filter(f["benchmark"] == benchmark)["value"].to_list()


def test_saved_run_with_data_gives_every_round():
    r = read_file(DATA / "0001_3f2a9c1_20240301_101500.json")
    assert r.format == NAME
    assert r.problems == []
    assert values(r, ENCODE) == [2.9301e-05, 2.8512e-05, 3.1044e-05, 2.9002e-05, 2.9344e-05]
    assert values(r, DECODE) == [0.00107, 0.00104, 0.00112]
    f = r.frame
    assert set(f["metric"]) == {"time"} and set(f["unit"]) == {"s"}
    assert set(f["better"]) == {"lower"}
    assert f.filter(f["benchmark"] == ENCODE)["sample"].to_list() == [0, 1, 2, 3, 4]
    assert f["iteration"].null_count() == f.height  # the file is one iteration
    assert r.metadata == {
        "node": "bench-01",
        "cpu": "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz",
        "python_version": "3.11.8",
        "python_implementation": "CPython",
        "commit": "3f2a9c1d5e7b8a90c1d2e3f4a5b6c7d8e9f0a1b2",
        "branch": "main",
        "datetime": "2024-03-01T09:15:00.123456+00:00",
    }


def test_run_saved_without_data_says_how_to_get_it():
    r = read_file(DATA / "0002_3f2a9c1_20240301_103000.json")
    assert r.format == NAME
    assert r.frame.height == 0
    [problem] = r.problems
    assert problem.where == "benchmarks[0].stats.data"
    assert ENCODE in problem.reason
    assert "--benchmark-save-data" in problem.reason and "--benchmark-json" in problem.reason


def test_malformed_entries_are_problems_with_where_and_the_rest_loads():
    r = read_file(DATA / "malformed.json")
    assert r.format == NAME
    assert [p.where for p in r.problems] == [
        "benchmarks[1].stats.data[1]",
        "benchmarks[1].stats.data[2]",
        "benchmarks[3]",
        "benchmarks[4].stats",
        "benchmarks[5].stats.data",
    ]
    assert "'0.2'" in r.problems[0].reason
    assert values(r, "tests/test_a.py::test_ok") == [0.5, 0.25, 0.75]
    assert values(r, "tests/test_a.py::test_bad_values") == [0.1, 0.3]
    assert values(r, "test_short_name") == [2.0]  # no fullname: its name
    assert r.metadata["cpu"] == "AMD EPYC 7763 64-Core Processor"  # older py-cpuinfo key
    assert r.metadata["branch"] == "feature/x"


def test_recognises_only_pytest_benchmark_files():
    gbench = {"context": {}, "benchmarks": [{"name": "BM_x", "run_name": "BM_x", "real_time": 1}]}
    assert not pytest_benchmark.matches_json(gbench)
    assert not pytest_benchmark.matches_json({"benchmarks": []})
    assert not pytest_benchmark.matches_json([{"stats": {}, "fullname": "x"}])
    empty = {"machine_info": {}, "commit_info": {}, "benchmarks": []}
    assert pytest_benchmark.matches_json(empty)
    r = pytest_benchmark.read_json(empty, Path("empty.json"))
    assert r.frame.height == 0 and "no benchmarks" in r.problems[0].reason


# ---------------------------------------------------------------- properties

fullnames = st.from_regex(
    r"tests/test_[a-z]{1,6}\.py::test_[a-z0-9_]{1,8}(\[[a-z0-9-]{1,4}\])?", fullmatch=True
)
times = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
benchmarks = st.dictionaries(
    fullnames, st.lists(times, min_size=1, max_size=20), min_size=1, max_size=5
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def document(benches: dict[str, list[float]]) -> dict:
    return {
        "machine_info": {"node": "n", "python_version": "3.12.0", "cpu": {"brand_raw": "cpu"}},
        "commit_info": {"id": "abc", "branch": "main"},
        "benchmarks": [
            {
                "name": n.split("::")[1],
                "fullname": n,
                "stats": {"rounds": len(d), "data": d, "iterations": 1},
            }
            for n, d in benches.items()
        ],
        "datetime": "2024-01-01T00:00:00",
        "version": "4.0.0",
    }


def mutate(data, obj):
    """Replace one node of a JSON document (chosen by hypothesis) with any JSON value."""
    if isinstance(obj, dict | list) and obj and data.draw(st.booleans()):
        keys = list(obj) if isinstance(obj, dict) else list(range(len(obj)))
        key = data.draw(st.sampled_from(keys))
        obj[key] = mutate(data, obj[key])
        return obj
    return data.draw(json_values)


def read_text(text: str):
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "0001_run.json"
        p.write_text(text)
        return read_file(p)


def reader_did_not_crash(result) -> bool:
    return not any(p.reason.startswith("could not be read (") for p in result.problems)


@settings(max_examples=50, deadline=None)
@given(benchmarks)
def test_every_generated_round_comes_back(benches):
    r = read_text(json.dumps(document(benches)))
    assert r.format == NAME
    assert r.problems == []
    for name, data in benches.items():
        assert values(r, name) == data


@settings(max_examples=50, deadline=None)
@given(benchmarks, st.data())
def test_truncated_or_mistyped_documents_never_break_the_reader(benches, data):
    text = json.dumps(document(benches), indent=2)
    cut = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
    assert reader_did_not_crash(read_text(text[:cut]))
    doc = mutate(data, document(benches))
    assert reader_did_not_crash(read_text(json.dumps(doc)))
    if pytest_benchmark.matches_json(doc):
        pytest_benchmark.read_json(doc, Path("0001_run.json"))  # must not raise
