"""A bounded store of loaded results in the user's cache folder, never in the results.

An entry is one file, `<kind>-<key digest>.tbc`: a header (magic, this code's version, the
key's digest, the payload's length and CRC-32), then the payload. An entry that
fails any check (another version of tuibench, a truncated or altered file, another key, not
owned by this user) is ignored and replaced; it is never trusted. Payloads are JSON and
Arrow IPC only, never pickles, so an entry can at worst be wrong, and then it is caught.

Where: `$TUIBENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/tuibench`, else `~/.cache/tuibench`.
Off: `--no-cache` (`turn_off()`) or `TUIBENCH_NO_CACHE=1`. Bound: `TUIBENCH_CACHE_MB`
(default 2048) megabytes; past it the entries used longest ago are dropped.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import secrets
import struct
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

MAGIC = b"TBCACHE\x01"
SUFFIX = ".tbc"
DEFAULT_MB = 2048
_HEADER = struct.Struct("<8s32s32sQI")  # magic, version, key, payload length, CRC-32
_off = False


def turn_off() -> None:
    """No reads from or writes to the cache in this process (`--no-cache`)."""
    global _off
    _off = True


def enabled() -> bool:
    off = _off or os.environ.get("TUIBENCH_NO_CACHE", "") not in ("", "0")
    return not off and folder() is not None


def folder() -> Path | None:
    """The cache folder; None when there is no home to put it in."""
    own = os.environ.get("TUIBENCH_CACHE_DIR")
    if own:
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # a relative one is to be ignored (XDG's rule)
        return Path(xdg) / "tuibench"
    try:
        return Path.home() / ".cache" / "tuibench"
    except (RuntimeError, KeyError):
        return None


def limit() -> int:
    try:
        return max(0, int(os.environ.get("TUIBENCH_CACHE_MB", DEFAULT_MB))) << 20
    except ValueError:
        return DEFAULT_MB << 20


@functools.cache
def code_version() -> bytes:
    """A digest of this tuibench's code (every module's bytes) and of polars' version: an
    entry written by any other code is foreign, whatever its version number says."""
    import polars

    return digest(polars.__version__, code_digest())


@functools.cache
def code_digest() -> bytes:
    """The digest of every module's path and bytes (10-15 ms: a first open's explorer makes
    it while its loading child works, tui/screens/main/loading.py)."""
    h = hashlib.blake2b(digest_size=32)
    root = package_root()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.digest()


def package_root() -> Path:
    """The folder of the whole tuibench package, whose every module the version covers
    (this module's parents[1] was the package when it lay in core/; after the move into
    ingest/reuse/ it was ingest/, and entries of older analysis code were trusted)."""
    import tuibench

    return Path(tuibench.__file__).resolve().parent


def digest(*parts: object) -> bytes:
    """The digest of a key given as parts (their repr: str, bytes, ints, tuples)."""
    h = hashlib.blake2b(digest_size=32)
    for p in parts:
        h.update(repr(p).encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.digest()


class Store:
    def __init__(self, where: Path | None = None, max_bytes: int | None = None) -> None:
        where = folder() if where is None else where
        if where is None:  # `enabled()` is false then: no store is made
            raise ValueError("no cache folder: no home folder and no TUIBENCH_CACHE_DIR")
        self.where = where
        self.max_bytes = limit() if max_bytes is None else max_bytes

    def _path(self, kind: str, key: bytes) -> Path:
        return self.where / f"{kind}-{key.hex()}{SUFFIX}"

    def has(self, kind: str, key: bytes) -> bool:
        """Whether an entry is there (unchecked: `get` checks it)."""
        return self._path(kind, key).is_file()

    def get(self, kind: str, key: bytes) -> bytes | memoryview | None:
        """The payload stored under `key`, or None (missing, or failed a check: then the
        entry is removed, to be written again)."""
        path = self._path(kind, key)
        try:
            with open(path, "rb") as fh:
                if os.fstat(fh.fileno()).st_uid != os.getuid():
                    return None
                data = fh.read()
        except OSError:
            return None
        payload = _checked(data, key)
        if payload is None:
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: dropped last
        return payload

    def put(self, kind: str, key: bytes, payload: bytes | Sequence[bytes | memoryview]) -> bool:
        """Store atomically (a temporary file renamed), then drop the oldest entries past
        the bound. False when the folder cannot be written or the entry alone is too big.
        `payload` may be its parts in order (written one after another: a large entry is
        never joined in memory)."""
        parts = [payload] if isinstance(payload, bytes) else payload
        size = sum(memoryview(p).nbytes for p in parts)
        if size + _HEADER.size > self.max_bytes:
            return False
        crc = 0
        for p in parts:
            crc = zlib.crc32(p, crc)
        header = _HEADER.pack(MAGIC, code_version(), key, size, crc)
        path = self._path(kind, key)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            self.where.mkdir(mode=0o700, parents=True, exist_ok=True)
            with open(tmp, "xb") as fh:
                fh.write(header)
                for p in parts:
                    fh.write(p)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        self.trim()
        return True

    def put_written(self, kind: str, key: bytes, write: Callable[[BinaryIO], None]) -> int | None:
        """As `put`, the payload written by `write(fh)` straight into the entry's file (a
        large entry is never made in memory: at a million metrics it was 0.9 GB at the
        explorer's peak); its CRC read back from the file. The payload's size, or None when
        not stored (the folder cannot be written, the entry alone is too big)."""
        path = self._path(kind, key)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            self.where.mkdir(mode=0o700, parents=True, exist_ok=True)
            with open(tmp, "xb+") as fh:
                fh.write(bytes(_HEADER.size))
                write(fh)
                size = fh.tell() - _HEADER.size
                if size + _HEADER.size > self.max_bytes:
                    raise OSError("entry too big")
                fh.seek(_HEADER.size)
                crc = 0
                while block := fh.read(1 << 20):
                    crc = zlib.crc32(block, crc)
                fh.seek(0)
                fh.write(_HEADER.pack(MAGIC, code_version(), key, size, crc))
            os.replace(tmp, path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            if isinstance(exc, OSError):
                return None
            raise
        self.trim()
        return size

    def trim(self) -> None:
        """Drop the entries used longest ago until the rest fit in the bound."""
        entries = []
        old = time.time_ns() - 3600 * 10**9  # a temporary file this old lost its writer
        with contextlib.suppress(OSError), os.scandir(self.where) as it:
            for e in it:
                if not e.is_file(follow_symlinks=False):
                    continue
                st = e.stat(follow_symlinks=False)
                if e.name.endswith(SUFFIX):
                    entries.append((st.st_mtime_ns, st.st_size, e.path))
                elif e.name.endswith(".tmp") and st.st_mtime_ns < old:
                    with contextlib.suppress(OSError):
                        os.unlink(e.path)
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size


def _checked(data: bytes, key: bytes) -> memoryview | None:
    """The payload of an entry's bytes, or None if any check fails."""
    if len(data) < _HEADER.size:
        return None
    magic, version, stored_key, n, crc = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size :]
    if magic != MAGIC or version != code_version() or stored_key != key or len(payload) != n:
        return None
    # CRC-32 catches truncation and damage (the folder is the user's own: no forgery).
    return payload if zlib.crc32(payload) == crc else None
