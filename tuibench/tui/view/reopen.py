"""Reopening unchanged results: the explorer's first screen from the user's cache.

Beside the load's entry (ingest/reuse/load_cache.py), a "screen" entry keeps what the first
screen is computed from: the ResultSet without its samples and the Analysis without its
samples (analysis/compare/stored.py: iterations, groups, the U tests and shifts of every
reference). Its key is the load's (every file's path, size, times, inode and device;
discovery; the code's version, which the store checks) and the options the analysis
depends on (`AnalysisOptions.analysis_key`); the options of a comparison are not in it,
since every comparison is computed afresh from the analysis. Frames are uncompressed
Arrow IPC and arrays raw bytes, read without a step per row.

The samples are read only when something needs them (another option of the analysis,
a reference whose U test is not stored), from the load's entry, or by loading the files
again, which must then be exactly the ones shown (else an error says to reload).
"""

from __future__ import annotations

import io
import json
import struct
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np
import polars as pl

from tuibench.analysis.compare import Analysis, Comparison
from tuibench.analysis.compare.stored import Restored, complete, parts
from tuibench.ingest import load as loading
from tuibench.ingest.discover import Discovery, discover
from tuibench.ingest.reuse import cache, identity, load_cache
from tuibench.ingest.watch import only_complete
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet

if TYPE_CHECKING:
    from tuibench.tui.view.session import Session

KIND = "screen"
_LEN = struct.Struct("<Q")
Part = bytes | memoryview | pl.DataFrame  # an entry's part: a frame is written as IPC


def _write(fh: BinaryIO, parts: list[Part]) -> None:
    """Each part after its length: bytes as they are, a frame as IPC written into the file
    (its length put before it once known)."""
    for p in parts:
        if not isinstance(p, pl.DataFrame):
            fh.write(_LEN.pack(memoryview(p).nbytes))
            fh.write(p)
            continue
        at = fh.tell()
        fh.write(_LEN.pack(0))
        fh.flush()
        p.write_ipc(fh, compression="uncompressed")
        end = fh.tell()
        fh.seek(at)
        fh.write(_LEN.pack(end - at - _LEN.size))
        fh.seek(end)


class ResultsChanged(Exception):
    """The files changed since the results shown were read: they must be loaded again."""


class Deferred(ResultSet):
    """A ResultSet whose samples are read on first use (`fetch`, once, from any thread)."""

    def __init__(self, height: int, fetch: Callable[[], pl.DataFrame], **fields: Any) -> None:
        self._height, self._fetch, self._lock = height, fetch, threading.Lock()
        self._samples: pl.DataFrame | None = None
        super().__init__(samples=None, **fields)  # type: ignore[arg-type]

    @property
    def samples(self) -> pl.DataFrame:
        with self._lock:
            if self._samples is None:
                self._samples = self._fetch()
            return self._samples

    @samples.setter
    def samples(self, value: pl.DataFrame | None) -> None:
        self._samples = value

    @property
    def empty(self) -> bool:
        return self._height == 0

    _empty: pl.DataFrame | None = None  # the samples' schema, when dropped (`drop`)

    @classmethod
    def drop(cls, rs: ResultSet, fetch: Callable[[], pl.DataFrame]) -> None:
        """Free the samples of `rs` now and have `fetch` read them when next used: `rs`
        itself becomes a Deferred, since the loader, the analysis and the session all hold
        it (at a million metrics the samples are 0.8 GB that only a reload or another
        option of the analysis reads again)."""
        if isinstance(rs, Deferred):
            return
        samples = rs.samples  # a reader meanwhile gets them, from either class
        lock, empty = threading.Lock(), samples.clear()
        vars(rs).update(_height=samples.height, _fetch=fetch, _lock=lock, _samples=samples)
        vars(rs).update(_empty=empty)
        rs.__class__ = cls
        del vars(rs)["samples"]
        with lock:
            vars(rs)["_samples"] = None


class Reopen:
    """Discover `paths` once; then the first screen's data from the cache, or a load."""

    def __init__(
        self,
        paths: Sequence[str | Path],
        options: AnalysisOptions,
        complete: Mapping[str, int] | None = None,
    ) -> None:
        self.paths, self.options, self.complete = list(paths), options, complete
        self.found = self._discover()
        # Each file stat'ed once: the files' digest (the replayed first frame's check) and
        # the load's key made from it.
        self.files = identity.files(self.found)
        self.load_key = load_cache.key(self.found, self.files)
        self.key = None
        if self.load_key is not None:
            self.key = cache.digest(KIND, self.load_key, options.analysis_key())
        self.stored = False
        self.size = 0  # bytes of the entry read or last written
        self.shown: Comparison | None = None  # the first screen's comparison, kept with it
        # The files as found, to read the samples again only from the same (`fetch_samples`).
        self.identity = self.load_key or load_cache.load_identity(self.found, self.files)

    @classmethod
    def made(
        cls,
        paths: Sequence[str | Path],
        options: AnalysisOptions,
        complete: Mapping[str, int] | None = None,
        early: Future | None = None,
    ) -> tuple[Reopen, tuple[ResultSet, Analysis] | None]:
        """A Reopen of `paths` and what it restored: the one read ahead (`early`,
        read_ahead.py) when it found the same files (every one complete), else made now."""
        reopen = cls(paths, options, complete)
        if early is not None and reopen.key is not None:
            try:
                ahead, restored = early.result()
            except Exception:  # made again below, where an error is told
                ahead, restored = None, None
            if ahead is not None and ahead.key == reopen.key:
                return reopen, restored
        return reopen, reopen.restored()

    def _discover(self) -> Discovery:
        found = discover(self.paths)
        found.units = only_complete(found.units, self.complete)
        return found

    def restored(self) -> tuple[ResultSet, Analysis] | None:
        """The results and their analysis from the screen's entry, or None (no entry, or
        one that failed a check)."""
        if self.key is None:
            return None
        payload = cache.Store().get(KIND, self.key)
        if payload is None:
            return None
        self.size = len(payload)
        try:
            return self._decode(payload)
        except Exception:  # passed the checksum yet unreadable (a bug): compute as without
            return None

    def store_first(self, rs: ResultSet, analysis: Analysis, session: Session | None) -> None:
        """Write the screen's entry with what `analysis` has computed (the first
        reference's tests) and the comparison `session` shows, if the load is worth it and
        the entry is not the one read."""
        self.shown = session.cmp if session is not None else None
        if self._worth(rs, analysis):
            self._put(rs, analysis)

    def store_all(self, rs: ResultSet, analysis: Analysis, stop: Callable[[], bool]) -> None:
        """Compute every reference's tests and write the entry again with them (also a
        restored one that lacked some). Ends early, writing nothing, once `stop()` is true."""
        if self.key is None or rs.empty:
            return
        if isinstance(analysis, Restored) and analysis.read_whole:
            return
        if isinstance(analysis, Restored) or self.stored:
            complete(analysis, stop)
            if not stop():
                self._put(rs, analysis)

    def _worth(self, rs: ResultSet, analysis: Analysis) -> bool:
        if self.key is None or rs.empty or isinstance(analysis, Restored):
            return False
        # Whatever the size (unlike a whole load's entry): reopening skips the analysis and
        # the first session too, which on small results are most of the load's work.
        return not load_cache.machine_dependent(rs)

    def _put(self, rs: ResultSet, analysis: Analysis) -> None:
        assert self.key is not None
        try:
            payload = self._encode(rs, analysis)
            if payload is not None:  # written part by part, each frame straight to the file
                size = cache.Store().put_written(KIND, self.key, lambda fh: _write(fh, payload))
                self.stored, self.size = size is not None, size or self.size
        except Exception:  # a frame IPC cannot hold (a bug): the screen stands, uncached
            return

    # -- bytes: a JSON part, the ResultSet without samples, frames, then arrays ----------
    def _encode(self, rs: ResultSet, analysis: Analysis) -> list[Part] | None:
        bare = load_cache.encode(_without_samples(rs))
        if bare is None:
            return None
        frames, arrays, made_for = parts(analysis, self.shown)
        if any(a.dtype.hasobject for a in arrays.values()):
            return None  # raw bytes only: never pickles
        doc = {
            "height": rs._height if isinstance(rs, Deferred) else rs.samples.height,
            "made_for": made_for,
            "frames": list(frames),
            "arrays": [[k, a.dtype.str, list(a.shape)] for k, a in arrays.items()],
        }
        # The parts in order, never joined nor copied; frames as IPC when written (at a
        # million metrics, all of them at once were 0.9 GB at the explorer's peak).
        chunks: list[Part] = [json.dumps(doc).encode(), bare, *frames.values()]
        chunks += [np.ascontiguousarray(a).reshape(-1).view(np.uint8).data for a in arrays.values()]
        return chunks

    def _decode(self, payload: bytes | memoryview) -> tuple[ResultSet, Analysis]:
        view = memoryview(payload)
        chunks, at = [], 0
        while at < len(view):
            (n,) = _LEN.unpack_from(view, at)
            chunks.append(view[at + 8 : at + 8 + n])
            at += 8 + n
        doc = json.loads(bytes(chunks[0]))
        bare = load_cache.decode(chunks[1])
        fields = {f: getattr(bare, f) for f in load_cache.FIELDS if f != "samples"}
        rs = Deferred(doc["height"], self._samples, **fields)
        nf = len(doc["frames"])
        frames = {
            name: pl.read_ipc(io.BytesIO(c))
            for name, c in zip(doc["frames"], chunks[2 : 2 + nf], strict=True)
        }
        arrays = {
            name: np.frombuffer(c, dtype=np.dtype(dt)).reshape(shape)
            for (name, dt, shape), c in zip(doc["arrays"], chunks[2 + nf :], strict=True)
        }
        return rs, Restored(rs, self.options, frames, arrays, doc["made_for"])

    def fetch_samples(self) -> pl.DataFrame:
        """The samples of the results loaded from `found` (`Deferred.drop`), read again."""
        return self._samples()

    def _samples(self) -> pl.DataFrame:
        """The samples of the results shown: from the load's entry, else from the files, if
        they are still the ones shown."""
        rs = load_cache.get(self.load_key) if self.load_key is not None else None
        if rs is None:
            found = self._discover()
            if self.identity is None or load_cache.load_identity(found) != self.identity:
                raise ResultsChanged("the files changed since they were shown: reload (R)")
            rs = loading.load_found(found)
        return rs.samples


# Samples past which the explorer frees them once analysed (`drop_samples`): where a reload
# analyses everything again anyway (reloads.FIGURES_KEPT_UP_TO).
DROPPED_PAST = 12_000_000


def drop_samples(rs: ResultSet, reopen: Reopen, unwritten: bool, figures_kept: bool) -> bool:
    """Free the samples of large results once analysed (past DROPPED_PAST, or whenever the
    analysis keeps no iterations' figures: a reload analyses everything again then), to be
    read again from the same files (or the load's entry) when needed; not while a cache
    entry of the load is still to be written (`unwritten`) from them. Whether they were
    freed."""
    if unwritten or isinstance(rs, Deferred):
        return False
    if figures_kept and rs.samples.height <= DROPPED_PAST:
        return False
    if reopen.identity is None:  # a file could not be stat'ed: never read back blind
        return False
    Deferred.drop(rs, reopen.fetch_samples)
    return True


def forget_samples(rs: ResultSet) -> None:
    """Free again the samples of dropped results read back for an analysis (its
    `samples_read`): they stay read from the files only while needed."""
    if isinstance(rs, Deferred) and rs._empty is not None:
        with rs._lock:
            rs._samples = None


def _without_samples(rs: ResultSet) -> ResultSet:
    fields = {f: getattr(rs, f) for f in load_cache.FIELDS if f != "samples"}
    empty = rs._empty if isinstance(rs, Deferred) else None  # dropped: not read again
    return ResultSet(**fields, samples=rs.samples.clear() if empty is None else empty)
