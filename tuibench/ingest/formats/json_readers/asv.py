"""airspeed velocity (asv) results: `results/<machine>/<commit>-<env>.json`.

A results file holds, per benchmark, one row aligned with its `result_columns`
(`result`, `params`, `samples`, ...; trailing columns may be left out). What maps to what:

- benchmark: the asv name (`bench_small.TimeSuite.time_sum`); a parametrised benchmark
  gives one benchmark per combination of its `params` (asv's order, the product of the
  lists), named `name/n:10/kind:list` after the `param_names` of `benchmarks.json`
  (`param1`, `param2`, ... without it); the values lose the quotes asv keeps (`'list'`).
- samples: the combination's `samples` (written with `asv run --record-samples`); without
  them the combination's `result` is the file's one sample of it, and its rows say so.
  A `null` result (the benchmark failed or was skipped for those params) is a problem.
- the file is one iteration (one `asv run` on one commit and environment).
- metric and unit: `time` (`s`) for `time_*`, `memory` (`B`) for `mem_*` and `peakmem_*`,
  both lower is better; `track_*` gives metric `value` in the unit `benchmarks.json` names,
  with an unknown direction (asv does not say which way is better). The unit and type come
  from `benchmarks.json` beside the results folder (`results/benchmarks.json`), else from
  the name's prefix.
- asv's own `benchmarks.json` and `machine.json` are recognised and give nothing.
"""

from __future__ import annotations

import ast
import itertools
import json
from functools import lru_cache
from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, as_number, describe
from tuibench.model.problems import Problem

NAME = "asv results"

# asv benchmark type -> (metric, unit, better); `track` takes its unit from benchmarks.json.
# Both tables are looked up with whatever benchmarks.json holds (object keys).
TYPES: dict[object, tuple[str, str | None, str]] = {
    "time": ("time", "s", "lower"),
    "memory": ("memory", "B", "lower"),
    "peakmemory": ("memory", "B", "lower"),
    "track": ("value", None, "unknown"),
}
PREFIXES = {"time": "time", "mem": "memory", "peakmem": "peakmemory", "track": "track"}
UNITS: dict[object, str] = {"seconds": "s", "bytes": "B"}
ONE_VALUE = "asv kept one value of this run, not its samples"
RECORD = " (asv run --record-samples keeps them)"


def matches_json(obj: object) -> bool:
    if not isinstance(obj, dict):
        return False
    if "result_columns" in obj and isinstance(obj.get("results"), dict):
        return True
    return _is_machine(obj) or _is_benchmarks(obj)


MACHINE_KEYS = {"machine", "arch", "cpu", "num_cpu", "os", "ram", "version"}


def _is_machine(obj: dict) -> bool:
    """`machine.json`: `asv machine` writes the name and whatever facts it was given."""
    return "machine" in obj and obj.keys() <= MACHINE_KEYS


def _is_benchmarks(obj: dict) -> bool:
    entries = [v for k, v in obj.items() if k != "version"]
    return bool(entries) and all(
        isinstance(v, dict) and {"name", "type", "unit", "params"} <= v.keys() for v in entries
    )


def read_json(obj: dict, path: Path) -> ReadResult:
    problems: list[Problem] = []

    def problem(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    rec = Records()
    notes: list[tuple[str, str, str]] = []
    if "result_columns" not in obj:
        return ReadResult(rec.data(), problems)  # benchmarks.json or machine.json
    columns = obj["result_columns"]
    if not isinstance(columns, list) or "result" not in columns:
        problem(f"'result_columns' should list 'result', found {describe(columns)}", "")
        return ReadResult(rec.data(), problems)
    info = _benchmarks(path)
    for name, row in obj["results"].items():
        where = f"results.{name}"
        if not isinstance(row, list):
            problem(f"benchmark {name!r}: expected a list of columns, found {describe(row)}", where)
            continue
        fields = dict(zip(columns, row, strict=False))
        _benchmark(rec, notes, name, fields, info.get(name, {}), where, problem)
    metadata = {k: str(obj[k]) for k in ("commit_hash", "env_name") if isinstance(obj.get(k), str)}
    return ReadResult(rec.data(problem, "results"), problems, metadata, notes=notes)


def _benchmark(rec, notes, name: str, fields: dict, info: dict, where: str, problem) -> None:
    kind = info.get("type") or PREFIXES.get(name.rsplit(".", 1)[-1].split("_", 1)[0])
    metric, unit, better = TYPES.get(kind, ("value", None, "unknown"))
    if unit is None:
        unit = UNITS.get(info.get("unit"), info.get("unit") or None)
    names = _combinations(name, fields.get("params") or [], info.get("param_names"))
    results = fields["result"]
    if not isinstance(results, list) or len(results) != len(names):
        problem(
            f"benchmark {name!r}: expected {len(names)} result(s), one per combination of "
            f"its params, found {describe(results)}",
            f"{where}[0]",
        )
        return
    samples = fields.get("samples")
    samples = samples if isinstance(samples, list) and len(samples) == len(names) else None
    for k, bench in enumerate(names):
        values = samples[k] if samples is not None else None
        if not isinstance(values, list) or not values:
            x = as_number(results[k])
            if x is None:
                problem(f"benchmark {bench!r}: no result ({describe(results[k])})", where)
                continue
            values = [x]
            notes.append((bench, metric, ONE_VALUE + (RECORD if kind == "time" else "")))
        for i, value in enumerate(values):
            x = as_number(value)
            if x is not None:
                rec.add(bench, metric, x, sample=i, unit=unit, better=better)


def _combinations(name: str, params: list, param_names: object) -> list[str]:
    """One benchmark name per combination of params, in asv's order."""
    if not params or not all(isinstance(p, list) for p in params):
        return [name]
    if not isinstance(param_names, list) or len(param_names) != len(params):
        param_names = [f"param{i + 1}" for i in range(len(params))]
    return [
        name + "".join(f"/{k}:{_plain(v)}" for k, v in zip(param_names, combo, strict=True))
        for combo in itertools.product(*params)
    ]


def _plain(value: object) -> str:
    """asv stores each param value as its repr (`'list'`): the value itself."""
    text = str(value)
    try:
        literal = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    return literal if isinstance(literal, str) else text


def _benchmarks(path: Path) -> dict:
    """`benchmarks.json` of the results folder (`results/<machine>/<file>`), or {}."""
    for folder in (path.parent.parent, path.parent):
        try:
            mtime = (folder / "benchmarks.json").stat().st_mtime_ns
        except OSError:
            continue
        found = _load(folder / "benchmarks.json", mtime)
        if found:
            return found
    return {}


@lru_cache(maxsize=32)
def _load(path: Path, mtime: int) -> dict:
    """The parsed file; `mtime` keys the cache so a changed file is read again."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return obj if isinstance(obj, dict) else {}
