"""Notice result files added, grown or removed under the given paths while benchmarks run.

A thread looks at the files when inotify says something changed (through watchfiles), or
every second by itself where inotify is unavailable or cannot see every change (a network
file system: NFS, SMB, sshfs; `TUIBENCH_WATCH=poll` forces it). A look is a stat of every
file (`snapshot`); `Tracker` compares it with the files the loaded results hold and says,
once they are complete, which were added, grew or were removed (`Change`).

Complete means never read half:
- a file whose producer writes an end marker is complete once the marker is there: Google
  Benchmark's JSON closes with `]` and `}`; `go test` output ends with its `ok` or `FAIL`
  line (a test binary's own `PASS`, which `ok` may follow, counts once stable, below); a
  pyperf JSON file parses whole. Such a file without its marker counts as
  complete only after QUIET_OPEN seconds unchanged (a run killed half way: what it wrote
  is all there will be);
- any other file once its size and modification time stayed the same over two looks at
  least SETTLE seconds apart;
- files in an mmtests-style `iter-<N>` folder arrive together: none of them is complete
  while another file of that folder is still being written (an iteration is applied
  whole, never some of its benchmarks).

A load reads only the files known complete, each up to the size it had then (`complete`):
a file that appeared since the last look, or is still being written, is not read; one that
grows again is read up to its last complete size.

No Textual here: the explorer runs a `Watcher` and reloads through its session.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tuibench.model.set_aside import VCS_FOLDERS

WATCH_ENV = "TUIBENCH_WATCH"  # "poll": stat every second; "off": do not watch
SETTLE = 0.5  # seconds between the two looks that must find a file unchanged
POLL_EVERY = 1.0  # seconds between looks when polling
QUIET_OPEN = 10.0  # a producer's file without its end marker, unchanged this long: complete
DEBOUNCE_MS = 400  # inotify: events are gathered for at most this long before a look
MARKER_BYTES = 4096  # read from each end of a file to find its producer and end marker
PARSE_UP_TO = 64 << 20  # a pyperf file larger than this is judged by its stability alone
# File systems where inotify misses changes made by other machines: polled.
NETWORK_FS = {
    "nfs",
    "nfs4",
    "cifs",
    "smb3",
    "smbfs",
    "fuse.sshfs",
    "9p",
    "afs",
    "ceph",
    "glusterfs",
    "lustre",
    "gpfs",
}
ITER_DIR = re.compile(r"^iter-\d+$")

Stat = tuple[int, int]  # size, modification time in ns


def snapshot(paths: Iterable[str | os.PathLike]) -> dict[str, Stat]:
    """Every regular file under `paths` (absolute path -> size, mtime), as discovery walks
    them: version-control folders are not entered, nor links to folders outside `paths`."""
    files: dict[str, Stat] = {}
    stack = []
    for p in paths:
        p = os.path.abspath(p)
        if os.path.isdir(p):
            stack.append(p)
        else:
            _stat_into(files, p)
    roots = [os.path.realpath(p) for p in stack]
    seen = set(roots)
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for e in entries:
                    try:
                        if e.is_dir():
                            if e.name not in VCS_FOLDERS and _enter(e, roots, seen):
                                stack.append(e.path)
                        elif e.is_file():
                            st = e.stat()
                            files[e.path] = (st.st_size, st.st_mtime_ns)
                    except OSError:  # gone meanwhile
                        continue
        except OSError:
            continue
    return files


def _enter(entry: os.DirEntry, roots: list[str], seen: set[str]) -> bool:
    """Whether to walk a folder: once, and through a link only to a folder inside the roots."""
    if not entry.is_symlink():
        return True
    real = os.path.realpath(entry.path)
    inside = any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)
    if not inside or real in seen:
        return False
    seen.add(real)
    return True


def _stat_into(files: dict[str, Stat], path: str) -> None:
    try:
        st = os.stat(path)
    except OSError:
        return
    if os.path.isfile(path):
        files[path] = (st.st_size, st.st_mtime_ns)


GO_START = re.compile(rb"^(goos|goarch|pkg|cpu): |^Benchmark\S*\s+\d+\s", re.M)
GO_END = re.compile(rb"^(FAIL|ok\s.*|FAIL\s.*)$")  # go test's own last line


def end_marker(path: str) -> bool | None:
    """Whether a producer's end marker closes the file: True (there), False (a producer
    that writes one, not there yet), None (no known producer: its stability decides)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(MARKER_BYTES)
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - MARKER_BYTES))
            tail = fh.read(MARKER_BYTES)
    except OSError:
        return None
    start = head.lstrip()[:200]
    if start.startswith(b"{") and b'"context"' in start:  # Google Benchmark JSON
        return tail.rstrip().endswith(b"}") and tail.rstrip()[:-1].rstrip().endswith(b"]")
    if start.startswith(b'{"benchmarks"') or (
        start.startswith(b"{") and b'"version"' in head and b'"runs"' in head
    ):  # pyperf JSON: written at once, and complete when it parses
        return _parses(path) if size <= PARSE_UP_TO else None
    if GO_START.search(head):
        lines = tail.rstrip().splitlines()
        last = lines[-1].rstrip() if lines else b""
        if last == b"PASS":  # a test binary's last line, or go test's `ok` line comes next
            return None
        return GO_END.match(last) is not None
    return None


def _parses(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            json.loads(fh.read())
        return True
    except (OSError, ValueError):
        return False


@dataclass
class Change:
    """Complete files added, grown, changed otherwise, or removed since the last change."""

    added: list[str] = field(default_factory=list)
    grew: list[str] = field(default_factory=list)
    rewritten: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    iterations: list[str] = field(default_factory=list)  # new iter-<N> folders

    def __bool__(self) -> bool:
        return bool(self.added or self.grew or self.rewritten or self.removed)

    def merge(self, other: Change) -> Change:
        """Both changes, as one (changes noticed while a reload ran)."""
        out = Change()
        for name in ("added", "grew", "rewritten", "removed", "iterations"):
            setattr(out, name, list(dict.fromkeys(getattr(self, name) + getattr(other, name))))
        out.grew = [p for p in out.grew if p not in out.added]
        return out

    def summary(self, system_of: Callable[[str], str | None]) -> str:
        """In words: `+3 files: 1 new iteration of linux-6.10 · 1 file grew · 2 removed`."""
        parts = []
        if self.added:
            n = len(self.added)
            part = f"+{n} file{'s' if n != 1 else ''}"
            where = _where(self.added, self.iterations, system_of)
            parts.append(f"{part}: {where}" if where else part)
        for paths, verb in ((self.grew, "grew"), (self.rewritten, "changed")):
            if paths:
                n = len(paths)
                systems = _systems(paths, system_of)
                parts.append(f"{n} file{'s' if n != 1 else ''} {verb}{systems}")
        if self.removed:
            n = len(self.removed)
            parts.append(f"{n} removed{_systems(self.removed, system_of)}")
        return " · ".join(parts)


def _systems(paths: list[str], system_of: Callable[[str], str | None]) -> str:
    names = list(dict.fromkeys(s for p in paths if (s := system_of(p))))
    return f" ({', '.join(names)})" if names else ""


def _where(added: list[str], iterations: list[str], system_of) -> str:
    """`1 new iteration of linux-6.10, 2 files in linux-6.9`: new iter-<N> folders, and the
    files outside them, per system."""
    per: dict[str, list[int]] = {}
    for folder in iterations:
        per.setdefault(system_of(folder + os.sep + "x") or "?", [0, 0])[0] += 1
    for path in added:
        if not any(path.startswith(folder + os.sep) for folder in iterations):
            per.setdefault(system_of(path) or "?", [0, 0])[1] += 1
    words = []
    for system, (its, files) in per.items():
        if its:
            words.append(f"{its} new iteration{'s' if its != 1 else ''} of {system}")
        if files:
            words.append(f"{files} file{'s' if files != 1 else ''} in {system}")
    return ", ".join(words)


def _iter_folder(path: str) -> str | None:
    """The innermost `iter-<N>` folder above `path`, if any."""
    parent = os.path.dirname(path)
    while parent and parent != os.path.dirname(parent):
        if ITER_DIR.match(os.path.basename(parent)):
            return parent
        parent = os.path.dirname(parent)
    return None


class Tracker:
    """What the results hold (`applied`), what the files are now, and which differences
    are complete. Pure bookkeeping over snapshots and a clock: tested without threads."""

    def __init__(
        self,
        files: Mapping[str, Stat],
        now: float,
        marker: Callable[[str], bool | None] = end_marker,
        wall: float | None = None,
    ):
        self.marker = marker
        self._since: dict[str, tuple[Stat, float]] = {}  # path -> (stat, first seen so)
        self.applied: dict[str, Stat] = {}
        # At the start one look is all there is, and stability needs two: only a producer's
        # file written lately and still without its end marker is held back; the loader
        # reads the others as they are (and says so of one that grows while it reads).
        wall = time.time() if wall is None else wall
        for path, st in files.items():
            age = wall - st[1] / 1e9
            if age < QUIET_OPEN and self.marker(path) is False:
                self._since[path] = (st, now - max(age, 0.0))
            else:
                self.applied[path] = st
        self._iter_hold()

    def _iter_hold(self) -> None:
        """Keep out of `applied` the files of an iter-<N> folder with a file held back."""
        open_folders = {f for p in self._since if (f := _iter_folder(p))}
        for path in [p for p in self.applied if _iter_folder(p) in open_folders]:
            st = self.applied.pop(path)
            self._since.setdefault(path, (st, -1e18))

    def look(self, files: Mapping[str, Stat], now: float) -> Change:
        """Compare a new snapshot; return the complete changes (applied from now on)."""
        for path, st in files.items():
            if self.applied.get(path) == st:
                self._since.pop(path, None)
                continue
            kept = self._since.get(path)
            if kept is None or kept[0] != st:
                self._since[path] = (st, now)
        for path in [p for p in self._since if p not in files]:
            del self._since[path]
        ready = {p for p, (st, t) in self._since.items() if self._complete(p, now - t)}
        # An iteration folder arrives whole: hold all of it while one of its files is open.
        open_folders = {f for p in self._since if p not in ready and (f := _iter_folder(p))}
        ready = {p for p in ready if _iter_folder(p) not in open_folders}
        removed = [p for p in self.applied if p not in files]
        return self._apply(ready, removed, files)

    def _complete(self, path: str, quiet: float) -> bool:
        mark = self.marker(path)
        if mark:
            return True
        return quiet >= (SETTLE if mark is None else QUIET_OPEN)

    def _apply(self, ready: set[str], removed: list[str], files: Mapping[str, Stat]) -> Change:
        change = Change(removed=sorted(removed))
        known = {f for p in self.applied if (f := _iter_folder(p))}
        for path in sorted(ready):
            st, old = files[path], self.applied.get(path)
            if old is None:
                change.added.append(path)
                folder = _iter_folder(path)
                if folder and folder not in known and folder not in change.iterations:
                    change.iterations.append(folder)
            elif st[0] > old[0]:
                change.grew.append(path)
            else:
                change.rewritten.append(path)
            self.applied[path] = st
            del self._since[path]
        for path in removed:
            del self.applied[path]
        return change

    @property
    def pending(self) -> bool:
        """Whether some file is still being written (another look will be needed)."""
        return bool(self._since)

    def complete(self) -> dict[str, int]:
        """What a load may read: the files known complete, each with its size then (a file
        that grew since is read up to it; one not listed is new or being written)."""
        return {path: st[0] for path, st in self.applied.items()}


def only_complete(units: list, complete: Mapping[str, int] | None) -> list:
    """Discovery's units that are complete (watch.py), each to be read up to its complete
    size; all of them when `complete` is None (not watching)."""
    if complete is None:
        return units
    kept = []
    for unit in units:
        size = complete.get(os.path.abspath(unit.path))
        if size is not None:
            unit.path.size = size  # FoundPath: reads stop there
            kept.append(unit)
    return kept


def complete_now(paths: Iterable[str | os.PathLike]) -> dict[str, int] | None:
    """The files a load started now would read (as `Watcher.complete` of a new watcher):
    None when not watching."""
    mode = watch_mode(paths)
    return None if mode == "off" else Watcher(paths, lambda _change: None, mode).complete()


def watch_mode(paths: Iterable[str | os.PathLike]) -> str:
    """ "inotify", "poll" or "off": the environment's choice, else polling on a network
    file system, else inotify (the watcher falls back to polling if it fails)."""
    chosen = os.environ.get(WATCH_ENV, "").strip().lower()
    if chosen in ("poll", "off", "inotify"):
        return chosen
    return "poll" if any(_network_fs(p) for p in paths) else "inotify"


def _network_fs(path: str | os.PathLike) -> bool:
    """Whether `path` lies on a network file system (Linux: /proc/self/mountinfo)."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return False
    real = os.path.realpath(path)
    best, kind = "", ""
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        if len(fields) < 5 or not right:
            continue
        mount = fields[4].replace("\\040", " ")
        inside = real == mount or real.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, right.split()[0]
    return kind in NETWORK_FS


class Watcher:
    """A daemon thread that calls `on_change(change)` when complete files changed.

    `mode`: "inotify" (falls back to "poll" when watchfiles cannot watch) or "poll".
    `self.mode` says what it ended up doing."""

    def __init__(
        self,
        paths: Iterable[str | os.PathLike],
        on_change: Callable[[Change], None],
        mode: str | None = None,
        files: Mapping[str, Stat] | None = None,
    ):
        self.paths = [os.path.abspath(p) for p in paths]
        self.on_change = on_change
        self.mode = mode or watch_mode(self.paths)
        self.tracker = Tracker(snapshot(self.paths) if files is None else files, time.monotonic())
        self.stop_event = threading.Event()
        self.wake = threading.Event()  # inotify saw something: look now
        self.ready = threading.Event()  # watching (`mode` says how)
        self._lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def complete(self) -> dict[str, int]:
        with self._lock:
            return self.tracker.complete()

    def start(self) -> None:
        """Watch in a daemon thread (starting inotify takes a moment: never the caller's)."""
        if self.mode == "off":
            self.ready.set()
            return
        self.thread = threading.Thread(target=self._run, name="tuibench-watch", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stop_event.set()
        self.wake.set()

    def _start_inotify(self) -> bool:
        """Watch with inotify in a thread of its own that wakes the looking thread."""
        try:
            import watchfiles

            events = watchfiles.watch(
                *self.paths,
                debounce=DEBOUNCE_MS,
                stop_event=self.stop_event,
                raise_interrupt=False,
                force_polling=False,
                rust_timeout=int(POLL_EVERY * 1000),
                yield_on_timeout=True,
            )
            first = threading.Event()
            failed: list[BaseException] = []

            def pump() -> None:
                try:
                    for batch in events:
                        first.set()
                        if batch:
                            self.wake.set()
                except Exception as exc:  # inotify unavailable, watch limit reached, ...
                    failed.append(exc)
                    first.set()

            threading.Thread(target=pump, name="tuibench-inotify", daemon=True).start()
            first.wait(POLL_EVERY * 3)  # the first timeout (or failure) comes after a second
            return not failed and first.is_set()
        except Exception:
            return False

    def _run(self) -> None:
        if self.mode == "inotify" and not self._start_inotify():
            self.mode = "poll"
        self.ready.set()
        while not self.stop_event.is_set():
            if self.mode == "poll":
                self.stop_event.wait(SETTLE if self.tracker.pending else POLL_EVERY)
            else:  # wait for inotify, or re-look at files still being written
                self.wake.wait(SETTLE if self.tracker.pending else None)
                self.wake.clear()
            if self.stop_event.is_set():
                return
            self.look()

    def look(self) -> Change:
        """One look now (also called by tests); tells `on_change` when something is."""
        files = snapshot(self.paths)
        with self._lock:
            change = self.tracker.look(files, time.monotonic())
        if change:
            self.on_change(change)
        return change


def system_namer(
    systems: Iterable[tuple[str, str]], paths: Iterable[str | os.PathLike]
) -> Callable[[str], str | None]:
    """`path -> system name`: the loaded system whose folder holds it, else (a system folder
    new since the load) the first folder below the one results folder given."""
    folders = sorted(
        ((os.path.abspath(folder), name) for folder, name in systems if folder),
        key=lambda f: -len(f[0]),
    )
    roots = [os.path.abspath(p) for p in paths]

    def name(path: str) -> str | None:
        for folder, system in folders:
            if path == folder or path.startswith(folder + os.sep):
                return system
        if len(roots) == 1 and path.startswith(roots[0] + os.sep):
            first = Path(path[len(roots[0]) + 1 :]).parts
            return first[0] if len(first) > 1 else None
        return None

    return name
