"""Go `testing` benchmark text: the output of `go test -bench`, which benchstat reads.

What maps to what (format: golang.org/design/14313-benchmark-format):

- `BenchmarkEncode/size=1k-8  1000  1234 ns/op  12 B/op` is one sample of benchmark
  `Encode/size=1k`: the `Benchmark` prefix and the GOMAXPROCS suffix `-8` are dropped.
  When the file holds several GOMAXPROCS values for one name (`go test -cpu 1,2,4`: go
  prints no suffix for 1), the setting stays in the name as `Encode/size=1k/cpu:8`, so the
  settings are not pooled (benchstat keeps `-N` in its rows too) and form a scaling family.
  Each `<value> <unit>` pair is one metric named after its unit (`ns/op`, `B/op`,
  `allocs/op`, `MB/s`, custom units such as `frames/op`), with that unit.
- The file is one iteration (iteration null); every result line is one sample.
- Direction: a `Unit <unit> better=higher|lower` line (benchstat's unit metadata) wins;
  otherwise the units of the `testing` package say (`ns/op`, `sec/op`, `B/op`,
  `allocs/op` lower, `MB/s` and other `/s` rates higher); a custom unit (`keys/op`, set by
  `b.ReportMetric`) says nothing, so its direction is "unknown".
- `key: value` configuration lines (`goos`, `goarch`, `pkg`, `cpu`, custom keys) go into
  metadata. The first value of a key is kept; a later, different value is added as
  `key@line N`.
- Packages (`pkg:` lines, several with `go test ./...`): the benchmark name starts with
  the package path relative to its module, so benchmarks of different packages stay apart
  and nest (`codec/json/Encode`; the module's root package adds nothing). The output does
  not name the module: it is taken as host/owner/repo for code hosts (`github.com`,
  `gitlab.com`, `bitbucket.org`, `golang.org/x`, ...), else the first two path elements
  when the first is a domain, else the first element.
- A line starting with `Benchmark` that is not a valid result (missing unit, a value that
  is not a number, a failed benchmark) is a problem with its line number; the pairs before
  the fault still load. `--- FAIL: BenchmarkX` at the start of a line (a benchmark that
  failed on its first call and printed no result) and `--- SKIP: BenchmarkX` (with `-v`)
  are problems naming the benchmark, with the reason go test logged. A bare
  `BenchmarkName` line (printed before a benchmark's log output) and all other lines
  (`PASS`, `ok ...`, logs, blank) are ignored.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, Records, open_text
from tuibench.model.problems import Problem

NAME = "Go benchmark text"

_NUMBER = re.compile(
    r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.IGNORECASE
)
_INT = re.compile(r"[+-]?\d+")
_PROCS = re.compile(r"(?<!=)-\d+\Z")  # `-8` at the end; not `n=-1`


def _procs(name: str) -> tuple[str, int]:
    """(name without its GOMAXPROCS suffix, GOMAXPROCS): go test prints no suffix for 1."""
    match = _PROCS.search(name)
    if match is None:
        return name, 1
    return name[: match.start()] or "Benchmark", int(match.group()[1:])


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
    """Parse a `Benchmark...` line into (name, [(value, unit)], error); the name keeps its
    GOMAXPROCS suffix (`Encode-8`: see `_procs`).

    None when the line is not a result line at all (prose, a bare name line). `error` is
    the reason the line (or its end) could not be read; the pairs before it are returned.
    """
    if not line.startswith("Benchmark"):
        return None
    fields = line.split()
    full = fields[0]
    if len(full) > len("Benchmark") and full[len("Benchmark")].islower():
        return None  # "Benchmarking ...": prose, not a result
    name = full[len("Benchmark") :] or "Benchmark"
    if len(fields) == 1:
        return None  # the name go test prints before a benchmark's own output
    if fields[1].startswith("---"):
        said = " ".join(fields[1:])
        shown = _procs(name)[0]
        return name, [], f"benchmark {shown} has no result (go test reported {said!r})"
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


_LOWER_UNITS = {"ns/op", "sec/op", "B/op", "allocs/op"}
_HOSTS = {
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "golang.org",
    "gopkg.in",
    "go.googlesource.com",
}
_OUTCOME = re.compile(r"--- (FAIL|SKIP): (Benchmark\S*)")


def _direction(unit: str) -> str:
    if unit.endswith("/s"):
        return "higher"
    if unit in _LOWER_UNITS:
        return "lower"
    return "unknown"  # a custom unit: nothing says which way is better


def _relative_package(pkg: str) -> str:
    """The package path inside its module ("" for the module's root package)."""
    parts = pkg.split("/")
    if parts[0] in _HOSTS:
        root = 3
    elif "." in parts[0]:
        root = 2
    else:
        root = 1
    return "/".join(parts[root:])


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


def read(path: Path) -> ReadResult:
    rows: list[tuple[str | None, str, float, str]] = []  # (pkg, name-N, value, unit)
    bad: list[tuple[int, str]] = []
    metadata: dict[str, str] = {}
    current: dict[str, str] = {}
    better: dict[str, str] = {}
    log: list[str] = []  # indented lines since the last other line: a benchmark's log
    waiting: int | None = None  # index in `bad` of a FAIL/SKIP whose log comes after it
    try:
        with open_text(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                line = raw.rstrip("\r\n").lstrip("\ufeff")
                if line[:1] in (" ", "\t") and line.strip():
                    if waiting is not None:
                        bad[waiting] = (bad[waiting][0], f"{bad[waiting][1]}: {line.strip()}")
                        waiting = None
                    log.append(line.strip())
                    continue
                said, log, waiting = log, [], None
                outcome = _OUTCOME.match(line)
                if outcome:
                    bad.append((lineno, _outcome(outcome, current.get("pkg"), said)))
                    waiting = None if said else len(bad) - 1
                    continue
                parsed = _result_line(line)
                if parsed is not None:
                    name, pairs, error = parsed
                    pkg = current.get("pkg")
                    rows.extend((pkg, name, value, unit) for value, unit in pairs)
                    if error:
                        tail = "; the rest of the line was skipped" if pairs else ""
                        bad.append((lineno, f"{error}{tail}"))
                        if line.split()[1].startswith("---"):  # its reason follows
                            waiting = len(bad) - 1
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
    names, settings = _names({(pkg, name) for pkg, name, _, _ in rows})
    for pkg, name, value, unit in rows:
        records.add(
            names[pkg, name], unit, value, unit=unit, better=better.get(unit) or _direction(unit)
        )
    problems = [Problem(str(path), reason, line=line or None) for line, reason in bad]
    if not len(records):
        problems.append(
            Problem(
                str(path),
                "no Go benchmark results in the file (expected lines "
                "like: BenchmarkName-8  1000  1234 ns/op)",
            )
        )
    return ReadResult(records.frame(), problems, metadata, settings=settings)


def _names(
    keys: set[tuple[str | None, str]],
) -> tuple[dict[tuple[str | None, str], str], dict[str, str]]:
    """{(pkg, name-N): benchmark}: the package's path inside its module first; `/cpu:N`
    last when the file holds several GOMAXPROCS values for the name, else no suffix; and
    {benchmark: `cpu:N`} for the names whose one setting was left out (ReadResult.settings)."""
    split = {key: _procs(key[1]) for key in keys}
    settings: dict[tuple[str | None, str], set[int]] = {}
    for (pkg, _), (base, procs) in split.items():
        settings.setdefault((pkg, base), set()).add(procs)
    out, left_out = {}, {}
    for (pkg, full), (base, procs) in split.items():
        where = _relative_package(pkg) if pkg else ""
        name = f"{where}/{base}" if where else base
        if len(settings[pkg, base]) > 1:
            out[pkg, full] = f"{name}/cpu:{procs}"
        else:
            out[pkg, full] = name
            left_out[name] = f"cpu:{procs}"
    return out, left_out


def _outcome(match: re.Match, pkg: str | None, log: list[str]) -> str:
    """A problem for `--- FAIL: BenchmarkX` / `--- SKIP: BenchmarkX` at a line's start."""
    name = _PROCS.sub("", match.group(2)[len("Benchmark") :]) or "Benchmark"
    where = _relative_package(pkg) if pkg else ""
    full = f"{where}/{name}" if where else name
    if match.group(1) == "FAIL":
        text = f"benchmark {full} failed and has no result (go test printed '--- FAIL')"
    else:
        text = f"benchmark {full} was skipped: no result (go test printed '--- SKIP')"
    return f"{text}: {log[-1]}" if log else text


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
