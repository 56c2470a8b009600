"""What each file's reader gave, kept in the cache: a changed load reads only changed files.

When a load is not in the cache as a whole (a file added, removed or changed), the files
that are still the same need not be read again: one entry per set of given paths keeps,
for every file read on its own, its reader's result under the file's identity (path,
size, modification and change times, inode, device) and those of the files in its folder
and the one above (readers read files beside theirs: shellpack.yaml, benchmarks.json).
A kept result is used only while all of these are the same; the rest of the load
(numbering, checks, sorting) runs on everything, so the numbers are a fresh load's.
Small native files parsed in batches (small_files.py) are parsed again: one polars call.

Results are kept as they are read (LZ4 Arrow IPC, a few bytes per sample), so the load's
readers' frames are not held longer than they were; except, up to `held_rows` rows, those
the caller holds anyway (the explorer's Loader keeps its reads for reloads) or that are
too few to matter (a load too small to be stored never encodes them): they are encoded
only by `store()`, which the explorer calls once its first screen is out.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
from collections.abc import Callable
from pathlib import Path

import polars as pl

from tuibench.ingest.discover import Discovery
from tuibench.ingest.formats import ReadResult
from tuibench.ingest.reuse import cache, load_cache
from tuibench.ingest.reuse.identity import file_key
from tuibench.model.problems import Problem

KIND = "reads"
_LEN = struct.Struct("<Q")
FIELDS = ("metadata", "global_iterations", "format", "systems", "notes", "set_aside", "settings")


class KeptReads:
    """`read` for `load.load_found`: a kept result when its file is unchanged, else the
    reader's (counted in `read_count`). `store()` writes what this load read."""

    def __init__(
        self, found: Discovery, read: Callable[[Path], ReadResult], held_rows: int = 0
    ) -> None:
        self._read = read  # the reader of a file not kept
        self.key = cache.digest(KIND, found.roots, found.root)
        self.near = load_cache.neighbours(found)
        self.read_count = 0
        self._old = _decode_index(cache.Store().get(KIND, self.key))
        self._new: dict[str, tuple[str, bytes | ReadResult]] = {}  # a result: not encoded yet
        self._held = held_rows  # rows that may still be held as read

    def _ident(self, path: Path) -> str | None:
        ident = file_key(path)
        if ident is None:
            return None
        folder = os.path.dirname(str(path))
        beside = (self.near.get(folder), self.near.get(os.path.dirname(folder)))
        return repr((ident, beside))

    def read(self, path: Path) -> ReadResult:
        name = os.fsencode(path).hex()
        ident = self._ident(path)
        old = self._old.get(name)
        if ident is not None and old is not None and old[0] == ident:
            with contextlib.suppress(Exception):  # unreadable (a bug): read the file
                result = _decode(old[1])
                self._new[name] = old
                return result
        result = self._read(path)
        self.read_count += 1
        machine = any(m in p.reason for p in result.problems for m in load_cache.MACHINE)
        # Kept only if what was read is the file identified: not changed while it was read,
        # and read whole (a file that grew since the loader opened it was read in part).
        now = file_key(path)
        whole = now is not None and getattr(path, "size", None) in (None, now[0])
        if ident is not None and not machine and whole and ident == self._ident(path):
            rows = len(result.data)
            if rows <= self._held:  # the caller holds it anyway: encoded by `store`
                self._held -= rows
                self._new[name] = (ident, result)
            else:
                with contextlib.suppress(Exception):  # a frame IPC cannot hold: not kept
                    self._new[name] = (ident, _encode(result))
        return result

    def store(self) -> None:
        """Keep the results of this load's files (the files that went are forgotten)."""
        new: dict[str, tuple[str, bytes]] = {}
        for name, (ident, kept) in self._new.items():
            if isinstance(kept, bytes):
                new[name] = (ident, kept)
                continue
            with contextlib.suppress(Exception):  # a frame IPC cannot hold: not kept
                new[name] = (ident, _encode(kept))
        if new and new != self._old:
            cache.Store().put(KIND, self.key, _encode_index(new))


def _encode(r: ReadResult) -> bytes:
    frame = r.data if isinstance(r.data, pl.DataFrame) else r.data.frame()
    doc = {f: getattr(r, f) for f in FIELDS}
    doc["problems"] = [[p.path, p.reason, p.line, p.where] for p in r.problems]
    buf = io.BytesIO()
    frame.write_ipc(buf, compression="lz4")
    head = json.dumps(doc).encode()
    return _LEN.pack(len(head)) + head + buf.getvalue()


def _decode(data: bytes) -> ReadResult:
    (n,) = _LEN.unpack_from(data)
    doc = json.loads(data[8 : 8 + n])
    problems = [Problem(*p) for p in doc.pop("problems")]
    doc["notes"] = [tuple(x) for x in doc["notes"]]
    if doc["set_aside"] is not None:
        doc["set_aside"] = tuple(doc["set_aside"])
    return ReadResult(pl.read_ipc(io.BytesIO(data[8 + n :])), problems=problems, **doc)


def _encode_index(items: dict[str, tuple[str, bytes]]) -> bytes:
    head = json.dumps([[name, ident, len(b)] for name, (ident, b) in items.items()]).encode()
    return b"".join([_LEN.pack(len(head)), head, *(b for _, b in items.values())])


def _decode_index(payload: bytes | memoryview | None) -> dict[str, tuple[str, bytes]]:
    if payload is None:
        return {}
    try:
        view = memoryview(payload)
        (n,) = _LEN.unpack_from(view)
        at, out = 8 + n, {}
        for name, ident, size in json.loads(bytes(view[8:at])):
            out[name] = (ident, bytes(view[at : at + size]))
            at += size
        return out
    except Exception:  # passed the checksum yet unreadable (a bug): read every file
        return {}
