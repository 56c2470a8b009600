"""Problems: what could not be read, said so that a person can act on it."""

from __future__ import annotations

from dataclasses import dataclass

from tuibench.util.text import printable


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that went wrong while loading.

    `path` is the file (or folder) concerned, `line` the 1-based line when known,
    `where` a location inside structured data (e.g. ``benchmarks[3].real_time``).
    """

    path: str
    reason: str
    line: int | None = None
    where: str | None = None

    def __str__(self) -> str:
        loc = self.path
        if self.line is not None:
            loc += f":{self.line}"
        if self.where:
            loc += f" (at {self.where})"
        # For people (stderr, the explorer): a path or a quoted value may hold controls.
        return printable(f"{loc}: {self.reason}")

    def to_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "where": self.where, "reason": self.reason}
