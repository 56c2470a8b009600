"""One call in a thread of its own, beside the caller's work; pieces made ahead of their use."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

import numpy as np

T = TypeVar("T")
_END = object()  # the last of `ahead`'s items was made


def in_worker(fn, *args) -> Future:
    """fn(*args) in a thread of its own (numpy releases the GIL in its heavy steps, so the
    two cores both work), under the caller's numpy error handling (a thread starts with
    numpy's defaults); its exception, if any, is raised by `.result()`."""
    errors = np.geterr()

    def run():
        with np.errstate(**errors):
            return fn(*args)

    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(run)
    finally:
        pool.shutdown(wait=False)


def ahead(items: Iterable[T], depth: int = 2) -> Iterator[T]:
    """`items`, made in a thread of their own up to `depth` ahead of the caller: the next
    pieces of a document are made while the caller writes the ones before (polars and the
    kernel's copy both release the GIL). An exception of the maker is raised here; a
    caller that stops early stops the maker at its next piece."""
    made: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple) -> bool:
        while not stop.is_set():
            try:
                made.put(entry, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in items:
                if not put((True, item)):
                    return
            put((True, _END))
        except BaseException as exc:  # raised again in the caller's thread
            put((False, exc))

    threading.Thread(target=run, daemon=True, name="tuibench-ahead").start()
    try:
        while True:
            ok, item = made.get()
            if not ok:
                raise item
            if item is _END:
                return
            yield item
    finally:
        stop.set()
