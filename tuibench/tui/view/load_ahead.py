"""The first open of small results: loaded and analysed in a child process while Textual loads.

The explorer's process holds one interpreter: importing Textual, starting the app, importing
polars and loading take turns on it (0.6 s to the first frame on `sample_runs/`, where a
reopening from the cache takes 0.5 s). Forked before Textual is imported, a child reads
the files, analyses them, compares them with the first screen's reference and writes the
screen's cache entry (reopen.py) on another core; the loading thread waits for it
(`wait`) and then reopens that entry as it would any other. Before writing the entry the
child sends the first screen's picture, when asked for one (`picture`: tui/content/
picture.py), which the explorer draws before it imports polars. The child writes nothing
else but the cache's entries and that pipe, never the terminal, and ends by itself.

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
import struct
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tuibench.model.options import AnalysisOptions, ViewOptions

if TYPE_CHECKING:
    from tuibench.model.results import ResultSet
    from tuibench.tui.view.reloads import Reloads
    from tuibench.tui.view.session import Session

    # The first screen's picture as bytes, or None where there is none (picture.encoded).
    Picturing = Callable[[Session, ResultSet, ViewOptions], bytes | None]

FORK_UP_TO = 4 << 20  # bytes of result files: loaded in well under a second
# Seconds the loading thread waits for the child before loading itself: a child that slow
# is stuck (its files take no longer to read than the explorer's own load would).
WAIT_UP_TO = 10.0
READY, SKIPPED = b"r", b"s"
PICTURE = b"p"  # then the picture's length (`_LENGTH`) and its bytes; READY or SKIPPED later
NO_PICTURE = b"n"  # as soon as the child knows it makes none; READY or SKIPPED later
CUT = b"x"  # (the explorer's own mark) a picture cut short: the child is gone or stuck
PIPE_BYTES = 1 << 20  # a picture of NODES_UP_TO nodes is 150 KB: written without waiting
_LENGTH = struct.Struct("<Q")


class _Child:
    """A started child: its pid, the read end of its pipe, the word read ahead of `wait`."""

    def __init__(self, pid: int, read: int) -> None:
        self.pid, self.read, self.word = pid, read, b""
        self.until = time.monotonic() + WAIT_UP_TO


_child: dict[tuple, _Child] = {}  # (paths, options) -> its child


def _key(paths: Sequence[str], options: AnalysisOptions) -> tuple:
    return tuple(map(str, paths)), options


def _cores() -> int:
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def start(
    paths: Sequence[str],
    options: AnalysisOptions,
    view: ViewOptions,
    picture: Picturing | None = None,
) -> None:
    """Fork the child that writes the first screen's entry of `paths` for `options`, as
    shown with `view`, and first sends its `picture` when there is one. Call before any
    thread starts."""
    from tuibench.ingest.reuse import cache

    if not hasattr(os, "fork") or not cache.enabled() or _cores() < 2:
        return
    read, write = os.pipe()
    with contextlib.suppress(AttributeError, OSError):  # Linux: the child never waits to write
        import fcntl

        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
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
            reloads = _write_entry(paths, options, view, lambda word: _tell(write, word), picture)
            if reloads is not None:  # told: the load's entry is written meanwhile
                reloads.loader.write_unwritten()
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    _child[_key(paths, options)] = _Child(pid, read)


def started(paths: Sequence[str], options: AnalysisOptions) -> bool:
    """Whether a child of `paths` and `options` was started and not waited for yet."""
    return _key(paths, options) in _child


def _tell(fd: int, word: bytes) -> None:
    view = memoryview(word)
    while view:
        view = view[os.write(fd, view) :]


def picture(paths: Sequence[str], options: AnalysisOptions) -> bytes | None:
    """The picture the child of `paths` and `options` sends, waiting for it (up to
    `WAIT_UP_TO` s from the start); None when it has none or there is no child."""
    child = _child.get(_key(paths, options))
    if child is None or child.word:
        return None
    child.word = _read(child, 1)
    if child.word == NO_PICTURE:
        child.word = b""  # the word that ends the child's work is still to come
    if child.word != PICTURE:
        return None
    child.word = b""
    payload = _payload(child)
    if payload is None:
        child.word = CUT
    return payload


def _payload(child: _Child) -> bytes | None:
    """The picture's bytes after its PICTURE word; None when they were cut short."""
    head = _read(child, _LENGTH.size)
    size = _LENGTH.unpack(head)[0] if len(head) == _LENGTH.size else 0
    payload = _read(child, size) if size else b""
    return payload if size and len(payload) == size else None


def _read(child: _Child, n: int) -> bytes:
    """`n` bytes of the child's pipe, or fewer when it ends or the wait is over."""
    out = b""
    with contextlib.suppress(OSError):
        while len(out) < n:
            left = child.until - time.monotonic()
            if left <= 0 or not select.select([child.read], [], [], left)[0]:
                break
            got = os.read(child.read, n - len(out))
            if not got:
                break
            out += got
    return out


def wait(paths: Sequence[str], options: AnalysisOptions) -> None:
    """Wait (up to `WAIT_UP_TO` s from the start) until the child of `paths` and `options`,
    if one was started, has written its entry or given up. The child is reaped in a daemon
    thread."""
    child = _child.pop(_key(paths, options), None)
    if child is None:
        return
    told = child.word or _read(child, 1)
    while told in (NO_PICTURE, PICTURE):  # `picture` was not asked: what it would read
        if told == PICTURE and _payload(child) is None:
            told = CUT
            break
        told = _read(child, 1)
    os.close(child.read)
    if told not in (READY, SKIPPED):  # slower than loading here, or gone: not waited for
        with contextlib.suppress(OSError):
            os.kill(child.pid, signal.SIGKILL)
    threading.Thread(
        target=_reap, args=(child.pid,), name="tuibench-load-ahead", daemon=True
    ).start()


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
    paths: Sequence[str],
    options: AnalysisOptions,
    view: ViewOptions,
    tell: Callable,
    picture: Picturing | None = None,
) -> Reloads | None:
    """Write the screen's entry and `tell` READY (also when one is there already), else
    SKIPPED when it is not worth it; before the entry, the first screen's `picture` when
    there is one. The load that wrote it, when there was one."""
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
    if picture is not None and len(rs.system_names) < 2:  # no answer to draw: said at once
        picture = None
        tell(NO_PICTURE)
    if not rs.empty:
        analysis = reloads.analyse(rs, options, lambda _figures: None)
        # The first screen's comparison is kept in the entry: the explorer shows it at once.
        session = Session.first(rs, analysis, options, view)
        shown = None
        with contextlib.suppress(Exception):  # a picture that fails: the entry still comes
            shown = picture(session, rs, view) if picture is not None else None
        if shown is not None:  # the explorer draws it while this child writes the entry
            tell(PICTURE + _LENGTH.pack(len(shown)) + shown)
        elif picture is not None:
            tell(NO_PICTURE)
        analysis.prepare_references()  # every reference's tests: a switch reads no sample
        reopen.store_first(rs, analysis, session)
    tell(READY if reopen.stored else SKIPPED)
    return reloads if reopen.stored else None
