"""Collect garbage once the screen has settled, not in the middle of a key.

Python's full collection walks every tracked object that is not frozen (the loaded
results are: `screens/main/view.py`). After a few keys on 20,000 metrics that is 30,000
to 40,000 objects, and the collection came at whatever moment the counts said: 42 and
58 ms inside the first frame of 2 escapes out of 6 (a busy machine, profiled in-process).
Here a full collection runs when nothing was written for IDLE seconds; Python starts its
own next one only once the objects kept since have grown by a quarter, which a key or two
does not reach. A key typed during the collection waits for it; nothing is written.
"""

from __future__ import annotations

import asyncio
import gc
import threading

IDLE = 0.2  # seconds without output: longer than the gap between keys typed in a burst


class IdleCollector:
    """`activity()` from the event loop's thread at each write; the collection follows
    IDLE seconds after the last."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.get_ident()
        self._handle: asyncio.TimerHandle | None = None

    def activity(self) -> None:
        if threading.get_ident() != self._thread:  # only the loop's thread may arm it
            return
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._loop.call_later(IDLE, self._collect)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _collect(self) -> None:
        self._handle = None
        gc.collect()
