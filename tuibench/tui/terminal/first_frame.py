"""Reopening: the first frame is the screen last drawn for the same results, shown at once.

Polars, numpy and the loading take 0.2-0.3 s after Textual has drawn its first frame, even
when the cache holds the first screen's data (tui/view/reopen.py). So the explorer keeps,
in the cache, the first frame it drew with results, as styled text, under a key of where it
was drawn (the paths as given, the working folder, the options, the terminal's size and
the variables Textual reads), with the digest of the files it showed (ingest/reuse/
identity.py). On the next start, before Textual and polars are imported, a thread looks for
that frame and checks the files' digest again; the driver then writes the frame as the
first one, and Textual's own frames are held back (line_diff.TerminalCopy.held) until the
results are shown, a dialog opens, the terminal is resized, or `HOLD_UP_TO` passes. The
results' frame then writes only the cells that differ: none when nothing changed. Keys
typed meanwhile wait for the results as on any start (typeahead.py).

A frame is only a picture of the results: when the files, an option, the size or the code
changed, its key or its check differs and the explorer starts as without it. An entry that
does not decode, has control characters or does not fit the screen is not shown.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import threading
import unicodedata
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from tuibench.ingest.reuse import cache
from tuibench.model.options import AnalysisOptions, ViewOptions

KIND = "frame"
# Results of more files are not replayed: checking their digest before the first frame
# (discovery and a stat per file, about 50 us each) would delay it.
FILES_UP_TO = 1_000
HOLD_UP_TO = 1.0  # seconds from the screen's mount the replayed frame stands in at most
# Seconds after the first frame with results that it is kept, settled (the frames that
# finish it, a plot drawn ahead, are out): what a start with the same files shows.
SETTLED_AFTER = 0.5
TAKE_WAIT = 0.1  # seconds the driver waits for the check, once Textual has loaded
ENV = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR")

_where: bytes | None = None  # this start's key, once `start` ran
_start_size: tuple[int, int] | None = None
_checked: Future[dict | None] | None = None  # the stored frame, checked against the files


def _size() -> tuple[int, int] | None:
    """The terminal's size as Textual's driver takes it (COLUMNS and LINES first); None
    when it cannot be known."""
    try:
        size = shutil.get_terminal_size((0, 0))
    except (AttributeError, OSError, ValueError):
        return None
    return (size.columns, size.lines) if size.columns and size.lines else None


def where(
    paths: Sequence[Any], options: AnalysisOptions, view: ViewOptions, size: tuple[int, int]
) -> bytes:
    """The key of a frame: everything the first screen depends on besides the files."""
    env = sorted((k, v) for k, v in os.environ.items() if k in ENV or k.startswith("TEXTUAL"))
    here = os.getcwd()
    return cache.digest(KIND, here, [os.fspath(p) for p in paths], options, view, size, env)


def files_digest(paths: Sequence[Any]) -> bytes | None:
    """The digest of the files the explorer will load from `paths` (as its loading thread
    finds them: only complete files when watching), or None: too many, or not cacheable."""
    from tuibench.ingest.discover import discover
    from tuibench.ingest.reuse import identity
    from tuibench.ingest.watch import complete_now, only_complete

    complete = complete_now(paths)  # as the loading thread's (Live.prepare_watch)
    found = discover(paths)
    found.units = only_complete(found.units, complete)
    if len(found.units) > FILES_UP_TO or not identity.cacheable(found):
        return None
    return identity.files(found)


def start(paths: Sequence[Any], options: AnalysisOptions, view: ViewOptions) -> None:
    """Look for the stored frame of this start in a thread (before Textual is imported):
    one stat when there is none."""
    global _where, _start_size, _checked
    size = _size()
    if not cache.enabled() or size is None:
        return
    key = where(paths, options, view, size)
    _where, _start_size = key, size
    store = cache.Store()
    if not store.has(KIND, key):
        return
    _checked = future = Future[dict | None]()

    def check() -> None:
        frame = None
        with contextlib.suppress(Exception):  # an unreadable entry: started without it
            frame = decode(store.get(KIND, key), size)
            if frame is not None and files_digest(paths) != bytes.fromhex(frame["files"]):
                frame = None
        future.set_result(frame)

    threading.Thread(target=check, name="tuibench-first-frame", daemon=True).start()


def take() -> dict | None:
    """The checked frame of this start, once (waits up to TAKE_WAIT s for the check)."""
    global _checked
    future, _checked = _checked, None
    if future is None:
        return None
    try:
        frame = future.result(TAKE_WAIT)
    except Exception:  # not checked in time: started without it
        return None
    return frame if frame is not None and _size() == tuple(frame["size"]) else None


def encode(lines: list[list[tuple[str, str]]], size: tuple[int, int], files: bytes) -> bytes:
    return json.dumps({"size": list(size), "files": files.hex(), "lines": lines}).encode()


def decode(payload: bytes | memoryview | None, size: tuple[int, int]) -> dict | None:
    """The frame in `payload` if it fills a screen of `size` with printable text."""
    if payload is None:
        return None
    from rich.cells import cell_len

    frame = json.loads(bytes(payload))
    width, height = size
    lines = frame.get("lines")
    if frame.get("size") != [width, height] or not isinstance(lines, list) or len(lines) != height:
        return None
    for line in lines:
        if sum(cell_len(text) for text, _style in line) != width:
            return None
        if any(_control(text) or not isinstance(style, str) for text, style in line):
            return None
    return frame


def _control(text: str) -> bool:
    return any(unicodedata.category(c) == "Cc" for c in text)


def key_for(size: tuple[int, int]) -> bytes | None:
    """This start's key, if the screen still has the `size` it had at the start."""
    return _where if _where is not None and _size() == size == _start_size else None


def stored_at(key: bytes, frame: bytes) -> threading.Thread:
    """Store `frame` under `key` unless the same is stored, in a thread (returned)."""
    store = cache.Store()

    def put() -> None:
        with contextlib.suppress(Exception):
            if store.get(KIND, key) != frame:
                store.put(KIND, key, frame)

    thread = threading.Thread(target=put, name="tuibench-frame-store", daemon=True)
    thread.start()
    return thread
