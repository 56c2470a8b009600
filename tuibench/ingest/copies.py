"""Identical copies among the files to read: the same bytes reached twice (a copied file, a
copy in another folder) would count the same results twice, as extra iterations with the
same values. The later copy in one system is not read; one problem names both. A copy in
another system is read (the two systems then compare the same results) with a problem,
when it holds results (`Collector.twin`).

Hard and symbolic links to one file are found earlier, by inode (discover.py). Here files
are compared by a hash of the bytes the loader reads anyway (the start of every file,
SMALL bytes, which is all of a small file) and their size; larger files with the same size
and start are compared to the end.
"""

from __future__ import annotations

import hashlib

from tuibench.ingest.discover import Unit, display_path
from tuibench.ingest.opening import open_regular, read_start
from tuibench.ingest.small_files import SMALL
from tuibench.model.problems import Problem

_CHUNK = 2**20


class Copies:
    def __init__(self) -> None:
        # (size, digest of the start) -> the files with them, first file first
        self.by_start: dict[tuple[int | None, bytes], list[tuple[int, Unit]]] = {}

    def start(self, unit: Unit) -> bytes | None:
        """The first SMALL + 1 bytes of the file (its size is kept, reads stop there), or
        None when it cannot be opened as a regular file (the reader then says why)."""
        try:
            return read_start(unit.path, SMALL + 1)
        except OSError:
            return None

    def check(self, i: int, unit: Unit, start: bytes) -> tuple[int | None, Problem | None]:
        """(index of an earlier file of the same system with the same bytes: this one is
        not read, or None), and a problem when only a file of another system has them."""
        if not start:  # empty: nothing to count twice (and each one is a problem)
            return None, None
        size = getattr(unit.path, "size", None)
        key = (size, hashlib.blake2b(start, digest_size=16).digest())
        same = self.by_start.setdefault(key, [])
        whole = len(start) <= SMALL  # the start is the whole file
        twins = [(j, u) for j, u in same if whole or _same_bytes(u.path, unit.path)]
        same.append((i, unit))
        if not twins:
            return None, None
        for j, u in twins:
            if u.system == unit.system:
                return j, None
        other = twins[0][1]
        return None, Problem(
            str(unit.path),
            f"the same bytes as {display_path(other.path)} of system {other.system!r}; "
            "both are read, so the two systems compare the same results",
        )

    @staticmethod
    def problem(unit: Unit, first: Unit) -> Problem:
        return Problem(
            str(unit.path),
            f"the same bytes as {display_path(first.path)} (a copy); read once, as that "
            "file, so that its results do not count twice",
        )


def _same_bytes(a, b) -> bool:
    """Two large files with the same size and start, compared to the end (up to the size
    each had when first opened); False when either cannot be read."""
    try:
        with open_regular(a) as fa, open_regular(b) as fb:
            while True:
                x, y = fa.read(_CHUNK), fb.read(_CHUNK)
                if x != y:
                    return False
                if not x:
                    return True
    except OSError:
        return False
