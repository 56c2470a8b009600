"""tuibench's numpy-only special functions against scipy.special: time per call on arrays
of 20,000 and 1,000,000 elements (median of a few rounds, alternating). Prints figures;
asserts nothing.

    python benchmarks/bench_special.py [--rounds 5]

Arguments look like the product's: Welch df are fractional, |t| mostly a few units, p-values
and quantile levels across (0, 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from scipy import special as reference

from tuibench.stats import special

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")


def cases(n: int, rng: np.random.Generator) -> dict[str, tuple]:
    df = np.exp(rng.uniform(np.log(1.0), np.log(200.0), n))  # fractional, 1..200
    t = rng.standard_t(5, n) * 2
    p = rng.uniform(0, 1, n)
    return {
        "stdtr(df, t)": ("stdtr", df, t),
        "stdtrit(df, p)": ("stdtrit", df, p),
        "stdtrit(df, 0.975)": ("stdtrit", df, np.full(n, 0.975)),
        "ndtr(x)": ("ndtr", t),
        "ndtri(p)": ("ndtri", p),
        "gammaln(x)": ("gammaln", np.abs(t) * 50 + 1e-3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    print(f"{'function':22} {'n':>9} {'tuibench':>10} {'scipy':>10} {'ratio':>6}")
    for n in (20_000, 1_000_000):
        for label, (name, *args) in cases(n, rng).items():
            ours, theirs = getattr(special, name), getattr(reference, name)
            ours(*args), theirs(*args)  # warm-up
            times: dict[str, list[float]] = {"ours": [], "scipy": []}
            for _ in range(a.rounds):
                for key, fn in (("ours", ours), ("scipy", theirs)):
                    t0 = time.perf_counter()
                    fn(*args)
                    times[key].append(time.perf_counter() - t0)
            mine, ref = statistics.median(times["ours"]), statistics.median(times["scipy"])
            print(f"{label:22} {n:>9} {mine * 1e3:8.2f}ms {ref * 1e3:8.2f}ms {mine / ref:6.2f}")


if __name__ == "__main__":
    main()
