"""Reading the cache ahead: the explorer's first frame and the cache's read at once.

The command line starts it before Textual is imported (which is most of the time to the
first frame); the loading thread takes what it read (`reopen.Reopen.made`) and uses it
only if the files are still the ones it read. Started only when an "opened" mark says
these paths had their screen stored with these options in an entry large enough to gain
from it (`mark`), so opening other results never pays for it. Light on imports: the
thread imports the rest.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

from tuibench.ingest.reuse import cache
from tuibench.model.options import AnalysisOptions

KIND = "opened"
# Entries from this size on are read ahead. The thread holds the interpreter while it
# imports and decodes, and Textual's import beside it waits; only reading the file and
# its checksum leave the interpreter. Measured (benchmarks/HISTORY.md) at 0.14 MB
# (sample_runs) and 36 MB (20,000 metrics): the results came no sooner and the first
# frame 0.35-0.5 s later. Smaller entries are read by the loading thread after the app's
# start.
READ_AHEAD_FROM = 64 << 20

_early: dict[tuple, Future] = {}  # (paths, options) -> (Reopen, what it restored)


def _key(paths: Sequence[Any], options: AnalysisOptions) -> bytes:
    return cache.digest(KIND, [os.path.realpath(p) for p in paths], options.analysis_key())


def mark(paths: Sequence[Any], options: AnalysisOptions, size: int) -> None:
    """Say that the screen of `paths` with `options` is stored (an entry of no payload), if
    its entry of `size` bytes is large enough to be read ahead."""
    if cache.enabled() and size >= READ_AHEAD_FROM:
        cache.Store().put(KIND, _key(paths, options), b"")


def start(paths: Sequence[str], options: AnalysisOptions) -> None:
    """Read the screen's entry of `paths` for `options` in a thread, if marked stored."""
    if not cache.enabled() or not cache.Store().has(KIND, _key(paths, options)):
        return
    future: Future = Future()
    _early[(tuple(map(str, paths)), options)] = future

    def run() -> None:
        try:
            from tuibench.tui.view.reopen import Reopen

            reopen = Reopen(paths, options)
            future.set_result((reopen, reopen.restored()))
        except BaseException as exc:  # the explorer's own load says what went wrong
            future.set_exception(exc)

    threading.Thread(target=run, name="tuibench-read-ahead", daemon=True).start()


def take(paths: Sequence[Any], options: AnalysisOptions) -> Future | None:
    """The read started for `paths` and `options`, once; None if none was."""
    return _early.pop((tuple(map(str, paths)), options), None)
