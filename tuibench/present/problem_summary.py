"""Many problems, said in a few lines: the first ones listed, the rest counted by kind.

100,000 unreadable files printed 100,000 lines on stderr and took the explorer's problem
list 14.5 s to open; past a few hundred nobody reads them one by one, but how many of each
kind there are says what went wrong. `tuibench inspect` and `--format json` keep them all.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from tuibench.model.problems import Problem
from tuibench.util.text import printable

SUMMARISE_FROM = 300  # more problems than this: list the first LISTED, count the rest
LISTED = 100
KINDS_SHOWN = 12  # the most frequent kinds; the others are counted together
KIND_CHARS = 80

# The specifics of a reason (quoted text, numbers) vary from one file to the next; what is
# left, before any detail after ': ', is its kind.
_QUOTED = r"'[^']*'|\"[^\"]*\"|`[^`]*`"
_NUMBER = r"[-+]?\d[\d.,_eE+-]*"


@dataclass(frozen=True, slots=True)
class ProblemSummary:
    total: int
    listed: list[Problem]
    kinds: list[tuple[str, int]]  # (kind, count) over every problem, most frequent first
    other_kinds: int = 0  # kinds beyond KINDS_SHOWN
    other_count: int = 0  # problems of those kinds

    @property
    def unlisted(self) -> int:
        return self.total - len(self.listed)

    def lines(self) -> list[str]:
        """The summary's lines after the listed problems (none when every one is listed)."""
        if not self.unlisted:
            return []
        out = [
            f"{self.total} problems: the first {len(self.listed)} are listed; by kind "
            "(`tuibench inspect PATH` lists them all):"
        ]
        width = len(str(self.kinds[0][1])) if self.kinds else 1
        out += [f"  {n:>{width}} × {kind}" for kind, n in self.kinds]
        if self.other_kinds:
            out.append(f"  {self.other_count:>{width}} × {self.other_kinds} other kinds")
        return out


def problem_kinds(reasons: list[str]) -> pl.Series:
    """The kind of each reason (vectorised: 100,000 reasons in a few tens of ms)."""
    s = pl.Series("kind", reasons, dtype=pl.String)
    s = s.str.replace_all(_QUOTED, "…").str.replace_all(_NUMBER, "N")
    return s.str.split(": ").list.first().str.slice(0, KIND_CHARS)


def summarise(problems: list[Problem], listed: int = LISTED) -> ProblemSummary:
    """Every problem when there are at most SUMMARISE_FROM, else the first `listed` and
    the counts of every kind."""
    if len(problems) <= SUMMARISE_FROM:
        return ProblemSummary(len(problems), list(problems), [])
    kinds = problem_kinds([p.reason for p in problems])
    counts = kinds.value_counts(sort=True, name="n")
    counts = counts.sort(["n", "kind"], descending=[True, False])  # stable across runs
    shown = counts.head(KINDS_SHOWN)
    rest = counts.slice(KINDS_SHOWN)
    return ProblemSummary(
        total=len(problems),
        listed=list(problems[:listed]),
        kinds=[(printable(k), n) for k, n in shown.iter_rows()],
        other_kinds=rest.height,
        other_count=int(rest["n"].sum()),
    )
