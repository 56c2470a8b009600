"""Property tests for the JSON readers (Google Benchmark, pyperf, hyperfine).

Valid documents: every generated sample comes back exactly, with no problem.
Corrupted documents (truncated text, values replaced by wrong types, dropped keys): reading
never raises, always returns a ReadResult, and reports a problem whenever samples were lost.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.base import READER_SCHEMA, ReadResult

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
AGGREGATES = ("mean", "median", "stddev", "cv")
NAMES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="{}"), min_size=1, max_size=16
).filter(lambda s: s.strip() and not s.endswith(tuple(f"_{a}" for a in AGGREGATES)))
NUMBERS = st.one_of(
    st.floats(min_value=-1e15, max_value=1e15, allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(2**53), max_value=2**53),
)
# What a corrupted value becomes: nothing in here is a valid measurement.
WRONG = [None, "abc", "", True, [], {}, float("nan"), float("inf")]

# A sample: (benchmark, metric, iteration, sample, value); core metrics are always written.
Sample = tuple[str, str, int | None, int, float]
CORE = {"real_time", "cpu_time", "time"}
MEASURED = {"real_time", "cpu_time", "bytes_per_second", "items_per_second", "hits"}


@st.composite
def gbench_docs(draw) -> tuple[dict, list[Sample]]:
    new_format = draw(st.booleans())
    entries: list[dict] = []
    expected: list[Sample] = []
    for name in draw(st.lists(NAMES, min_size=1, max_size=4, unique=True)):
        reps = draw(st.integers(1, 4))
        unit = draw(st.sampled_from([*TO_NS, None]))
        scale = TO_NS[unit or "ns"]
        counters = draw(
            st.lists(st.sampled_from(["bytes_per_second", "items_per_second", "hits"]), unique=True)
        )
        for r in range(reps):
            entry: dict = {"name": name}
            if new_format:
                entry |= {
                    "run_name": name,
                    "run_type": "iteration",
                    "repetitions": reps,
                    "repetition_index": r,
                    "threads": 1,
                }
            entry["iterations"] = draw(st.integers(1, 10**6))
            for key in ("real_time", "cpu_time"):
                entry[key] = draw(NUMBERS)
                expected.append((name, key, None, r, float(entry[key]) * scale))
            if unit:
                entry["time_unit"] = unit
            for key in counters:
                entry[key] = draw(NUMBERS)
                expected.append((name, key, None, r, float(entry[key])))
            entries.append(entry)
        for agg in AGGREGATES if reps > 1 else ():
            entry = {
                "name": f"{name}_{agg}",
                "aggregate_name": agg,
                "iterations": reps,
                "real_time": 1.5,
                "cpu_time": 1.25,
                "time_unit": "ns",
            }
            if new_format:
                entry |= {
                    "run_name": name,
                    "run_type": "aggregate",
                    "aggregate_unit": "percentage" if agg == "cv" else "time",
                }
            entries.append(entry)
    context = {"date": "2025-01-01T00:00:00+00:00", "num_cpus": 4, "library_version": "v1.9.0"}
    return {"context": context, "benchmarks": entries}, expected


@st.composite
def pyperf_docs(draw) -> tuple[dict, list[Sample]]:
    names = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    single = len(names) == 1
    unit = draw(st.sampled_from(["second", "byte", "integer", None]))
    metric = {"second": "time", None: "time", "byte": "memory", "integer": "value"}[unit]
    unit_level = draw(st.sampled_from(["suite", "benchmark", "run"]))
    name_level = draw(
        st.sampled_from(["suite", "benchmark", "run"] if single else ["benchmark", "run"])
    )
    suite: dict = {"hostname": "host", "python_version": "3.12.0 (64-bit)"}
    if unit and unit_level == "suite":
        suite["unit"] = unit
    if name_level == "suite":
        suite["name"] = names[0]
    benchmarks: list[dict] = []
    expected: list[Sample] = []
    for name in names:
        bench_md: dict = {"loops": 8}
        if unit and unit_level == "benchmark":
            bench_md["unit"] = unit
        if name_level == "benchmark":
            bench_md["name"] = name
        runs: list[dict] = []
        if draw(st.booleans()):  # a calibration run: warmups only
            runs.append({"metadata": {"calibrate_loops": 8}, "warmups": [[1, 0.5], [8, 0.25]]})
        for it in range(draw(st.integers(1, 4))):
            values = draw(st.lists(NUMBERS, min_size=1, max_size=5))
            run_md: dict = {"duration": 0.5}
            if unit and unit_level == "run":
                run_md["unit"] = unit
            if name_level == "run":
                run_md["name"] = name
            runs.append({"metadata": run_md, "values": values})
            expected += [(name, metric, it, k, float(v)) for k, v in enumerate(values)]
        benchmarks.append({"metadata": bench_md, "runs": runs})
    return {"version": "1.0", "metadata": suite, "benchmarks": benchmarks}, expected


PARAMS = st.dictionaries(
    st.text("abcxyz_", min_size=1, max_size=5), st.text("0123456789.ab", max_size=4), max_size=2
)


@st.composite
def hyperfine_docs(draw) -> tuple[dict, list[Sample]]:
    results: list[dict] = []
    expected: list[Sample] = []
    for command in draw(st.lists(NAMES, min_size=1, max_size=3, unique=True)):
        times = draw(st.lists(NUMBERS.map(abs), min_size=1, max_size=6))  # negative: a problem
        result: dict = {
            "command": command,
            "mean": times[0],
            "stddev": None if len(times) == 1 else 0.5,
            "median": times[0],
            "user": 0.01,
            "system": 0.02,
            "min": times[0],
            "max": times[0],
            "times": times,
            "exit_codes": [0] * len(times),
        }
        params = draw(PARAMS)
        name = command
        if params:
            result["parameters"] = params
            name += " {" + ", ".join(f"{k}={v}" for k, v in sorted(params.items())) + "}"
        expected += [(name, "time", None, k, float(t)) for k, t in enumerate(times)]
        if draw(st.booleans()):
            memory = draw(st.lists(st.integers(0, 2**40), min_size=len(times), max_size=len(times)))
            result["memory_usage_byte"] = memory
            expected += [(name, "memory", None, k, float(m)) for k, m in enumerate(memory)]
        results.append(result)
    return {"results": results}, expected


DOCS = {"gbench": gbench_docs(), "pyperf": pyperf_docs(), "hyperfine": hyperfine_docs()}
FORMATS = {
    "gbench": "Google Benchmark JSON",
    "pyperf": "pyperf JSON",
    "hyperfine": "hyperfine JSON",
}
ANY_DOC = st.sampled_from(sorted(DOCS)).flatmap(lambda k: st.tuples(st.just(k), DOCS[k]))


def read_text(text: str) -> ReadResult:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "result.json"
        path.write_text(text, encoding="utf-8")
        result = read_file(path)
    assert isinstance(result, ReadResult)
    assert set(READER_SCHEMA) <= set(result.frame.columns)
    return result


def samples(result: ReadResult) -> Counter:
    cols = ("benchmark", "metric", "iteration", "sample", "value")
    return Counter(result.frame.select(cols).iter_rows())


def places(node: object, holders: bool = False) -> list[tuple[object, object]]:
    """Every (container, key) in a document; only dict keys when `holders` (for dropping)."""
    out: list[tuple[object, object]] = []
    if isinstance(node, dict):
        for key, child in node.items():
            out.append((node, key))
            out += places(child, holders)
    elif isinstance(node, list):
        for i, child in enumerate(node):
            if not holders:
                out.append((node, i))
            out += places(child, holders)
    return out


@SETTINGS
@given(ANY_DOC)
def test_valid_documents_round_trip(case) -> None:
    kind, (doc, expected) = case
    result = read_text(json.dumps(doc))
    assert result.format == FORMATS[kind]
    assert result.problems == []
    assert samples(result) == Counter(expected)


@SETTINGS
@given(ANY_DOC, st.data())
def test_truncated_documents(case, data) -> None:
    _, (doc, _) = case
    text = json.dumps(doc, indent=1)
    cut = data.draw(st.integers(0, len(text) - 1), label="cut")
    result = read_text(text[:cut])
    assert result.problems  # a prefix of a JSON object is never a complete one
    assert result.frame.height == 0


@SETTINGS
@given(ANY_DOC, st.data())
def test_values_replaced_by_wrong_types(case, data) -> None:
    _, (doc, expected) = case
    doc = copy.deepcopy(doc)
    spots = places(doc)
    picks = data.draw(st.lists(st.integers(0, len(spots) - 1), min_size=1, max_size=3, unique=True))
    for i in picks:
        holder, key = spots[i]
        holder[key] = copy.deepcopy(data.draw(st.sampled_from(WRONG), label="wrong"))
    result = read_text(json.dumps(doc))
    if result.format in FORMATS.values() and result.frame.height < len(expected):
        assert result.problems, "samples were dropped without a problem"


def value_spots(kind: str, doc: dict) -> list[tuple[object, object, str]]:
    """Where the samples sit: (container, key, the location a problem should name)."""
    spots: list[tuple[object, object, str]] = []
    if kind == "gbench":
        for i, entry in enumerate(doc["benchmarks"]):
            if "aggregate_name" not in entry:
                spots += [(entry, k, f"benchmarks[{i}].{k}") for k in entry if k in MEASURED]
    elif kind == "pyperf":
        for i, bench in enumerate(doc["benchmarks"]):
            for j, run in enumerate(bench["runs"]):
                for k in range(len(run.get("values", []))):
                    spots.append((run["values"], k, f"benchmarks[{i}].runs[{j}].values[{k}]"))
    else:
        for i, result in enumerate(doc["results"]):
            for key in ("times", "memory_usage_byte"):
                for k in range(len(result.get(key, []))):
                    spots.append((result[key], k, f"results[{i}].{key}[{k}]"))
    return spots


@SETTINGS
@given(ANY_DOC, st.data())
def test_one_bad_sample_value(case, data) -> None:
    kind, (doc, expected) = case
    doc = copy.deepcopy(doc)
    holder, key, where = data.draw(st.sampled_from(value_spots(kind, doc)), label="spot")
    holder[key] = copy.deepcopy(data.draw(st.sampled_from(WRONG), label="wrong"))
    result = read_text(json.dumps(doc))
    assert result.format == FORMATS[kind]
    assert result.frame.height == len(expected) - 1
    assert where in [p.where for p in result.problems]


@SETTINGS
@given(ANY_DOC, st.data())
def test_dropped_keys(case, data) -> None:
    _, (doc, expected) = case
    doc = copy.deepcopy(doc)
    spots = places(doc, holders=True)
    picks = data.draw(st.lists(st.integers(0, len(spots) - 1), min_size=1, max_size=3, unique=True))
    for i in picks:
        holder, key = spots[i]
        holder.pop(key, None)
    result = read_text(json.dumps(doc))
    # Optional series (counters, memory) may legitimately be absent; core times may not.
    core = sum(1 for s in expected if s[1] in CORE)
    kept = result.frame.filter(result.frame["metric"].is_in(CORE)).height
    if result.format in FORMATS.values() and kept < core:
        assert result.problems, "samples were dropped without a problem"


@SETTINGS
@given(
    st.recursive(
        st.none() | st.booleans() | NUMBERS | st.text(max_size=8),
        lambda kids: (
            st.lists(kids, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "benchmarks",
                        "results",
                        "context",
                        "runs",
                        "values",
                        "metadata",
                        "name",
                        "times",
                        "real_time",
                        "command",
                        "version",
                    ]
                ),
                kids,
                max_size=4,
            )
        ),
        max_leaves=20,
    )
)
def test_arbitrary_json_never_raises(doc) -> None:
    result = read_text(json.dumps(doc))
    if result.format in FORMATS.values():
        assert result.frame["value"].is_finite().all()
