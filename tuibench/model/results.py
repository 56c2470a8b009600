"""The ResultSet: every sample in one polars frame, a metric catalogue, and the problems."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from tuibench.model.problems import Problem
from tuibench.model.set_aside import SetAside

# One row per sample, sorted by system order, benchmark, metric, iteration, sample.
SAMPLES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.String(),
    "benchmark": pl.String(),
    "metric": pl.String(),
    "iteration": pl.Int64(),
    "sample": pl.Int64(),
    "value": pl.Float64(),
}

# One row per (benchmark, metric).
METRICS_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.String(),
    "metric": pl.String(),
    "unit": pl.String(),
    "better": pl.String(),  # "lower" | "higher" | null (unknown: nobody says)
    "mean_kind": pl.String(),  # "amean" | "hmean"
}

# Notes readers attach to rows: one per (system, benchmark, metric) and fact.
NOTES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.String(),
    "benchmark": pl.String(),
    "metric": pl.String(),
    "note": pl.String(),
}

_DIGITS = re.compile(r"(\d+)")


def file_stem(path: Path) -> str:
    """A file's name without its format suffixes: `run.json.gz` -> `run`."""
    name = path.name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or path.name


def natural_key(name: str) -> tuple:
    """Sort key under which `linux-6.9` comes before `linux-6.10`."""
    parts = _DIGITS.split(name)
    return tuple((0, int(p), "") if p.isdecimal() else (1, 0, p.lower()) for p in parts if p)


@dataclass
class SystemInfo:
    name: str
    description: str = ""
    tags: list[str] = field(default_factory=list)
    order: int | None = None
    path: str = ""
    # Facts read from result files (Go `cpu:` lines, Google Benchmark context, ...).
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass
class FileRecord:
    """What one file contributed: shown by `tuibench inspect`."""

    path: str
    system: str
    format: str
    samples: int
    benchmarks: int
    metrics: int
    iterations: int
    problems: list[Problem] = field(default_factory=list)


@dataclass
class ResultSet:
    samples: pl.DataFrame
    metrics: pl.DataFrame
    systems: list[SystemInfo]
    problems: list[Problem] = field(default_factory=list)
    files: list[FileRecord] = field(default_factory=list)
    root: str = ""
    # What readers said about rows (NOTES_SCHEMA); joined to the comparison rows' note.
    notes: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=NOTES_SCHEMA))
    # Files under the paths that are not results, each with why (set_aside.py).
    set_aside: list[SetAside] = field(default_factory=list)

    # The default reference: tuibench.toml's `reference`, else the first system; and whether
    # that first system is first only by its name (no system.toml order, no file's order).
    configured_reference: str | None = None
    first_by_name: bool = False

    @property
    def default_reference(self) -> str:
        return self.configured_reference or (self.system_names or [""])[0]

    @property
    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]

    def system(self, name: str) -> SystemInfo:
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def empty(self) -> bool:
        return self.samples.height == 0
