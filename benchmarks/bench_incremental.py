"""One new iteration of one system: a reload (the explorer's `Reloads`) against a full load.

    python benchmarks/bench_incremental.py [--systems 8 --benchmarks 625 --metrics 4
                                            --iterations 10 --samples 50 --rounds 3]

Default: 10 million samples, one Parquet file per system and iteration (`<system>/iter-N/`),
80 files of 125,000 samples. Each round times, alternately after a warm-up, a full load of
the folder (no cache) and a reload after one new `iter-N` file of one system (the new
file's rows merged into the loaded ones, only its iterations reduced); each also with the
analysis and the default comparison, i.e. what the explorer's screen needs (the screen's
comparison is held, as the explorer's session holds it, so the reload splices it).
Medians, the ratio of every round, and the same for the CPU time of all threads (steadier
than wall times on a shared machine). Target: the reload within 10 % of a full load's
time. `--files-per-iteration K` splits each system's iteration into K files (many small
files).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
from bench_core import shape_options

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import DEFAULT_ANALYSIS
from tuibench.tui.view.reloads import Reloads

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

METRICS = {0: ("time", "s"), 1: ("latency", "ms"), 2: ("tput", "ops/s"), 3: ("cpu", "s")}


def iteration_file(
    path: Path,
    system: int,
    iteration: int,
    benchmarks: int,
    metrics: int,
    samples: int,
    files: int = 1,
) -> None:
    """One system's iteration: every benchmark and metric, `samples` samples each; in
    `files` files of as many benchmarks each (path's name numbered)."""
    if files > 1:
        per = -(-benchmarks // files)
        for k in range(files):
            part = path.with_name(f"{path.stem}-{k}{path.suffix}")
            lo = k * per
            _write(part, system, iteration, range(lo, min(benchmarks, lo + per)), metrics, samples)
        return
    _write(path, system, iteration, range(benchmarks), metrics, samples)


def _write(path: Path, system: int, iteration: int, benches, metrics: int, samples: int) -> None:
    rng = np.random.default_rng([system, iteration, benches.start])
    n = len(benches) * metrics * samples
    b = np.repeat(np.asarray(benches), metrics * samples)
    m = np.tile(np.repeat(np.arange(metrics), samples), len(benches))
    value = (100 + 10 * b + m) * (1 + 0.01 * system * (b % 7 == 0)) * rng.normal(1, 0.02, n)
    codes = pl.Series(m)
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(
        {
            "benchmark": "suite/bench-" + pl.Series(b).cast(pl.String),
            "metric": codes.replace_strict({k: v[0] for k, v in METRICS.items()}),
            "value": value,
            "unit": codes.replace_strict({k: v[1] for k, v in METRICS.items()}),
        }
    ).write_parquet(path)


def generate(
    root: Path,
    systems: int,
    benchmarks: int,
    metrics: int,
    iterations: int,
    samples: int,
    files: int = 1,
):
    for s in range(systems):
        for i in range(iterations):
            path = root / f"sys-{s}" / f"iter-{i}" / "results.parquet"
            iteration_file(path, s, i, benchmarks, metrics, samples, files)


def screen(rs) -> float:
    """Seconds for what the first screen needs beyond the ResultSet."""
    t = time.perf_counter()
    Analysis(rs).compare(rs.default_reference)
    return time.perf_counter() - t


def main() -> None:
    parser = shape_options(argparse.ArgumentParser())
    parser.add_argument("--files-per-iteration", type=int, default=1)
    a = parser.parse_args()
    k = a.files_per_iteration
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "results"
        generate(root, a.systems, a.benchmarks, a.metrics, a.iterations, a.samples, k)
        extra = root / "sys-1" / f"iter-{a.iterations}" / "results.parquet"
        engine = Reloads([root])
        held = []  # the comparison on the screen, which the explorer's session holds

        def shown():
            """Load and compare as the explorer's screen does (a reload patches the tests
            against the reference the screen compared, and splices its comparison)."""
            rs = engine.load()
            held[:] = [engine.analyse(rs, DEFAULT_ANALYSIS).compare(rs.default_reference)]
            return rs

        rs = shown()
        print(
            f"{rs.samples.height:,} samples, {rs.metrics.height:,} metrics x "
            f"{len(rs.systems)} systems, in {len(rs.files)} files"
        )

        def full() -> tuple[float, float, float]:
            t, cpu = time.perf_counter(), time.process_time()
            rs = load([root])
            t_load = time.perf_counter() - t
            out = (t_load, t_load + screen(rs), time.process_time() - cpu)
            return out

        def reload() -> tuple[float, float, float]:
            iteration_file(extra, 1, a.iterations, a.benchmarks, a.metrics, a.samples, k)
            t, cpu = time.perf_counter(), time.process_time()
            rs = engine.load()
            t_load = time.perf_counter() - t
            cmp = engine.analyse(rs, DEFAULT_ANALYSIS).compare(rs.default_reference)
            out = (t_load, time.perf_counter() - t, time.process_time() - cpu)
            del cmp
            reads.append(engine.loader.read_count)
            merged.append(engine.loader.growth is not None)
            shutil.rmtree(extra.parent)
            shown()  # back as it was, untimed
            return out

        reads: list[int] = []  # files a reader read in each reload (small ones are batched)
        merged: list[bool] = []  # whether each reload merged the new file (else: full)
        runs: dict[str, list] = {"full": [], "reload": []}
        full(), reload()  # warm-up
        for _ in range(a.rounds):
            runs["full"].append(full())
            runs["reload"].append(reload())
    med = {k: [statistics.median(x[j] for x in v) for j in (0, 1, 2)] for k, v in runs.items()}
    for j, what in enumerate(("load", "load + analysis + comparison")):
        f, r = med["full"][j], med["reload"][j]
        print(
            f"{what}: full {f:.2f} s, reload after one new iteration {r:.2f} s "
            f"({100 * r / f:.0f} % of full; target 10 %)"
        )
    f, r = med["full"][2], med["reload"][2]
    print(f"CPU time of all threads, with analysis: full {f:.2f} s, reload {r:.2f} s ({r / f:.0%})")
    print(f"files read by a reader per reload: {sorted(set(reads))}; merged: {set(merged)}")
    spread = {k: [f"{x[1]:.2f}" for x in v] for k, v in runs.items()}
    print(f"rounds (with analysis): {spread}")
    ratios = [r[1] / f[1] for f, r in zip(runs["full"], runs["reload"], strict=True)]
    print(f"reload / full per round: {min(ratios):.0%} to {max(ratios):.0%}")
    ratios = [r[2] / f[2] for f, r in zip(runs["full"], runs["reload"], strict=True)]
    print(f"CPU time, reload / full per round: {min(ratios):.0%} to {max(ratios):.0%}")


if __name__ == "__main__":
    main()
