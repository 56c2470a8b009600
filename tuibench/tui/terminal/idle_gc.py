"""Collect garbage once the screen has settled, not in the middle of a key.

Python's full collection walks every tracked object that is not frozen (the loaded
results are: `screens/main/view.py`). After a few keys on 20,000 metrics that is 50,000
objects or more, 13 ms on a quiet machine and 50 ms and more on a busy one, and Python
started its own at whatever moment its counts said: inside a key's frames (3 in 27 keys,
profiled in-process), the slowest presses of n, escape, s and v. So while the explorer
runs Python makes no full collection of its own (its third threshold is set out of
reach; the young generations are collected as ever); one runs here when nothing was
written for IDLE seconds, or, once the last is OVERDUE seconds old, for IDLE_OVERDUE
seconds (keys typed without a pause of IDLE still leave gaps between their frames). A key
typed during the collection waits for it; nothing is written.
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time

IDLE = 0.2  # seconds without output: longer than the gap between keys typed in a burst
OVERDUE = 2.0  # seconds from the last full collection after which a shorter gap will do
IDLE_OVERDUE = 0.05  # ... this gap
NO_FULL = 1_000_000  # Python's own full collections: after this many of the middle ones


class IdleCollector:
    """`activity()` from the event loop's thread at each write; the collection follows
    IDLE seconds after the last (IDLE_OVERDUE once one is due). Python's own full
    collections are off until `stop()`."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()
        self._handle: asyncio.TimerHandle | None = None
        self._last = time.monotonic()
        self._thresholds: tuple[int, int, int] | None = gc.get_threshold()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, NO_FULL)

    def activity(self) -> None:
        if threading.get_ident() != self._thread:  # only the loop's thread may arm it
            return
        if self._handle is not None:
            self._handle.cancel()
        due = time.monotonic() - self._last >= OVERDUE
        self._handle = self._loop.call_later(IDLE_OVERDUE if due else IDLE, self._collect)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def _collect(self) -> None:
        self._handle = None
        gc.collect()
        self._last = time.monotonic()
