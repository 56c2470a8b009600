"""nanobench JSON (``bench.render(ankerl::nanobench::templates::json(), out)``).

What maps to what:

- benchmark: ``title/name`` (``Bench::title`` and the name given to ``run``); a name
  that appears twice in one file continues the numbering of its first appearance.
- sample: each entry of ``measurements`` (one epoch); the file is one iteration.
- metric ``time`` (``s``, lower is better): the epoch's ``elapsed`` divided by ``batch``,
  the time per ``unit`` that nanobench's own table shows (``ns/item``).
- the CPU counters (``instructions``, ``cpucycles``, ``branchinstructions``,
  ``branchmisses``; ``pagefaults`` and ``contextswitches``), per ``unit`` as well, lower is
  better, only when the result's ``instructions`` or ``cpucycles`` are not all zero:
  nanobench writes zeros when ``perf_event_open`` failed (a container, a VM), and zeros
  there are not measurements.
- the medians and ``medianAbsolutePercentError`` fields are summaries and are not read.
"""

from __future__ import annotations

from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem

NAME = "nanobench JSON"

COUNTERS = (
    "instructions",
    "cpucycles",
    "branchinstructions",
    "branchmisses",
    "pagefaults",
    "contextswitches",
)
_MARKS = {"measurements", "epochs", "median(elapsed)", "batch"}


def matches_json(obj: object) -> bool:
    """A ``results`` list whose entries carry nanobench's epoch fields."""
    if not isinstance(obj, dict) or not isinstance(obj.get("results"), list):
        return False
    entries = [r for r in obj["results"] if isinstance(r, dict)]
    return bool(entries) and all(len(_MARKS & r.keys()) >= 2 for r in entries)


def read_json(obj: dict, path: Path) -> ReadResult:
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    rec = Records()
    counts: dict[str, int] = {}
    for i, result in enumerate(obj["results"]):
        where = f"results[{i}]"
        if not isinstance(result, dict):
            problem(f"expected a benchmark result (an object), found {describe(result)}", where)
            continue
        name = _name(result, where, problem)
        if name is not None:
            counts[name] = _result(rec, name, result, counts.get(name, 0), where, problem)
    if not len(rec) and not problems:
        problem("no measurements in the file", "results")
    return ReadResult(rec.data(problem, "results"), problems)


def _name(result: dict, where: str, problem) -> str | None:
    name, title = result.get("name"), result.get("title")
    if not isinstance(name, str) or not name.strip():
        problem(f"result skipped: expected a 'name' (a string), found {describe(name)}", where)
        return None
    return f"{title}/{name}" if isinstance(title, str) and title.strip() else name


def _result(rec: Records, name: str, result: dict, first: int, where: str, problem) -> int:
    """Add one result's epochs; return the next sample number."""
    epochs = result.get("measurements")
    if not isinstance(epochs, list) or not epochs:
        problem(
            f"benchmark {name!r}: 'measurements' should be a non-empty list of epochs, found "
            f"{describe(epochs)}; no samples",
            f"{where}.measurements",
        )
        return first
    batch = as_number(result.get("batch", 1))
    if batch is None or batch <= 0:
        problem(
            f"benchmark {name!r}: 'batch' should be a positive number, found "
            f"{describe(result.get('batch'))}; times are per iteration, not per unit",
            f"{where}.batch",
        )
        batch = 1.0
    epochs = [e if isinstance(e, dict) else {} for e in epochs]
    counted = any(as_number(e.get(k)) for e in epochs for k in ("instructions", "cpucycles"))
    metrics = [("elapsed", "time", "s"), *((k, k, None) for k in COUNTERS if counted)]
    bad = 0
    for k, epoch in enumerate(epochs):
        for key, metric, unit in metrics:
            x = as_number(epoch.get(key))
            if x is None:
                bad += key == "elapsed"
                continue
            rec.add(name, metric, x / batch, sample=first + k, unit=unit, better="lower")
    if bad:
        problem(
            f"benchmark {name!r}: {bad} of {len(epochs)} epochs have no 'elapsed' number; "
            "not loaded",
            f"{where}.measurements",
        )
    return first + len(epochs)
