"""Criterion.rs measurements: `target/criterion/<benchmark>/new/sample.json`.

`sample.json` is `{"sampling_mode": ..., "iters": [...], "times": [...]}`: sample `i` ran
`iters[i]` iterations in `times[i]` nanoseconds. What maps to what:

- each sample is `times[i] / iters[i]`: metric `time`, unit `ns`, lower is better; the
  file is one iteration (one `cargo bench` run);
- the benchmark is `full_id` from the `benchmark.json` beside it (else
  `group_id/function_id/value_str`), else the folder path below `criterion/`
  (`target/criterion/fib/20/new/sample.json` gives `fib/20`); a sample file copied out of
  its `new/` folder and renamed (`results/<system>/fib-20.json`) is named after the file.

Only `new/` holds the current run. `base/` (a saved baseline) and `change/` would count the
same or an older run again, so their files give no samples and no problems; Criterion's own
`benchmark.json`, `estimates.json` and `tukey.json` are recognised by their content and
likewise give nothing, so they are not reported as unknown files. Mismatched `iters` and
`times`, zero iterations and values that are not numbers are problems with their `where`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TypeGuard

from tuibench.ingest.formats.base import (
    JsonError,
    ReadResult,
    Records,
    as_number,
    empty_frame,
    load_json,
)
from tuibench.model.problems import Problem

NAME = "Criterion.rs"
SKIPPED_FOLDERS = ("base", "change")


def _is_sample(obj: object) -> TypeGuard[dict]:
    return isinstance(obj, dict) and "iters" in obj and "times" in obj


def _is_benchmark_id(obj: object) -> bool:
    """`benchmark.json`: Criterion's BenchmarkId (group_id, function_id, value_str, ...)."""
    keys = ("full_id", "directory_name", "function_id", "value_str")
    return isinstance(obj, dict) and "group_id" in obj and any(k in obj for k in keys)


def _is_estimates(obj: object) -> bool:
    """`estimates.json` (new/ and base/) and `change/estimates.json`."""
    return (
        isinstance(obj, dict)
        and "mean" in obj
        and "median" in obj
        and all(isinstance(obj[k], dict) and "point_estimate" in obj[k] for k in ("mean", "median"))
    )


def _is_tukey(obj: object) -> bool:
    """`tukey.json`: the four Tukey fences, in ascending order."""
    if not isinstance(obj, list) or len(obj) != 4:
        return False
    fences = [f for f in map(as_number, obj) if f is not None]
    return len(fences) == 4 and fences == sorted(fences)


def matches_json(obj: object) -> bool:
    return _is_sample(obj) or _is_benchmark_id(obj) or _is_estimates(obj) or _is_tukey(obj)


def _folder_name(path: Path) -> str:
    if path.parent.name != "new":  # a sample file copied out of its tree: its own name
        name = path.name.removesuffix(".gz").removesuffix(".json")
        return name if name != "sample" else path.parent.name or name
    bench_dir = path.parent.parent
    parts = bench_dir.parts
    if "criterion" in parts:
        below = parts[len(parts) - parts[::-1].index("criterion") :]
        if below:
            return "/".join(below)
    return bench_dir.name or "sample"


def _benchmark_name(path: Path, problems: list[Problem]) -> str:
    info = path.parent / "benchmark.json"
    if info.is_file():
        try:
            obj = load_json(info)
        except JsonError as exc:
            problems.append(
                Problem(
                    str(info),
                    f"{exc.reason}: the benchmark is named after its folder instead",
                    line=exc.line,
                )
            )
            obj = None
        if isinstance(obj, dict):
            full = obj.get("full_id")
            if isinstance(full, str) and full:
                return full
            parts = [obj.get(k) for k in ("group_id", "function_id", "value_str")]
            named = [p for p in parts if isinstance(p, str) and p]
            if named:
                return "/".join(named)
    return _folder_name(path)


def read_json(obj: object, path: Path) -> ReadResult:
    if not _is_sample(obj) or path.parent.name in SKIPPED_FOLDERS:
        return ReadResult(empty_frame())
    problems: list[Problem] = []

    def bad(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    iters, times = obj["iters"], obj["times"]
    for key, seq in (("iters", iters), ("times", times)):
        if not isinstance(seq, list):
            bad(f"expected a list of numbers, found {type(seq).__name__}", key)
    if problems:
        return ReadResult(empty_frame(), problems)
    if len(iters) != len(times):
        kept = min(len(iters), len(times))
        bad(
            f"iters has {len(iters)} entries but times has {len(times)}: only the first {kept} "
            "pairs were read",
            "times",
        )
    bench = _benchmark_name(path, problems)
    records = Records()
    for i, (raw_n, raw_t) in enumerate(zip(iters, times, strict=False)):
        n, t = as_number(raw_n), as_number(raw_t)
        if n is None:
            bad(f"iteration count {raw_n!r:.40} is not a number", f"iters[{i}]")
        elif n <= 0:
            bad(
                f"iteration count {raw_n!r} must be positive: the time per iteration is undefined",
                f"iters[{i}]",
            )
        elif t is None:
            bad(f"time {raw_t!r:.40} is not a number (nanoseconds)", f"times[{i}]")
        elif t < 0:
            bad(f"time {raw_t!r} is negative", f"times[{i}]")
        elif not math.isfinite(t / n):
            bad(f"time {raw_t!r} over {raw_n!r} iterations is too large", f"times[{i}]")
        else:
            records.add(bench, "time", t / n, sample=i, unit="ns", better="lower")
    if not len(records) and not problems:
        bad("no samples (iters and times are empty)", "iters")
    return ReadResult(records.frame(), problems)
