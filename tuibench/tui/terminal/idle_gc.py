"""Collect garbage once the screen has settled, not in the middle of a key.

Python's full collection walks every tracked object that is not frozen (the loaded
results are: `screens/main/loading.py`). After a few keys on 20,000 metrics that is 50,000
objects or more, 13 ms on a quiet machine and 50 ms and more on a busy one, and Python
started its own at whatever moment its counts said: inside a key's frames (3 in 27 keys,
profiled in-process), the slowest presses of n, escape, s and v. So while the explorer
runs Python makes no full collection of its own (its third threshold is set out of
reach; the young generations are collected as ever); one runs here when nothing was
written for IDLE seconds, or, once the last is OVERDUE seconds old, for IDLE_OVERDUE
seconds (keys typed without a pause of IDLE still leave gaps between their frames).

What survives a collection is frozen (`gc.freeze`): the next one walks only what the keys
made since, a few thousand objects (1-3 ms), where it walked everything the keys' caches
ever kept (70,000 objects after 18 keys, 40-180 ms in a pty beside other work: a key that
came meanwhile waited for it). Garbage among frozen objects (a dialog closed, a notice
gone) is collected once nothing happened for DEEP_IDLE seconds, or for DEEP_GROWN_IDLE
seconds once DEEP_GROWTH objects were frozen since (keys typed without a longer pause):
everything is unfrozen, collected and frozen again, 25-70 ms at 20,000 metrics, so only
after a pause that long.
A key read and not yet answered by a write (`input()`, from the input thread) puts the
collection off until IDLE after it: the key's handler may run for longer than IDLE before
its frame writes anything. A key answered does not: keys typed every 0.1-0.2 s had put
every collection off for 20 s, and the one that came at last walked 80,000 objects of
garbage (73 ms, a key waiting for it). A key typed during a collection waits for it;
nothing is written.

Each collection ends with the heap's trim (`process_settings.heap_trimmer`): what the work
before freed inside glibc's heaps is given back to the system (0.45-0.5 GB at rest at a
million metrics, which the next reference switch's peak stood on; 0.3 ms when there is
nothing to give back, 39 ms for half a gigabyte).
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time

from tuibench import process_settings

IDLE = 0.2  # seconds without output: longer than the gap between keys typed in a burst
OVERDUE = 2.0  # seconds from the last full collection after which a shorter gap will do
IDLE_OVERDUE = 0.05  # ... this gap
DEEP_IDLE = 5.0  # seconds of quiet after which frozen objects are collected too
DEEP_GROWTH = 100_000  # ... or once this many more objects are frozen (30 keys or so)
DEEP_GROWN_IDLE = 1.0  # ... after this many seconds of quiet
NO_FULL = 1_000_000  # Python's own full collections: after this many of the middle ones


class IdleCollector:
    """`activity()` from the event loop's thread at each write, `input()` from any thread
    when a key is read; the collection follows IDLE seconds after the last of either
    (IDLE_OVERDUE after a write once one is due). Python's own full collections are off
    until `stop()`."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()
        self._handle: asyncio.TimerHandle | None = None
        self._last = time.monotonic()
        self._written_at = 0.0  # the last write (the loop's thread)
        self._input_at = 0.0  # when a key was last read (by the input thread)
        self._frozen_since_deep = False  # something was frozen since the last deep one
        self._frozen_at_deep = gc.get_freeze_count()
        self._thresholds: tuple[int, int, int] | None = gc.get_threshold()
        self._trim = process_settings.heap_trimmer()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, NO_FULL)

    def activity(self) -> None:
        if threading.get_ident() != self._thread:  # only the loop's thread may arm it
            return
        now = self._written_at = time.monotonic()
        self._arm(IDLE_OVERDUE if now - self._last >= OVERDUE else IDLE, self._collect)

    def input(self) -> None:
        """A key was read (any thread): no collection within IDLE of it."""
        self._input_at = time.monotonic()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def _arm(self, delay: float, then) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._loop.call_later(delay, then)

    def _after_input(self) -> float:
        """Seconds still to wait for the last key read (0: none within IDLE, or it was
        answered: something was written after it)."""
        if self._input_at <= self._written_at:
            return 0.0
        return max(0.0, self._input_at + IDLE - time.monotonic())

    def _put_off(self) -> bool:
        """Whether a key not yet answered puts this collection off: then a plain one is
        set for when it may run."""
        self._handle = None
        wait = self._after_input()
        if wait:
            self._arm(wait, self._collect)
        return bool(wait)

    def _collect(self) -> None:
        if self._put_off():
            return
        gc.collect()
        gc.freeze()
        if self._trim is not None:  # what the last work freed, given back (process_settings)
            self._trim()
        self._frozen_since_deep = True
        self._last = time.monotonic()
        grown = gc.get_freeze_count() - self._frozen_at_deep >= DEEP_GROWTH
        self._arm(DEEP_GROWN_IDLE if grown else DEEP_IDLE, self._deep)

    def _deep(self) -> None:
        """Collect the frozen objects too (whatever became garbage since they froze)."""
        if self._put_off():
            return
        if self._frozen_since_deep:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self._frozen_since_deep = False
            self._frozen_at_deep = gc.get_freeze_count()
        self._last = time.monotonic()
