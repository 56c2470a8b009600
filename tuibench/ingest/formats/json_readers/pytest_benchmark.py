"""pytest-benchmark JSON with the per-round timings (`--benchmark-json`, or a saved run with
`--benchmark-save-data`).

What maps to what:

- each entry of `benchmarks` is one benchmark named by its `fullname`
  (`tests/test_codec.py::test_encode[1k]`), metric `time`, unit `s`, lower is better;
- the samples are `stats.data`: one value per round, already divided by the round's
  iterations; the file is one iteration (one pytest process);
- `machine_info` (node, cpu brand, python version and implementation) and `commit_info`
  (id, branch) and `datetime` go into metadata.

A benchmark saved without `stats.data` (pytest-benchmark's `--benchmark-save` and
`--benchmark-autosave` keep only summary statistics) is a problem that says how to get the
data; values that are not numbers are problems with their `where`; the rest loads.
"""

from __future__ import annotations

from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, as_number
from tuibench.model.problems import Problem

NAME = "pytest-benchmark JSON"

NO_DATA = (
    "saved without per-round data (no stats.data; only summary statistics, which "
    "cannot be compared): re-run with `pytest --benchmark-save-data`, or write the file "
    "with `pytest --benchmark-json=PATH`, which always includes the data"
)


def matches_json(obj: object) -> bool:
    if not isinstance(obj, dict) or not isinstance(obj.get("benchmarks"), list):
        return False
    entries = obj["benchmarks"]
    if any(isinstance(b, dict) and "stats" in b and "fullname" in b for b in entries):
        return True
    return not entries and "machine_info" in obj and "commit_info" in obj


def _text(x: object) -> str | None:
    if x is None or isinstance(x, dict | list):
        return None
    s = str(x).strip()
    return s or None


def _metadata(obj: dict) -> dict[str, str]:
    meta: dict[str, str] = {}
    machine = x if isinstance(x := obj.get("machine_info"), dict) else {}
    cpu = x if isinstance(x := machine.get("cpu"), dict) else {}
    commit = x if isinstance(x := obj.get("commit_info"), dict) else {}
    found = {
        "node": machine.get("node"),
        "cpu": cpu.get("brand_raw") or cpu.get("brand"),
        "python_version": machine.get("python_version"),
        "python_implementation": machine.get("python_implementation"),
        "commit": commit.get("id"),
        "branch": commit.get("branch"),
        "datetime": obj.get("datetime"),
    }
    for key, value in found.items():
        text = _text(value)
        if text is not None:
            meta[key] = text
    return meta


def read_json(obj: object, path: Path) -> ReadResult:
    records = Records()
    problems: list[Problem] = []

    def bad(reason: str, where: str | None = None) -> None:
        problems.append(Problem(str(path), reason, where=where))

    entries = obj["benchmarks"] if isinstance(obj, dict) else []
    for i, bench in enumerate(entries):
        where = f"benchmarks[{i}]"
        if not isinstance(bench, dict):
            bad(f"expected a benchmark object, found {bench!r:.40}", where)
            continue
        name = _text(bench.get("fullname")) or _text(bench.get("name"))
        if name is None:
            bad("benchmark without a fullname or name: skipped", f"{where}.fullname")
            continue
        stats = bench.get("stats")
        if not isinstance(stats, dict):
            bad(f"{name}: no stats object", f"{where}.stats")
            continue
        data = stats.get("data")
        if data is None:
            bad(f"{name}: {NO_DATA}", f"{where}.stats.data")
            continue
        if not isinstance(data, list):
            bad(
                f"{name}: expected a list of times in seconds, found {type(data).__name__}",
                f"{where}.stats.data",
            )
            continue
        if not data:
            bad(f"{name}: stats.data is empty (no rounds were run)", f"{where}.stats.data")
        for j, raw in enumerate(data):
            value = as_number(raw)
            if value is None:
                bad(f"{name}: round time {raw!r:.40} is not a number", f"{where}.stats.data[{j}]")
                continue
            records.add(name, "time", value, sample=j, unit="s", better="lower")
    if not entries:
        bad("no benchmarks in the file (the pytest run collected none, or all of them failed)")
    meta = _metadata(obj) if isinstance(obj, dict) else {}
    return ReadResult(records.frame(), problems, meta)
