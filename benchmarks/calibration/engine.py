"""Simulated suites through tuibench's own engine, in process.

All suites of a design go into one ResultSet: the reference measures every suite's
benchmarks (`r007/b03`), system `s007` only those of suite 7, so each system's comparison
and per-system summary see its own suite and the reference's runs of it (independent
across suites). Then `Analysis(...).compare(...)` and `Comparison.summary()`, as
`tuibench report` calls them; verdicts under other options come from `decide` on the same
rows, as `Comparison.filter` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.analysis.compare import Analysis, Comparison, decide
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet
from tuibench.model.systems import SystemInfo

from .regimes import Simulated

ALPHA = 0.05
THRESHOLD = 2.0  # percent, for `--threshold`
# Suites whose verdicts are decided under --fdr (one `decide` per suite, its own family):
# the first ones only, which keeps the harness quick.
FDR_SUITES = 40


def _enum(names: list[str], codes: np.ndarray) -> pl.Series:
    """Names by their codes: a gather from the small Series of names."""
    return pl.Series(names, dtype=pl.Enum(names))[pl.Series(codes.astype(np.uint32))]


def result_set(sim: Simulated) -> ResultSet:
    """The suites as one ResultSet, samples in the loader's order (system, benchmark,
    metric, iteration, sample)."""
    r, m, k, n = sim.ref.shape
    systems = ["ref", *(f"s{i:03d}" for i in range(r))]
    benches = [f"r{i:03d}/b{j:02d}" for i in range(r) for j in range(m)]
    per_bench = k * n
    ref_b = np.repeat(np.arange(r * m), per_bench)
    system = np.r_[
        np.zeros(r * m * per_bench, np.int64), np.repeat(np.arange(1, r + 1), m * per_bench)
    ]
    metric_names = ["rate", "time"]
    metric_code = np.tile(sim.higher.astype(np.int64) ^ 1, r)  # rate 0, time 1
    samples = pl.DataFrame(
        {
            "system": _enum(systems, system),
            "benchmark": _enum(benches, np.r_[ref_b, ref_b]),
            "metric": _enum(metric_names, np.repeat(np.r_[metric_code, metric_code], per_bench)),
            "iteration": np.tile(np.repeat(np.arange(k), n), 2 * r * m),
            "sample": np.tile(np.arange(n), 2 * r * m * k),
            "value": np.r_[sim.ref.ravel(), sim.sys.ravel()],
        }
    )
    higher = np.tile(sim.higher, r)
    metrics = pl.DataFrame(
        {
            "benchmark": _enum(benches, np.arange(r * m)),
            "metric": _enum(metric_names, metric_code),
            "unit": np.where(higher, "ops/s", "ns"),
            "better": np.where(higher, "higher", "lower"),
            "mean_kind": np.where(higher, "hmean", "amean"),
        }
    )
    return ResultSet(samples, metrics, [SystemInfo(s) for s in systems])


@dataclass
class Run:
    """One design's suites through the engine."""

    analysis: Analysis
    cmp: Comparison
    rows: pl.DataFrame  # the systems' rows (not the reference's), suite by suite, private too
    summary: pl.DataFrame  # one row per suite's system


def run(sim: Simulated, iteration_value: str = "subselection") -> Run:
    analysis = Analysis(result_set(sim), AnalysisOptions(iteration_value=iteration_value))
    cmp = analysis.compare("ref", AnalysisOptions(alpha=ALPHA))
    rows = cmp.full_rows().filter(~pl.col("is_reference"))
    return Run(analysis, cmp, rows, cmp.summary())


def verdicts(r: Run, fdr: bool = False, threshold: float | None = None) -> np.ndarray:
    """Every system row's verdict under the options; with fdr, each suite is its own
    family (the comparison of one system, as a user runs it), for the first FDR_SUITES."""
    full = r.cmp.full_rows()
    if not fdr:
        out = decide(full, ALPHA, False, threshold)
        return out.filter(~pl.col("is_reference"))["verdict"].to_numpy()
    suite = pl.col("benchmark").str.slice(0, 4)
    parts = (
        full.filter(suite < f"r{FDR_SUITES:03d}")
        .with_columns(suite.alias("_suite"))
        .partition_by("_suite", maintain_order=True, include_key=False)
    )
    return np.concatenate(
        [
            decide(p, ALPHA, True, threshold).filter(~pl.col("is_reference"))["verdict"].to_numpy()
            for p in parts
        ]
    )
