"""Write the small, fixed results folder that the explorer's tests and snapshots use.

    python tests/tui/make_fixture.py      # rewrites tests/data/tui/results/ and eight/

Three systems, five metrics, one benchmark name with markup-like brackets, and one file that
cannot be read (so that the problem count shows). `eight/`: the same metrics for eight
systems (the width of the tables). No randomness: the same bytes every time.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"
EIGHT = ROOT.parent / "eight"
EIGHT_SYSTEMS = [f"kernel-6.{i}" for i in range(1, 9)]

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


def results_csv(factor) -> str:
    """The five metrics, each scaled by `factor(metric index)`."""
    lines = ["benchmark,metric,iteration,sample,value,unit"]
    for m, (bench, metric, unit, base, _) in enumerate(METRICS):
        centre = base * factor(m)
        for it, it_shift in enumerate(ITERATION_SHIFT):
            for j, s_shift in enumerate(SAMPLE_SHIFT):
                value = round(centre * it_shift * s_shift, 6)
                lines.append(f'"{bench}",{metric},{it},{j},{value},{unit}')
    return "\n".join(lines) + "\n"


def main() -> None:
    for root in (ROOT, EIGHT):
        if root.exists():
            shutil.rmtree(root)
    for system, (order, description) in SYSTEMS.items():
        folder = ROOT / system
        folder.mkdir(parents=True)
        (folder / "system.toml").write_text(f'description = "{description}"\norder = {order}\n')
        text = results_csv(lambda m, system=system: METRICS[m][4].get(system, 1.0))
        (folder / "results.csv").write_text(text)
    (ROOT / "base" / "broken.csv").write_text("benchmark;value\nthis is not a result\n")
    for i, system in enumerate(EIGHT_SYSTEMS):  # each a few percent apart, both ways
        folder = EIGHT / system
        folder.mkdir(parents=True)
        (folder / "system.toml").write_text(f"order = {i}\n")
        text = results_csv(lambda m, i=i: 1.0 + 0.013 * ((i * (m + 2)) % 7 - 3) * (i > 0))
        (folder / "results.csv").write_text(text)


if __name__ == "__main__":
    main()
