"""Opening result files so that nothing blocks and nothing is read past what was found.

Every result file is opened here (`open_regular`): non-blocking, so a FIFO or a device
swapped in after discovery cannot hang the open, and checked with `fstat` before a byte is
read (anything but a regular file is `NotRegular`, which readers turn into a problem).
Reads stop at the size the file had when the loader first opened it (`FoundPath.size`,
set by `read_start`): a file still being written (a Go benchmark appending, a growing CSV)
is read up to that size, and
files of special file systems that claim a size of 0 (`/proc`) give nothing.
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)

KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
}


class FoundPath(type(Path())):  # type: ignore[misc]  # Path's concrete class, a dynamic base
    """A file's path as discovery found it, with its size when the loader first opened
    it (`read_start`): later reads stop there. Paths derived from it (`.parent`, ...) have
    no size."""

    size: int | None = None


class NotRegular(OSError):
    """The path is no longer a regular file (a FIFO, device, socket or folder)."""

    def __init__(self, mode: int):
        kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
        super().__init__(f"not a regular file but {kind} (changed after it was found); not read")


class _Bounded(io.RawIOBase):
    """A regular file's bytes up to `limit`, read with pread (seekable, no shared offset)."""

    def __init__(self, fd: int, limit: int, name: str):
        self._fd = fd
        self.limit = limit
        self.name = name
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self.limit}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.limit - self._pos)
        if n <= 0:
            return 0
        got = os.preadv(self._fd, [memoryview(buffer)[:n]], self._pos)
        self._pos += got
        return got

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def open_regular(path: Path | str) -> io.BufferedReader[_Bounded]:
    """The file, opened without blocking, checked to be regular, read at most up to the size
    discovery saw (else the size it has now). Raises OSError (NotRegular among them)."""
    fd, limit = _open_checked(path)
    try:
        raw = _Bounded(fd, limit, str(path))
    except BaseException:
        os.close(fd)
        raise
    return io.BufferedReader(raw)


def _open_checked(path: Path | str) -> tuple[int, int]:
    """(descriptor, bytes to read at most): opened without blocking, checked to be a
    regular file, limited to the size discovery saw (else the size it has now)."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(st.st_mode)
    except BaseException:
        os.close(fd)
        raise
    size = getattr(path, "size", None)
    return fd, st.st_size if size is None else min(size, st.st_size)


def read_start(path: Path | str, n: int) -> bytes:
    """The first `n` bytes as `open_regular` would give them, in four system calls (this
    runs once per file: a buffered file object cost more than the read). A FoundPath
    without a size gets the one the file has now: later reads stop there."""
    fd, limit = _open_checked(path)
    try:
        if isinstance(path, FoundPath) and path.size is None:
            path.size = limit
        return os.pread(fd, min(n, limit), 0) if limit else b""
    finally:
        os.close(fd)


def grew(fh: io.BufferedReader[_Bounded]) -> bool:
    """Whether the file now holds more than is read of it (still being written)."""
    raw = fh.raw
    return os.fstat(raw.fileno()).st_size > raw.limit


def polars_source(fh: io.BufferedReader[_Bounded]) -> str | None:
    """A name under which polars opens this very file (not whatever the path names now),
    or None when there is none (no /proc): then give polars the bytes."""
    name = f"/proc/self/fd/{fh.raw.fileno()}"
    return name if os.path.exists(name) else None
