"""The farm's million metrics in the explorer: time to the first screen and peak memory,
beside `tuibench report` on the same data. Prints figures only.

    python benchmarks/bench_farm_explorer.py [--scale 1.0]

The data is bench_shapes.py's `farm-1m` shape (1,000,000 metrics x 2 systems x 5
iterations x 3 samples, 30 M samples; `--scale 0.2`: 200,000 metrics), written to a
temporary folder. Each measurement is a child process of its own, so that its peak
resident memory (GNU time's, or the explorer's own high-water mark) is its own:
- the explorer, headless (`App.run_test()`): seconds from start to the first screen
  (loaded, analysed, tree and answer made) and the peak until then; then the same once
  its work ahead (the other references' U tests, done after the first screen) ended;
  then `]` to the other reference and `[` back, each until shown, and the peak after each
  (two comparisons of 2 M rows are kept, `session.COMPARISON_ROWS_KEPT`);
- `tuibench report PATH --format json --output FILE`: wall time and peak.
The cache is off (the work itself is timed) unless `--cache`: then on, in a fresh folder,
as a first open by a user writes its entries.
Targets (issue: fast on every input shape): the explorer within 3x the report's time,
its peak under 4 GB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import bench_shapes
from bench_core import child_run

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

EXPLORER = """
import asyncio, resource, sys, time
from tuibench import process_settings
process_settings.return_freed_pages()
process_settings.return_freed_heap()  # as the explorer's command does
from tuibench.tui.app import TuibenchApp

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

async def main(path):
    t0 = time.perf_counter()
    app = TuibenchApp([path])
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.main.loaded:
            await pilot.pause(0.2)
        await pilot.pause()
        first, at_first = time.perf_counter() - t0, peak()
        while app.main.loader is not None and app.main.loader.is_alive():
            await pilot.pause(0.2)
        ahead, at_ahead = time.perf_counter() - t0, peak()
        first_ref = app.main.session.state.reference
        for key, done in (("]", lambda r: r != first_ref), ("[", lambda r: r == first_ref)):
            t1 = time.perf_counter()
            await pilot.press(key)  # the other reference, computed in the background
            while not done(app.main.session.state.reference):
                await pilot.pause(0.05)
            took = time.perf_counter() - t1
            await pilot.pause(1.0)  # what follows the switch (the answer, the tree) too
            print(f"{key} {took:.1f} {peak():.0f}")
        print(f"{first:.1f} {at_first:.0f} {ahead:.1f} {at_ahead:.0f}")

asyncio.run(main(sys.argv[1]))
"""


def generate(scale: float, root: Path) -> Path:
    """The data, written by a child: a child of a large process inherits its peak (Linux
    keeps a forked child's high-water mark through exec), so the explorer's peak read
    4.2 GB at a million, this process's after writing the data, whatever its own (the
    report's comes from GNU time, whose own child starts small)."""
    code = "import sys, pathlib, bench_shapes as b; s = b.scaled(b.MILLION, float(sys.argv[1]))"
    code += "; print(b.generate(s, pathlib.Path(sys.argv[2]))[0])"
    args = [sys.executable, "-c", code, str(scale), str(root)]
    out = subprocess.run(args, cwd=Path(__file__).parent, check=True, capture_output=True)
    return Path(out.stdout.decode().strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="shrink the shape (e.g. 0.2)")
    ap.add_argument("--cache", action="store_true", help="the cache on, in a fresh folder")
    a = ap.parse_args()
    if a.cache:  # as a user has it: the first open writes the load's and screen's entries
        os.environ["TUIBENCH_NO_CACHE"] = "0"
    shape = bench_shapes.scaled(bench_shapes.MILLION, a.scale)
    print(f"{shape.name}: {shape.rows:,} samples, {shape.benchmarks * shape.metrics:,} metrics")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="tuibench-farm-") as tmp:
        path = generate(a.scale, Path(tmp) / "data")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # never the user's
        wall, rss = child_run(bench_shapes.report_args(path, Path(tmp) / "report.json"))
        print(f"report:   {wall:7.1f} s  peak {rss:6.0f} MiB")
        out = subprocess.run(
            [sys.executable, "-c", EXPLORER, str(path)],
            capture_output=True,
            text=True,
            cwd=tmp,
            check=True,
        )
        lines = out.stdout.split("\n")
        first, at_first, ahead, peak = (float(x) for x in lines[-2].split())
        print(
            f"explorer: {first:7.1f} s to the first screen ({first / wall:.2f}x the report)  "
            f"peak {at_first:6.0f} MiB\n"
            f"          {ahead:7.1f} s to the end of its work ahead            peak {peak:6.0f} MiB"
        )
        for line in lines[-4:-2]:  # then `]` to the other reference and `[` back
            key, took, after = line.split()
            shown = f"{key} shown after {float(took):.1f} s"
            print(f"          {shown:<46}peak {float(after):6.0f} MiB")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
