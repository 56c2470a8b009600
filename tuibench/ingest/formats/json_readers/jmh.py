"""JMH results (``java -jar benchmarks.jar -rf json -rff result.json``).

The file is a list of runs, one per benchmark method, mode and combination of params.
What maps to what:

- benchmark: ``benchmark`` (``package.Class.method``), then each of ``params`` as
  ``/name:value`` in the file's order (``...Blake3Benchmark.newHasher/dataLen:16384``).
- metric: the primary metric is named after the ``mode`` (``thrpt``, ``avgt``,
  ``sample``, ``ss``), so one method run in two modes gives two metrics; its unit is
  ``scoreUnit`` (``ops/ms``, ``us/op``). Throughput is higher-is-better, the other modes
  lower-is-better.
- iterations and samples: ``rawData`` holds one list per fork, one value per measurement
  iteration: each fork (a fresh JVM) is an iteration, its measurement iterations are the
  samples. Warmup iterations are not in the file. In ``sample`` mode, where JMH writes
  ``rawDataHistogram`` instead, each measurement iteration's sample is the mean of its
  histogram.
- ``secondaryMetrics`` (profilers such as ``-prof gc``, ``@AuxCounters``) are further
  metrics named by their key (JMH before 1.33 prefixes ``·``, dropped here), read the same
  way. The GC profiler's metrics (``gc.alloc.rate``, ``gc.count``, ...) are lower-is-better;
  any other secondary metric has an unknown direction (JMH does not say).
- ``score``, ``scoreError``, ``scoreConfidence`` and ``scorePercentiles`` are summaries
  and are not read. Metadata: the JMH, JDK and VM versions.
"""

from __future__ import annotations

from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem

NAME = "JMH JSON"

HIGHER_MODES = {"thrpt"}
META = {"jmhVersion": "jmh", "jdkVersion": "jdk", "vmName": "vm", "vmVersion": "vm_version"}


def matches_json(obj: object) -> bool:
    """A list of runs with ``benchmark``, ``mode`` and ``primaryMetric``."""
    if not isinstance(obj, list) or not obj:
        return False
    runs = [r for r in obj if isinstance(r, dict)]
    return bool(runs) and all({"benchmark", "primaryMetric"} <= r.keys() for r in runs)


def read_json(obj: list, path: Path) -> ReadResult:
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    rec = Records()
    metadata: dict[str, str] = {}
    for i, run in enumerate(obj):
        where = f"[{i}]"
        if not isinstance(run, dict):
            problem(f"expected a benchmark run (an object), found {describe(run)}", where)
            continue
        for key, fact in META.items():
            if isinstance(run.get(key), str):
                metadata.setdefault(fact, run[key])
        _run(rec, run, where, problem)
    return ReadResult(rec.data(problem, ""), problems, metadata)


def _run(rec: Records, run: dict, where: str, problem) -> None:
    name = run.get("benchmark")
    if not isinstance(name, str) or not name.strip():
        problem(f"run skipped: expected a 'benchmark' name, found {describe(name)}", where)
        return
    params = run.get("params")
    if isinstance(params, dict):
        name += "".join(f"/{k}:{v}" for k, v in params.items())
    mode = run.get("mode")
    mode = mode if isinstance(mode, str) and mode else "score"
    better = "higher" if mode in HIGHER_MODES else "lower"
    _metric(rec, name, mode, run.get("primaryMetric"), better, f"{where}.primaryMetric", problem)
    secondary = run.get("secondaryMetrics")
    if isinstance(secondary, dict):
        for key, metric in secondary.items():
            label = key.lstrip("·")
            kind = "lower" if label.startswith("gc.") else "unknown"
            _metric(rec, name, label, metric, kind, f"{where}.secondaryMetrics.{key}", problem)


def _metric(rec: Records, name: str, label: str, metric, better: str, where: str, problem) -> None:
    if not isinstance(metric, dict):
        problem(f"benchmark {name!r}: {label} should be an object, found {describe(metric)}", where)
        return
    unit = metric.get("scoreUnit") if isinstance(metric.get("scoreUnit"), str) else None
    forks = metric.get("rawData")
    histogram = forks is None and "rawDataHistogram" in metric
    if histogram:
        forks = metric["rawDataHistogram"]
    if not isinstance(forks, list) or not all(isinstance(f, list) for f in forks):
        problem(
            f"benchmark {name!r}: {label} has no per-iteration data ('rawData' should be a list "
            f"of forks, found {describe(forks)}); only its summary score, not read",
            where,
        )
        return
    bad = 0
    for fork, values in enumerate(forks):
        for k, value in enumerate(values):
            x = _histogram_mean(value) if histogram else as_number(value)
            if x is None:
                bad += 1
                continue
            rec.add(name, label, x, iteration=fork, sample=k, unit=unit, better=better)
    if bad:
        problem(f"benchmark {name!r}: {bad} {label} values are not numbers; not loaded", where)


def _histogram_mean(pairs: object) -> float | None:
    """The mean of one iteration's ``[[value, count], ...]`` histogram."""
    if not isinstance(pairs, list):
        return None
    total = weight = 0.0
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            return None
        value, count = as_number(pair[0]), as_number(pair[1])
        if value is None or count is None or count < 0:
            return None
        total += value * count
        weight += count
    return total / weight if weight > 0 else None
