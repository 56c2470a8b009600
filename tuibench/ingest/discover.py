"""Walk the paths a user gives into units: (system, file, the file's iteration).

- One folder with sub-folders: each top-level sub-folder is a system (its name is the
  system's name); files directly inside the folder belong to no system (they need a
  `system` column). A folder with no sub-folders other than `iter-<N>`, or one that holds a
  `system.toml`, is itself one system.
- One file: its rows carry a `system` column, or the file is one system named after it.
- Several paths: each is one system.

Any folder named `iter-<N>` on the way to a file sets that file's iteration to N.
Nothing here reads result files; `load.py` does.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tuibench.ingest.opening import KINDS, FoundPath, open_regular
from tuibench.model.problems import Problem
from tuibench.model.set_aside import (
    CONFIG_NAMES,
    CONFIGURATION,
    EMPTY_FOLDER,
    VCS_FOLDERS,
    VERSION_CONTROL,
    SetAside,
    unread_kind,
)
from tuibench.model.systems import SystemInfo, file_stem, natural_key

ITER_DIR = re.compile(r"^iter-(\d+)$")
MAX_ITERATION = 2**63 - 1  # iterations are stored as 64-bit integers
SYSTEM_TOML = "system.toml"
CONFIG_TOML = "tuibench.toml"
# Criterion.rs output folders: only new/sample.json holds the current run's samples.
CRITERION_FOLDERS = ("new", "base", "change")
CRITERION_SUMMARIES = ("raw.csv", "estimates.json", "benchmark.json", "tukey.json")


@dataclass
class Unit:
    system: str | None  # None: the rows must name their system
    path: Path
    iteration: int | None  # from an iter-<N> folder
    rank: int  # position among the system's files in natural order


@dataclass
class Discovery:
    units: list[Unit] = field(default_factory=list)
    systems: list[SystemInfo] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    root: str = ""
    config: Path | None = None  # tuibench.toml, when there is one
    # Real paths of the given folders: discovery never follows a link out of them.
    roots: list[str] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)  # files that are not results
    # File systems of the given paths: discovery does not cross into others (mounts).
    devices: set[int] = field(default_factory=set)
    # Each file (device, inode) once, with the path it was first reached by.
    inodes: dict[tuple[int, int], Path] = field(default_factory=dict)
    folders: dict[str, str] = field(default_factory=dict)  # a system folder's real path -> name

    def aside(self, path: Path, kind: str, reason: str) -> None:
        self.set_aside.append(SetAside(display_path(path), kind, reason))


def discover(paths: Sequence[str | Path]) -> Discovery:
    found = Discovery()
    given = [Path(p) for p in paths]
    found.root = " ".join(display_path(p) for p in given)
    existing = []
    for p in given:
        if not p.exists():
            kind = "broken symbolic link" if p.is_symlink() else "no such file or folder"
            found.problems.append(Problem(str(p), kind))
        elif not (p.is_dir() or p.is_file()):
            found.problems.append(Problem(str(p), _not_regular(p)))
        else:
            existing.append(p)
    found.roots = [_real(p) for p in existing if p.is_dir()]
    found.devices = {os.stat(p).st_dev for p in existing}
    if len(given) == 1 and existing:
        _one_path(existing[0], found)
    else:
        names = _system_names(existing)
        for p, name in zip(existing, names, strict=True):
            if p.is_file() or _new_system_folder(p, found, name):
                _add_system(found, _valid_name(name, p, found), p)
    _without_empty_systems(found)
    return found


def _without_empty_systems(found: Discovery) -> None:
    """A system folder without a single file (pytest-benchmark's `.benchmarks`, a run's
    folder made before its first result) is no system: it would sort first and be taken for
    the reference. Set aside, named as such; it is a system once it holds a file."""
    used = {u.system for u in found.units}
    said = [a.path for a in found.set_aside] + [p.path for p in found.problems]
    for info in list(found.systems):
        folder = display_path(info.path)
        if info.name in used or not os.path.isdir(info.path):
            continue
        if any(path.startswith(folder + os.sep) for path in said):
            continue  # files there, none of them read: said as "nothing compared"
        found.systems.remove(info)
        found.aside(Path(info.path), EMPTY_FOLDER, "an empty folder: no files, not a system")


def _valid_name(name: str, path: Path, found: Discovery) -> str:
    """A system name polars can store. Bytes of a folder name that are not UTF-8 (kept by
    Python as surrogates) become U+FFFD; when that makes two names equal, `\\xe9` escapes
    keep them apart."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    raw = name.encode("utf-8", "surrogateescape")
    shown = raw.decode("utf-8", "replace")
    if any(s.name == shown for s in found.systems):
        shown = raw.decode("utf-8", "backslashreplace")
    found.problems.append(
        Problem(
            display_path(path),
            f"the name is not valid UTF-8; the system is shown as {shown!r}",
        )
    )
    return shown


def display_path(path: Path | str) -> str:
    """A path as text that can be printed: bytes that are not UTF-8 become U+FFFD."""
    s = str(path)
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _system_names(paths: list[Path]) -> list[str]:
    """Names for paths given one system each: the base name, widened until unique."""

    def base(p: Path, depth: int) -> str:
        parts = p.resolve().parts
        tail = list(parts[-depth:])
        if p.is_file():
            tail[-1] = file_stem(p)
        return "/".join(tail)

    names = [base(p, 1) for p in paths]
    for depth in range(2, 6):
        dupes = {n for n in names if names.count(n) > 1}
        if not dupes:
            break
        names = [base(p, depth) if n in dupes else n for p, n in zip(paths, names, strict=True)]
    return names


def _one_path(p: Path, found: Discovery) -> None:
    if p.is_file():
        if (f := _given_file(p, found)) is not None:  # systems: its column, or the file
            found.units.append(Unit(None, f, None, 0))
        return
    config = p / CONFIG_TOML
    if config.is_file():
        found.config = config
    if _raw_mmtests_tree(p, found):
        return
    if (p / SYSTEM_TOML).is_file() or not _system_folders(p):
        _add_system(found, _valid_name(p.resolve().name, p, found), p)
        return
    subdirs, files = _list_dir(p, found)
    systems = [d for d in subdirs if not ITER_DIR.match(d.name)]
    for f in files:  # loose files at the top: their rows must name a system
        found.units.append(Unit(None, f, None, 0))
    for d in subdirs:  # beside systems, an iteration of which? Said, not guessed
        if ITER_DIR.match(d.name):
            found.problems.append(
                Problem(
                    str(d),
                    "an iter-<N> folder beside system folders belongs to no system; not "
                    "read (move it into its system's folder)",
                )
            )
    for d in sorted(systems, key=lambda d: natural_key(d.name)):
        if _may_enter(d, set(), found) is not None and _new_system_folder(d, found, d.name):
            _add_system(found, _valid_name(d.name, d, found), d)


def _system_folders(p: Path) -> bool:
    """Whether `p` holds folders other than `iter-<N>` (then each is a system)."""
    try:
        with os.scandir(p) as entries:
            return any(
                e.name not in VCS_FOLDERS and not ITER_DIR.match(e.name) and e.is_dir()
                for e in entries
            )
    except OSError:
        return False  # the walk says what is wrong


def _new_system_folder(d: Path, found: Discovery, name: str) -> bool:
    """False (with a problem) for a system folder that is another one by a link: one
    system, not two with the same data."""
    real = _real(d)
    first = found.folders.setdefault(real, name)
    if first == name:
        return True
    found.problems.append(
        Problem(
            str(d),
            f"the same folder as system {first!r} (a symbolic link to {real}); "
            "counted once, as that system",
        )
    )
    return False


def _given_file(p: Path, found: Discovery) -> Path | None:
    """A file given by the user, with its size (reads stop there), unless already reached."""
    try:
        st = os.stat(p)
    except OSError as exc:
        found.problems.append(Problem(str(p), f"cannot be read: {exc.strerror or exc}"))
        return None
    return _file(FoundPath(p), st, found)


def _list_dir(d: Path, found: Discovery) -> tuple[list[Path], list[Path]]:
    """The folders to walk and the files to read in `d`; every other entry is set aside or
    a problem, with its reason."""
    subdirs: list[Path] = []
    files: list[Path] = []
    try:
        entries = sorted(os.scandir(d), key=lambda e: natural_key(e.name))
    except OSError as exc:
        found.problems.append(Problem(str(d), f"folder cannot be read: {exc.strerror or exc}"))
        return [], []
    criterion = d.name in CRITERION_FOLDERS and any(
        e.name in ("sample.json", "estimates.json") for e in entries
    )
    device = os.stat(d).st_dev
    for e in entries:
        path = FoundPath(e.path)  # a file's size is set in _file
        try:
            if e.name in VCS_FOLDERS:
                found.aside(path, VERSION_CONTROL, "version control, not results; not walked")
            elif e.is_dir():
                if _same_device(path, e.stat(), found):
                    subdirs.append(path)
            elif not e.is_file():
                found.problems.append(Problem(str(path), _not_regular(path)))
            elif not _set_aside(path, found, criterion):
                link = e.is_symlink()  # else device and inode without a stat per file
                where = os.stat(path) if link else (device, e.inode())
                if _file(path, where, found, link=link) is not None:
                    files.append(path)
        except OSError as exc:
            found.problems.append(Problem(str(path), f"cannot be read: {exc.strerror or exc}"))
    return subdirs, files


def _set_aside(path: Path, found: Discovery, criterion: bool) -> bool:
    """Set aside, by its name, a file that cannot hold results: settings, pictures and
    archives, and Criterion.rs' summaries beside its samples."""
    name = path.name
    if name.lower() in CONFIG_NAMES or name.lower().endswith(".shellpack.yaml"):
        found.aside(path, CONFIGURATION, "read as settings, not results")
    elif kind := unread_kind(name):
        found.aside(path, kind, f"{kind}, not results; not opened")
    elif criterion and (name in CRITERION_SUMMARIES or path.parent.name != "new"):
        what = "a saved baseline" if path.parent.name == "base" else "a summary"
        found.aside(
            path, "Criterion.rs summary", f"Criterion.rs {what}, not samples (new/sample.json is)"
        )
    else:
        return False
    return True


def _same_device(path: Path, st: os.stat_result, found: Discovery) -> bool:
    """False (with a problem) for a folder on another file system than the given paths (a
    mount of /proc, /sys, a network share...): not walked."""
    if not found.devices or st.st_dev in found.devices:
        return True
    found.problems.append(
        Problem(
            str(path),
            "a mount of another file system; not walked (give it as a path to read it)",
        )
    )
    return False


def _file(
    path: Path, where: os.stat_result | tuple[int, int], found: Discovery, link: bool = False
) -> Path | None:
    """The file to read, or None with a problem: a link out of the given folders, another
    file system, or a file already reached by another path. `where` is its stat, or its
    (device, inode). Its size is taken when it is first opened (`opening.read_start`)."""
    dev, ino = (where.st_dev, where.st_ino) if isinstance(where, os.stat_result) else where
    real = _real(path) if link else ""
    if link and found.roots and not any(_inside(real, root) for root in found.roots):
        found.problems.append(
            Problem(
                str(path),
                f"symbolic link to {display_path(real)}, outside the given folders; not read "
                "(give that file as a path to include it)",
            )
        )
        return None
    if found.devices and dev not in found.devices:
        found.problems.append(Problem(str(path), "on another file system (a mount); not read"))
        return None
    first = found.inodes.setdefault((dev, ino), path)
    if first is not path:
        if link:
            how = "a symbolic link"
        elif _real(path) == _real(first):  # the same path once folder links are followed
            how = "through a symbolic link"
        else:
            how = "a hard link"
        found.problems.append(
            Problem(
                str(path),
                f"the same file as {display_path(first)} ({how}); read once, as that file",
            )
        )
        return None
    return path


_KINDS = {k: v for k, v in KINDS.items() if v != "a folder"}


def _not_regular(path: Path) -> str:
    """Why an entry that is neither a folder nor a regular file is not read."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "broken symbolic link"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    kind = _KINDS.get(stat.S_IFMT(mode), "not a file or folder")
    link = "a symbolic link to " if os.path.islink(path) else ""
    return f"not a regular file but {link}{kind}; not read"


# What run-mmtests.sh leaves in a raw `work/log/<run>` folder: `mmtests-activity` beside
# the iterations, and `tests-activity`, `tests-timestamp` in each `iter-N` (older versions
# wrote the last two at the run's level).
_RUN_MARKS = ("mmtests-activity", "tests-activity", "tests-timestamp")
_ITER_MARKS = ("tests-activity", "tests-timestamp")


def _mmtests_log_run(p: Path) -> list[str] | None:
    """The tests of a raw mmtests `work/log/<run>` folder (`iter-N/<test>/logs/`), or None
    when `p` is no such folder."""
    iters = [d for d in p.glob("iter-*") if ITER_DIR.match(d.name) and d.is_dir()]
    marked = any((p / m).is_file() for m in _RUN_MARKS) or any(
        (d / m).is_file() for d in iters for m in _ITER_MARKS
    )
    if not marked:
        return None
    tests = {t.name for d in iters for t in d.iterdir() if t.is_dir()}
    return sorted(tests, key=natural_key)


def _raw_mmtests_tree(p: Path, found: Discovery) -> bool:
    """An mmtests checkout or its `work` folder given by mistake: one problem per raw run of
    its `work/log` (what to run), and nothing else of it is read (scripts, configs and
    logs are no results). False when `p` holds no raw mmtests log."""
    for log in (p / "log", p / "work" / "log"):
        try:
            runs = [d for d in log.iterdir() if d.is_dir() and _mmtests_log_run(d) is not None]
        except OSError:
            continue
        if runs:
            for d in sorted(runs, key=lambda d: natural_key(d.name)):
                _add_system(found, d.name, d)
            found.problems.append(
                Problem(
                    str(p),
                    f"holds raw mmtests logs in {log.relative_to(p)}/ and nothing else here "
                    "was read; give tuibench the folder of extracted results instead",
                )
            )
            return True
    return False


def _add_system(found: Discovery, name: str, p: Path) -> None:
    tests = _mmtests_log_run(p) if p.is_dir() else None
    if tests is not None:  # raw logs given by mistake: one problem, not one per log file
        run = p.resolve().name
        cmds = "; ".join(
            f"extract-mmtests.pl -d work/log -b {t} -n {run} --print-json > results/{run}/{t}.json"
            for t in tests or ["<test>"]
        )
        found.problems.append(
            Problem(
                str(p),
                f"a raw mmtests log folder of run {run!r}, not results; in the mmtests "
                f"folder run: {cmds}; then give tuibench the results folder",
            )
        )
        return
    info = SystemInfo(name=name, path=str(p))
    if p.is_dir():
        _read_system_toml(p / SYSTEM_TOML, info, found)
    found.systems.append(info)
    if p.is_file():
        if (f := _given_file(p, found)) is not None:
            found.units.append(Unit(name, f, None, 0))
        return
    files: list[tuple[Path, int | None]] = []
    _walk(p, None, files, found, seen={_real(p)})
    for rank, (f, it) in enumerate(files):
        found.units.append(Unit(name, f, it, rank))


def _real(p: Path) -> str:
    return os.path.realpath(p)


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def _may_enter(sub: Path, seen: set[str], found: Discovery) -> str | None:
    """The folder's real path; None (with a problem) for a link out of the given folders
    or back up the walk."""
    real = _real(sub)
    if found.roots and not any(_inside(real, root) for root in found.roots):
        found.problems.append(
            Problem(
                str(sub),
                f"symbolic link to {real}, outside the given folders; not followed "
                "(give that folder as a path to include it)",
            )
        )
        return None
    # A link to this folder or to one above it would walk the same files forever.
    if any(_inside(s, real) for s in seen):
        found.problems.append(
            Problem(str(sub), f"symbolic link loop: points back to {real}; not followed")
        )
        return None
    return real


def _walk(d: Path, iteration: int | None, out: list, found: Discovery, seen: set[str]) -> None:
    subdirs, files = _list_dir(d, found)
    out.extend((f, iteration) for f in files)
    for sub in subdirs:
        real = _may_enter(sub, seen, found)
        if real is None:
            continue
        it = iteration
        m = ITER_DIR.match(sub.name)
        if m:
            it = int(m.group(1))
            if it > MAX_ITERATION:
                found.problems.append(
                    Problem(
                        str(sub),
                        f"iteration number is too large (more than {MAX_ITERATION}); "
                        "the files in this folder were skipped",
                    )
                )
                continue
        _walk(sub, it, out, found, seen | {real})


def _read_system_toml(path: Path, info: SystemInfo, found: Discovery) -> None:
    if not path.is_file():
        return
    data = read_toml(path, found.problems)
    if data is None:
        return
    desc = data.get("description", "")
    if isinstance(desc, str):
        info.description = desc.strip()
    else:
        found.problems.append(Problem(str(path), "description must be a string"))
    tags = data.get("tags", [])
    if isinstance(tags, list) and all(isinstance(t, str) for t in tags):
        info.tags = tags
    else:
        found.problems.append(Problem(str(path), "tags must be a list of strings"))
    order = data.get("order")
    if order is None or (isinstance(order, int) and not isinstance(order, bool)):
        info.order = order
    else:
        found.problems.append(Problem(str(path), f"order must be a whole number, not {order!r}"))
    if "name" in data:
        found.problems.append(
            Problem(str(path), "the system's name is its folder's name; 'name' is ignored")
        )


def read_toml(path: Path, problems: list[Problem]) -> dict | None:
    try:
        with open_regular(path) as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        problems.append(
            Problem(str(path), f"invalid TOML: {exc}", line=int(m.group(1)) if m else None)
        )
    except RecursionError:  # tomllib recurses once per level of nesting
        problems.append(Problem(str(path), "invalid TOML: nested too deeply; not read"))
    except OSError as exc:
        problems.append(Problem(str(path), f"cannot be read: {exc.strerror or exc}"))
    return None
