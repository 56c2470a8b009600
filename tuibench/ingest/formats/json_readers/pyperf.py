"""pyperf JSON (``python -m pyperf ... -o result.json``, also ``.json.gz``).

What maps to what:

- metadata is inherited: suite ``metadata`` -> benchmark ``metadata`` -> run ``metadata``;
  ``name`` and ``unit`` may sit at any of these levels (the deepest wins).
- benchmark: the inherited ``name``. A file holding a single benchmark without a name uses
  the file name without ``.json``/``.json.gz``.
- iteration: each run that has ``values`` (one worker process), numbered 0, 1, 2... in file
  order for each benchmark. Runs without ``values`` (calibration) are skipped; ``warmups``
  are never samples.
- sample: the position of the value inside its run.
- metric from the inherited ``unit``: ``second`` -> ``time`` (``s``), ``byte`` -> ``memory``
  (``B``), ``integer`` -> ``value`` (no unit); lower is better for all three. A missing unit
  means ``second``, as in pyperf.
- problems: values that are not finite numbers, empty or mistyped lists and objects, unknown
  units, benchmarks without a name or without any run with values.
- metadata: suite-level facts about the system (hostname, platform, CPU, Python version...).
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeGuard

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem
from tuibench.model.systems import file_stem

NAME = "pyperf JSON"

UNITS = {"second": ("time", "s"), "byte": ("memory", "B"), "integer": ("value", None)}
SYSTEM_KEYS = (
    "hostname",
    "platform",
    "cpu_model_name",
    "cpu_count",
    "cpu_config",
    "cpu_affinity",
    "python_version",
    "python_implementation",
    "python_compiler",
    "python_executable",
    "perf_version",
    "aslr",
    "boot_time",
    "timer",
)


def matches_json(obj: object) -> bool:
    """A ``benchmarks`` list whose entries have ``runs``, or pyperf's version + metadata."""
    if not isinstance(obj, dict) or "benchmarks" not in obj:
        return False
    benches = obj["benchmarks"]
    if isinstance(benches, list) and any(isinstance(b, dict) and "runs" in b for b in benches):
        return True
    return (
        isinstance(obj.get("version"), str)
        and isinstance(obj.get("metadata"), dict)
        and "context" not in obj
        and "machine_info" not in obj
    )


def read_json(obj: dict, path: Path) -> ReadResult:
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    suite = _metadata(obj, "metadata", problem)
    info = {
        k: str(suite[k])
        for k in SYSTEM_KEYS
        if isinstance(suite.get(k), str | int | float) and not isinstance(suite[k], bool)
    }
    rec = Records()
    benches = obj.get("benchmarks")
    if not isinstance(benches, list):
        problem(
            f"'benchmarks' should be a list of benchmarks, found {describe(benches)}", "benchmarks"
        )
        return ReadResult(rec.data(problem, "benchmarks"), problems, info)
    if not benches:
        problem("'benchmarks' is an empty list: no results in this file", "benchmarks")
    stem = file_stem(path) if len(benches) == 1 else None
    iterations: dict[str, int] = {}
    for i, bench in enumerate(benches):
        where = f"benchmarks[{i}]"
        if not isinstance(bench, dict):
            problem(f"expected a benchmark (an object with 'runs'), found {describe(bench)}", where)
            continue
        md = {**suite, **_metadata(bench, f"{where}.metadata", problem)}
        _read_benchmark(bench, md, where, stem, rec, iterations, problem)
    return ReadResult(rec.data(problem, "benchmarks"), problems, info)


def _read_benchmark(
    bench: dict,
    md: dict,
    where: str,
    stem: str | None,
    rec: Records,
    iterations: dict[str, int],
    problem,
) -> None:
    name = md.get("name", stem)
    label = repr(name) if _is_name(name) else "(no name)"
    runs = bench.get("runs")
    if not isinstance(runs, list) or not runs:
        problem(
            f"benchmark {label}: expected a non-empty 'runs' list, found {describe(runs)}",
            f"{where}.runs",
        )
        return
    measured = 0
    skipped: dict[str, list[str]] = {}  # reason -> where, reported once per benchmark
    for j, run in enumerate(runs):
        rwhere = f"{where}.runs[{j}]"
        if not isinstance(run, dict):
            problem(f"benchmark {label}: expected a run (an object), found {describe(run)}", rwhere)
            continue
        if "values" not in run:
            if not run.get("warmups"):
                problem(f"benchmark {label}: run has neither 'values' nor 'warmups'", rwhere)
            continue  # a calibration run: warmups only
        measured += 1
        rmd = {**md, **_metadata(run, f"{rwhere}.metadata", problem)}
        name = rmd.get("name", stem)
        if not _is_name(name):
            reason = (
                "no benchmark name: expected metadata 'name' (a string) in the suite, the "
                f"benchmark or the run, found {describe(name)}"
            )
            skipped.setdefault(reason, []).append(rwhere)
            continue
        unit = rmd.get("unit", "second")
        if not isinstance(unit, str) or unit not in UNITS:
            reason = (
                f"benchmark {name!r}: unit should be second, byte or integer, "
                f"found {describe(unit)}"
            )
            skipped.setdefault(reason, []).append(rwhere)
            continue
        values = run["values"]
        if not isinstance(values, list) or not values:
            problem(
                f"benchmark {name!r}: 'values' should be a non-empty list of numbers, found "
                f"{describe(values)}",
                f"{rwhere}.values",
            )
            continue
        iteration = iterations.get(name, 0)
        iterations[name] = iteration + 1
        metric, unit_ = UNITS[unit]
        bad = []
        for k, value in enumerate(values):
            x = as_number(value)
            if x is None:
                bad.append(k)
            else:
                rec.add(name, metric, x, iteration=iteration, sample=k, unit=unit_, better="lower")
        if bad:
            problem(
                f"benchmark {name!r}, run {j}: {len(bad)} of {len(values)} values are not "
                f"finite numbers (first: {describe(values[bad[0]])}); not loaded",
                f"{rwhere}.values[{bad[0]}]",
            )
    for reason, wheres in skipped.items():
        runs_ = f"{len(wheres)} runs" if len(wheres) > 1 else "run"
        problem(f"{reason}; {runs_} not loaded", wheres[0])
    if not measured:
        problem(
            f"benchmark {label}: no run has 'values' (only calibration or warmup runs), "
            "nothing to load",
            f"{where}.runs",
        )


def _metadata(holder: dict, where: str, problem) -> dict:
    """The ``metadata`` object of the suite, a benchmark or a run (absent: empty)."""
    if "metadata" not in holder:
        return {}
    md = holder["metadata"]
    if not isinstance(md, dict):
        problem(f"'metadata' should be an object, found {describe(md)}; ignored", where)
        return {}
    return md


def _is_name(x: object) -> TypeGuard[str]:
    return isinstance(x, str) and x.strip() != ""
