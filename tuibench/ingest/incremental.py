"""Reloading results that grow: read only the files that are new or changed.

`Loader(paths).load()` loads as `load.load` does and keeps what each file's reader gave,
under the file's identity (path, size, modification and change times, inode, device) and
those of the files in its folder and the one above (readers read some files beside theirs).
Calling `load()` again walks the paths afresh, re-stats every file and reads only those
whose identity is new; the files that went are forgotten. The rest of the load (numbering,
checks, sorting, the catalogue) runs on everything again, so the result is the one a fresh
`load.load` gives, number for number (tests/core/test_incremental.py checks it).

Small native files parsed in batches (small_files.py) are read again each time: they are
cheap, and a batch is one polars call. What is kept costs memory: about the readers'
frames of the files read one by one, beside the ResultSet.
"""

from __future__ import annotations

import os
from pathlib import Path

from tuibench.ingest.discover import discover
from tuibench.ingest.formats import ReadResult, read_file
from tuibench.ingest.load import Progress, load_found
from tuibench.ingest.reuse import load_cache
from tuibench.model.results import ResultSet

# Reader problems that depend on this machine's memory at the time: read such files again.
_MACHINE = load_cache.MACHINE


class Loader:
    """Load `paths`, then reload them reading only new or changed files."""

    def __init__(self, paths: list[str | Path]) -> None:
        self.paths = list(paths)
        self.result: ResultSet | None = None
        self.read_count = 0  # files read by a reader in the last load (for tests, benchmarks)
        self._reads: dict[tuple, ReadResult] = {}
        self._key: bytes | None = None

    def load(self, progress: Progress | None = None) -> ResultSet:
        """The results as they are now; unchanged files are not read again."""
        found = discover(self.paths)
        key = load_cache.identity(found)
        if self.result is not None and key is not None and key == self._key:
            if progress:
                progress(len(found.units), len(found.units), "")
            return self.result
        stored = load_cache.key(found)
        rs = load_cache.get(stored) if stored is not None and self.result is None else None
        if rs is None:
            rs = self._load_found(found, progress)
            if stored is not None:
                load_cache.put(stored, rs, len(found.units))
        self.result, self._key = rs, key
        return rs

    def _load_found(self, found, progress: Progress | None) -> ResultSet:
        kept: dict[tuple, ReadResult] = {}
        self.read_count = 0
        near = load_cache.neighbours(found)

        def read(path: Path) -> ReadResult:
            ident = load_cache.file_key(path)
            folder = os.path.dirname(str(path))
            beside = (near.get(folder), near.get(os.path.dirname(folder)))
            k = (os.fsencode(path), ident, beside)
            result = self._reads.get(k) if ident is not None else None
            if result is None:
                result = read_file(path)
                self.read_count += 1
            if ident is not None and not any(
                m in p.reason for p in result.problems for m in _MACHINE
            ):
                kept[k] = result
            return result

        rs = load_found(found, progress, read)
        self._reads = kept  # files that went, or changed, are forgotten
        return rs
