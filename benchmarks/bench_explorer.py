"""Key to updated frame in the explorer at scale. Prints figures only.

    python benchmarks/bench_explorer.py [--repeat 15] [--size 120x40]
                                        [--only wide|deep|million] [--million 1000000]

Generated results, in a temporary folder (never in the repository):
  wide: 20,000 metrics x 2 systems (one metric per benchmark, 3 iterations x 3 samples)
  deep: 2,000 benchmarks x 3 metrics x 3 systems
  million: 1,000,000 metrics x 2 systems (one tidy Parquet file, 3 iterations x 2 samples);
           run with `--only million`. At a million it peaks near 10 GB (the analysis
           alone holds about 4 GB); `--million 200000` peaks near 4 GB.

Drives the explorer headless with `App.run_test()` and, for each of `]`, `f`, `s`, `n`, `j`
and one keystroke in the filter, takes the time from the key to the first frame handed to
the terminal driver that shows its effect (the compositor has laid out and rendered every
changed widget by then). Each key alternates with its inverse (f twice, ] then [, ...), so
every measurement is of a real change. Target: under 100 ms at the median. The filter is
also timed as typed: two keys at once, from the last one to the frame that shows the
filtered tree (a large set waits for a pause in typing; that wait is counted).

The million case: `]` starts a comparison in a worker; `j` pressed right after it must still
move the cursor at once. Printed: `j` key to frame while the comparison runs, `]` key to the
frame that shows the new reference (the first one also computes that reference's per-system
summary), the same for `s` and `f`, `n` (the first press after a change of view computes
the order of changes), the time the worker's result takes on the UI thread, and two filter
keys at once to the filtered frame (after the pause a large set waits for).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from textual import events

from tuibench.tui.app import TuibenchApp
from tuibench.tui.view.state import ViewState
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

ITERATIONS, SAMPLES = 3, 3


def write_folder(root: Path, benchmarks: list[str], metrics: list[str], systems: int) -> None:
    rng = np.random.default_rng(1)
    n = len(benchmarks) * len(metrics)
    shift = rng.choice([1.0, 1.0, 1.0, 1.05, 0.95], size=(systems, n))
    shift[0] = 1.0
    base = rng.uniform(1, 1000, size=n)
    names = [(b, m) for b in benchmarks for m in metrics]
    for s in range(systems):
        folder = root / f"system{s}"
        folder.mkdir(parents=True)
        for it in range(ITERATIONS):
            noise = rng.normal(1.0, 0.01, size=(n, SAMPLES))
            values = base[:, None] * shift[s][:, None] * noise
            lines = ["benchmark,metric,sample,value,unit"]
            for (b, m), row in zip(names, values, strict=True):
                lines.extend(f"{b},{m},{j},{v:.6g},s" for j, v in enumerate(row))
            (folder / f"iter-{it}").mkdir()
            (folder / f"iter-{it}" / "results.csv").write_text("\n".join(lines) + "\n")


def wide(root: Path) -> None:
    benchmarks = [f"suite{i % 10}/group{i % 400}/bench{i}" for i in range(20_000)]
    write_folder(root, benchmarks, ["time"], 2)


def deep(root: Path) -> None:
    benchmarks = [f"suite{i % 8}/group{i % 100}/bench{i}" for i in range(2_000)]
    write_folder(root, benchmarks, ["time", "cpu", "rss"], 3)


def million(root: Path, n: int) -> Path:
    """n metrics x 2 systems as one tidy Parquet file (one in ten 5 % slower)."""
    import polars as pl

    rng = np.random.default_rng(1)
    names = pl.Series([f"suite{i % 10}/group{i % 1000}/bench{i}" for i in range(n)])
    base = rng.uniform(1, 1000, n)
    frames = []
    for s in range(2):
        shift = np.where(rng.random(n) < 0.1, 1.05, 1.0) if s else np.ones(n)
        for it in range(ITERATIONS):
            for j in range(2):
                values = base * shift * rng.normal(1.0, 0.01, n)
                frames.append(
                    pl.DataFrame(
                        {
                            "system": f"system{s}",
                            "benchmark": names,
                            "metric": "time",
                            "iteration": it,
                            "sample": j,
                            "value": values,
                            "unit": "s",
                        }
                    )
                )
    root.mkdir(parents=True)
    path = root / "results.parquet"
    pl.concat(frames).write_parquet(path)
    return path


def peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def loaded(app: TuibenchApp, pilot, poll: float) -> float:
    """Seconds until the explorer has loaded and analysed its results (headless)."""
    t0 = time.perf_counter()
    while not app.main.loaded:
        await pilot.pause(poll)
    await pilot.pause()
    return time.perf_counter() - t0


async def measure(path: Path, size: tuple[int, int], repeat: int, verbose: bool = False) -> None:
    app = TuibenchApp([str(path)])
    async with app.run_test(size=size) as pilot:
        seconds = await loaded(app, pilot, 0.05)
        session = app.main.session
        if session is None:
            print("  nothing loaded")
            return
        print(
            f"  {len(session.metrics)} metrics x {len(session.systems)} systems loaded and "
            f"analysed in {seconds:.1f} s (headless)"
        )
        frames: list[tuple[float, bool]] = []
        check: list[Callable[[], bool]] = [lambda: False]
        display = app._display  # every frame passes here on its way to the terminal

        def spy(screen, renderable) -> None:
            if renderable is not None:
                frames.append((time.perf_counter(), check[0]()))
            display(screen, renderable)

        app._display = spy
        tree = app.main.query_one(BenchTree)
        pane = app.main.query_one(DetailPane)

        async def timed(key: str | list[str], done: Callable[[], bool]) -> float:
            """From the (last) key to the first frame where `done()`; several keys are
            sent at once, as typed fast or pasted."""
            frames.clear()
            check[0] = done
            keys = [key] if isinstance(key, str) else key
            for k in keys:
                start = time.perf_counter()
                app.post_message(events.Key(k, k if len(k) == 1 else None))
            deadline = start + 60
            while not any(ok for _, ok in frames) and time.perf_counter() < deadline:
                await pilot.pause(0.002)
            ok = [t for t, good in frames if good]
            await pilot.pause()
            return (ok[0] - start) if ok else float("nan")

        results: dict[str, list[float]] = {}

        def add(name: str, t: float) -> None:
            results.setdefault(name, []).append(t * 1e3)
            if verbose:
                print(f"    {name}: {t * 1e3:.1f} ms", flush=True)

        def state() -> ViewState:  # a change of view installs a new state
            return session.state

        for _ in range(repeat):
            ref = state().reference
            add("]", await timed("right_square_bracket", lambda r=ref: state().reference != r))
            await timed("left_square_bracket", lambda r=ref: state().reference == r)
            add("f", await timed("f", lambda: state().significant_only))
            await timed("f", lambda: not state().significant_only)
            add("s", await timed("s", lambda: state().sort == "worst"))
            # back, untimed (s cycles on through more orders)
            app.main.update_state(dataclasses.replace(app.main.wanted, sort="natural"))
            await pilot.pause()
            before = pane.node
            add("n", await timed("n", lambda b=before: pane.node != b and pane.node.is_metric))
        # j: in the tree (focus it first), each press moves the cursor one line
        await pilot.press("tab")
        if app.focused is not tree:
            await pilot.press("tab")
        for _ in range(repeat):
            line = tree.cursor_line
            add("j", await timed("j", lambda c=line: tree.cursor_line == c + 1))
        # one keystroke in the filter: the tree shows the matching metrics
        await pilot.press("slash")
        for i in range(repeat):
            char = "3" if i % 2 == 0 else "backspace"
            want = "3" if i % 2 == 0 else ""
            add(
                "filter",
                await timed(
                    char, lambda w=want: state().filter_text == w and tree.shown is not None
                ),
            )
        # as typed: two keys at once, from the last one to the filtered frame
        await pilot.press("escape", "slash")
        for i in range(repeat):
            want = "12" if i % 2 == 0 else ""
            keys = ["1", "2"] if want else ["backspace", "backspace"]
            add(
                "filter, 2 keys at once: last key",
                await timed(keys, lambda w=want: state().filter_text == w),
            )
        report(results)


def report(results: dict[str, list[float]]) -> None:
    for name, ms in results.items():
        finite = [m for m in ms if m == m]
        if not finite:  # no frame showed the effect within the 60 s each key is given
            print(f"  {name:7} no frame within 60 s   ({len(ms)} presses)")
            continue
        print(
            f"  {name:7} median {statistics.median(finite):7.1f} ms   "
            f"max {max(finite):7.1f} ms   ({len(finite)} presses)"
        )


async def measure_million(path: Path, size: tuple[int, int], repeat: int) -> None:
    from tuibench.tui.widgets.answer_view import AnswerView

    app = TuibenchApp([str(path)])
    async with app.run_test(size=size) as pilot:
        seconds = await loaded(app, pilot, 0.2)
        session = app.main.session
        print(
            f"  {len(session.metrics)} metrics x {len(session.systems)} systems loaded and "
            f"analysed in {seconds:.0f} s (headless); peak {peak_mb():.0f} MiB"
        )
        display = app._display
        view = app.main.query_one(AnswerView)
        results: dict[str, list[float]] = {}
        install = app.main._install_computed  # what a change of the view does on the UI thread

        def timed_install(*args) -> None:
            start = time.perf_counter()
            install(*args)
            results.setdefault("install of a worker's result on the UI thread", []).append(
                (time.perf_counter() - start) * 1e3
            )

        app.main._install_computed = timed_install

        async def in_worker(key: str, name: str, attr: str, settle: float) -> None:
            """`key` (computed in a worker) then `j` at once: key to the frame showing the
            new `attr` of the state, and `j` to the frame with the cursor moved."""
            for i in range(repeat):
                before, before_line = getattr(session.state, attr), view.cursor_line
                seen: list[tuple[float, object, int | None]] = []

                def spy(screen, renderable, seen=seen) -> None:
                    if renderable is not None:
                        seen.append(
                            (time.perf_counter(), getattr(session.state, attr), view.cursor_line)
                        )
                    display(screen, renderable)

                app._display = spy
                t_key = time.perf_counter()
                await pilot.press(key)
                t_j = time.perf_counter()
                await pilot.press("j" if i % 2 == 0 else "k")
                while not any(v != before for _, v, _ in seen):
                    await pilot.pause(0.01)
                moved = [t for t, _, line in seen if line != before_line]
                if moved:
                    results.setdefault(f"j right after {name}: key to frame", []).append(
                        (moved[0] - t_j) * 1e3
                    )
                shown = next(t for t, v, _ in seen if v != before)
                label = "key to new reference" if attr == "reference" else "key to frame"
                results.setdefault(f"{name} (in a worker): {label}", []).append(
                    (shown - t_key) * 1e3
                )
                await pilot.pause(settle)

        await in_worker("right_square_bracket", "]", "reference", 0.5)
        await in_worker("s", "s", "sort", 0.3)
        await in_worker("f", "f", "significant_only", 0.3)
        # n: the next change, worst first (its order is kept per view: the first press
        # after a change of view computes it)
        tree = app.main.query_one(BenchTree)
        for i in range(repeat):
            if i % 2 == 0:  # a new view: n computes the order again
                was = session.state.significant_only
                await pilot.press("f")
                while session.state.significant_only == was:
                    await pilot.pause(0.01)
                await pilot.pause(0.3)
            before = tree.current
            stamps: list[float] = []

            def spy_n(screen, renderable, stamps=stamps, before=before) -> None:
                if renderable is not None and tree.current != before:
                    stamps.append(time.perf_counter())
                display(screen, renderable)

            app._display = spy_n
            start = time.perf_counter()
            await pilot.press("n")
            while not stamps:
                await pilot.pause(0.01)
            label = "n, first after a change of view" if i % 2 == 0 else "n, again"
            results.setdefault(f"{label}: key to frame", []).append((stamps[0] - start) * 1e3)
            await pilot.pause(0.3)
        # the filter: two keys at once, from the last to the frame with the filtered tree
        # (after the pause that a large set waits for, and the worker)
        app._display = display
        filtered: list[float] = []

        def spy_filter(screen, renderable) -> None:
            if renderable is not None and session.state.filter_text == want[0]:
                filtered.append(time.perf_counter())
            display(screen, renderable)

        app._display = spy_filter
        want = [""]
        await pilot.press("tab", "slash")
        for i in range(repeat):
            want[0] = "12" if i % 2 == 0 else ""
            keys = ["1", "2"] if want[0] else ["backspace", "backspace"]
            filtered.clear()
            for k in keys:
                start = time.perf_counter()
                app.post_message(events.Key(k, k if len(k) == 1 else None))
            while not filtered:
                await pilot.pause(0.01)
            results.setdefault("filter, 2 keys at once: last key to filtered frame", []).append(
                (filtered[0] - start) * 1e3
            )
            await pilot.pause(0.3)
        report(results)
        print(f"  peak {peak_mb():.0f} MiB")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--size", default="120x40", help="terminal size, WxH")
    p.add_argument("--only", choices=["wide", "deep", "million"])
    p.add_argument("--million", type=int, default=1_000_000, help="metrics of the million case")
    args = p.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))
    if args.only == "million":
        with tempfile.TemporaryDirectory() as tmp:
            path = million(Path(tmp) / "million", args.million)
            print(f"million: {args.million} metrics x 2 systems, {w}x{h}")
            asyncio.run(measure_million(path, (w, h), min(args.repeat, 6)))
        return
    for name, make in (("wide", wide), ("deep", deep)):
        if args.only and args.only != name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / name
            make(root)
            print(f"{name}: {root.name}, {w}x{h}")
            asyncio.run(measure(root, (w, h), args.repeat))


if __name__ == "__main__":
    main()
