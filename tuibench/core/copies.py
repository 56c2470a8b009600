"""Identical copies among the files to read: the same bytes reached twice (a copied file, a
copy in another folder) would count the same results twice, as extra iterations with the
same values. The later copy in one system is not read; one problem names both. A copy in
another system is read (the two systems then compare the same results) with a problem.

Hard and symbolic links to one file are found earlier, by inode (discover.py). Here files
are compared by content, but only those whose size another file shares, and the bytes are
the ones the loader reads anyway (the start of every file, SMALL bytes): a larger file is
hashed in full only when its size is shared (up to FULL_HASH bytes; larger ones only by
inode).
"""

from __future__ import annotations

import hashlib
from collections import Counter

from tuibench.core.discover import Unit, display_path
from tuibench.core.opening import open_regular
from tuibench.core.problems import Problem
from tuibench.core.small_files import SMALL

FULL_HASH = 64 * 2**20
_CHUNK = 2**20


class Copies:
    def __init__(self, units: list[Unit]) -> None:
        sizes = Counter(getattr(u.path, "size", None) for u in units)
        self.shared = {s for s, n in sizes.items() if n > 1 and s}
        self.seen: dict[tuple, int] = {}  # (system, size, digest) -> first file
        self.anywhere: dict[tuple[int, bytes], Unit] = {}

    def start(self, unit: Unit) -> bytes | None:
        """The first SMALL + 1 bytes of the file, or None when it cannot be opened as a
        regular file (the reader then says why)."""
        try:
            with open_regular(unit.path) as fh:
                return fh.read(SMALL + 1)
        except OSError:
            return None

    def check(self, i: int, unit: Unit, start: bytes) -> tuple[int | None, Problem | None]:
        """(index of an earlier file of the same system with the same bytes: this one is
        not read, or None), and a problem when a file of another system has them."""
        size = getattr(unit.path, "size", None)
        if size not in self.shared or size > FULL_HASH:
            return None, None
        digest = hashlib.blake2b(start, digest_size=16)
        if len(start) > SMALL and not _rest(unit, digest):
            return None, None
        key = (size, digest.digest())
        first = self.seen.setdefault((unit.system, *key), i)
        if first != i:
            return first, None
        other = self.anywhere.setdefault(key, unit)
        if other is unit:
            return None, None
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


def _rest(unit: Unit, digest) -> bool:
    """Hash the rest of a large file; False when it cannot be read."""
    try:
        with open_regular(unit.path) as fh:
            fh.seek(SMALL + 1)
            while chunk := fh.read(_CHUNK):
                digest.update(chunk)
    except OSError:
        return False
    return True
