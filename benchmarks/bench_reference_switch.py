"""Time from the `]` key to a screen that shows the next reference. Prints figures only.

    python benchmarks/bench_reference_switch.py [PATH] [--repeat 20] [--size 120x40]

Drives the explorer headless with `App.run_test()`: for the root summary and for one metric
(tables and plot), press `]` and take the time of the first frame handed to the terminal
driver in which the header and the table name the new reference (the compositor has laid out
and rendered every changed widget by then). Pilot's own waiting for idle after a key is not
counted. Target on sample_runs: under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from pathlib import Path

from tuibench.tui.app import TuibenchApp
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.status_line import StatusLine
from tuibench.tui.widgets.table_view import TableView

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

REPO = Path(__file__).resolve().parents[1]


def shows(app: TuibenchApp, reference: str) -> bool:
    """Header and the table on the right both name `reference`."""
    if f"ref {reference} " not in app.main.query_one(StatusLine).plain + " ":
        return False
    pane = app.main.query_one(DetailPane)
    shown = "#detail" if app.main.current_node.is_metric else "#summary"
    table = pane.query_one(shown, TableView).table
    if table is None:
        return False
    if app.main.current_node.is_metric:
        return str(table.rows[0][0]) == f"{reference} (ref)"
    return table.columns[2] == reference


async def measure(path: str, size: tuple[int, int], repeat: int) -> None:
    app = TuibenchApp([path])
    async with app.run_test(size=size) as pilot:
        t0 = time.perf_counter()
        while not app.main.loaded:
            await pilot.pause(0.01)
        await pilot.pause()
        print(f"{path}: loaded and analysed in {time.perf_counter() - t0:.2f} s (headless)")
        if app.main.session is None:
            print("nothing loaded")
            return
        session = app.main.session
        frames: list[tuple[float, bool]] = []
        target = [""]
        display = app._display  # every frame passes here on its way to the terminal

        def spy(screen, renderable) -> None:
            if renderable is not None:
                frames.append((time.perf_counter(), shows(app, target[0])))
            display(screen, renderable)

        app._display = spy
        metric = max(session.visible, key=lambda k: k[0].count("/"))
        for label, node in (("root summary", Node()), ("one metric", Node.of_metric(*metric))):
            app.main.query_one(BenchTree).select(node)
            await pilot.pause()
            if session.state.answer_first and not node.is_metric:
                await pilot.press("v")  # the root opens on the answer; time the mmtests table
                await pilot.pause()
            times = []
            for _ in range(repeat):
                names = session.systems
                target[0] = names[(names.index(session.state.reference) + 1) % len(names)]
                frames.clear()
                start = time.perf_counter()
                await pilot.press("right_square_bracket")
                while not any(ok for _, ok in frames):
                    await pilot.pause(0.01)
                times.append(next(t for t, ok in frames if ok) - start)
                await pilot.pause()
            ms = [t * 1e3 for t in times]
            n = len(session.systems)
            later = ms[n:] or ms  # once every reference has been shown (pictures kept)
            print(
                f"  {label:13} ({node.title()}), {repeat} switches at {size[0]}x{size[1]}: "
                f"key to new frame median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms;"
                f" first {n} {', '.join(f'{t:.0f}' for t in ms[:n])} ms; after them median "
                f"{statistics.median(later):.1f} ms, max {max(later):.1f} ms"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("path", nargs="?", default=str(REPO / "sample_runs"))
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--size", default="120x40", help="terminal size, WxH")
    args = p.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))
    asyncio.run(measure(args.path, (w, h), args.repeat))


if __name__ == "__main__":
    main()
