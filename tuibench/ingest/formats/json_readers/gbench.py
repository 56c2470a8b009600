"""Google Benchmark JSON (``--benchmark_out=<file> --benchmark_out_format=json``).

What maps to what:

- benchmark: ``run_name`` when present, else ``name`` (files older than ``run_name``).
- sample: each entry with ``run_type: "iteration"``; repeated entries of one benchmark
  (``--benchmark_repetitions``) are its samples, numbered in file order. Entries of old files
  (no ``run_type``) are samples unless they look like aggregates: a name ending in ``_mean``,
  ``_median``, ``_stddev``, ``_cv``, ``_BigO`` or ``_RMS``, or an ``aggregate_name``,
  ``big_o`` or ``rms`` key. Aggregates are summaries, not data: skipped without a problem,
  except when a benchmark has no ``iteration`` entry at all
  (``--benchmark_report_aggregates_only=true``): its ``_mean`` entry is then the file's
  one sample of it (several files give several iterations), with a row note saying only
  aggregates were available.
- iteration: null, one file is one process run.
- metrics: ``real_time`` and ``cpu_time`` converted from ``time_unit`` to ns, lower is better;
  numeric keys ending in ``_per_second`` are rates (``bytes_per_second`` in ``B/s``,
  ``items_per_second`` in ``items/s``, others ``/s``), higher is better; the memory manager's
  ``max_bytes_used``, ``total_allocated_bytes``, ``net_heap_growth`` (``B``) and
  ``allocs_per_iter`` are lower-is-better; any other numeric key is a user counter named after
  the key: the JSON gives it no unit and no direction, so its direction is "unknown".
- problems: errored (``error_occurred``) and skipped (``skipped``) entries, NaN/Infinity or
  non-numeric values, unknown time units and unexpected types; the rest of the file loads.
- metadata: ``context`` facts (host, executable, CPUs, library version and build, date).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem

NAME = "Google Benchmark JSON"

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
TIMES = ("real_time", "cpu_time")
AGGREGATE_SUFFIXES = ("_mean", "_median", "_stddev", "_cv", "_BigO", "_RMS")
# Keys that describe an entry rather than measure it: never metrics.
STRUCTURAL = frozenset(
    {
        "name",
        "run_name",
        "run_type",
        "family_index",
        "per_family_instance_index",
        "repetitions",
        "repetition_index",
        "threads",
        "iterations",
        "real_time",
        "cpu_time",
        "time_unit",
        "aggregate_name",
        "aggregate_unit",
        "label",
        "error_occurred",
        "error_message",
        "skipped",
        "skip_message",
        "big_o",
        "rms",
        "complexity_n",
        "cpu_coefficient",
        "real_coefficient",
    }
)
# Keys Google Benchmark itself writes (memory manager): (unit, better).
KNOWN_COUNTERS = {
    "max_bytes_used": ("B", "lower"),
    "total_allocated_bytes": ("B", "lower"),
    "net_heap_growth": ("B", "lower"),
    "allocs_per_iter": (None, "lower"),
}
RATE_UNITS = {"bytes_per_second": "B/s", "items_per_second": "items/s"}
ENTRY_KEYS = frozenset({"real_time", "cpu_time", "error_occurred", "run_type", "aggregate_name"})
CONTEXT_KEYS = (
    "host_name",
    "executable",
    "num_cpus",
    "mhz_per_cpu",
    "cpu_scaling_enabled",
    "library_version",
    "library_build_type",
    "date",
)


def matches_json(obj: object) -> bool:
    """A ``benchmarks`` list of Google Benchmark entries, or a ``context`` object beside it."""
    if not isinstance(obj, dict) or "benchmarks" not in obj:
        return False
    if isinstance(obj.get("context"), dict):
        return True
    entries = obj["benchmarks"]
    if not isinstance(entries, list):
        return False
    entries = [e for e in entries if isinstance(e, dict)]
    if any("runs" in e or "stats" in e or "fullname" in e for e in entries):
        return False  # pyperf or pytest-benchmark
    return any("name" in e and ENTRY_KEYS & e.keys() for e in entries)


def read_json(obj: dict, path: Path) -> ReadResult:
    return read_entries(obj, obj.get("benchmarks"), path)


def read_entries(obj: dict, entries: object, path: Path) -> ReadResult:
    """`obj` gives the context; `entries` is the `benchmarks` value, or an iterator over
    its items when a large file is read item by item (formats/json_stream.py)."""
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    metadata = _context(obj, problem)
    rec = Records()
    notes: list[tuple[str, str, str]] = []
    if not isinstance(entries, list | Iterator):
        problem(
            f"'benchmarks' should be a list of benchmark entries, found {describe(entries)}",
            "benchmarks",
        )
    else:
        samples: dict[str, int] = {}
        means: dict[str, tuple[dict, str]] = {}
        i = -1
        for i, entry in enumerate(entries):
            _read_entry(entry, f"benchmarks[{i}]", rec, samples, means, problem)
        notes = _means_only(means, samples, rec, problem)
        if i < 0:
            problem("'benchmarks' is an empty list: no results in this file", "benchmarks")
        elif not len(rec) and not problems:
            problem(
                "no samples: the file holds only aggregate rows (mean, median, stddev, ...), "
                "which are summaries, not measurements",
                "benchmarks",
            )
    return ReadResult(rec.data(problem, "benchmarks"), problems, metadata, notes=notes)


def _means_only(
    means: dict[str, tuple[dict, str]], samples: dict[str, int], rec: Records, problem
) -> list[tuple[str, str, str]]:
    """Benchmarks written with only aggregates: their `_mean` entry is one sample."""
    notes: list[tuple[str, str, str]] = []
    for bench, (entry, where) in means.items():
        if bench in samples:
            continue  # it has real repetitions
        before = len(rec)
        _read_values(entry, bench, where, rec, 0, problem)
        n = entry.get("repetitions")
        of = f"the mean of {n} repetitions" if as_number(n) else "the mean of its repetitions"
        text = f"only aggregates were available: each file gives one value, {of}"
        metrics = dict.fromkeys(rec.cols["metric"][before:])
        notes.extend((bench, m, text) for m in metrics)
    return notes


def _read_entry(
    entry: object,
    where: str,
    rec: Records,
    samples: dict[str, int],
    means: dict[str, tuple[dict, str]],
    problem,
) -> None:
    if not isinstance(entry, dict):
        problem(f"expected a benchmark entry (an object), found {describe(entry)}", where)
        return
    name, run_name = entry.get("name"), entry.get("run_name")
    bench = run_name if _is_name(run_name) else name
    if not _is_name(bench):
        problem(
            f"entry skipped: expected a benchmark name (a string 'name'), found {describe(name)}",
            f"{where}.name",
        )
        return
    if "run_name" in entry and not _is_name(run_name):
        problem(
            f"benchmark {bench!r}: 'run_name' should be a string, found {describe(run_name)}; "
            "using 'name' instead",
            f"{where}.run_name",
        )

    if "run_type" in entry:
        run_type = entry["run_type"]
        if run_type == "aggregate":
            if entry.get("aggregate_name") == "mean":
                means.setdefault(bench, (entry, where))
            return
        if run_type != "iteration":
            problem(
                f"benchmark {bench!r} skipped: run_type should be 'iteration' or "
                f"'aggregate', found {describe(run_type)}",
                f"{where}.run_type",
            )
            return
    elif _old_aggregate(entry, bench):
        return

    for flag, message, what in (
        ("error_occurred", "error_message", "failed"),
        ("skipped", "skip_message", "was skipped"),
    ):
        if flag not in entry or entry[flag] is False:
            continue
        if entry[flag] is True:
            msg = entry.get(message)
            why = f": {msg}" if isinstance(msg, str) and msg else " (no message)"
            problem(f"benchmark {bench!r} {what}{why}; no samples from this entry", where)
        else:
            problem(
                f"benchmark {bench!r} skipped: '{flag}' should be true or false, "
                f"found {describe(entry[flag])}",
                f"{where}.{flag}",
            )
        return

    if _read_values(entry, bench, where, rec, samples.get(bench, 0), problem):
        samples[bench] = samples.get(bench, 0) + 1


def _read_values(entry: dict, bench: str, where: str, rec: Records, sample: int, problem) -> bool:
    """Times and counters of one entry as one sample; False when nothing loaded."""
    missing = [k for k in TIMES if k not in entry]
    if missing:
        problem(f"benchmark {bench!r}: entry has no {' and no '.join(missing)}", where)
    loaded = False
    unit = entry.get("time_unit", "ns")
    scale = TO_NS.get(unit) if isinstance(unit, str) else None
    if scale is None and len(missing) < len(TIMES):
        problem(
            f"benchmark {bench!r}: time_unit should be ns, us, ms or s, found {describe(unit)}; "
            "its real_time and cpu_time are not loaded",
            f"{where}.time_unit",
        )
    for key in TIMES:
        if key not in entry:
            continue
        x = as_number(entry[key])
        if x is None:
            problem(_bad_value(bench, key, entry[key]), f"{where}.{key}")
        elif scale is not None:
            rec.add(bench, key, x * scale, sample=sample, unit="ns", better="lower")
            loaded = True
    for key, value in entry.items():
        if key in STRUCTURAL:
            continue
        x = as_number(value)
        if x is None:
            problem(_bad_value(bench, key, value), f"{where}.{key}")
            continue
        unit_, better = _counter_kind(key)
        rec.add(bench, key, x, sample=sample, unit=unit_, better=better)
        loaded = True
    return loaded


def _old_aggregate(entry: dict, bench: str) -> bool:
    """Files written before ``run_type``: aggregates are known by their name or keys."""
    name = entry.get("name")
    name = name if isinstance(name, str) else bench
    return name.endswith(AGGREGATE_SUFFIXES) or any(
        k in entry for k in ("aggregate_name", "big_o", "rms")
    )


def _counter_kind(key: str) -> tuple[str | None, str | None]:
    if key.endswith("_per_second"):
        return RATE_UNITS.get(key, "/s"), "higher"
    return KNOWN_COUNTERS.get(key, (None, "unknown"))


def _context(obj: dict, problem) -> dict[str, str]:
    if "context" not in obj:
        return {}
    ctx = obj["context"]
    if not isinstance(ctx, dict):
        problem(
            f"'context' should be an object, found {describe(ctx)}; system facts not read",
            "context",
        )
        return {}
    facts = {}
    for key in CONTEXT_KEYS:
        value = ctx.get(key)
        if isinstance(value, bool):
            facts[key] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            facts[key] = str(value)
    return facts


def _is_name(x: object) -> TypeGuard[str]:
    return isinstance(x, str) and x.strip() != ""


def _bad_value(bench: str, key: str, value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return f"benchmark {bench!r}: {key} is {describe(value)}, not a measurement; not loaded"
    return f"benchmark {bench!r}: {key} should be a number, found {describe(value)}; not loaded"
