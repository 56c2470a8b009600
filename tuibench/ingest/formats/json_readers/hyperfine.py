"""hyperfine JSON (``hyperfine --export-json <file> ...``).

What maps to what:

- benchmark: ``command`` (the ``--command-name`` when one was given). When ``parameters`` is
  a non-empty object (``--parameter-scan``, ``--parameter-list``), the parameters are appended
  in braces, sorted by name, as ``name=value`` pairs separated by ``", "``:
  ``sleep 0.1 {delay=0.1}``, ``make -j 4 {compiler=gcc, threads=4}``. So runs with parameters
  stay distinct even when a parameter does not appear in the command.
- iteration: null, one file is one iteration. sample: the position in ``times``; a command
  that appears twice in one file continues the numbering of its first appearance.
- metrics: ``time`` from ``times`` (``s``, lower is better); ``user`` and ``system`` (``s``,
  lower) only when they are per-run lists (hyperfine itself writes their means, which are not
  samples); ``memory`` from ``memory_usage_byte`` (``B``, lower). ``mean``, ``stddev`` (null
  after one run), ``median``, ``min`` and ``max`` are summaries and are not read.
- problems: non-zero ``exit_codes`` (null: killed by a signal) name the command and count the
  failed runs, whose times are still loaded (``--ignore-failure``); the command's rows get a
  note saying how many runs failed. Missing, empty or mistyped lists and values that are
  not finite numbers or negative (no time or size is) are problems too, and not loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem

NAME = "hyperfine JSON"

# key in a result -> (metric, unit); all lower is better.
SERIES = {
    "times": ("time", "s"),
    "user": ("user", "s"),
    "system": ("system", "s"),
    "memory_usage_byte": ("memory", "B"),
}
RESULT_KEYS = frozenset({"times", "mean", "exit_codes"})
MISSING = object()


def matches_json(obj: object) -> bool:
    """A ``results`` list of objects with a ``command`` and times, or ``results`` alone."""
    if not isinstance(obj, dict) or "results" not in obj:
        return False
    results = obj["results"]
    if isinstance(results, list) and any(
        isinstance(r, dict) and {"measurements", "epochs"} & r.keys() for r in results
    ):
        return False  # nanobench's JSON: its results are epochs, not commands
    if isinstance(results, list) and any(
        isinstance(r, dict) and "command" in r and RESULT_KEYS & r.keys() for r in results
    ):
        return True
    return set(obj) == {"results"}


def read_json(obj: dict, path: Path) -> ReadResult:
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    rec = Records()
    results = obj.get("results")
    if not isinstance(results, list) or not results:
        problem(
            f"'results' should be a non-empty list of benchmark results, found {describe(results)}",
            "results",
        )
        return ReadResult(rec.data(problem, "results"), problems)
    samples: dict[str, int] = {}
    failures: dict[str, list[int]] = {}  # command -> [failed runs, runs]
    for i, result in enumerate(results):
        where = f"results[{i}]"
        if not isinstance(result, dict):
            problem(f"expected a benchmark result (an object), found {describe(result)}", where)
            continue
        name = _name(result, where, problem)
        if name is None:
            continue
        first = samples.get(name, 0)
        count = 0
        for key, (metric, unit) in SERIES.items():
            value = result.get(key, MISSING)
            if key != "times" and key not in result:
                continue
            if key in ("user", "system") and as_number(value) is not None:
                continue  # hyperfine's mean over the runs, not per-run samples
            count = max(
                count, _series(rec, name, metric, unit, value, first, f"{where}.{key}", problem)
            )
        samples[name] = first + count
        failed, runs = _exit_codes(name, result, where, problem)
        total = failures.setdefault(name, [0, 0])
        total[0], total[1] = total[0] + failed, total[1] + runs
    return ReadResult(rec.data(problem, "results"), problems, notes=_notes(rec, failures))


def _notes(rec: Records, failures: dict[str, list[int]]) -> list[tuple[str, str, str]]:
    """A note on every row of a command whose samples include failed runs."""
    pairs = dict.fromkeys(zip(rec.cols["benchmark"], rec.cols["metric"], strict=True))
    return [
        (
            name,
            metric,
            f"{failures[name][0]} of {failures[name][1]} runs failed (non-zero "
            "exit code or signal); their times are among the samples",
        )
        for name, metric in pairs
        if failures.get(name, [0])[0]
    ]


def _name(result: dict, where: str, problem) -> str | None:
    command = result.get("command")
    if not isinstance(command, str) or not command.strip():
        problem(
            f"result skipped: expected a 'command' (a string), found {describe(command)}",
            f"{where}.command",
        )
        return None
    params = result.get("parameters")
    if params is None or params == {}:
        return command
    if not isinstance(params, dict):
        problem(
            f"command {command!r}: 'parameters' should be an object of name: value, found "
            f"{describe(params)}; the command alone names this result",
            f"{where}.parameters",
        )
        return command
    pairs = ", ".join(f"{k}={_text(v)}" for k, v in sorted(params.items()))
    return f"{command} {{{pairs}}}"


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _series(
    rec: Records, name: str, metric: str, unit: str, values: object, first: int, where: str, problem
) -> int:
    """Add one list of per-run values; return its length (the samples it numbers)."""
    if not isinstance(values, list) or not values:
        key = where.rsplit(".", 1)[1]
        found = f"found {describe(values)}" if values is not MISSING else "but it is missing"
        problem(
            f"command {name!r}: {key!r} should be a non-empty list of numbers, {found}; "
            f"no {metric} samples",
            where,
        )
        return 0
    bad, negative = [], []
    for k, value in enumerate(values):
        x = as_number(value)
        if x is None:
            bad.append(k)
        elif x < 0:  # times and sizes: a clock that stepped back, or an edited file
            negative.append(k)
        else:
            rec.add(name, metric, x, sample=first + k, unit=unit, better="lower")
    for which, what in ((bad, "not finite numbers"), (negative, "negative")):
        if which:
            problem(
                f"command {name!r}: {len(which)} of {len(values)} {metric} values are {what} "
                f"(first: {describe(values[which[0]])}); not loaded",
                f"{where}[{which[0]}]",
            )
    return len(values)


def _exit_codes(name: str, result: dict, where: str, problem) -> tuple[int, int]:
    """(failed runs, runs) of one result; problems for failures and bad lists."""
    if "exit_codes" not in result:
        return 0, 0
    codes = result["exit_codes"]
    if not isinstance(codes, list):
        problem(
            f"command {name!r}: 'exit_codes' should be a list, found {describe(codes)}; cannot "
            "tell whether its runs succeeded",
            f"{where}.exit_codes",
        )
        return 0, 0
    failed = [c for c in codes if isinstance(c, bool) or c != 0]
    if failed:
        shown = ", ".join(dict.fromkeys("signal" if c is None else str(c) for c in failed))
        problem(
            f"command {name!r}: {len(failed)} of {len(codes)} runs failed (exit codes: "
            f"{shown}); its samples include the failed runs",
            f"{where}.exit_codes",
        )
    return len(failed), len(codes)
