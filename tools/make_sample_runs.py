"""Write sample_runs/: a realistic, deterministic results folder to try tuibench on.

    python tools/make_sample_runs.py [OUT]      (default: sample_runs/ beside this folder)

Three systems (kernels), each with five iterations (`iter-<N>/`) of native CSV/TSV/JSONL/
Parquet results, plus the files other tools write: Google Benchmark JSON (three runs),
hyperfine JSON (three runs) and a pyperf JSON file (five runs). Built in:
- real regressions and improvements, and differences that are only noise;
- an outlier burst inside one iteration (linux-6.10, fio/seqwrite/1m bw, iteration 2);
- a metric with a single iteration (boot/firmware time);
- a metric whose direction only tuibench.toml knows (sysbench/memory score).
Every number comes from one seeded generator: the output is the same on every run.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import polars as pl

SEED = 20261122
SYSTEMS = {
    "linux-6.9": ("Baseline: v6.9 defconfig, performance governor", {}),
    "linux-6.10": (
        "v6.10: new scheduler path, slower pgbench read-only, faster fio random reads",
        {},
    ),
    "linux-6.10-tuned": ("v6.10 with sched_migration_cost raised and THP=madvise", {}),
}
ITERATIONS = 5
SAMPLES = 12

# benchmark, metric, unit, base value, sample noise (relative), iteration noise (relative),
# relative effect per system (linux-6.9, linux-6.10, linux-6.10-tuned), file
METRICS = [
    ("pgbench/ro/clients:8", "tps", "tx/s", 41200, 0.015, 0.006, (0, -0.06, 0.035), "pgbench.csv"),
    ("pgbench/ro/clients:8", "latency", "ms", 0.194, 0.02, 0.006, (0, 0.064, -0.03), "pgbench.csv"),
    ("pgbench/rw/clients:8", "tps", "tx/s", 9800, 0.03, 0.02, (0, 0.004, -0.006), "pgbench.csv"),
    ("pgbench/rw/clients:8", "latency", "ms", 0.816, 0.03, 0.02, (0, -0.003, 0.005), "pgbench.csv"),
    ("fio/randread/4k", "iops", "ops/s", 182000, 0.02, 0.008, (0, 0.08, 0.075), "fio.tsv"),
    ("fio/randread/4k", "clat", "us", 87.5, 0.03, 0.01, (0, -0.072, -0.07), "fio.tsv"),
    ("fio/seqwrite/1m", "bw", "MB/s", 2140, 0.01, 0.004, (0, -0.002, 0.001), "fio.tsv"),
    (
        "kernbench/defconfig",
        "elapsed",
        "s",
        312.4,
        0.004,
        0.003,
        (0, 0.002, -0.001),
        "kernbench.jsonl",
    ),
    ("kernbench/defconfig", "user", "s", 2280.0, 0.003, 0.002, (0, 0.001, 0.0), "kernbench.jsonl"),
    ("kernbench/defconfig", "sys", "s", 201.0, 0.01, 0.004, (0, 0.052, 0.012), "kernbench.jsonl"),
    (
        "hackbench/process/groups:4",
        "time",
        "s",
        1.92,
        0.06,
        0.04,
        (0, 0.03, -0.01),
        "hackbench.csv",
    ),
    ("hackbench/thread/groups:4", "time", "s", 1.71, 0.02, 0.008, (0, 0.0, -0.09), "hackbench.csv"),
    (
        "netperf/tcp_stream/64",
        "throughput",
        "Mbit/s",
        5120,
        0.02,
        0.01,
        (0, -0.004, 0.11),
        "netperf.parquet",
    ),
    (
        "netperf/udp_rr/1",
        "transactions",
        "trans/s",
        61800,
        0.015,
        0.01,
        (0, -0.045, -0.04),
        "netperf.parquet",
    ),
    ("sysbench/memory", "score", None, 9150, 0.01, 0.005, (0, 0.003, 0.02), "sysbench.csv"),
]


def native_rows(rng: np.random.Generator, system_index: int, iteration: int) -> dict[str, list]:
    """Rows per file name for one system and iteration."""
    files: dict[str, list] = {}
    for bench, metric, unit, base, s_noise, i_noise, effects, fname in METRICS:
        level = base * (1 + effects[system_index]) * (1 + rng.normal(0, i_noise))
        values = level * (1 + rng.normal(0, s_noise, SAMPLES))
        if (system_index, bench, metric, iteration) == (1, "fio/seqwrite/1m", "bw", 2):
            values[5:8] *= np.array([0.42, 0.38, 0.45])  # a writeback stall: outlier burst
        for j, v in enumerate(values):
            files.setdefault(fname, []).append(
                {
                    "benchmark": bench,
                    "metric": metric,
                    "value": round(float(v), 6),
                    "unit": unit,
                    "sample": j,
                }
            )
    return files


def write_native(folder: Path, files: dict[str, list]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for fname, rows in files.items():
        df = pl.DataFrame(
            rows,
            schema={
                "benchmark": pl.String,
                "metric": pl.String,
                "value": pl.Float64,
                "unit": pl.String,
                "sample": pl.Int64,
            },
        )
        path = folder / fname
        if fname.endswith(".csv"):
            df.write_csv(path)
        elif fname.endswith(".tsv"):
            df.write_csv(path, separator="\t")
        elif fname.endswith(".jsonl"):
            df.write_ndjson(path)
        else:
            df.write_parquet(path)


def boot_times(rng: np.random.Generator, system_index: int) -> list[dict]:
    """One iteration only: the firmware part of a boot measured 20 times after one reboot."""
    base = 4.81 * (1, 1.004, 0.93)[system_index]
    return [
        {"benchmark": "boot/firmware", "metric": "time", "value": round(float(v), 4), "unit": "s"}
        for v in base * (1 + rng.normal(0, 0.01, 20))
    ]


def gbench_run(rng: np.random.Generator, system_index: int, run: int) -> dict:
    benches = [
        ("BM_memcpy/64", 40.1, (0, 0.0, -0.02)),
        ("BM_memcpy/4096", 212.0, (0, 0.11, 0.1)),
        ("BM_sort/1024", 10400.0, (0, -0.01, 0.0)),
    ]
    entries = []
    for family, (name, ns, eff) in enumerate(benches):
        level = ns * (1 + eff[system_index]) * (1 + rng.normal(0, 0.01))
        reps = level * (1 + rng.normal(0, 0.008, 5))
        size = int(name.split("/")[1])
        for r, t in enumerate(reps):
            entries.append(
                {
                    "name": name,
                    "family_index": family,
                    "per_family_instance_index": 0,
                    "run_name": name,
                    "run_type": "iteration",
                    "repetitions": 5,
                    "repetition_index": r,
                    "threads": 1,
                    "iterations": int(1e9 / t) // 10,
                    "real_time": float(t),
                    "cpu_time": float(t * 0.998),
                    "time_unit": "ns",
                    "bytes_per_second": size / (t * 1e-9),
                }
            )
        for agg, val in (
            ("mean", reps.mean()),
            ("median", np.median(reps)),
            ("stddev", reps.std(ddof=1)),
        ):
            entries.append(
                {
                    "name": f"{name}_{agg}",
                    "family_index": family,
                    "per_family_instance_index": 0,
                    "run_name": name,
                    "run_type": "aggregate",
                    "repetitions": 5,
                    "threads": 1,
                    "aggregate_name": agg,
                    "aggregate_unit": "time",
                    "iterations": 5,
                    "real_time": float(val),
                    "cpu_time": float(val * 0.998),
                    "time_unit": "ns",
                }
            )
    return {
        "context": {
            "date": f"2026-11-0{run + 1}T10:00:00+00:00",
            "host_name": "bench-01",
            "executable": "./bm_core",
            "num_cpus": 16,
            "mhz_per_cpu": 3400,
            "cpu_scaling_enabled": False,
            "library_version": "v1.9.1",
            "library_build_type": "release",
        },
        "benchmarks": entries,
    }


def hyperfine_run(rng: np.random.Generator, system_index: int) -> dict:
    results = []
    for cmd, base, eff in (
        ("make -j16 vmlinux", 58.2, (0, 0.004, -0.03)),
        ("git status", 0.0412, (0, 0.05, 0.048)),
    ):
        level = base * (1 + eff[system_index]) * (1 + rng.normal(0, 0.005))
        times = level * (1 + rng.normal(0, 0.01, 10))
        results.append(
            {
                "command": cmd,
                "mean": float(times.mean()),
                "stddev": float(times.std(ddof=1)),
                "median": float(np.median(times)),
                "user": float(level * 0.8),
                "system": float(level * 0.15),
                "min": float(times.min()),
                "max": float(times.max()),
                "times": [float(t) for t in times],
                "exit_codes": [0] * 10,
            }
        )
    return {"results": results}


def pyperf_file(rng: np.random.Generator, system_index: int) -> dict:
    runs = [{"metadata": {"calibrate_loops": 64}, "warmups": [[1, 2.4e-5], [64, 2.2e-5]]}]
    level = 2.15e-5 * (1, 0.99, 0.985)[system_index]
    for r in range(5):
        it = level * (1 + rng.normal(0, 0.01))
        runs.append(
            {
                "metadata": {"date": f"2026-11-01 10:00:0{r}"},
                "warmups": [[64, float(it * 1.05)]],
                "values": [float(v) for v in it * (1 + rng.normal(0, 0.005, 3))],
            }
        )
    return {
        "version": "1.0",
        "metadata": {
            "hostname": "bench-01",
            "unit": "second",
            "loops": 64,
            "python_version": "3.12.7 (64-bit)",
        },
        "benchmarks": [{"metadata": {"name": "json_dumps"}, "runs": runs}],
    }


def main(out: Path) -> None:
    rng = np.random.default_rng(SEED)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "tuibench.toml").write_text(
        "# Per-metric settings: a glob on 'benchmark:metric' (or a metric name alone).\n"
        '[metrics."sysbench/*:score"]\nbetter = "higher"   # a score: no unit says so\n\n'
        '[metrics."netperf/*:transactions"]\nunit = "trans/s"\n'
    )
    for s, (name, (description, _)) in enumerate(SYSTEMS.items()):
        root = out / name
        (root).mkdir()
        (root / "system.toml").write_text(
            f'description = "{description}"\norder = {s}\n'
            f'tags = ["kernel", "{name.split("-")[1]}"]\n'
        )
        for i in range(ITERATIONS):
            write_native(root / f"iter-{i}", native_rows(rng, s, i))
        write_native(root / "iter-0", {"boot.csv": boot_times(rng, s)})
        for run in range(3):
            (root / "microbench").mkdir(exist_ok=True)
            (root / "microbench" / f"gbench-run{run + 1}.json").write_text(
                json.dumps(gbench_run(rng, s, run), indent=1)
            )
            (root / "hyperfine").mkdir(exist_ok=True)
            (root / "hyperfine" / f"build-run{run + 1}.json").write_text(
                json.dumps(hyperfine_run(rng, s), indent=1)
            )
        (root / "pyperf").mkdir()
        (root / "pyperf" / "json_dumps.json").write_text(json.dumps(pyperf_file(rng, s)))


if __name__ == "__main__":
    default = Path(__file__).resolve().parent.parent / "sample_runs"
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else default)
