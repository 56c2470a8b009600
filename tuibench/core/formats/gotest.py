"""Go `testing` benchmark text: the output of `go test -bench`, which benchstat reads.

What maps to what (format: golang.org/design/14313-benchmark-format):

- `BenchmarkEncode/size=1k-8  1000  1234 ns/op  12 B/op` is one sample of benchmark
  `Encode/size=1k`: the `Benchmark` prefix and the GOMAXPROCS suffix `-8` are dropped.
  Each `<value> <unit>` pair is one metric named after its unit (`ns/op`, `B/op`,
  `allocs/op`, `MB/s`, custom units such as `frames/op`), with that unit.
- The file is one iteration (iteration null); every result line is one sample.
- Direction: a `Unit <unit> better=higher|lower` line (benchstat's unit metadata) wins;
  otherwise units ending in `/s` are higher-is-better, units ending in `/op` lower, and
  any other unit is left to the loader.
- `key: value` configuration lines (`goos`, `goarch`, `pkg`, `cpu`, custom keys) go into
  metadata. The first value of a key is kept; a later, different value is added as
  `key@line N`. When the file holds results of several packages (`go test ./...`), the
  benchmark name starts with the package path, less the prefix all packages share.
- A line starting with `Benchmark` that is not a valid result (missing unit, a value that
  is not a number, a failed benchmark) is a problem with its line number; the pairs before
  the fault still load. A bare `BenchmarkName` line (printed before a benchmark's log
  output) and all other lines (`PASS`, `ok ...`, `--- FAIL`, logs, blank) are ignored.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from tuibench.core.formats.base import ReadResult, Records, open_text
from tuibench.core.problems import Problem

NAME = "Go benchmark text"

_NUMBER = re.compile(
    r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.IGNORECASE
)
_INT = re.compile(r"[+-]?\d+")
_PROCS = re.compile(r"(?<!=)-\d+\Z")  # `-8` at the end; not `n=-1`


def _number(text: str) -> float | None:
    return float(text) if _NUMBER.fullmatch(text) else None


def _config_line(line: str) -> tuple[str, str] | None:
    """`key: value` as the Go format defines it: the key starts with a lower-case letter and
    holds no space or upper-case letter; blanks separate `key:` from the value."""
    if not line or not line[0].islower():
        return None
    colon = line.find(":")
    if colon <= 0:
        return None
    key = line[:colon]
    if any(c.isspace() or c.isupper() for c in key):
        return None
    rest = line[colon + 1 :]
    if rest and rest[0] not in " \t":
        return None
    return key, rest.strip(" \t")


def _result_line(line: str) -> tuple[str, list[tuple[float, str]], str | None] | None:
    """Parse a `Benchmark...` line into (name, [(value, unit)], error).

    None when the line is not a result line at all (prose, a bare name line). `error` is
    the reason the line (or its end) could not be read; the pairs before it are returned.
    """
    if not line.startswith("Benchmark"):
        return None
    fields = line.split()
    full = fields[0]
    if len(full) > len("Benchmark") and full[len("Benchmark")].islower():
        return None  # "Benchmarking ...": prose, not a result
    name = _PROCS.sub("", full[len("Benchmark") :]) or "Benchmark"
    if len(fields) == 1:
        return None  # the name go test prints before a benchmark's own output
    if fields[1].startswith("---"):
        rest = " ".join(fields[1:])
        return name, [], f"benchmark {name} has no result (go test reported {rest!r})"
    if not _INT.fullmatch(fields[1]):
        return (
            name,
            [],
            (
                f"expected the iteration count after the name, found {fields[1]!r} "
                "(a result line is: BenchmarkName iterations value unit ...)"
            ),
        )
    pairs: list[tuple[float, str]] = []
    rest = fields[2:]
    if not rest:
        return name, [], "no measurements after the iteration count (expected value unit pairs)"
    for i in range(0, len(rest), 2):
        text = rest[i]
        value = _number(text)
        if value is None:
            unit = f" for unit {rest[i + 1]!r}" if i + 1 < len(rest) else ""
            return name, pairs, f"value {text!r}{unit} is not a number"
        if i + 1 >= len(rest):
            return name, pairs, f"value {text} has no unit (expected value unit pairs)"
        if not math.isfinite(value):
            return name, pairs, f"value {text} for unit {rest[i + 1]!r} is not a finite number"
        pairs.append((value, rest[i + 1]))
    return name, pairs, None


def _direction(unit: str) -> str | None:
    if unit.endswith("/s"):
        return "higher"
    if unit.endswith("/op"):
        return "lower"
    return None


def sniff(path: Path, head: str) -> bool:
    """At least one line of the head is a complete, valid Go benchmark result."""
    for line in head.splitlines():
        parsed = _result_line(line.strip("\r"))
        if parsed is not None and parsed[1] and parsed[2] is None:
            return True
    return False


def _unit_line(line: str, lineno: int, better: dict[str, str], bad: list[tuple[int, str]]) -> None:
    """`Unit <unit> key=value ...`: only `better` matters here (`assume` and others are
    benchstat's business)."""
    fields = line.split()[1:]
    if not fields:
        bad.append((lineno, "Unit line without a unit (expected: Unit <unit> better=higher)"))
        return
    unit = fields[0]
    for kv in fields[1:]:
        key, eq, value = kv.partition("=")
        if not eq or not key:
            bad.append((lineno, f"Unit {unit}: expected key=value, found {kv!r}"))
        elif key == "better":
            if value not in ("higher", "lower"):
                bad.append((lineno, f"Unit {unit}: better must be higher or lower, not {value!r}"))
            elif better.setdefault(unit, value) != value:
                bad.append(
                    (
                        lineno,
                        f"Unit {unit}: better={value} contradicts the earlier "
                        f"better={better[unit]}; keeping {better[unit]}",
                    )
                )


def _package_prefixes(pkgs: set[str]) -> dict[str, str]:
    """Package path -> name prefix, when results of several packages share the file."""
    if len(pkgs) < 2:
        return {}
    split = {p: p.split("/") for p in pkgs}
    common = 0
    parts = list(split.values())
    while all(len(p) > common and p[common] == parts[0][common] for p in parts):
        common += 1
    return {p: "/".join(s[common:]) or s[-1] for p, s in split.items()}


def read(path: Path) -> ReadResult:
    rows: list[tuple[str | None, str, float, str]] = []  # (pkg, name, value, unit)
    bad: list[tuple[int, str]] = []
    metadata: dict[str, str] = {}
    current: dict[str, str] = {}
    better: dict[str, str] = {}
    pkgs: set[str] = set()
    try:
        with open_text(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                line = raw.rstrip("\r\n").lstrip("\ufeff")
                parsed = _result_line(line)
                if parsed is not None:
                    name, pairs, error = parsed
                    pkg = current.get("pkg")
                    if pairs and pkg:
                        pkgs.add(pkg)
                    rows.extend((pkg, name, value, unit) for value, unit in pairs)
                    if error:
                        tail = "; the rest of the line was skipped" if pairs else ""
                        bad.append((lineno, f"{error}{tail}"))
                    continue
                if line.startswith("Unit") and line.split(None, 1)[0] == "Unit":
                    _unit_line(line, lineno, better, bad)
                    continue
                kv = _config_line(line)
                if kv is not None:
                    _config(kv, lineno, metadata, current)
    except OSError as exc:
        bad.append((0, f"reading stopped: {exc}"))

    records = Records()
    prefixes = _package_prefixes(pkgs)
    for pkg, name, value, unit in rows:
        if pkg in prefixes:
            name = f"{prefixes[pkg]}/{name}"
        records.add(name, unit, value, unit=unit, better=better.get(unit) or _direction(unit))
    problems = [Problem(str(path), reason, line=line or None) for line, reason in bad]
    if not len(records):
        problems.append(
            Problem(
                str(path),
                "no Go benchmark results in the file (expected lines "
                "like: BenchmarkName-8  1000  1234 ns/op)",
            )
        )
    return ReadResult(records.frame(), problems, metadata)


def _config(
    kv: tuple[str, str], lineno: int, metadata: dict[str, str], current: dict[str, str]
) -> None:
    key, value = kv
    if current.get(key, "") == value:
        return
    if not value:  # an empty value clears the key in the Go format
        current.pop(key, None)
        metadata[f"{key}@line {lineno}"] = ""
        return
    current[key] = value
    if key in metadata:
        metadata[f"{key}@line {lineno}"] = value
    else:
        metadata[key] = value
