"""The ResultSet: every sample in one polars frame, a metric catalogue, and the problems."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from tuibench.model.problems import Problem
from tuibench.model.set_aside import SetAside
from tuibench.model.systems import SystemInfo

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


@dataclass
class FileRecord:
    """What one file contributed: shown by `tuibench inspect`."""

    path: str
    system: str
    format: str
    samples: int
    benchmarks: int
    metrics: int
    iterations: int  # the most of one system (a multi-run file holds several systems)
    problems: list[Problem] = field(default_factory=list)
    fewest_iterations: int = 0  # the fewest of one system
    systems: int = 0  # how many systems its samples are of


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
