"""Reopening results: a fresh process without the cache against one with a warm cache.

    python benchmarks/bench_cache.py [--systems 8 --benchmarks 625 --metrics 4
                                      --iterations 10 --samples 50 --rounds 3]

Default: 10 million samples in 80 Parquet files (bench_incremental.py's layout). Each round
runs, alternately after a warm-up, a child process that loads the folder with
`TUIBENCH_NO_CACHE=1` (cold) and one that finds it in a warm cache; each prints the time
to the ResultSet and to the first screen's data (plus the analysis and the default
comparison). Also: the size of the entry, and the first load that writes it. Medians.
Target: the first screen under 1 s with a warm cache.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_core import shape_options
from bench_incremental import generate

CHILD = """
import json, sys, time
t = time.perf_counter()
from tuibench.ingest.load import load
from tuibench.analysis.compare import Analysis
rs = load([sys.argv[1]])
t_load = time.perf_counter() - t
Analysis(rs).compare(rs.default_reference)
print(json.dumps([t_load, time.perf_counter() - t]))
"""


def child(root: Path, env: dict) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    return tuple(json.loads(out.stdout))


def main() -> None:
    a = shape_options(argparse.ArgumentParser()).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "results"
        generate(root, a.systems, a.benchmarks, a.metrics, a.iterations, a.samples)
        folder = Path(tmp) / "cache"
        warm = {**os.environ, "TUIBENCH_CACHE_DIR": str(folder)}
        warm.pop("TUIBENCH_NO_CACHE", None)
        cold = {**warm, "TUIBENCH_NO_CACHE": "1"}
        writing = child(root, warm)  # the first load, which writes the entry
        size = sum(p.stat().st_size for p in folder.glob("*.tbc"))
        child(root, cold)  # warm-up of the page cache
        runs: dict[str, list] = {"cold": [], "warm": []}
        for _ in range(a.rounds):
            runs["cold"].append(child(root, cold))
            runs["warm"].append(child(root, warm))
    print(f"cache entry: {size / 2**20:.0f} MiB; first load writing it: {writing[0]:.2f} s")
    for j, what in enumerate(("ResultSet", "first screen (+ analysis, comparison)")):
        c = statistics.median(x[j] for x in runs["cold"])
        w = statistics.median(x[j] for x in runs["warm"])
        print(f"{what}: no cache {c:.2f} s, warm cache {w:.2f} s")
    print({k: [f"{x[0]:.2f}/{x[1]:.2f}" for x in v] for k, v in runs.items()})


if __name__ == "__main__":
    main()
