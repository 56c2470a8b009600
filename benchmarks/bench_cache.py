"""Reopening results: the explorer's first frame with results, without the cache and warm.

    python benchmarks/bench_cache.py [--systems 8 --benchmarks 625 --metrics 4
                                      --iterations 10 --samples 50 --rounds 3]
                                     [--only 10m|wide]

Shapes: 10 million samples in 80 Parquet files (bench_incremental.py's layout; the options
above change it), and 20,000 metrics x 2 systems in CSV (bench_explorer.py's `wide`). For
each, a first explorer writes the cache (its time printed, then it is held until the cache
entries stop changing), then after a warm-up of each, rounds alternate an explorer with
`TUIBENCH_NO_CACHE=1` (cold: load and analysis) and one with the warm cache. Each runs in a
pseudo-terminal of 80x24 (bench_startup.explorer): the times from process start to the
first frame, and to the first frame with results, and the CPU time the explorer used up
to then (all threads: on a loaded machine wall time grows, CPU time much less). Medians
and the range.
Target: with a warm cache, the first frame with results under 1 s at 10 M samples.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench_core import shape_options
from bench_explorer import wide
from bench_incremental import generate
from bench_startup import CHILD_ENV, explorer


def settled(folder: Path, quiet: float = 3.0, timeout: float = 300.0) -> None:
    """Wait until the explorer has written its screen entry and nothing changed for
    `quiet` seconds (it writes the entry again with every reference's tests)."""
    start, last, seen = time.monotonic(), time.monotonic(), None
    while time.monotonic() - start < timeout:
        now = sorted((p.name, p.stat().st_mtime_ns) for p in folder.glob("*.tbc"))
        if now != seen:
            seen, last = now, time.monotonic()
        elif any(n.startswith("screen-") for n, _ in now) and time.monotonic() - last > quiet:
            return
        time.sleep(0.2)


def measure(name: str, root: Path, rounds: int, tmp: Path) -> None:
    folder = tmp / f"cache-{root.name}"
    warm = {**CHILD_ENV, "TUIBENCH_CACHE_DIR": str(folder)}
    warm.pop("TUIBENCH_NO_CACHE", None)
    cold = {**warm, "TUIBENCH_NO_CACHE": "1"}
    path = str(root)
    writing = explorer(path, warm, timeout=600, hold=lambda: settled(folder))
    sizes = {p.name.split("-")[0]: p.stat().st_size for p in folder.glob("*.tbc")}
    explorer(path, cold, timeout=600)  # warm-up: page cache, bytecode
    explorer(path, warm, timeout=600)
    runs: dict[str, list] = {"no cache": [], "warm cache": []}
    cpu: dict[str, list] = {"no cache": [], "warm cache": []}
    for _ in range(rounds):
        for label, env in (("no cache", cold), ("warm cache", warm)):
            runs[label].append(explorer(path, env, timeout=600, cpu_out=cpu[label]))
    entries = ", ".join(f"{k} {v / 2**20:.1f} MiB" for k, v in sorted(sizes.items()))
    print(
        f"{name}: cache entries {entries}; the first explorer (writing them): "
        f"results after {writing[1]:.2f} s"
    )
    for label, xs in runs.items():
        for j, what in enumerate(("first frame", "first frame with results")):
            v = [x[j] for x in xs]
            print(
                f"  {label:10} {what:25} median {statistics.median(v):.2f} s "
                f"(range {min(v):.2f}-{max(v):.2f})"
            )
        v = cpu[label]
        print(
            f"  {label:10} {'CPU time up to results':25} median {statistics.median(v):.2f} s "
            f"(range {min(v):.2f}-{max(v):.2f}; all threads)"
        )


def main() -> None:
    ap = shape_options(argparse.ArgumentParser())
    ap.add_argument("--only", choices=["10m", "wide"])
    a = ap.parse_args()
    print(f"{a.rounds} alternating rounds after a warm-up; pty 80x24; wall time from start")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if a.only in (None, "10m"):
            root = tmp / "results"
            generate(root, a.systems, a.benchmarks, a.metrics, a.iterations, a.samples)
            n = a.systems * a.benchmarks * a.metrics * a.iterations * a.samples
            measure(f"{n:,} samples, {a.systems * a.iterations} Parquet files", root, a.rounds, tmp)
        if a.only in (None, "wide"):
            wide(tmp / "wide")
            measure("20,000 metrics x 2 systems, CSV", tmp / "wide", a.rounds, tmp)


if __name__ == "__main__":
    main()
