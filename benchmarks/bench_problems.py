"""Many problems: how long `report` takes to say them and the explorer's `p` to open.

    python benchmarks/bench_problems.py [--problems 100000] [--rounds 3]

Writes PROBLEMS header-only CSV files (each one problem: "no data rows") beside one
readable file per system, runs `tuibench report` on them (prints its stderr lines and
time), then opens the explorer headless (Textual's pilot), waits for the load, and times
`p` until the problem list is drawn, and escape. Before problems were summarised, 100,000
of them printed 100,000 lines and `p` took 14.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def make_files(root: Path, n: int) -> None:
    for s in ("a", "b"):
        (root / s / "bad").mkdir(parents=True)
        rows = "".join(f"x,t,{i},{10 + i % 3}\n" for i in range(4))
        (root / s / "ok.csv").write_text("benchmark,metric,iteration,value\n" + rows)
        for i in range(n // 2):
            # a column of its own: files with the same bytes would be one problem of copies
            (root / s / "bad" / f"e{i}.csv").write_text(f"benchmark,metric,value,{s}{i}\n")


async def time_p(root: Path, rounds: int) -> list[float]:
    from tuibench.tui.app import TuibenchApp
    from tuibench.tui.screens.problems import ProblemsScreen

    app = TuibenchApp([str(root)])
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.main.loaded:
            await pilot.pause(0.1)
        await pilot.pause()
        for _ in range(rounds):
            t = time.perf_counter()
            await pilot.press("p")
            while not isinstance(app.screen, ProblemsScreen):
                await pilot.pause(0.001)
            await pilot.pause()  # drawn
            times.append(time.perf_counter() - t)
            await pilot.press("escape")
            await pilot.pause()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problems", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_problems.") as tmp:
        root = Path(tmp) / "results"
        make_files(root, args.problems)
        t = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "tuibench", "report", str(root)],
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - t
        lines = run.stderr.count("\n")
        print(f"report: {lines} lines on stderr for {args.problems} problems, {took:.1f} s")
        times = asyncio.run(time_p(root, args.rounds))
        print(
            f"p: problem list drawn after {statistics.median(times):.2f} s "
            f"({min(times):.2f}-{max(times):.2f})"
        )


if __name__ == "__main__":
    main()
