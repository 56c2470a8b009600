"""Where a key's time goes in the explorer: a timeline of one run, and what made a press slow.

    python benchmarks/key_trace.py TRACE_FILE tuibench-arguments...

runs the explorer (as `python -m tuibench` would) with a timeline written to TRACE_FILE, one
JSON list a line: [seconds (time.monotonic, the same clock as other processes'), thread CPU
seconds of the thread that recorded it, kind, ...details]. Kinds:
  key        a key read by the input thread (before the loop sees it)
  handle     a message or event handled on the loop for 1 ms or more: its handler, ms
  timer      a timer's callback that took 1 ms or more: its name, ms
  gc         a garbage collection: generation, ms, on the loop's thread or not, CPU ms,
             objects freed, the function that made it (by a call or an allocation)
  frame      the screen's update: ms, whether it laid out, bytes handed to the terminal
  cpu        every 50 ms: CPU seconds of the process's threads other than the loop's

`bench_keys_pty.py --trace` runs it and calls `classify` for each timed press: what the
timeline says kept that press past the target.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

SLOW = 0.001  # seconds: handlers and timers shorter than this are not written


class Timeline:
    def __init__(self, path: str) -> None:
        self.out = open(path, "w", buffering=1)  # noqa: SIM115 (open for the process's life)
        self.lock = threading.Lock()
        self.loop_thread = threading.get_ident()

    def add(self, kind: str, *details: Any) -> None:
        line = json.dumps([time.monotonic(), time.thread_time(), kind, *details])
        with self.lock:
            self.out.write(line + "\n")


def install(path: str) -> None:
    """Patch Textual's loop, timers, screen updates and input thread to write the timeline."""
    from textual import events
    from textual.driver import Driver
    from textual.message_pump import MessagePump
    from textual.screen import Screen
    from textual.timer import Timer

    line = Timeline(path)

    process_message = Driver.process_message

    def traced_process_message(self, message) -> None:
        if isinstance(message, events.Key):
            line.add("key", message.key)
        process_message(self, message)

    Driver.process_message = traced_process_message

    dispatch = MessagePump._dispatch_message

    async def traced_dispatch(self, message) -> None:
        start = time.perf_counter()
        try:
            await dispatch(self, message)
        finally:
            took = time.perf_counter() - start
            if took >= SLOW:
                name = f"{type(self).__name__}.{type(message).__name__}"
                line.add("handle", name, round(took * 1000, 2))

    MessagePump._dispatch_message = traced_dispatch

    tick = Timer._tick

    async def traced_tick(self, *, next_timer: float, count: int) -> None:
        start = time.perf_counter()
        try:
            await tick(self, next_timer=next_timer, count=count)
        finally:
            took = time.perf_counter() - start
            if took >= SLOW and self.name != "screen_update":  # a frame: written as such
                callback = getattr(self._callback, "__qualname__", repr(self._callback))
                line.add("timer", f"{self.name}:{callback}", round(took * 1000, 2))

    Timer._tick = traced_tick

    update = Screen._on_timer_update
    written = [0]

    def traced_update(self) -> None:
        layout = bool(self._layout_required)
        written[0] = 0
        start = time.perf_counter()
        update(self)
        took = time.perf_counter() - start
        if written[0] or took >= SLOW:
            line.add("frame", round(took * 1000, 2), layout, written[0])

    Screen._on_timer_update = traced_update

    from tuibench.tui.terminal import driver as tui_driver

    write = tui_driver.PromptEscapeDriver.write

    def traced_write(self, data: str) -> None:
        written[0] += len(data.encode())
        write(self, data)

    tui_driver.PromptEscapeDriver.write = traced_write

    started: dict[int, tuple[float, float]] = {}

    def on_gc(phase: str, info: dict) -> None:
        me = threading.get_ident()
        if phase == "start":
            started[me] = (time.perf_counter(), time.thread_time())
        elif me in started:
            wall, cpu = started.pop(me)
            took = (time.perf_counter() - wall) * 1000
            if info["generation"] > 0 or took >= 1:
                by = sys._getframe(1).f_code.co_name  # who made it: a call or an allocation
                used = round((time.thread_time() - cpu) * 1000, 2)
                line.add(
                    "gc",
                    info["generation"],
                    round(took, 2),
                    me == line.loop_thread,
                    used,
                    info["collected"],
                    by,
                )

    gc.callbacks.append(on_gc)

    def others() -> None:
        while True:
            time.sleep(0.05)
            total = 0
            for task in Path("/proc/self/task").iterdir():
                if int(task.name) == threading.main_thread().native_id:
                    continue
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[0])
            line.add("cpu", total / 1e9)

    threading.Thread(target=others, daemon=True, name="trace-cpu").start()


def census_after(seconds: float, path: str) -> None:
    """Keep what the collections find for `seconds` (gc.DEBUG_SAVEALL), then write how many
    of each type to `path`: what the keys leave in reference cycles (a diagnosis only: the
    garbage is kept meanwhile, and timings of that run mean nothing)."""
    import collections

    gc.set_debug(gc.DEBUG_SAVEALL)

    def later() -> None:
        time.sleep(seconds)
        gc.set_debug(0)
        kinds = collections.Counter(
            f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
        )
        with open(path, "w") as out:
            out.write(f"{len(gc.garbage)} objects in {seconds:g} s\n")
            for kind, n in kinds.most_common(60):
                out.write(f"{n:8} {kind}\n")
        gc.garbage.clear()

    threading.Thread(target=later, daemon=True, name="trace-census").start()


def read(path: str | Path) -> list[list]:
    events = []
    for text in Path(path).read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # the last line, cut at the end
            events.append(json.loads(text))
    return events


def classify(events: list[list], start: float, end: float) -> str:
    """What the timeline holds between a key written at `start` and its last byte at `end`:
    the key's arrival, the loop's handlers, timers, collections and frames, in words."""
    inside = [e for e in events if start <= e[0] <= end + 0.002]
    keys = [e for e in inside if e[2] == "key"]
    parts = []
    if keys:
        parts.append(f"read +{(keys[0][0] - start) * 1000:.0f}")
    on_loop = [e for e in events if e[2] in ("handle", "frame", "timer")]
    before = [e[1] for e in on_loop if e[0] < start]
    loop_cpu = before[-1:] + [e[1] for e in on_loop if start <= e[0] <= end + 0.002]
    for e in inside:
        at = (e[0] - start) * 1000
        if e[2] == "frame":
            parts.append(f"frame@{at:.0f} {e[3]:.0f}ms{' L' if e[4] else ''} {e[5]}B")
        elif e[2] == "gc" and (e[3] == 2 or e[4] >= 3):
            where = "" if e[5] else " (thread)"
            parts.append(f"gc{e[3]}@{at:.0f} {e[4]:.0f}ms cpu {e[6]:.0f} by {e[8]}{where}")
        elif e[2] == "timer":
            parts.append(f"timer {e[3]}@{at:.0f} {e[4]:.0f}ms")
        elif e[2] == "handle" and e[4] >= 5:
            parts.append(f"{e[3]}@{at:.0f} {e[4]:.0f}ms")
    cpu = [e[1] for e in events if e[2] == "cpu" and start - 0.05 <= e[0] <= end + 0.05]
    if len(cpu) >= 2:
        parts.append(f"others {1000 * (cpu[-1] - cpu[0]):.0f}ms cpu")
    if len(loop_cpu) >= 2:
        parts.append(f"loop {1000 * (max(loop_cpu) - min(loop_cpu)):.0f}ms cpu")
    return "; ".join(parts)


def main() -> None:
    # as `tuibench` sets it, before Textual reads it on import (install imports Textual)
    os.environ.setdefault("ESCDELAY", "10")
    sys.path.insert(0, os.getcwd())  # the package of the current folder, as `python -m`
    install(sys.argv[1])
    if os.environ.get("KEY_TRACE_CENSUS"):  # seconds, then the census beside the timeline
        census_after(float(os.environ["KEY_TRACE_CENSUS"]), sys.argv[1] + ".census")
    sys.argv = ["tuibench", *sys.argv[2:]]
    os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
    from tuibench.cli import run

    run()


if __name__ == "__main__":
    main()
