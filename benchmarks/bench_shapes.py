"""`tuibench report --format json` on many shapes of input, each against its own floor.

    python benchmarks/bench_shapes.py [--rounds 3] [--scale 1.0] [--only NAME[,NAME]]
                                      [--million] [--list] [--reports DIR]

For every shape, a deterministic data set is written to a temporary folder (never into the
repository), then two child processes are timed, alternating after a warm-up:
- the report: `python -m tuibench report PATH --format json --output FILE`;
- its floor: a bare `python -c` that reads the same file(s) with polars and takes the
  per-iteration median (group by system, benchmark, metric, iteration).
Figures are medians of `--rounds` rounds (wall time) and the largest peak RSS seen (GNU
time's maximum resident set). Targets: report within 2x its floor's time, and within 2.5x
its floor's peak memory. The machine's load shows in both; compare the ratios, which are
taken within one run.

`--scale` shrinks every shape (its largest dimension) for a quick run. `--million` adds the
1,000,000-metric shape (30 M rows; several GB of memory). `--reports DIR` writes each
shape's JSON report to DIR instead of timing: to check that a change keeps the output
byte for byte, run it on both versions (e.g. `--scale 0.05`) and `diff -r` the folders.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
from bench_core import alternate, child_run, med

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

METRIC_NAMES = ["time", "latency", "tput", "cpu", "rss", "ipc", "faults", "ctxsw", "p99", "p50"]
UNITS = ["s", "ms", "ops/s", "s", "MB", "", "count", "count", "ms", "ms"]
BETTER = ["lower", "Lower", "higher", "lower", "lower", "HIGHER", "lower", "lower", "", "lower"]
LONG = "kernel/scheduler/cfs-bandwidth/throttled-groups/cgroup-v2/nested-depth-4/"


@dataclass
class Shape:
    name: str
    what: str
    systems: int = 8
    benchmarks: int = 625
    metrics: int = 4
    iterations: int = 10
    samples: int = 50
    fmt: str = "parquet"  # parquet, csv, jsonl
    columns: tuple = ("system", "sample", "unit", "better")  # optional columns written
    categorical: bool = False
    long_names: bool = False
    files: int = 1  # per system: > 1 writes one file per (benchmark block, iteration)
    scaled: str = "benchmarks"  # the dimension --scale shrinks
    extra: dict = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return self.systems * self.benchmarks * self.metrics * self.iterations * self.samples


SHAPES = [
    Shape("parquet-string", "10 M samples, Parquet, String names, all columns, 8 systems"),
    Shape("parquet-categorical", "as parquet-string, names as Categorical", categorical=True),
    Shape(
        "parquet-bare",
        "10 M samples, Parquet, system and required columns only",
        columns=("system",),
    ),
    Shape(
        "parquet-no-better",
        "10 M samples, Parquet, no better column",
        columns=("system", "sample", "unit"),
    ),
    Shape(
        "parquet-folders",
        "10 M samples, a Parquet file per system folder, no system column",
        columns=("sample", "unit", "better"),
    ),
    Shape("csv", "2 M samples, CSV with unit and better", systems=2, benchmarks=500, fmt="csv"),
    Shape(
        "jsonl",
        "500,000 samples, JSON Lines with unit and better",
        systems=2,
        benchmarks=125,
        fmt="jsonl",
    ),
    Shape(
        "many-small-files",
        "20,000 CSV files of 3 rows",
        systems=2,
        benchmarks=1000,
        metrics=3,
        iterations=10,
        samples=1,
        fmt="csv",
        files=10000,
        columns=("unit",),
    ),
    Shape(
        "few-metrics",
        "10 M samples in 2 metrics of 2 systems",
        systems=2,
        benchmarks=1,
        metrics=2,
        samples=250_000,
        scaled="samples",
    ),
    Shape(
        "farm-200k",
        "200,000 metrics x 2 systems x 5 iterations x 3 samples, long names",
        systems=2,
        benchmarks=20_000,
        metrics=10,
        iterations=5,
        samples=3,
        long_names=True,
    ),
    Shape("systems-2", "10 M samples in 2 systems", systems=2, benchmarks=2500),
    Shape(
        "long-names",
        "4 M samples, 120-byte benchmark names",
        systems=2,
        benchmarks=2000,
        iterations=10,
        samples=25,
        long_names=True,
    ),
]
MILLION = Shape(
    "farm-1m",
    "1,000,000 metrics x 2 systems x 5 iterations x 3 samples",
    systems=2,
    benchmarks=100_000,
    metrics=10,
    iterations=5,
    samples=3,
)


def scaled(shape: Shape, scale: float) -> Shape:
    if scale == 1:
        return shape
    out = Shape(**{**shape.__dict__})
    setattr(out, shape.scaled, max(1, round(getattr(shape, shape.scaled) * scale)))
    if out.files > 1:
        out.files = max(2, round(shape.files * scale))
    return out


def frame(shape: Shape, system: int, benches: np.ndarray) -> pl.DataFrame:
    """One system's rows for the given benchmarks (numbers), deterministic."""
    rng = np.random.default_rng(1000 + system)
    m, it, smp = shape.metrics, shape.iterations, shape.samples
    per_bench = m * it * smp
    n = len(benches) * per_bench
    b = np.repeat(benches, per_bench)
    k = np.tile(np.repeat(np.arange(m), it * smp), len(benches))
    i = np.tile(np.repeat(np.arange(it), smp), len(benches) * m)
    base = 100 + 10 * (b % 97) + k
    value = base * (1 + 0.01 * system * (b % 7 == 0)) * (1 + rng.normal(0, 0.02, n))
    prefix = LONG if shape.long_names else "suite/"
    cols: dict = {
        "benchmark": prefix + "bench-" + pl.Series(b).cast(pl.String),
        "metric": pl.Series(np.array(METRIC_NAMES)[k]),
        "iteration": i,
        "value": value,
    }
    if "system" in shape.columns:
        cols = {"system": pl.Series([f"sys-{system}"]).new_from_index(0, n), **cols}
    if "sample" in shape.columns:
        cols["sample"] = np.tile(np.arange(smp), len(benches) * m * it)
    if "unit" in shape.columns:
        cols["unit"] = pl.Series(np.array(UNITS)[k])
    if "better" in shape.columns:
        cols["better"] = pl.Series(np.array(BETTER)[k])
    df = pl.DataFrame(cols)
    if shape.categorical:
        df = df.with_columns(pl.col(pl.String).cast(pl.Categorical))
    return df


def write(df: pl.DataFrame, path: Path, fmt: str) -> None:
    if fmt == "parquet":
        df.write_parquet(path)
    elif fmt == "csv":
        df.write_csv(path)
    else:
        df.write_ndjson(path)


def generate(shape: Shape, root: Path) -> tuple[Path, list[str]]:
    """The data set of `shape` under `root`: the path given to the report, and the floor's
    arguments (its format and the files, or a glob)."""
    ext = {"parquet": "parquet", "csv": "csv", "jsonl": "jsonl"}[shape.fmt]
    root.mkdir(parents=True)
    benches = np.arange(shape.benchmarks)
    if "system" in shape.columns and shape.files == 1:
        path = root / f"all.{ext}"
        write(pl.concat([frame(shape, s, benches) for s in range(shape.systems)]), path, shape.fmt)
        return path, [shape.fmt, str(path)]
    for s in range(shape.systems):
        folder = root / f"sys-{s}"
        folder.mkdir()
        df = frame(shape, s, benches)
        if shape.files == 1:
            write(df, folder / f"data.{ext}", shape.fmt)
            continue
        edges = np.linspace(0, df.height, shape.files + 1).astype(int)
        for f in range(shape.files):
            write(
                df.slice(edges[f], edges[f + 1] - edges[f]), folder / f"part-{f}.{ext}", shape.fmt
            )
    return root, [shape.fmt, str(root / "*" / f"*.{ext}")]


# The floor: read the same file(s) with polars, then the per-iteration median. Files in
# system folders are told apart by their path, as the report tells them by their folder.
FLOOR = """
import glob, sys, polars as pl
fmt, path = sys.argv[1], sys.argv[2]
many = "*" in path
kw = {"include_file_paths": "_f"} if many else {}
if fmt == "parquet":
    df = pl.read_parquet(path, **kw)
elif fmt == "csv":
    df = pl.scan_csv(path, **kw).collect()
else:
    df = pl.scan_ndjson(path, **kw).collect()
if many:
    df = df.with_columns(pl.col("_f").str.extract(r"(sys-\\d+)").alias("_f"))
keys = [c for c in ("_f", "system", "benchmark", "metric", "iteration") if c in df.columns]
df.group_by(keys).agg(pl.col("value").median())
"""


def report_args(path: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tuibench",
        "report",
        str(path),
        "--format",
        "json",
        "--output",
        str(out),
    ]


def measure(shape: Shape, root: Path, rounds: int) -> dict:
    path, floor_args = generate(shape, root / shape.name)
    out = root / f"{shape.name}.json"
    runs = alternate(
        {
            "report": lambda: child_run(report_args(path, out)),
            "floor": lambda: child_run([sys.executable, "-c", FLOOR, *floor_args]),
        },
        rounds,
    )
    shutil.rmtree(root / shape.name)
    return runs


def show(shape: Shape, runs: dict) -> None:
    t_r, t_f = med([w for w, _ in runs["report"]]), med([w for w, _ in runs["floor"]])
    m_r, m_f = max(m for _, m in runs["report"]), max(m for _, m in runs["floor"])
    ratios = sorted(r[0] / f[0] for r, f in zip(runs["report"], runs["floor"], strict=True))
    time_ok = "ok" if t_r <= 2 * t_f else "OVER"
    mem_ok = "ok" if m_r <= 2.5 * m_f else "OVER"
    print(
        f"{shape.name:20} {shape.rows:>11,} {t_r:7.2f} {t_f:7.2f} {t_r / t_f:5.2f}x "
        f"({ratios[0]:.2f}-{ratios[-1]:.2f}) {time_ok:4} "
        f"{m_r:7.0f} {m_f:6.0f} {m_r / m_f:5.2f}x {mem_ok}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per shape")
    ap.add_argument("--scale", type=float, default=1.0, help="shrink every shape (e.g. 0.1)")
    ap.add_argument("--only", help="comma-separated shape names")
    ap.add_argument("--million", action="store_true", help="add the 1,000,000-metric shape")
    ap.add_argument("--list", action="store_true", help="list the shapes and stop")
    ap.add_argument("--reports", type=Path, help="write each shape's JSON report here; no timing")
    a = ap.parse_args()
    shapes = SHAPES + ([MILLION] if a.million or (a.only and "farm-1m" in a.only) else [])
    if a.only:
        wanted = set(a.only.split(","))
        shapes = [s for s in shapes if s.name in wanted]
        if unknown := wanted - {s.name for s in shapes}:
            raise SystemExit(f"unknown shape(s): {', '.join(sorted(unknown))}")
    shapes = [scaled(s, a.scale) for s in shapes]
    if a.list:
        for s in shapes:
            print(f"{s.name:20} {s.rows:>11,} rows  {s.what}")
        return
    with tempfile.TemporaryDirectory(prefix="tuibench-shapes-") as tmp:
        root = Path(tmp)
        if a.reports:
            a.reports.mkdir(parents=True, exist_ok=True)
            for s in shapes:
                path, _ = generate(s, root / s.name)
                proc = subprocess.run(report_args(path, a.reports / f"{s.name}.json"), cwd=tmp)
                print(f"{s.name}: exit {proc.returncode}", flush=True)
                shutil.rmtree(root / s.name)
            return
        print(f"scale {a.scale}; {a.rounds} alternating rounds after a warm-up; medians")
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        print(
            f"{'shape':20} {'rows':>11} {'report':>7} {'floor':>7} {'ratio':>6} "
            f"{'(range)':11} {'':4} {'RSS MiB':>7} {'floor':>6} {'ratio':>6}"
        )
        for s in shapes:
            show(s, measure(s, root, a.rounds))
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
