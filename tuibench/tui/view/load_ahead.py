"""The first open of small results: loaded and analysed in a child process while Textual loads.

The explorer's process holds one interpreter: importing Textual, starting the app, importing
polars and loading take turns on it (0.6 s to the first frame on `sample_runs/`, where a
reopening from the cache takes 0.5 s). Forked before Textual is imported, a child reads
the files, analyses them, compares them with the first screen's reference and writes the
screen's cache entry (reopen.py) on another core; the loading thread waits for it
(`wait`) and then reopens that entry as it would any other. The child writes nothing
else but the cache's entries, never the terminal, and ends by itself.

Only where it pays: a cache to write to, a second core, a fork (not on Windows), and files
of `FORK_UP_TO` bytes or fewer (larger results take seconds to load; the child would hold
them a second time). When the child cannot (an error, an entry the cache refuses), the
loading thread loads as before: the key of the entry is the files' identity, so an entry
of other files is never taken.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tuibench.model.options import AnalysisOptions, ViewOptions

if TYPE_CHECKING:
    from tuibench.tui.view.reloads import Reloads

FORK_UP_TO = 4 << 20  # bytes of result files: loaded in well under a second
# Seconds the loading thread waits for the child before loading itself: a child that slow
# is stuck (its files take no longer to read than the explorer's own load would).
WAIT_UP_TO = 10.0
READY, SKIPPED = b"r", b"s"

_child: dict[tuple, tuple[int, int]] = {}  # (paths, options) -> (pid, read end of its pipe)


def _cores() -> int:
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def start(paths: Sequence[str], options: AnalysisOptions, view: ViewOptions) -> None:
    """Fork the child that writes the first screen's entry of `paths` for `options`, as
    shown with `view`. Call before any thread starts."""
    from tuibench.ingest.reuse import cache

    if not hasattr(os, "fork") or not cache.enabled() or _cores() < 2:
        return
    read, write = os.pipe()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return
    if pid == 0:  # the child: never returns
        os.close(read)
        code = 1
        try:
            _quiet(parent)
            reloads = _write_entry(paths, options, view, lambda word: os.write(write, word))
            if reloads is not None:  # told: the load's entry is written meanwhile
                reloads.loader.write_unwritten()
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    _child[(tuple(map(str, paths)), options)] = (pid, read)


def wait(paths: Sequence[str], options: AnalysisOptions) -> None:
    """Wait (up to `WAIT_UP_TO` s) until the child of `paths` and `options`, if one was
    started, has written its entry or given up. The child is reaped in a daemon thread."""
    started = _child.pop((tuple(map(str, paths)), options), None)
    if started is None:
        return
    pid, read = started
    told = b""
    with contextlib.suppress(OSError):
        if select.select([read], [], [], WAIT_UP_TO)[0]:
            told = os.read(read, 1)
    os.close(read)
    if not told:  # slower than loading here from now on, or gone: not waited for again
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    threading.Thread(target=_reap, args=(pid,), name="tuibench-load-ahead", daemon=True).start()


def _reap(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)


def _quiet(parent: int) -> None:
    """The child leaves the terminal alone (no output, no key, no signal from it) and ends
    with the explorer, should that end first (quit while loading)."""
    os.setsid()  # out of the terminal's process group: ctrl+c and a hang-up are the app's
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    with contextlib.suppress(Exception):  # Linux: PR_SET_PDEATHSIG, killed with its parent
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)


def _write_entry(
    paths: Sequence[str], options: AnalysisOptions, view: ViewOptions, tell: Callable
) -> Reloads | None:
    """Write the screen's entry and `tell` READY (also when one is there already), else
    SKIPPED when it is not worth it; the load that wrote it, when there was one."""
    from tuibench import process_settings
    from tuibench.ingest.reuse import cache
    from tuibench.ingest.watch import complete_now
    from tuibench.tui.view.reloads import Reloads
    from tuibench.tui.view.reopen import KIND, Reopen
    from tuibench.tui.view.session import Session

    process_settings.resume_collection()  # paused by the command line for the imports

    complete = complete_now(paths)  # the files the explorer will read: as Live.prepare_watch
    reopen = Reopen(paths, options, complete)
    if reopen.key is None:  # not cacheable: the explorer loads them
        tell(SKIPPED)
        return None
    if cache.Store().has(KIND, reopen.key):
        tell(READY)
        return None
    if sum(os.stat(unit.path).st_size for unit in reopen.found.units) > FORK_UP_TO:
        tell(SKIPPED)
        return None
    reloads = Reloads(paths)
    rs = reloads.load(None, complete, reopen.found, True, reopen.identity)
    if not rs.empty:
        analysis = reloads.analyse(rs, options, lambda _figures: None)
        # The first screen's comparison is kept in the entry: the explorer shows it at once.
        session = Session.first(rs, analysis, options, view)
        analysis.prepare_references()  # every reference's tests: a switch reads no sample
        reopen.store_first(rs, analysis, session)
    tell(READY if reopen.stored else SKIPPED)
    return reloads if reopen.stored else None
