"""Writing exports: atomically, with the permissions any other file would get.

No polars here: the explorer checks a target before the core is loaded.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path


def file_in_the_way(path: Path) -> Path | None:
    """The closest existing ancestor of `path` that is not a folder, if any: then `path`
    can never be created (its parent would have to be a folder)."""
    for parent in Path(path).parents:
        if parent.exists():
            return None if parent.is_dir() else parent
        if parent.is_symlink():  # a dangling link: mkdir would fail on it too
            return parent
    return None


class NotRegularFile(OSError):
    """The target exists and is not a regular file (a device, a FIFO, a socket, a folder):
    an atomic rename would replace it (`/dev/null` as root) by the export."""


_KINDS = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISSOCK, "socket"),
)


def special_kind(path: Path | str) -> str | None:
    """What `path` is when it exists and is not a regular file (links followed; stat never
    opens it, so a FIFO does not block), else None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # nothing there (yet), or a name the system refuses
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "special file")


def _refuse_special(path: Path) -> None:
    kind = special_kind(path)
    if kind is not None:
        raise NotRegularFile(
            f"{path} is a {kind}, not a regular file: tuibench replaces only files"
        )


def _new_temporary(folder: Path, name: str) -> tuple[int, str]:
    """A fresh file beside the target, created like any other file: mode 0666 less the
    umask (mkstemp would give 0600, and the export would then be unreadable to others)."""
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), str(tmp)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def write_atomic(
    path: Path, text: str | Iterable[bytes | memoryview], overwrite: bool = False
) -> Path:
    """Write `text` (or UTF-8 pieces of it) to `path` through a temporary file in the same
    folder, then rename.

    Refuses to replace an existing file unless `overwrite` (FileExistsError), and never
    replaces anything but a regular file (NotRegularFile, checked again right before the
    rename); a replaced file keeps its permissions. A parent that is a file gives
    NotADirectoryError naming it.
    """
    path = Path(path).expanduser().resolve()
    _refuse_special(path)
    blocker = file_in_the_way(path)
    if blocker is not None:
        raise NotADirectoryError(errno.ENOTDIR, f"{blocker} is a file, not a folder", str(path))
    old_mode = None
    if path.exists():
        if not overwrite:
            raise FileExistsError(errno.EEXIST, "the file exists", str(path))
        old_mode = stat.S_IMODE(path.stat().st_mode)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _new_temporary(path.parent, path.name)
    try:
        if isinstance(text, str):
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:  # UTF-8 already, in pieces: a large JSON report is not joined in memory
            with os.fdopen(fd, "wb") as fh:
                fh.writelines(text)
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        if overwrite:
            _refuse_special(path)  # a device or FIFO put there meanwhile
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if the file appeared meanwhile: never clobber
            os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
