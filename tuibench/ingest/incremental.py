"""Reloading results that grow: read only the files that are new or changed.

`Loader(paths).load()` loads as `load.load` does and keeps what each file's reader gave,
under the file's identity (path, size, modification and change times, inode, device) and
those of the files in its folder and the one above (readers read some files beside theirs).
Calling `load()` again walks the paths afresh, re-stats every file and reads only those
whose identity is new; the files that went are forgotten.

When the results only grew by new files (none changed or went, the settings and what
discovery said are the same) and each file numbers its own iterations, only the new files
are loaded and their rows merged into the loaded ones (appending.py): a new iteration of
one system costs that file, not ten million samples. Otherwise the rest of the load
(numbering, checks, sorting, the catalogue) runs on everything again. Either way the result
is the one a fresh `load.load` gives, number for number (tests/core/test_incremental.py).
`growth` says which way the last load went, for the analysis (compare/growing.py).

Small native files parsed in batches (small_files.py) are read again by a full load: they
are cheap, and a batch is one polars call. What is kept costs memory: about the readers'
frames of the files read one by one, beside the ResultSet.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tuibench.ingest.appending import Growth, Iterations, grown
from tuibench.ingest.discover import Discovery, discover, display_path
from tuibench.ingest.formats import ReadResult, read_file
from tuibench.ingest.formats.base import Columns
from tuibench.ingest.load import Progress, load_found
from tuibench.ingest.opening import read_start
from tuibench.ingest.reuse import file_reads, load_cache
from tuibench.ingest.reuse.identity import file_key
from tuibench.ingest.small_files import SMALL
from tuibench.ingest.watch import only_complete
from tuibench.model.results import ResultSet

# Reader problems that depend on this machine's memory at the time: read such files again.
_MACHINE = load_cache.MACHINE
# Readers' rows kept in memory for the next full load, at most: about 44 bytes a row (at a
# million metrics, 30 M samples in one file, 1.3 GB beside the samples). A file past the
# budget is read again by a full reload; a merged one reads only the new files anyway.
KEPT_ROWS = 5_000_000


def _rows(result: ReadResult) -> int:
    data = result.data
    return len(data) if isinstance(data, Columns) else data.height


class Loader:
    """Load `paths`, then reload them reading only new or changed files."""

    def __init__(self, paths: Sequence[str | Path]) -> None:
        self.paths = list(paths)
        self.result: ResultSet | None = None
        self.read_count = 0  # files read by a reader in the last load (for tests, benchmarks)
        self.growth: Growth | None = None  # the last load merged new files into the previous
        self._reads: dict[tuple, ReadResult] = {}
        self._key: bytes | None = None
        self._seen: _Seen | None = None  # what the last full or merged load read
        self._iterations: Iterations | None = None  # of `result`, once a merge needed it
        self._digests: dict[tuple, tuple] = {}  # (path, identity) -> size, digest of start
        self.unwritten: list[Callable[[], None]] = []  # cache writes left for later

    def load(
        self,
        progress: Progress | None = None,
        complete: Mapping[str, int] | None = None,
        found: Discovery | None = None,
        later: bool = False,
        identity: bytes | None = None,
    ) -> ResultSet:
        """The results as they are now; unchanged files are not read again. `complete`:
        while watching, the files known complete and their sizes (as `load.load`).
        `found`: the paths' discovery with `complete` applied, when made just before, and
        `identity` its `load_cache.load_identity` if already taken (each file stat'ed once).
        `later`: the cache's entries are written by `write_unwritten`, not by the load
        (the explorer: once its first screen is out)."""
        if found is None:
            found = discover(self.paths)
            found.units = only_complete(found.units, complete)
        key = identity if identity is not None else load_cache.load_identity(found)
        if complete is not None and key is not None:  # sizes to read up to count too
            key += repr([getattr(u.path, "size", None) for u in found.units]).encode()
        self.growth = None
        if self.result is not None and key is not None and key == self._key:
            if progress:
                progress(len(found.units), len(found.units), "")
            return self.result
        seen = _Seen.of(found, self._digests)
        rs = self._grown(found, seen) if self.result is not None else None
        if rs is None:
            rs = self._full(found, seen, progress)
        self.result, self._key = rs, key
        for k in [k for k in self._digests if seen.units.get(k[0], ())[2:] != k[1]]:
            del self._digests[k]  # files that went or changed
        if not later:
            self.write_unwritten()
        return rs

    def write_unwritten(self) -> None:
        """Write the cache entries a load left for later (an 80 MB entry at 10 M samples:
        encoding and writing it would delay the explorer's first screen)."""
        writes, self.unwritten = self.unwritten, []
        for write in writes:
            write()

    def know_iterations(self, rs: ResultSet, iterations: Iterations) -> None:
        """Where the iterations of `rs` (the last load's) are, when known elsewhere (an
        analysis's table): a merge need not find them in the samples."""
        if rs is self.result and self._iterations is None:
            self._iterations = iterations

    def _full(self, found: Discovery, seen: _Seen, progress: Progress | None) -> ResultSet:
        stored = load_cache.key(found)
        rs = load_cache.get(stored) if stored is not None and self.result is None else None
        if rs is None:
            # A first load reads what an earlier process kept of unchanged files, where the
            # cache may be used at all (`key` is None with --no-cache).
            first = self.result is None and stored is not None
            # Its results are held here anyway (up to KEPT_ROWS): encoded when stored.
            kept = file_reads.KeptReads(found, read_file, KEPT_ROWS) if first else None
            rs = self._load_found(found, progress, seen, reader=kept.read if kept else None)
            writes: list[Callable[[], None]] = []
            if stored is not None:
                writes.append(functools.partial(load_cache.put, stored, rs, len(found.units)))
            if kept is not None:
                self.read_count = kept.read_count
                if load_cache.worth_storing(rs, len(found.units)):
                    writes.append(kept.store)
            self.unwritten += writes  # written at the end of `load`, or by the caller
            self._seen = seen
        else:
            self._seen = None  # nothing read: the next reload loads everything
        self._iterations = None
        return rs

    def _grown(self, found: Discovery, seen: _Seen) -> ResultSet | None:
        """The previous results with only the new files loaded and merged in, or None."""
        old, rs = self._seen, self.result
        if old is None or rs is None or not seen.grew_from(old):
            return None
        added = [u for u in found.units if os.fsencode(u.path) not in old.units]
        if not all(old.safe.values()) or not _not_copies(added, old, seen):
            return None
        part = dataclasses.replace(found, units=added, problems=[], set_aside=[])
        new = self._load_found(part, None, seen, near=load_cache.neighbours(found))
        if not all(seen.safe.get(os.fsencode(u.path), False) for u in added):
            return None
        if self._iterations is None:
            self._iterations = Iterations.of(rs.samples)
        position = {display_path(u.path): i for i, u in enumerate(found.units)}
        growth = grown(rs, self._iterations, new, position)
        if growth is None:
            return None
        self.growth, self._iterations = growth, growth.iterations
        self._seen = seen
        return growth.rs

    def _load_found(
        self,
        found: Discovery,
        progress: Progress | None,
        seen: _Seen,
        near: dict[str, bytes] | None = None,
        reader: Callable[[Path], ReadResult] | None = None,
    ) -> ResultSet:
        """Load `found`, reading only files not kept; `near`: the neighbours' digests of
        the whole discovery when `found` holds only the new files (the rest is kept)."""
        kept: dict[tuple, ReadResult] = {}
        self.read_count = 0
        forget = near is None
        budget = [KEPT_ROWS if forget else KEPT_ROWS - sum(map(_rows, self._reads.values()))]
        near = load_cache.neighbours(found) if near is None else near

        def read(path: Path) -> ReadResult:
            ident = file_key(path)
            folder = os.path.dirname(str(path))
            beside = (near.get(folder), near.get(os.path.dirname(folder)))
            k = (os.fsencode(path), ident, beside, getattr(path, "size", None))
            result = self._reads.get(k) if ident is not None else None
            if result is None:
                result = (reader or read_file)(path)
                self.read_count += 1
            rows = _rows(result)
            if (
                ident is not None
                and rows <= budget[0]
                and not any(m in p.reason for p in result.problems for m in _MACHINE)
            ):
                kept[k] = result
                budget[0] -= rows
            seen.read(path, result)
            return result

        rs = load_found(found, progress, read)
        if forget:
            self._reads = kept  # files that went, or changed, are forgotten
        else:
            self._reads.update(kept)
        return rs


@dataclasses.dataclass
class _Seen:
    """What a load depended on, to tell whether the next one only added files."""

    units: dict[bytes, tuple]  # path -> system, iteration, identity, size to read up to
    rest: tuple  # settings, systems, discovery's problems and files set aside
    safe: dict[bytes, bool]  # files numbering their iterations themselves (`_numbered`)
    digests: dict[tuple, tuple]  # (path, identity) -> (size, digest of its start), once asked
    found: dict[bytes, Path]  # path -> discovery's Path (reads stop at a complete size)

    @classmethod
    def of(cls, found: Discovery, digests: dict[tuple, tuple]) -> _Seen:
        units = {
            os.fsencode(u.path): (
                u.system,
                u.iteration,
                file_key(u.path),
                getattr(u.path, "size", None),
            )
            for u in found.units
        }
        config = found.config and (os.fsencode(found.config), file_key(found.config))
        aside = [(a, file_key(a.path)) for a in found.set_aside]
        rest = (
            found.root,
            found.roots,
            config,
            [repr(s) for s in found.systems],
            [repr(p) for p in found.problems],
            aside,
        )
        # A file batched (small_files.py) is never passed to `read`: native, global.
        safe = {p: v[1] is not None for p, v in units.items()}
        return cls(units, rest, safe, digests, {os.fsencode(u.path): u.path for u in found.units})

    def read(self, path: Path, result: ReadResult) -> None:
        self.safe[os.fsencode(path)] = _numbered(result, self.units[os.fsencode(path)][1])

    def grew_from(self, old: _Seen) -> bool:
        """Files were only added (none changed or went), the rest the same."""
        if self.rest != old.rest or len(self.units) <= len(old.units):
            return False
        return all(self.units.get(p) == v for p, v in old.units.items())

    def digest(self, path: bytes) -> tuple | None:
        """The file's size and a digest of its start (as copies.py compares files)."""
        k = (path, self.units[path][2:])
        if k not in self.digests:
            try:
                start = read_start(self.found[path], SMALL + 1)  # as copies.py reads
            except OSError:
                return None
            size = self.units[path][3] or self.units[path][2][0]
            self.digests[k] = (size, hashlib.blake2b(start, digest_size=16).digest())
        return self.digests[k]


def _numbered(result: ReadResult, folder_iteration: int | None) -> bool:
    """Whether the file's iterations do not depend on other files: the format's own global
    numbers, or an `iter-<N>` folder for rows without a number; and the file says nothing
    that other files' rows depend on (systems it lists, settings, notes; what it says of
    the system is compared in appending.py)."""
    if result.systems or result.settings or result.notes:
        return False
    if result.format == "mmtests":  # extracts of one run are told apart across files
        return False
    if result.global_iterations:
        return True
    if folder_iteration is None:
        return False
    data = result.data
    if isinstance(data, Columns):
        return all(v is None for v in data.cols.get("iteration") or [])
    return data["iteration"].null_count() == data.height


def _not_copies(added: list, old: _Seen, seen: _Seen) -> bool:
    """No new file has the size and start of a loaded one (a copy: a full load says so)."""
    mine = {seen.digest(os.fsencode(u.path)) for u in added}
    if None in mine or len(mine) < len(added):
        return False
    return not any(old.digest(p) in mine for p in old.units)
