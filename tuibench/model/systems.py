"""Systems and the names of files and systems: what discovery needs, without polars (the
explorer finds its files before polars is imported: tui/terminal/first_frame.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_DIGITS = re.compile(r"(\d+)")


def file_stem(path: Path) -> str:
    """A file's name without its format suffixes: `run.json.gz` -> `run`."""
    name = path.name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or path.name


def natural_key(name: str) -> tuple:
    """Sort key under which `linux-6.9` comes before `linux-6.10`."""
    parts = _DIGITS.split(name)
    return tuple((0, int(p), "") if p.isdecimal() else (1, 0, p.lower()) for p in parts if p)


@dataclass
class SystemInfo:
    name: str
    description: str = ""
    tags: list[str] = field(default_factory=list)
    order: int | None = None
    path: str = ""
    # Facts read from result files (Go `cpu:` lines, Google Benchmark context, ...).
    metadata: dict[str, str] = field(default_factory=dict)
