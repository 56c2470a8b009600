"""Other alphas than the default: what solving their tables of the power costs. Prints
figures; asserts nothing.

    python benchmarks/bench_alpha.py [--rounds 3] [--baseline DIR]

The tables of a few alphas ship with tuibench (power.SHIPPED_ALPHAS); any other alpha
solves two once per process (stats/power.py): the noncentralities over Welch's degrees of
freedom (the smallest change a comparison detects) and the effects per iteration count
(iterations for a threshold).
Prints, per alpha, the time to solve each table in this process, then `tuibench report
sample_runs/ --alpha A --threshold 2` as whole processes alternated after a warm-up
(median seconds, and over the default's). With --baseline DIR, the tables are also solved
by another checkout (PYTHONPATH=DIR) in a child, each with a time limit: scipy's noncentral
t alone took minutes at the smallest alphas.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from bench_core import alternate, child_run, med

os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
REPO = Path(__file__).resolve().parents[1]
ALPHAS = [0.05, 0.1, 0.01, 1e-3, 0.02, 1e-4, 1e-6, 1e-9, 1e-12]
LIMIT = 300.0  # seconds a baseline's table may take

SOLVE = """
import sys, time
from tuibench.stats import power
alpha = float(sys.argv[1])
for solve in (power.solve_noncentrality_table, power.solve_effect_table):
    t = time.perf_counter()
    solve(alpha, power.POWER)
    print(f"{time.perf_counter() - t:.3f}")
"""


def solve_times(alpha: float, pythonpath: str | None, limit: float | None) -> str:
    env = dict(os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {}))
    try:
        out = subprocess.run(
            [sys.executable, "-c", SOLVE, str(alpha)],
            capture_output=True,
            text=True,
            env=env,
            timeout=limit,
            cwd="/" if pythonpath else None,  # never this checkout first on the path
        ).stdout.split()
    except subprocess.TimeoutExpired:
        return f"over {limit:.0f} s"
    return " ".join(f"{float(x):6.2f} s" for x in out) if len(out) == 2 else "failed"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline", help="another checkout: its tables solved too")
    a = ap.parse_args()
    print(f"tables solved (noncentralities, effects), {time.strftime('%Y-%m-%d')}")
    for alpha in ALPHAS:
        line = f"  alpha {alpha:<6g} {solve_times(alpha, None, None)}"
        if a.baseline:
            line += f"   baseline {solve_times(alpha, a.baseline, LIMIT)}"
        print(line, flush=True)
    samples = str(REPO / "sample_runs")

    def report(alpha: float):
        args = ["report", samples, "--alpha", str(alpha), "--threshold", "2"]
        return lambda: child_run([sys.executable, "-m", "tuibench", *args])

    from tuibench.stats.power import SHIPPED_ALPHAS

    runs = alternate({alpha: report(alpha) for alpha in ALPHAS}, a.rounds)
    base = med([w for w, _ in runs[0.05]])
    print(f"tuibench report sample_runs/ --alpha A --threshold 2, {a.rounds} rounds:")
    for alpha in ALPHAS:
        wall = med([w for w, _ in runs[alpha]])
        note = "  (shipped)" if alpha in SHIPPED_ALPHAS else ""
        print(f"  alpha {alpha:<6g} {wall:6.2f} s  {wall / base:4.2f}x the default's{note}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
