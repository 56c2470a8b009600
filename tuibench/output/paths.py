"""Where tuibench may write a table: never into the results, never over an input file.

One decision for `tuibench report --output` and the explorer's export dialog.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tuibench.output.writing import file_in_the_way, special_kind

# Names of standard output: `report --output -` writes there instead of to a file.
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def means_stdout(target: str) -> bool:
    return target.strip() in STDOUT_NAMES


def resolve(target: str, cwd: Path | None = None) -> Path:
    """`target` as an absolute path with links resolved, relative to `cwd` (default: here)."""
    path = Path(target).expanduser()
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    return path.resolve()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def refusal(
    target: Path,
    result_paths: list[str],
    cwd: Path | None = None,
    input_files: Iterable[str] = (),
) -> str | None:
    """Why `target` (resolved) must not be written, or None when it may be.

    tuibench never writes into a results folder (the next load would read the export as a
    result), nor over a result file: one given on the command line, or any file that was
    read (`input_files`; one reached through a link, or a hard link to it, counts too).
    """
    if target.is_dir():
        return f"{target} is a folder: give a file name"
    if (kind := special_kind(target)) is not None:
        return _not_a_file(str(target), kind)
    blocker = file_in_the_way(target)
    if blocker is not None:
        return f"{blocker} is a file, not a folder: choose another folder"
    for given in result_paths:
        root = resolve(given, cwd)
        if root == target or _same_file(root, target):
            return f"{given} is a result file: tuibench never writes over results"
        if root.is_dir() and root in target.parents:
            return (
                f"{target.parent} is inside the results folder {given}: tuibench never "
                "writes there (the export would be read as a result next time); "
                "choose another folder"
            )
    if (alias := _results_alias(target, result_paths, cwd)) is not None:
        return (
            f"{target.parent} is inside the results folder {alias} (the same folder by "
            "another path: a link or a bind mount): tuibench never writes there; "
            "choose another folder"
        )
    try:
        st = target.stat()
    except OSError:  # nothing there yet: it cannot be a file that was read
        return None
    for path in input_files:
        try:
            other = os.stat(Path(cwd or ".") / path)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return f"{target} was read as a result file: tuibench never writes over results"
    return None


def output_refusal(
    text: str, result_paths: list[str], cwd: Path | None = None, input_files: Iterable[str] = ()
) -> str | None:
    """Why the output named `text` (as the user typed it) must not be written, or None.

    The name as given is looked at first: `/dev/stderr` leads through the process's own
    file descriptors to a pipe or a terminal whose resolved path names nothing."""
    if not text.strip():
        return "an empty file name"
    given = Path(text).expanduser()
    if (kind := special_kind((cwd or Path.cwd()) / given)) is not None:
        return _not_a_file(text, kind)
    return refusal(resolve(text, cwd), result_paths, cwd, input_files)


def _not_a_file(name: str, kind: str) -> str:
    if kind == "folder":
        return f"{name} is a folder: give a file name"
    return (
        f"{name} is a {kind}, not a regular file: tuibench writes only regular files, and "
        "never replaces anything else"
    )


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _results_alias(target: Path, result_paths: list[str], cwd: Path | None) -> str | None:
    """The given results folder that one of `target`'s folders is, by device and inode: a
    bind mount or a link of it has another path but is the same folder."""
    roots = {}
    for given in result_paths:
        root = resolve(given, cwd)
        if root.is_dir() and (ident := _identity(root)) is not None:
            roots[ident] = given
    if not roots:
        return None
    for parent in target.parents:
        ident = _identity(parent)
        if ident in roots:
            return roots[ident]
    return None
