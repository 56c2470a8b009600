"""Loading many small files against the same rows in a few files, and loading sample_runs
(51 small files in 7 formats) in batches against file by file. Prints figures; asserts
nothing.

    python benchmarks/bench_load.py            # 3 x 10 x 400 files (12,000), a minute or two
    python benchmarks/bench_load.py --full     # 3 x 10 x 2,000 files (60,000)
    python benchmarks/bench_load.py --sample-runs-only

sample_runs: target under 0.06 s after imports; the polars queries (collects) are counted.

Layout "many": <system>/iter-<i>/bench-<j>.csv, one benchmark of about 20 samples per file
(mmtests trees and per-run CSVs look like this). Layout "few": the same rows in one CSV per
system, with an `iteration` column. Target: "many" within 5x "few". Both layouts are written
in a temporary folder, loaded once to warm up, then alternately `--repeat` times; medians.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from tuibench.ingest import small_files
from tuibench.ingest.load import load

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

SAMPLE_RUNS = Path(__file__).resolve().parents[1] / "sample_runs"


def generate(root: Path, systems: int, iterations: int, files: int, samples: int) -> int:
    rng = np.random.default_rng(0)
    many, few = root / "many", root / "few"
    rows = 0
    for s in range(systems):
        name = f"sys-{s}"
        (few / name).mkdir(parents=True)
        lines = ["benchmark,metric,iteration,value,unit"]
        for it in range(iterations):
            folder = many / name / f"iter-{it}"
            folder.mkdir(parents=True)
            for j in range(files):
                n = samples + int(rng.integers(-2, 3))
                values = 100 + j + rng.normal(0, 1, n)
                text = "".join(f"bench-{j},time,{v:.4f},ms\n" for v in values)
                (folder / f"bench-{j}.csv").write_text("benchmark,metric,value,unit\n" + text)
                lines.extend(f"bench-{j},time,{it},{v:.4f},ms" for v in values)
                rows += n
        (few / name / "all.csv").write_text("\n".join(lines) + "\n")
    return rows


def polars_queries(path: Path) -> int:
    """How many polars queries (lazy collects; eager frame methods run one each) a load runs."""
    profile = cProfile.Profile()
    profile.runcall(load, [path])
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(v[1] for k, v in stats.items() if "'collect' of 'builtins.PyLazyFrame'" in k[2])


def sample_runs(repeat: int) -> None:
    times: dict[bool, list[float]] = {True: [], False: []}
    queries = {}
    for rnd in range(repeat + 1):  # round 0 warms up
        for batched in (True, False):
            small_files.BATCHED = batched
            t = time.perf_counter()
            load([SAMPLE_RUNS])
            if rnd:
                times[batched].append(time.perf_counter() - t)
    for batched in (True, False):
        small_files.BATCHED = batched
        queries[batched] = polars_queries(SAMPLE_RUNS)
    small_files.BATCHED = True
    for batched, label in ((True, "in batches"), (False, "every file alone")):
        ms = 1e3 * statistics.median(times[batched])
        print(f"sample_runs {label:16}: median {ms:.1f} ms, {queries[batched]} polars queries")
    print("sample_runs target: under 60 ms in batches")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--files", type=int, default=400, help="files per iteration")
    ap.add_argument("--samples", type=int, default=20, help="samples per file (about)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--full", action="store_true", help="2,000 files per iteration (60,000)")
    ap.add_argument("--sample-runs-only", action="store_true", help="only the sample_runs figures")
    args = ap.parse_args()
    sample_runs(max(args.repeat, 9))
    if args.sample_runs_only:
        return
    if args.full:
        args.files = 2000
    with tempfile.TemporaryDirectory(prefix="tuibench-bench-load-") as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        rows = generate(root, args.systems, args.iterations, args.files, args.samples)
        n_files = args.systems * args.iterations * args.files
        print(f"{n_files:,} files, {rows:,} rows; written in {time.perf_counter() - t:.1f} s")
        times: dict[str, list[float]] = {"many": [], "few": []}
        checks = {}
        for rnd in range(args.repeat + 1):  # round 0 warms up
            for layout in ("many", "few"):
                t = time.perf_counter()
                rs = load([root / layout])
                elapsed = time.perf_counter() - t
                if rnd:
                    times[layout].append(elapsed)
                checks[layout] = (rs.samples.height, len(rs.files), len(rs.problems))
        if checks["many"][0] != checks["few"][0] or checks["many"][2] or checks["few"][2]:
            print(f"WARNING: the layouts did not load the same rows: {checks}")
        many, few = statistics.median(times["many"]), statistics.median(times["few"])
        print(f"many files: median {many:.3f} s  ({1e3 * many / n_files:.3f} ms per file)")
        print(f"few files:  median {few:.3f} s")
        print(f"ratio many/few: {many / few:.1f}x  (target: within 5x)")


if __name__ == "__main__":
    main()
