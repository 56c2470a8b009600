"""Files under the given paths that are not results, each with the reason it was not read.

Every regular file is either read or set aside here, never dropped without a word:
`inspect` lists each one, `report` and the explorer count them in one line
(`set_aside_line`). Files are recognised by content; only version-control folders and
files whose name says they cannot hold results (pictures, archives, ...) are set aside
without being opened. A system's folder without a single file is set aside too (an empty
folder is no system).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

CONFIGURATION = "configuration"  # read, but as settings: listed, not counted as not results
VERSION_CONTROL = "version-control folder"
EMPTY_FOLDER = "empty folder"  # a system's folder without a file: no system
FOLDERS = {VERSION_CONTROL: "not walked", EMPTY_FOLDER: "not systems"}  # counted apart
VCS_FOLDERS = (".git", ".hg", ".svn", ".bzr", "CVS", "_darcs")

# Set aside without opening: no benchmark tool writes its results in these.
UNREAD_SUFFIXES = {
    **dict.fromkeys((".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".tif"), "image"),
    **dict.fromkeys((".tiff", ".avif", ".heic"), "image"),
    **dict.fromkeys((".zip", ".tar", ".tgz", ".7z", ".rar", ".jar", ".whl", ".deb"), "archive"),
    **dict.fromkeys((".rpm", ".tbz2", ".txz", ".bz2", ".lz4"), "archive"),
    **dict.fromkeys((".pdf", ".ps", ".eps"), "PDF or PostScript"),
    **dict.fromkeys((".woff", ".woff2", ".ttf", ".otf"), "font"),
    **dict.fromkeys((".o", ".a", ".so", ".dylib", ".dll", ".exe", ".pyc", ".class"), "binary"),
    **dict.fromkeys((".mp4", ".webm", ".mp3", ".wav"), "media"),
}
# Kinds of files looked at by content and found to be no results, by their names.
NAMED_KINDS = {
    **dict.fromkeys((".md", ".markdown"), "Markdown"),
    **dict.fromkeys((".html", ".htm"), "HTML"),
    **dict.fromkeys((".yaml", ".yml"), "YAML"),
    **dict.fromkeys((".txt", ".text"), "text"),
    **dict.fromkeys((".py", ".sh", ".pl", ".r", ".gnuplot", ".gp", ".js", ".css"), "script"),
    **dict.fromkeys((".go", ".rs", ".c", ".cc", ".cpp", ".h", ".hpp", ".java"), "source code"),
    ".svg": "SVG",
    ".xml": "XML",
    ".rst": "reStructuredText",
    ".toml": "TOML",
    ".log": "log",
    ".ini": "INI",
    ".cfg": "config",
}
CONFIG_NAMES = ("system.toml", "tuibench.toml", "shellpack.yaml")
# An empty file named like one of these is a problem (a run that wrote nothing), not an aside.
DATA_SUFFIXES = (".json", ".csv", ".tsv", ".jsonl", ".parquet", ".gz", ".zst", ".xz", ".out")


@dataclass
class SetAside:
    path: str
    kind: str  # counted in the one line, e.g. "Markdown"
    reason: str  # listed by `inspect`


def unread_kind(name: str) -> str | None:
    """The kind of a file set aside by its name alone, or None: look at its content."""
    return UNREAD_SUFFIXES.get(os.path.splitext(name.lower())[1])


def kind_of(name: str, default: str = "unknown") -> str:
    suffix = os.path.splitext(name.lower().removesuffix(".gz"))[1]
    return NAMED_KINDS.get(suffix) or UNREAD_SUFFIXES.get(suffix) or default


def empty_is_problem(name: str) -> bool:
    low = name.lower()
    if low.startswith("."):  # .gitkeep and the like: placeholders, not runs
        return False
    return low.endswith(DATA_SUFFIXES) or "." not in low


def set_aside_line(items: list[SetAside]) -> str | None:
    """'12 files not results: 6 Markdown, 4 SVG, 2 unknown', with the folders set aside
    after (version control, empty); None when nothing was set aside. Configuration files
    are not counted."""
    kinds = Counter(s.kind for s in items if s.kind not in (CONFIGURATION, *FOLDERS))
    parts = []
    if kinds:
        n = sum(kinds.values())
        order = sorted(kinds.items(), key=lambda kc: (-kc[1], kc[0].lower()))
        listed = ", ".join(f"{c} {k}" for k, c in order)
        parts.append(f"{n} file{'s' if n != 1 else ''} not results: {listed}")
    for kind, what in FOLDERS.items():
        if folders := sum(s.kind == kind for s in items):
            parts.append(f"{folders} {kind}{'s' if folders != 1 else ''} {what}")
    return "; ".join(parts) or None
