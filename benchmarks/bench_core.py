"""Speed and memory of the headless core on a large result set. Prints figures; asserts nothing.

    python benchmarks/bench_core.py [--systems 8 --benchmarks 625 --metrics 4
                                     --iterations 10 --samples 50 --rounds 3]

Default: 10 million samples (8 x 625 x 4 x 10 x 50), 20,000 comparison rows. Every pair of
timings is taken in the same run, alternating the two after a warm-up; figures are medians.
Targets on a 2-core machine:
- per-iteration values within 1.5x a plain polars per-iteration median (the floor);
- a reference switch over all rows under 100 ms;
- `tuibench report --format json` within 2x a bare `python -c` that reads the same Parquet
  file and takes the per-iteration median (both child processes);
- peak memory of the report (max RSS of its process) under 1.5 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def generate(
    path: Path, systems: int, benchmarks: int, metrics: int, iterations: int, samples: int
) -> int:
    rng = np.random.default_rng(0)
    per_system = benchmarks * metrics * iterations * samples
    frames = []
    for s in range(systems):
        b = np.repeat(np.arange(benchmarks), metrics * iterations * samples)
        m = np.tile(np.repeat(np.arange(metrics), iterations * samples), benchmarks)
        it = np.tile(np.repeat(np.arange(iterations), samples), benchmarks * metrics)
        base = 100 + 10 * b + m
        value = base * (1 + 0.01 * s * (b % 7 == 0)) * (1 + rng.normal(0, 0.02, per_system))
        frames.append(
            pl.DataFrame(
                {
                    "system": pl.Series([f"sys-{s}"], dtype=pl.String).new_from_index(
                        0, per_system
                    ),
                    "benchmark": "suite/bench-" + pl.Series(b).cast(pl.String),
                    "metric": pl.Series(m).replace_strict(
                        {0: "time", 1: "latency", 2: "tput", 3: "cpu"}, return_dtype=pl.String
                    ),
                    "iteration": it,
                    "value": value,
                    "unit": pl.Series(m).replace_strict(
                        {0: "s", 1: "ms", 2: "ops/s", 3: "s"}, return_dtype=pl.String
                    ),
                }
            )
        )
    df = pl.concat(frames)
    df.write_parquet(path)
    return df.height


def timed(fn, repeat: int = 1):
    """Median wall time of `repeat` calls, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def alternate(fns: dict, rounds: int) -> dict[str, list]:
    """Each function once to warm up, then all of them in turn, `rounds` times."""
    for fn in fns.values():
        fn()
    results: dict[str, list] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            results[k].append(fn())
    return results


def child_run(args: list[str]) -> tuple[float, float]:
    """Wall time and peak RSS (MiB) of one child process.

    The peak comes from GNU time, whose own child starts small: a process started straight
    from this one would report at least this process' RSS (Linux keeps the high-water mark
    of the memory image an exec replaces).
    """
    with tempfile.NamedTemporaryFile("r") as rss:
        t = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tempfile.gettempdir(),  # not a checkout: `-m`/`-c` put the cwd first on the path
        )
        wall = time.perf_counter() - t
        # 1: `report` found a regression; a Python crash (a floor's) exits 1 too
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
            raise SystemExit(f"{args[:3]} failed: {proc.stderr[-2000:]}")
        return wall, int(rss.read().split()[-1]) / 1024


def med(xs: list) -> float:
    return statistics.median(xs)


def in_process(path: Path, rounds: int) -> None:
    """Load, analysis, per-iteration values, reference switches: in this process."""
    t_load, rs = timed(lambda: load([path]))
    print(f"load (read, validate, number, sort):  {t_load:7.2f} s")
    t_analysis, analysis = timed(lambda: Analysis(rs))
    print(f"analysis once per load (values, centres, intervals): {t_analysis:6.2f} s")
    phases = ", ".join(f"{k} {v:.2f} s" for k, v in analysis.timings.items())
    print(f"  phases: {phases}")

    keys = ["system", "benchmark", "metric", "iteration"]
    # Each iteration's samples: a run of rows (the analysis keeps no sample counts).
    runs = rs.samples.select(pl.struct(keys).rle().struct.field("len")).to_series()
    counts = runs.to_numpy().astype(np.int64)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    hmean = np.zeros(len(counts), bool)
    values = rs.samples["value"].to_numpy()

    def clock(fn):
        return lambda: timed(fn)[0]

    per_it = alternate(
        {
            "floor": clock(lambda: rs.samples.group_by(keys).agg(pl.col("value").median())),
            "tuibench": clock(lambda: stats.iteration_values(values, starts, counts, hmean)),
        },
        max(rounds, 5),
    )
    t_floor, t_iter = med(per_it["floor"]), med(per_it["tuibench"])

    # What a naive tool does: a Python loop of numpy calls per iteration, on a slice.
    rng = np.random.default_rng(0)
    k = min(2000, len(counts))

    def naive():
        for g in range(k):
            x = values[starts[g] : starts[g] + counts[g]]
            m = int(0.8 * len(x))
            means = [rng.choice(x, m, replace=False).mean() for _ in range(100)]
            np.median(means)

    t_naive, _ = timed(naive)
    t_naive_all = t_naive / k * len(counts)
    print(f"per-iteration values ({len(counts):,} iterations):")
    print(f"  plain polars median (floor):         {t_floor:7.3f} s")
    print(
        f"  tuibench subselection medians:       {t_iter:7.3f} s  "
        f"({t_iter / t_floor:.2f}x the floor; target < 1.5x)"
    )
    print(
        f"  naive per-group loop (extrapolated): {t_naive_all:7.1f} s  "
        f"({t_naive_all / t_iter:.0f}x slower than tuibench)"
    )
    t_trim, _ = timed(lambda: Analysis(rs, AnalysisOptions(iteration_value="trimmed")))
    print(f"analysis with --trim-outliers (raw and trimmed):    {t_trim:6.2f} s")

    systems = rs.system_names
    for label, options in (
        ("", None),
        (" with --fdr --threshold 2", AnalysisOptions(fdr=True, threshold=2.0)),
    ):
        times = []
        for r in range(2 * len(systems)):
            t, cmp = timed(lambda r=r, o=options: analysis.compare(systems[r % len(systems)], o))
            times.append(t)
        first, again = times[: len(systems)], times[len(systems) :]
        if label:
            first = again  # the U tests of every reference are already kept
        print(
            f"reference switch over {cmp.rows.height:,} rows{label}: "
            f"first time per reference median {1000 * med(first):.1f} ms "
            f"(max {1000 * max(first):.1f}); again median {1000 * med(again):.1f} ms "
            f"(max {1000 * max(again):.1f}) (target < 100 ms)"
        )
    t_filter, _ = timed(lambda: cmp.filter(metric="t*"), 3)
    print(f"filter (recomputes the FDR family):  {1000 * t_filter:7.1f} ms")


def shape_options(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The size of the generated results (10 M samples by default) and the rounds: the
    same options for every script that times the 10 M-sample shape."""
    ap.add_argument("--systems", type=int, default=8)
    ap.add_argument("--benchmarks", type=int, default=625)
    ap.add_argument("--metrics", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per comparison")
    return ap


def main() -> None:
    ap = shape_options(argparse.ArgumentParser())
    ap.add_argument(
        "--report-only",
        action="store_true",
        help="only the report against the bare read and median (child processes)",
    )
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as out_dir:
        path = Path(tmp) / "all.parquet"
        n = generate(path, a.systems, a.benchmarks, a.metrics, a.iterations, a.samples)
        print(f"samples: {n:,} in {path.stat().st_size / 1e6:.0f} MB of Parquet")
        print(f"{a.rounds} alternating rounds after a warm-up; medians")

        if not a.report_only:
            in_process(path, a.rounds)

        # Both children use both cores: other work on the machine shows in the figures.
        print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        out = Path(out_dir) / "r.json"
        report = [sys.executable, "-m", "tuibench", "report", str(path)]
        report += ["--format", "json", "--output", str(out)]
        bare = (
            "import polars as pl, sys; df = pl.read_parquet(sys.argv[1]); "
            "df.group_by(['system','benchmark','metric','iteration'])"
            ".agg(pl.col('value').median())"
        )
        runs = alternate(
            {
                "report": lambda: child_run(report),
                "bare": lambda: child_run([sys.executable, "-c", bare, str(path)]),
            },
            a.rounds,
        )
        t_report = med([w for w, _ in runs["report"]])
        t_bare = med([w for w, _ in runs["bare"]])
        rss_report = max(m for _, m in runs["report"])
        rss_bare = max(m for _, m in runs["bare"])
        print(
            f"tuibench report --format json:        {t_report:7.2f} s  "
            f"(runs {', '.join(f'{w:.2f}' for w, _ in runs['report'])})"
        )
        print(
            f"bare python -c read + median:          {t_bare:7.2f} s  "
            f"(runs {', '.join(f'{w:.2f}' for w, _ in runs['bare'])})"
        )
        print(f"report / bare: {t_report / t_bare:.2f}x (target < 2x)")
        print("load average (1, 5, 15 min) after:  {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        rows = json.loads(out.read_text())["rows"]
        print(f"report rows: {len(rows):,}")
        print(
            f"peak memory of report (max RSS):      {rss_report:7.0f} MiB (target < 1536 MiB; "
            f"the bare read and median: {rss_bare:.0f} MiB)"
        )


if __name__ == "__main__":
    main()
