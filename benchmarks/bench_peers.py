"""`tuibench report` beside the producers' own comparison tools, on the same files.

    python benchmarks/bench_peers.py [--rounds 3] [--scale 1.0] [--compare-py PATH]

Two peers, each on two shapes (few benchmarks with many repetitions, many benchmarks with
few), each shape a baseline and a contender file written to a temporary folder:
- Google Benchmark's `compare.py benchmarks BASE NEW` on Google Benchmark JSON (written
  as `--benchmark_repetitions` writes it: every repetition, then mean, median, stddev and
  cv). compare.py is not in the `google-benchmark` wheel on PyPI (that holds the Python
  bindings only); it is in the repository's `tools/` and in Debian's `libbenchmark-tools`
  (as `/usr/share/benchmark/compare.py`, the default here). Without it, its rows are
  skipped with a word.
- pyperf's `python -m pyperf compare_to BASE NEW` on pyperf JSON written by pyperf itself
  (`BenchmarkSuite.dump`; each run is an iteration for tuibench). pyperf installs with
  the project's `peers` extra: `pip install -e '.[peers]'`.
tuibench reads the same two files, as the systems `base` and `new` (`report DIR`). Every
command is a child process printing its text table to a discarded stdout; the figures are
the medians of `--rounds` rounds after a warm-up, the tools alternated, and the largest
peak RSS (GNU time). The tools do not do the same work: compare.py prints each
benchmark's relative change of the mean (and a U-test with enough repetitions); pyperf a
mean ± std dev and whether the change is significant (t-test); tuibench per-iteration
values, intervals, Welch and U tests, a verdict per metric and the geometric-mean
summary. The figures say what each costs on these files, nothing about which is right.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from bench_core import alternate, child_run, med

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

DEBIAN_COMPARE = Path("/usr/share/benchmark/compare.py")  # Debian's libbenchmark-tools


def _values(rng, n: int, shift: float, benches: int) -> np.ndarray:
    """benches x n positive timings (ns), the contender's shifted by `shift` on one in 7."""
    base = 1000.0 * (1 + np.arange(benches) % 97)[:, None]
    moved = 1 + shift * (np.arange(benches) % 7 == 0)[:, None]
    return base * moved * (1 + rng.normal(0, 0.02, (benches, n)))


def gbench_file(path: Path, benches: int, reps: int, shift: float, seed: int) -> None:
    """A Google Benchmark JSON file of `benches` benchmarks with `reps` repetitions."""
    rng = np.random.default_rng(seed)
    real = _values(rng, reps, shift, benches)
    cpu = real * 0.98
    entries = []
    for b in range(benches):
        name = f"BM_Work/{b}"
        common = {"run_name": name, "repetitions": reps, "threads": 1, "time_unit": "ns"}
        for r in range(reps):
            entries.append(
                {
                    "name": name,
                    "family_index": b,
                    "per_family_instance_index": 0,
                    **common,
                    "run_type": "iteration",
                    "repetition_index": r,
                    "iterations": 1000,
                    "real_time": real[b, r],
                    "cpu_time": cpu[b, r],
                }
            )
        for agg, fn in (("mean", np.mean), ("median", np.median), ("stddev", np.std)):
            entries.append(_aggregate(name, b, common, agg, fn(real[b]), fn(cpu[b])))
        cv = (np.std(real[b]) / np.mean(real[b]), np.std(cpu[b]) / np.mean(cpu[b]))
        entries.append(_aggregate(name, b, common, "cv", *cv, unit="percentage"))
    context = {
        "date": "2025-01-01T00:00:00+00:00",
        "host_name": "bench",
        "executable": "./bench",
        "num_cpus": 2,
        "mhz_per_cpu": 2000,
        "cpu_scaling_enabled": False,
        "caches": [],
        "load_avg": [0.0, 0.0, 0.0],
        "library_build_type": "release",
    }
    path.write_text(json.dumps({"context": context, "benchmarks": entries}))


def _aggregate(name, b, common, agg, real, cpu, unit="time") -> dict:
    return {
        "name": f"{name}_{agg}",
        "family_index": b,
        "per_family_instance_index": 0,
        **common,
        "run_type": "aggregate",
        "aggregate_name": agg,
        "aggregate_unit": unit,
        "iterations": 3,
        "real_time": float(real),
        "cpu_time": float(cpu),
    }


def pyperf_file(path: Path, benches: int, runs: int, values: int, shift: float, seed: int):
    """A pyperf JSON file (pyperf's own writer): `runs` runs of `values` values each."""
    import pyperf

    rng = np.random.default_rng(seed)
    v = _values(rng, runs * values, shift, benches) * 1e-9  # seconds
    suite = []
    for b in range(benches):
        meta = {"name": f"bench_{b}", "unit": "second", "loops": 1}
        run_list = [
            pyperf.Run(
                [float(x) for x in v[b, r * values : (r + 1) * values]],
                warmups=[(1, float(v[b, r * values]))],
                metadata=meta,
                collect_metadata=False,
            )
            for r in range(runs)
        ]
        suite.append(pyperf.Benchmark(run_list))
    pyperf.BenchmarkSuite(suite).dump(str(path), replace=True)


SHAPES = [
    # (peer, shape name, benchmarks, repetitions (compare.py) or runs (pyperf), values a run)
    ("compare.py", "few-many-reps", 20, 500, 1),
    ("compare.py", "many-benchmarks", 2000, 10, 1),
    ("pyperf", "few-many-runs", 20, 100, 5),
    ("pyperf", "many-benchmarks", 2000, 5, 3),
]


def what(peer: str, benches: int, n: int, values: int) -> str:
    if peer == "compare.py":
        return f"{benches:,} benchmarks x {n} repetitions"
    return f"{benches:,} benchmarks x {n} runs x {values} values"


def write_pair(peer: str, root: Path, benches: int, n: int, values: int) -> tuple[Path, Path]:
    """The baseline's and the contender's file, in the folders `base` and `new`."""
    files = []
    for system, shift, seed in (("base", 0.0, 1), ("new", 0.05, 2)):
        folder = root / system
        folder.mkdir(parents=True)
        path = folder / "results.json"
        if peer == "compare.py":
            gbench_file(path, benches, n, shift, seed)
        else:
            pyperf_file(path, benches, n, values, shift, seed)
        files.append(path)
    return files[0], files[1]


def peer_args(peer: str, base: Path, new: Path, compare_py: Path) -> list[str]:
    if peer == "compare.py":
        return [sys.executable, str(compare_py), "benchmarks", str(base), str(new)]
    return [sys.executable, "-m", "pyperf", "compare_to", str(base), str(new)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per shape")
    ap.add_argument("--scale", type=float, default=1.0, help="shrink the benchmark counts")
    ap.add_argument("--compare-py", type=Path, default=DEBIAN_COMPARE, help="compare.py")
    a = ap.parse_args()
    print(f"{a.rounds} alternating rounds after a warm-up; medians of wall time, largest RSS")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(
        f"{'peer':11} {'shape':16} {'files':>7} {'tuibench':>8} {'peer':>7} {'ratio':>6} "
        f"{'(range)':11} {'RSS MiB':>7} {'peer':>6}"
    )
    with tempfile.TemporaryDirectory(prefix="tuibench-peers-") as tmp:
        for peer, name, benches, n, values in SHAPES:
            if peer == "compare.py" and not a.compare_py.is_file():
                print(f"{peer:11} {name:16} skipped: no compare.py at {a.compare_py}")
                continue
            benches = max(2, round(benches * a.scale))
            root = Path(tmp) / f"{peer}-{name}"
            base, new = write_pair(peer, root, benches, n, values)
            size = (base.stat().st_size + new.stat().st_size) / 2**20
            tui = [sys.executable, "-m", "tuibench", "report", str(root), "--format", "text"]
            runs = alternate(
                {
                    "tuibench": lambda tui=tui: child_run(tui),
                    "peer": lambda p=peer, b=base, nw=new: child_run(
                        peer_args(p, b, nw, a.compare_py)
                    ),
                },
                a.rounds,
            )
            t_t = med([w for w, _ in runs["tuibench"]])
            t_p = med([w for w, _ in runs["peer"]])
            pairs = zip(runs["tuibench"], runs["peer"], strict=True)
            ratios = sorted(t / p for (t, _), (p, _) in pairs)
            m_t = max(m for _, m in runs["tuibench"])
            m_p = max(m for _, m in runs["peer"])
            print(
                f"{peer:11} {name:16} {size:5.1f}MiB {t_t:8.2f} {t_p:7.2f} {t_t / t_p:5.2f}x "
                f"({ratios[0]:.2f}-{ratios[-1]:.2f}) {m_t:7.0f} {m_p:6.0f}   "
                f"{what(peer, benches, n, values)}",
                flush=True,
            )
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print("ratio: tuibench's time over the peer's (below 1: tuibench is faster)")


if __name__ == "__main__":
    main()
