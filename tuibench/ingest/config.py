"""`tuibench.toml` per-metric overrides and the direction a metric improves in.

    [metrics."pgbench/*:tps"]     # glob on "benchmark:metric"
    better = "higher"
    unit = "tx/s"
    mean = "hmean"                # amean | hmean

    [metrics."B/op"]              # a glob without ':' matches the metric name alone
    better = "lower"

Later entries win over earlier ones when several globs match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tuibench.ingest.discover import read_toml
from tuibench.model.problems import Problem
from tuibench.util.globs import matches

_RATE_UNIT = re.compile(
    r"(/s|/sec|/second|per_second|per_sec|^ops$|^tps$|^qps$|^iops$|^ops/|^tx/|/min$)",
    re.IGNORECASE,
)
_RATE_METRIC = re.compile(
    r"(per_second|_per_sec$|^tps$|^qps$|^iops$|throughput|^ops$)", re.IGNORECASE
)


# Costs: times, sizes and allocation counts, alone or per operation (`ns/op`, `B/op`).
_COST_UNIT = re.compile(
    r"^(ns|us|µs|μs|ms|s|sec|secs|seconds?|min|minutes?|h|hours?|cycles|"
    r"b|bytes?|[kmgtp]i?b|allocs?)(/op|/iter|/call)?$",
    re.IGNORECASE,
)


def infer_better(unit: str | None, metric: str) -> str | None:
    """The direction a metric improves in, when its unit or name says; None when unknown.

    Rates (`/s`, `per_second`, `ops`, `tps`, `MB/s`, or a rate-like name) are higher-is-better;
    times, sizes and allocations (`ns`, `s`, `B`, `MiB`, `ns/op`, `allocs/op`) lower. Anything
    else (a counter, a score, a custom `x/op` unit, no unit) says nothing: None, never a guess.
    """
    u = (unit or "").strip()
    if u and _RATE_UNIT.search(u):
        return "higher"
    if u and _COST_UNIT.match(u):
        return "lower"
    return "higher" if _RATE_METRIC.search(metric) else None


@dataclass(frozen=True)
class Override:
    glob: str
    better: str | None = None
    unit: str | None = None
    mean: str | None = None

    def matches(self, benchmark: str, metric: str) -> bool:
        if ":" in self.glob:
            return matches(f"{benchmark}:{metric}", self.glob)
        return matches(metric, self.glob)


def read_config(path: Path | None, problems: list[Problem]) -> list[Override]:
    return read_settings(path, problems)[0]


def read_settings(path: Path | None, problems: list[Problem]) -> tuple[list[Override], str | None]:
    """The per-metric overrides and the top-level `reference = "name"` (None: not set)."""
    if path is None:
        return [], None
    data = read_toml(path, problems)
    if data is None:
        return [], None
    reference = data.get("reference")
    if reference is not None and not isinstance(reference, str):
        problems.append(Problem(str(path), f"reference must be a system's name, not {reference!r}"))
        reference = None
    return _overrides(data, path, problems), reference


def _overrides(data: dict, path: Path, problems: list[Problem]) -> list[Override]:
    metrics = data.get("metrics", {})
    if not isinstance(metrics, dict):
        problems.append(Problem(str(path), "[metrics] must be a table of globs"))
        return []
    out = []
    for glob, spec in metrics.items():
        if not isinstance(spec, dict):
            problems.append(Problem(str(path), f'[metrics."{glob}"] must be a table'))
            continue
        better, unit, mean = spec.get("better"), spec.get("unit"), spec.get("mean")
        if better is not None and better not in ("lower", "higher"):
            problems.append(
                Problem(
                    str(path),
                    f'[metrics."{glob}"] better must be "lower" or "higher", not {better!r}',
                )
            )
            better = None
        if mean is not None and mean not in ("amean", "hmean"):
            problems.append(
                Problem(
                    str(path), f'[metrics."{glob}"] mean must be "amean" or "hmean", not {mean!r}'
                )
            )
            mean = None
        if unit is not None and not isinstance(unit, str):
            problems.append(Problem(str(path), f'[metrics."{glob}"] unit must be a string'))
            unit = None
        unknown = set(spec) - {"better", "unit", "mean"}
        if unknown:
            problems.append(
                Problem(
                    str(path),
                    f'[metrics."{glob}"] unknown key(s) {", ".join(sorted(unknown))} ignored',
                )
            )
        out.append(Override(glob, better, unit, mean))
    return out
