"""Calibration of every verdict and interval tuibench shows, on simulated suites.

    python benchmarks/calibrate.py [--quick] [--seed N]

Prints, per regime (plain Gaussian, outlier bursts, bimodal iterations, per-build level
jitter, run conditions shared across metrics, rounded values), number of iterations and of
samples per iteration: the false-alarm rate (A/A), the power against a known change and
the coverage of intervals, then each quantity's range over every regime and the bounds
checked. Seeded: the same seed prints the same numbers. Exit status 1 when a bound is broken.

Sections are functions of `Settings` returning a `Section` (calibration/settings.py); add
new ones to SECTIONS. Change points and the notes run from their own scripts
(calibration/scripts.py), which can also be run alone.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# Simulated suites are loaded by the thousand: none goes into the user's load cache.
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration import comparisons, scripts
from calibration.settings import Section, Settings

SECTIONS = [comparisons.section, scripts.changepoints, scripts.notes]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer designs and suites")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    settings = Settings(quick=args.quick, seed=args.seed)
    start = time.perf_counter()
    broken = 0
    for fn in SECTIONS:
        section: Section = fn(settings)
        print(f"== {section.title}")
        print("\n".join(section.lines))
        bad = [c for c in section.checks if not c.ok]
        broken += len(bad)
        print(f"bounds: {len(section.checks) - len(bad)} of {len(section.checks)} met")
        for c in bad:
            lo, hi = c.wilson()
            low = "-" if c.low is None else f"{100 * c.low:g}"
            high = "-" if c.high is None else f"{100 * c.high:g}"
            want = f"{low} to {high} %"
            print(
                f"  broken: {c.name} = {100 * c.value:.1f} % "
                f"(99 % interval {100 * lo:.1f} to {100 * hi:.1f}), wanted {want}"
            )
        print()
    kind = "quick" if args.quick else "full"
    print(f"seed {args.seed}, {kind}: {time.perf_counter() - start:.0f} s")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
