"""Write the small, fixed results folder that the explorer's tests and snapshots use.

    python tests/tui/make_fixture.py      # rewrites tests/data/tui/results/

Three systems, five metrics, one benchmark name with markup-like brackets, and one file that
cannot be read (so that the problem count shows). No randomness: the same bytes every time.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"

SYSTEMS = {
    "base": (0, "Baseline build"),
    "patched": (1, "With the [bold] patch applied [/]"),
    "tuned": (2, "Patched, plus tuned settings"),
}

# benchmark, metric, unit, base value, factor per system
METRICS = [
    ("web/[bold]render[/]", "latency", "ms", 12.5, {"patched": 1.08, "tuned": 1.002}),
    ("db/read", "tps", "tx/s", 41000.0, {"patched": 1.06, "tuned": 0.999}),
    ("db/read", "latency", "ms", 0.195, {"patched": 0.95, "tuned": 1.001}),
    ("db/write", "tps", "tx/s", 9800.0, {"patched": 1.003, "tuned": 0.998}),
    ("startup", "time", "s", 4.81, {"patched": 1.0005, "tuned": 0.93}),
]
ITERATION_SHIFT = [1.0, 1.004, 0.997]
SAMPLE_SHIFT = [0.99, 1.01, 1.0, 1.005]


def main() -> None:
    if ROOT.exists():
        shutil.rmtree(ROOT)
    for system, (order, description) in SYSTEMS.items():
        folder = ROOT / system
        folder.mkdir(parents=True)
        (folder / "system.toml").write_text(f'description = "{description}"\norder = {order}\n')
        lines = ["benchmark,metric,iteration,sample,value,unit"]
        for bench, metric, unit, base, factors in METRICS:
            centre = base * factors.get(system, 1.0)
            for it, it_shift in enumerate(ITERATION_SHIFT):
                for j, s_shift in enumerate(SAMPLE_SHIFT):
                    value = round(centre * it_shift * s_shift, 6)
                    lines.append(f'"{bench}",{metric},{it},{j},{value},{unit}')
        (folder / "results.csv").write_text("\n".join(lines) + "\n")
    (ROOT / "base" / "broken.csv").write_text("benchmark;value\nthis is not a result\n")


if __name__ == "__main__":
    main()
