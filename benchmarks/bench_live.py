"""How long a result file written while the explorer runs takes to be noticed and loaded.

    python benchmarks/bench_live.py [--trials 10]

The explorer (headless, `--follow`) over two systems of Go output; each trial writes one
complete `go test` file (its `ok` line last) into a system folder, and prints the seconds
until the watcher reports it (status line) and until the reloaded results hold it, with
inotify and with polling (`TUIBENCH_WATCH=poll`). Prints min, median and max per mode.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tui.test_tui_live import iteration
from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp


async def trials(root: Path, n: int) -> tuple[list[float], list[float]]:
    app = TuibenchApp([str(root)], view=ViewOptions(export_dir=str(root.parent), follow=True))
    noticed, loaded = [], []
    async with app.run_test(size=(120, 40)) as pilot:
        while app.main.session is None:
            await pilot.pause(0.05)
        await pilot.pause(1.5)  # the watcher is up
        for i in range(n):
            before = app.main.session
            start = time.monotonic()
            iteration(root / "new" / f"run-{10 + i}.txt", 1000, 500, seed=i)
            heard = None
            while app.main.session is before or app.main._reloading:
                if heard is None and (app.main._reloading or app.main._arrived is not None):
                    heard = time.monotonic()  # --follow starts reloading when told
                await pilot.pause(0.01)
            done = time.monotonic()
            noticed.append((heard or done) - start)
            loaded.append(done - start)
            await pilot.pause(0.5)
    return noticed, loaded


def spread(values: list[float]) -> str:
    return f"min {min(values):.2f}  median {statistics.median(values):.2f}  max {max(values):.2f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=10)
    args = ap.parse_args()
    for mode in ("inotify", "poll"):
        os.environ["TUIBENCH_WATCH"] = mode
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "results"
            for i in range(3):
                iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
                iteration(root / "new" / f"run-{i}.txt", 1000, 500, seed=100 + i)
            noticed, loaded = asyncio.run(trials(root, args.trials))
        print(f"{mode:8} noticed (s): {spread(noticed)}")
        print(f"{mode:8} loaded  (s): {spread(loaded)}")


if __name__ == "__main__":
    main()
