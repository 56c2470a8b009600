"""Memory and time of one huge iteration (1 M and 24 M samples). Prints figures only.

    python benchmarks/bench_subselection.py [--sizes 1e6,24e6] [--b 100]

For each size, in child processes (peak RSS by GNU time):
- the per-iteration value alone: `stats.iteration_values` over one iteration of n samples;
- `tuibench report --format json` of a Parquet file holding that one iteration (one system,
  one benchmark): reading, outlier fences, the value, the U test's sort, the JSON.
The B x n selection matrix that was built whole before took 8 B n bytes (19 GB at 24 M).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

VALUE = """
import sys, numpy as np
from tuibench import stats
n, b = int(sys.argv[1]), int(sys.argv[2])
x = np.random.default_rng(0).lognormal(3, 0.3, n)
v = stats.iteration_values(x, np.array([0]), np.array([n]), np.array([False]), b)
print(f"{v[0]:.9g}")
"""

WRITE = """
import sys, numpy as np, polars as pl
n = int(sys.argv[1])
x = np.random.default_rng(0).lognormal(3, 0.3, n)
pl.DataFrame({"system": "one", "benchmark": "big", "metric": "time", "iteration": 0,
              "value": x, "unit": "s"}).write_parquet(sys.argv[2])
"""


def child(args: list[str]) -> tuple[float, float, str]:
    """Wall time, peak RSS (MiB) and stdout of a child process."""
    with tempfile.NamedTemporaryFile("r") as rss:
        t = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name, *args],
            capture_output=True,
            text=True,
            cwd=tempfile.gettempdir(),  # not a checkout: `-m`/`-c` put the cwd first on the path
        )
        wall = time.perf_counter() - t
        # 1: `report` found a regression; a Python crash (a floor's) exits 1 too
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
            return wall, float("nan"), "failed: " + proc.stderr.strip().splitlines()[-1]
        return wall, int(rss.read().split()[-1]) / 1024, proc.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e6,24e6")
    ap.add_argument("--b", type=int, default=100)
    a = ap.parse_args()
    py = sys.executable
    for n in (int(float(s)) for s in a.sizes.split(",")):
        print(f"{n:,} samples in one iteration ({8 * n / 1e6:.0f} MB of values), B = {a.b}:")
        wall, rss, out = child([py, "-c", VALUE, str(n), str(a.b)])
        print(f"  iteration value alone:   {wall:7.1f} s, peak {rss:6.0f} MiB  (value {out})")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "one.parquet"
            subprocess.run([py, "-c", WRITE, str(n), str(path)], check=True)
            cmd = [py, "-m", "tuibench", "report", str(path), "--format", "json"]
            wall, rss, out = child([*cmd, "--subselections", str(a.b)])
            print(f"  tuibench report --format json: {wall:7.1f} s, peak {rss:6.0f} MiB")


if __name__ == "__main__":
    main()
