"""Speed and memory of the series analysis: change points, rankings, scaling families.

    python benchmarks/bench_series.py [--systems 50 --metrics 20000 --iterations 5
                                       --repeats 5 --full]

Default: 50 systems x 20,000 metrics x 5 iteration values (5 million values), a quarter of
the metrics with a 5 % step at a random system. Each step is timed `--repeats` times in
turn (after one warm-up run) and the median is printed, with the peak of memory allocated
during one more run of the step (tracemalloc: numpy and Python objects, not polars' own
buffers) and the process's peak resident size.
`--full` also writes those values as one native Parquet file and times load + Analysis +
every series step from it, as the explorer does (in a worker) when a series view opens.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import polars as pl

from tuibench.analysis.series.changepoints import detect
from tuibench.analysis.series.data import from_values, series_data
from tuibench.analysis.series.scaling import families

T = TypeVar("T")

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")


def simulate(systems: int, metrics: int, iterations: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    y = 100.0 * (1 + 0.01 * rng.standard_normal((metrics, systems, iterations)))
    stepped = rng.random(metrics) < 0.25
    at = rng.integers(1, systems, metrics)
    y *= np.where(stepped[:, None] & (np.arange(systems)[None, :] >= at[:, None]), 1.05, 1.0)[
        ..., None
    ]
    m = np.repeat(np.arange(metrics), systems * iterations)
    s = np.tile(np.repeat(np.arange(systems), iterations), metrics)
    return y.ravel(), m, s


def keys(metrics: int) -> pl.DataFrame:
    b = np.arange(metrics)
    return pl.DataFrame(
        {
            "benchmark": [f"suite/clients:{1 << (i % 8)}/case-{i // 8}" for i in b],
            "metric": ["time"] * metrics,
            "unit": ["s"] * metrics,
            "better": ["lower"] * metrics,
            "mean_kind": ["amean"] * metrics,
        }
    )


def measure(label: str, fn: Callable[[], T], repeats: int) -> T:
    """Median time of `repeats` runs after a warm-up, then one more run traced for memory
    (tracemalloc slows Python code, so the timed runs are not traced)."""
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    result = fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{label:<34} median {statistics.median(times):7.3f} s  "
        f"(min {min(times):.3f}, max {max(times):.3f}; {repeats} runs)  "
        f"peak allocated {peak / 2**20:7.1f} MiB"
    )
    return result


def full(y, m, s, systems: int, k: pl.DataFrame, repeats: int) -> None:
    from tuibench.analysis.compare import Analysis
    from tuibench.analysis.series.ranking import rank_metrics
    from tuibench.ingest.load import load

    names = [f"build-{i:02d}" for i in range(systems)]
    iterations = len(y) // (k.height * systems)
    frame = pl.DataFrame(
        {
            "system": pl.Series(np.array(names)[s]),
            "benchmark": k["benchmark"].gather(m),
            "metric": "time",
            "iteration": np.tile(np.arange(iterations), len(y) // iterations),
            "value": y,
            "unit": "s",
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "all.parquet"
        frame.write_parquet(path)
        del frame
        t0 = time.perf_counter()
        analysis = Analysis(load([path]))
        print(f"{'load + Analysis (once)':<34} {time.perf_counter() - t0:7.3f} s")
        data = measure("series_data (from the Analysis)", lambda: series_data(analysis), repeats)
        measure("detect (from the Analysis)", lambda: detect(data), repeats)
        measure("rank_metrics (from the Analysis)", lambda: rank_metrics(analysis, data), repeats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=50)
    ap.add_argument("--metrics", type=int, default=20_000)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    print(
        f"{args.systems} systems x {args.metrics} metrics x {args.iterations} iteration values "
        f"(python {sys.version.split()[0]}, numpy {np.__version__}, polars {pl.__version__})"
    )
    y, m, s = simulate(args.systems, args.metrics, args.iterations)
    k = keys(args.metrics)
    systems = [f"build-{i:02d}" for i in range(args.systems)]
    data = measure("moments along the series", lambda: from_values(y, m, s, k, systems), 3)
    cp = measure("change points (detect)", lambda: detect(data), args.repeats)
    print(f"  {cp.changes.height} change points in {cp.changes['benchmark'].n_unique()} metrics")
    fams = measure("scaling families from names", lambda: families(k["benchmark"].to_list()), 3)
    print(f"  {fams['family'].n_unique()} families")
    if args.full:
        full(y, m, s, args.systems, k, args.repeats)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident size of the process: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
