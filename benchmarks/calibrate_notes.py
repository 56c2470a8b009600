"""How often the rows' notes would mislead on identical systems (A/A pairs), by simulation.

    python benchmarks/calibrate_notes.py [--seed 0] [--quick]

For each regime below, two systems drawn from the same model, 2 (and 3) iterations a side,
1 to 50 samples per iteration, many metrics at once through `Analysis.compare` at alpha
0.05. Prints per regime and design:
- false alarms: the share of rows called worse or better (the note of 2-iteration rows
  quotes the range over every regime and sample count);
- robust false: the share of rows whose verdict per-iteration medians would change, and
  how many of those notes blame outlying samples where Tukey's fences find none (must
  be 0);
- detectable: the median smallest detectable change (power 0.8) the rows report.

Regimes (sigma: the samples' standard deviation, 1 % of the centre):
- gaussian: independent samples, no iteration effect;
- iteration: each iteration has a level of its own (sd sigma);
- bursts: as iteration, and a third of the iterations hold a burst of outliers (a tenth of
  their samples 10 sigma high);
- bimodal: each iteration's level is 0 or 3 sigma, with even odds;
- shared: as iteration, and every metric of a suite shares its iteration's level.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions

# Simulated suites are loaded by the thousand: none goes into the user's load cache.
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

REGIMES = ("gaussian", "iteration", "bursts", "bimodal", "shared")
SAMPLES = (1, 5, 20, 50)
ALPHA = 0.05
SIGMA = 1.0  # 1 % of the centre, 100
METRICS_PER_SUITE = 10


def _levels(regime: str, rng, suites: int, iters: int) -> np.ndarray:
    """Iteration levels, shape (suites, metrics, iterations)."""
    shape = (suites, METRICS_PER_SUITE, iters)
    if regime == "gaussian":
        return np.zeros(shape)
    if regime == "bimodal":
        return 3 * SIGMA * rng.integers(0, 2, shape)
    if regime == "shared":
        own = rng.normal(0, SIGMA / 2, shape)
        common = rng.normal(0, SIGMA * np.sqrt(3) / 2, (suites, 1, iters))
        return own + common
    return rng.normal(0, SIGMA, shape)


def _system(regime: str, rng, suites: int, iters: int, samples: int) -> np.ndarray:
    """Values, shape (suites, metrics, iterations, samples)."""
    level = _levels(regime, rng, suites, iters)[..., None]
    values = 100 + level + rng.normal(0, SIGMA, (suites, METRICS_PER_SUITE, iters, samples))
    if regime == "bursts" and samples >= 5:
        hit = rng.random((suites, METRICS_PER_SUITE, iters)) < 1 / 3
        burst = np.zeros(samples, dtype=bool)
        burst[: max(1, samples // 10)] = True
        values = values + 10 * SIGMA * (hit[..., None] & burst)
    return values


def _frame(regime: str, rng, suites: int, iters: int, samples: int) -> pl.DataFrame:
    parts = []
    for system in ("a", "b"):
        v = _system(regime, rng, suites, iters, samples)
        s, m, i, _ = np.indices(v.shape).reshape(4, -1)
        parts.append(
            pl.DataFrame(
                {
                    "system": system,
                    "benchmark": pl.Series([f"suite{k}" for k in s]),
                    "metric": pl.Series([f"m{k}" for k in m]),
                    "iteration": i,
                    "value": v.ravel(),
                    "unit": "s",
                }
            )
        )
    return pl.concat(parts)


def _measure(regime: str, rng, suites: int, iters: int, samples: int, tmp: Path) -> dict:
    path = tmp / f"{regime}-{iters}-{samples}.parquet"
    _frame(regime, rng, suites, iters, samples).write_parquet(path)
    rows = Analysis(load([path])).compare("a", AnalysisOptions(alpha=ALPHA)).rows
    out = (pl.col("outliers_low") + pl.col("outliers_high")).alias("out")
    ref = rows.filter(pl.col("is_reference")).select("benchmark", "metric", out)
    rows = rows.filter(~pl.col("is_reference")).join(ref, on=["benchmark", "metric"])
    shaky = rows.filter(pl.col("robust").not_())
    no_outliers = shaky.filter((out + pl.col("out")) == 0)
    blamed = no_outliers.filter(pl.col("note").str.contains("lie beyond Tukey")).height
    return {
        "false": rows["verdict"].is_in(["worse", "better"]).mean(),
        "shaky": shaky.height / rows.height,
        "blamed": blamed,
        "detectable": rows["detectable_change"].median(),
        "observed_power_notes": rows["note"].str.contains("detect this change").sum(),
    }


def run(seed: int = 0, quick: bool = False) -> list[str]:
    """The figures as printed lines; 2-iteration false alarms summed up last."""
    rng = np.random.default_rng(seed)
    suites = 50 if quick else 400
    lines = [
        f"A/A pairs, alpha {ALPHA}, {suites * METRICS_PER_SUITE} metrics per design, seed {seed}",
        f"{'regime':<10} {'iters':>5} {'samples':>7} {'false':>7} {'robust-':>8} "
        f"{'blamed':>6} {'detect':>7}",
    ]
    two: dict[str, list[float]] = {r: [] for r in REGIMES}
    with tempfile.TemporaryDirectory() as tmp:
        for regime in REGIMES:
            for iters in (2, 3):
                for samples in SAMPLES:
                    r = _measure(regime, rng, suites, iters, samples, Path(tmp))
                    if iters == 2:
                        two[regime].append(r["false"])
                    lines.append(
                        f"{regime:<10} {iters:>5} {samples:>7} {r['false']:>7.1%} "
                        f"{r['shaky']:>8.1%} {r['blamed']:>6} {r['detectable']:>7.1%}"
                        + (" OBSERVED POWER" if r["observed_power_notes"] else "")
                    )
    for regime, got in two.items():
        lines.append(f"2 iterations, {regime}: false alarms {min(got):.1%} to {max(got):.1%}")
    every = [x for got in two.values() for x in got]
    lines.append(f"2 iterations: false alarms {min(every):.1%} to {max(every):.1%} in all")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    for line in run(args.seed, args.quick):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
