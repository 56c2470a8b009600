"""Criterion.rs `target/criterion/<benchmark>/new/sample.json`."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.json_readers import criterion

TREE = Path(__file__).parents[1] / "data" / "criterion" / "target" / "criterion"
FIB = TREE / "fib" / "recursive" / "20"
NAME = "Criterion.rs"


def test_new_sample_gives_time_per_iteration():
    path = FIB / "new" / "sample.json"
    raw = json.loads(path.read_text())
    r = read_file(path)
    assert r.format == NAME
    assert r.problems == []
    f = r.frame
    assert set(f["benchmark"]) == {"fib/recursive/20"}  # full_id from benchmark.json
    assert f["value"].to_list() == [t / n for n, t in zip(raw["iters"], raw["times"], strict=True)]
    assert f["value"].to_list()[:2] == [72174.1 / 3, 143094.9 / 6]
    assert f["sample"].to_list() == list(range(10))
    assert set(f["metric"]) == {"time"} and set(f["unit"]) == {"ns"}
    assert set(f["better"]) == {"lower"}
    assert f["iteration"].null_count() == f.height


@pytest.mark.parametrize(
    "path",
    [
        FIB / "base" / "sample.json",
        FIB / "base" / "estimates.json",
        FIB / "change" / "estimates.json",
        FIB / "new" / "benchmark.json",
        FIB / "new" / "estimates.json",
        FIB / "new" / "tukey.json",
        FIB / "base" / "tukey.json",
        TREE / "broken" / "case" / "new" / "benchmark.json",
    ],
    ids=lambda p: "/".join(p.parts[-2:]),
)
def test_criterion_own_files_and_old_runs_give_nothing_and_no_problem(path):
    r = read_file(path)
    assert r.format == NAME
    assert r.frame.height == 0
    assert r.problems == []


def test_without_benchmark_json_the_folder_names_the_benchmark():
    r = read_file(TREE / "parse_json" / "new" / "sample.json")
    assert r.problems == []
    assert set(r.frame["benchmark"]) == {"parse_json"}
    assert r.frame["value"].to_list() == [1225.0, 1218.0, 1234.0, 1220.4, 1229.6]


def test_broken_sample_reports_where_and_keeps_the_good_samples():
    r = read_file(TREE / "broken" / "case" / "new" / "sample.json")
    assert r.format == NAME
    assert [p.where for p in r.problems] == ["times", "iters[2]", "times[3]"]
    assert "6 entries" in r.problems[0].reason and "5" in r.problems[0].reason
    assert "positive" in r.problems[1].reason
    assert "'420.0'" in r.problems[2].reason
    # no full_id in benchmark.json: group_id/function_id
    assert set(r.frame["benchmark"]) == {"broken/case"}
    assert r.frame["value"].to_list() == [100.0, 105.0, 100.0]
    assert r.frame["sample"].to_list() == [0, 1, 4]


def test_folder_names_outside_a_criterion_tree_and_a_broken_benchmark_json(tmp_path):
    (tmp_path / "mybench" / "new").mkdir(parents=True)
    sample = tmp_path / "mybench" / "new" / "sample.json"
    sample.write_text(json.dumps({"sampling_mode": "Flat", "iters": [2.0], "times": [10.0]}))
    (tmp_path / "mybench" / "new" / "benchmark.json").write_text('{"group_id": ')
    r = read_file(sample)
    assert set(r.frame["benchmark"]) == {"mybench"}
    assert r.frame["value"].to_list() == [5.0]
    [problem] = r.problems
    assert problem.path.endswith("benchmark.json") and "folder" in problem.reason


def test_a_sample_file_copied_out_of_its_tree_is_named_after_the_file(tmp_path):
    (tmp_path / "sysA").mkdir()
    p = tmp_path / "sysA" / "fib-20.json"
    p.write_text(json.dumps({"sampling_mode": "Linear", "iters": [1.0, 2.0], "times": [4, 10]}))
    r = read_file(p)
    assert set(r.frame["benchmark"]) == {"fib-20"}
    assert r.frame["value"].to_list() == [4.0, 5.0]


def test_wrong_types_for_iters_and_times(tmp_path):
    p = tmp_path / "sample.json"
    p.write_text(json.dumps({"iters": "1,2", "times": [1.0]}))
    r = read_file(p)
    assert r.format == NAME and r.frame.height == 0
    assert [pr.where for pr in r.problems] == ["iters"]


def test_recognition():
    assert criterion.matches_json({"sampling_mode": "Linear", "iters": [], "times": []})
    assert criterion.matches_json([1.0, 2.0, 3.0, 4.0])
    assert not criterion.matches_json([4.0, 3.0, 2.0, 1.0])
    assert not criterion.matches_json([1.0, 2.0, 3.0])
    assert not criterion.matches_json({"mean": 1.0, "median": 2.0})
    assert not criterion.matches_json({"benchmarks": []})


# ---------------------------------------------------------------- properties

pairs = st.lists(
    st.tuples(
        st.integers(min_value=1, max_value=10**9).map(float),
        st.floats(min_value=0, max_value=1e15, allow_nan=False, allow_infinity=False),
    ),
    min_size=1,
    max_size=30,
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def mutate(data, obj):
    """Replace one node of a JSON document (chosen by hypothesis) with any JSON value."""
    if isinstance(obj, dict | list) and obj and data.draw(st.booleans()):
        keys = list(obj) if isinstance(obj, dict) else list(range(len(obj)))
        key = data.draw(st.sampled_from(keys))
        obj[key] = mutate(data, obj[key])
        return obj
    return data.draw(json_values)


def read_sample(text: str):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "target" / "criterion" / "g" / "new"
        folder.mkdir(parents=True)
        (folder / "sample.json").write_text(text)
        return read_file(folder / "sample.json")


def reader_did_not_crash(result) -> bool:
    return not any(p.reason.startswith("could not be read (") for p in result.problems)


@settings(max_examples=50, deadline=None)
@given(pairs)
def test_every_generated_sample_comes_back(ps):
    doc = {"sampling_mode": "Linear", "iters": [n for n, _ in ps], "times": [t for _, t in ps]}
    r = read_sample(json.dumps(doc))
    assert r.format == NAME
    assert r.problems == []
    assert set(r.frame["benchmark"]) == {"g"}
    assert r.frame["value"].to_list() == [t / n for n, t in ps]


@settings(max_examples=50, deadline=None)
@given(pairs, st.data())
def test_truncated_or_mistyped_samples_never_break_the_reader(ps, data):
    doc = {"sampling_mode": "Linear", "iters": [n for n, _ in ps], "times": [t for _, t in ps]}
    text = json.dumps(doc)
    cut = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
    assert reader_did_not_crash(read_sample(text[:cut]))
    bad = mutate(data, doc)
    assert reader_did_not_crash(read_sample(json.dumps(bad)))
    if criterion.matches_json(bad):
        criterion.read_json(bad, Path("g/new/sample.json"))  # must not raise
