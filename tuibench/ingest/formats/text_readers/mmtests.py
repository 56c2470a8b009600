"""mmtests results, in the two shapes mmtests itself produces.

a) `extract-mmtests.pl -n <run> -b <test> --print-json`: the extract module object
   as JSON (one object; a list of them when `-n` names several runs). Its `_ResultData` is
   `{op: [ {SampleNrs: [...], Values: [...]}, ... ]}`, one entry per `iter-N` folder in
   mmtests' own lexicographic order (`iter-10` before `iter-2`; the JSON holds no names).
   - benchmark: the test, from `_ModuleName` (`ExtractShellpack<test>`; other modules
     `Extract<Name>` give `name`, `Monitor<X>` gives `monitor/<x>`), else the file name,
     else the basename of `_ShellpackRoot`. The root is shared by every alias of a
     shellpack (hackbench-process-pipes and hackbench-thread-sockets both live in
     `.../hackbench`), so it is the last resort only.
   - metric: the op label; iteration: the index in the op's list (a null entry: no data
     in that iteration); samples: `Values`, numbered by `SampleNrs`
   - better: `_PreferredVal` (`Higher`/`Lower`; mmtests assumes `Lower` when absent). An
     op named like a throughput (`tput`, `ops`, `bw`, ...) but marked `Lower` is
     "unknown" with a note: mmtests writes `Lower` for the throughput ops of dbench,
     tbench, schbench or redis-memtier unless extracted with `--sub-heading`, so the mark
     and the name contradict each other and neither is taken.
   - unit: `_PlotYaxes[op]` or `_PlotYaxis` (`Time (milliseconds)` becomes `ms`, ...)
   - a list of several objects: each object's `_TestName` (the mmtests run) is a system,
     in the list's (`-n`) order; the first is the default reference, as in mmtests.
   Numbers may be JSON strings (Perl keeps what it parsed as text); both are accepted.
   Sample numbers (`SampleNrs`, intervals) are used when all of a file's are whole
   numbers; otherwise samples keep the file's order.

b) `compare-mmtests.pl --json-export` (kept by compare-kernels.sh as `.json.zst` or
   `.json.xz`): an object whose `_ExtractModules` lists one extract module per run, read
   as in a), one system per module, in order.

c) The tab-separated output of a shellpack's `parse-results` script, without a header:
   `metric factorA factorB interval value extra`, `_` meaning empty. The metric is
   `metric-factorA-factorB` with empty parts left out (exactly what mmtests'
   ExtractShellpack builds), the interval is the sample number, `extra` is ignored; the
   file is one iteration (an `iter-N` folder above it gives its number). It carries no
   direction: `better` is "unknown" unless a `shellpack.yaml` beside it (see
   `shellpack.py`) or `tuibench.toml` says. The benchmark is
   the file's name without `.gz`, without a `.tsv`, `.txt`, `.out` or `.json` extension
   and without a leading `tsv-` or `parse-results-`:
   `pgbench.tsv`, `tsv-pgbench` and `parse-results-pgbench.txt` all give `pgbench`. A
   name left empty or generic (`parse-results.tsv`, `tsv`) falls back to the nearest
   folder above that is not `logs` or `iter-N`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeGuard

import polars as pl

from tuibench.ingest.formats.base import ReadResult, Records, open_text
from tuibench.ingest.formats.text_readers import shellpack
from tuibench.model.problems import Problem

NAME = "mmtests"

_NUMBER = re.compile(
    r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)\s*", re.IGNORECASE
)
_DIRECTION = {"higher": "higher", "lower": "lower"}
_UNITS = {
    "time (nanoseconds)": "ns",
    "time (microseconds)": "us",
    "time (milliseconds)": "ms",
    "time (seconds)": "s",
}
# Op names that say "throughput". mmtests marks every op of a module with one direction,
# and writes Lower for the throughput ops of dbench, tbench, schbench or redis-memtier
# when the JSON is extracted without `--sub-heading <metric>`.
_THROUGHPUT = re.compile(
    r"(^|[^a-z])(tput|ops|bw|bandwidth|per_?sec|throughput)([^a-z]|$)", re.IGNORECASE
)
CONTRADICTED = "mmtests marks this op lower-is-better, but its name says throughput"
_LOWER_THROUGHPUT = (
    "direction unknown: mmtests marks this op lower-is-better, but its name says "
    "throughput (an extract without --sub-heading marks every op of the test alike); "
    "extract it with --sub-heading <metric>, or set it in tuibench.toml: "
    '[metrics."{}:{}"] better = "higher" (or "lower")'
)
_EXTENSIONS = (".tsv", ".txt", ".out", ".json")
_PREFIXES = ("tsv-", "parse-results-")
_GENERIC = {"", "tsv", "parse-results", "results"}


def _number(x: object) -> float | None:
    """A number as mmtests writes it: a JSON number or a numeric string ("12.5")."""
    if isinstance(x, str):
        return float(x) if _NUMBER.fullmatch(x) else None
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    try:
        return float(x)
    except OverflowError:  # an integer too large for a float
        return None


def _with_samples(frame: pl.DataFrame, numbers: Sequence[float | None]) -> pl.DataFrame:
    """Use the file's sample numbers when all of them are whole; else keep file order."""
    whole = [int(x) for x in numbers if x is not None and abs(x) < 2**62 and x == int(x)]
    if len(whole) != len(numbers):
        return frame
    return frame.with_columns(pl.Series("sample", whole, dtype=pl.Int64))


# ---------------------------------------------------------------- a) extract-mmtests JSON


def _is_module(obj: object) -> bool:
    return isinstance(obj, dict) and "_ModuleName" in obj and "_ResultData" in obj


def _is_export(obj: object) -> TypeGuard[dict]:
    mods = obj.get("_ExtractModules") if isinstance(obj, dict) else None
    return isinstance(mods, list) and bool(mods) and all(_is_module(m) for m in mods)


def matches_json(obj: object) -> bool:
    if isinstance(obj, list):
        return bool(obj) and all(_is_module(o) for o in obj)
    return _is_module(obj) or _is_export(obj)


def _module_benchmark(mod: dict, path: Path) -> str:
    name = mod.get("_ModuleName")
    if isinstance(name, str):
        if name.startswith("ExtractShellpack") and len(name) > len("ExtractShellpack"):
            return name[len("ExtractShellpack") :]
        if name.startswith("Monitor") and len(name) > len("Monitor"):
            return "monitor/" + name[len("Monitor") :].lower()
        if name.startswith("Extract") and name != "ExtractShellpack" and len(name) > 7:
            return name[len("Extract") :].lower()
    from_file = _name_from_file(path)
    if from_file:
        return from_file
    root = mod.get("_ShellpackRoot")
    if isinstance(root, str) and root.strip("/"):
        return root.rstrip("/").rsplit("/", 1)[-1]
    return _name_from_path(path)


def _unit(label: object) -> str | None:
    if not isinstance(label, str) or not label.strip() or label == "UNKNOWN":
        return None
    return _UNITS.get(label.strip().lower(), label.strip())


def read_json(obj: object, path: Path) -> ReadResult:
    if _is_export(obj):
        modules, several, at = obj["_ExtractModules"], True, "_ExtractModules"
    else:
        modules = obj if isinstance(obj, list) else [obj]
        several, at = isinstance(obj, list) and len(modules) > 1, ""
    records = Records()
    systems: list[str | None] = []
    sample_nrs: list[float | None] = []
    problems: list[Problem] = []
    notes: list[tuple[str, str, str]] = []
    metadata: dict[str, str] = {}

    def bad(reason: str, where: str) -> None:
        problems.append(Problem(str(path), reason, where=where))

    for k, mod in enumerate(modules):
        prefix = f"{at}[{k}]." if isinstance(obj, list) or at else ""
        name = mod.get("_TestName")
        system = name if several and isinstance(name, str) and name else None
        if several and system is None:
            bad("no _TestName: this run's results go to the folder's system", f"{at}[{k}]")
        if not several and isinstance(name, str):
            metadata["mmtests run"] = name
        before = len(records)
        _read_module(mod, path, prefix, records, sample_nrs, bad, notes)
        systems.extend([system] * (len(records) - before))
    frame = _with_samples(records.frame(), sample_nrs)
    order = list(dict.fromkeys(s for s in systems if s is not None))
    if order:
        frame = frame.with_columns(pl.Series("system", systems, dtype=pl.String))
    if not len(records) and not problems:
        bad("no results in _ResultData (the benchmark produced no data)", "_ResultData")
    return ReadResult(frame, problems, metadata, systems=order, notes=list(dict.fromkeys(notes)))


def _direction(pref: object, at: str, bad: Callable) -> str | None:
    if pref is None:
        return "lower"  # what mmtests itself assumes
    better = _DIRECTION.get(str(pref).lower())
    if better is None:
        bad(
            f"_PreferredVal must be Higher or Lower, not {pref!r}; direction left to the loader",
            f"{at}_PreferredVal",
        )
    return better


def _read_module(
    mod: dict,
    path: Path,
    at: str,
    records: Records,
    sample_nrs: list,
    bad: Callable,
    notes: list[tuple[str, str, str]],
) -> None:
    bench = _module_benchmark(mod, path)
    better = _direction(mod.get("_PreferredVal"), at, bad)
    units = x if isinstance(x := mod.get("_PlotYaxes"), dict) else {}
    default_unit = _unit(mod.get("_PlotYaxis"))
    data = mod["_ResultData"]
    if not isinstance(data, dict):
        what = type(data).__name__
        if isinstance(data, list):
            what = "a list (the layout of old mmtests versions)"
        bad(
            f"expected _ResultData to map each operation to its iterations, found {what}",
            f"{at}_ResultData",
        )
        return
    for op, iterations in data.items():
        where = f"{at}_ResultData[{op!r}]"
        if not isinstance(iterations, list):
            bad(
                f"expected a list with one entry per iteration, found {type(iterations).__name__}",
                where,
            )
            continue
        unit = _unit(units.get(op)) or default_unit
        op_better = better
        if better == "lower" and _THROUGHPUT.search(str(op)):
            notes.append((bench, str(op), _LOWER_THROUGHPUT.format(bench, op)))
            op_better = "unknown"  # the mark and the name contradict each other
        for it, entry in enumerate(iterations):
            if entry is None:
                continue  # this operation has no data in that iteration
            if not isinstance(entry, dict) or not isinstance(entry.get("Values"), list):
                bad("expected {SampleNrs: [...], Values: [...]}", f"{where}[{it}]")
                continue
            values, nrs = entry["Values"], entry.get("SampleNrs")
            if not isinstance(nrs, list) or len(nrs) != len(values):
                got = len(nrs) if isinstance(nrs, list) else "no"
                bad(
                    f"{got} SampleNrs for {len(values)} Values: samples numbered in file order",
                    f"{where}[{it}].SampleNrs",
                )
                nrs = [None] * len(values)
            for j, (raw, nr) in enumerate(zip(values, nrs, strict=True)):
                value = _number(raw)
                if value is None or not math.isfinite(value):
                    bad(f"value {raw!r:.40} is not a finite number", f"{where}[{it}].Values[{j}]")
                    continue
                records.add(bench, str(op), value, iteration=it, unit=unit, better=op_better)
                sample_nrs.append(_number(nr))


# ---------------------------------------------------------------- b) parse-results TSV


def _name_from_file(path: Path) -> str | None:
    """The test named by the file itself (`stream.json`, `tsv-pgbench`), or None."""
    name = path.name
    for suffix in (".gz", ".zst", ".xz"):
        name = name.removesuffix(suffix)
    for ext in _EXTENSIONS:
        if name.lower().endswith(ext):
            name = name[: -len(ext)]
            break
    for prefix in _PREFIXES:
        if name.lower().startswith(prefix):
            name = name[len(prefix) :]
            break
    return None if name.lower() in _GENERIC else name


def _name_from_path(path: Path) -> str:
    name = _name_from_file(path)
    if name:
        return name
    for folder in path.parents:
        if folder.name and folder.name != "logs" and not re.fullmatch(r"iter-\d+", folder.name):
            return folder.name
    return path.name


def _row(line: str) -> tuple[str, str, str, str, str] | str:
    """(metric, factorA, factorB, interval, value) or the reason the line is not a row."""
    fields = line.split("\t")
    if len(fields) not in (5, 6):
        return (
            f"expected 6 tab-separated fields (metric, factorA, factorB, interval, value, "
            f"extra), found {len(fields)}"
        )
    return fields[0], fields[1], fields[2], fields[3], fields[4]


def _looks_like_row(line: str) -> bool:
    row = _row(line)
    return not isinstance(row, str) and len(line.split("\t")) == 6 and _number(row[4]) is not None


def sniff(path: Path, head: str) -> bool:
    """Most non-empty lines have 6 tab-separated fields with a numeric 5th one, and the first
    line is no header (a header with benchmark/metric/value is the native format)."""
    lines = [ln.rstrip("\r") for ln in head.splitlines() if ln.strip()]
    if len(lines) > 1 and not head.endswith("\n"):
        lines = lines[:-1]  # the head may end in the middle of a line
    if not lines:
        return False
    first = {f.strip().lower() for f in lines[0].split("\t")}
    if {"benchmark", "metric", "value"} <= first:
        return False
    good = sum(_looks_like_row(ln) for ln in lines)
    return good > 0 and good >= 0.8 * len(lines)


def read(path: Path) -> ReadResult:
    bench = _name_from_path(path)
    records = Records()
    intervals: list[float] = []
    names: list[str] = []  # each row's metric field, before the factors are appended
    problems: list[Problem] = []
    try:
        with open_text(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                line = raw.rstrip("\r\n").lstrip("\ufeff")
                if not line.strip():
                    continue
                row = _row(line)
                if isinstance(row, str):
                    problems.append(Problem(str(path), row, line=lineno))
                    continue
                metric, factor_a, factor_b, interval, text = row
                reason = _bad_row(metric, interval, text)
                if reason:
                    problems.append(Problem(str(path), reason, line=lineno))
                    continue
                label = "-".join(p for p in (metric, factor_a, factor_b) if p not in ("", "_"))
                value, sample = _number(text), _number(interval)
                assert value is not None and sample is not None  # _bad_row checked both
                records.add(bench, label, value, better="unknown")
                intervals.append(sample)
                names.append(metric)
    except OSError as exc:
        problems.append(Problem(str(path), f"reading stopped: {exc}"))
    _directions_from_shellpack(path, bench, records, names)
    frame = _with_samples(records.frame(), intervals)
    if not len(records):
        problems.append(Problem(str(path), "no mmtests parse-results rows in the file"))
    return ReadResult(frame, problems)


def _directions_from_shellpack(path: Path, bench: str, records: Records, names: list[str]) -> None:
    """Unit and direction from a shellpack.yaml beside the TSV, where it gives them."""
    cols = records.cols
    ops = list(zip(cols["metric"], names, strict=True))
    said = shellpack.directions(path, bench, set(ops))
    for i, op in enumerate(ops):
        if op in said:
            cols["unit"][i], cols["better"][i] = said[op]


def _bad_row(metric: str, interval: str, text: str) -> str | None:
    if metric in ("", "_"):
        return "empty metric name (first field)"
    value = _number(text)
    if value is None:
        return f"value {text!r} (5th field) is not a number"
    if not math.isfinite(value):
        return f"value {text!r} (5th field) is not a finite number"
    if _number(interval) is None:
        return f"interval {interval!r} (4th field) is not a number"
    return None
