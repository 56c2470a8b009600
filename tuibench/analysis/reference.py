"""Whether the reference was chosen, and what to say when it was not.

The first system is the default reference. When it is first only because its name sorts
first (no `order` in a system.toml, no order from a file, no `--reference`, no `reference`
in tuibench.toml), the whole comparison may be inverted (`5.8-patched` before
`5.8-vanilla`): the first screen and the report's header say so, and name a system that is
named like a baseline."""

from __future__ import annotations

import re

from tuibench.model.results import ResultSet
from tuibench.util.text import printable

# Words that name a baseline, as a whole word or token of a system's name.
BASELINE_WORDS = {
    "vanilla",
    "base",
    "baseline",
    "main",
    "master",
    "stock",
    "upstream",
    "before",
    "old",
    "ref",
}


def named_like_baseline(name: str) -> bool:
    """`5.8-vanilla`, `linux_base`, `old`, `v6.1-stock`: a token of letters is a baseline word
    (`rebase` and `oldest` are not)."""
    return any(token in BASELINE_WORDS for token in re.split(r"[^a-z]+", name.lower()))


def chosen_by_name(rs: ResultSet, reference: str, requested: str | None = None) -> bool:
    """Whether `reference` is the reference only because its name sorts first."""
    return (
        requested is None
        and rs.first_by_name
        and len(rs.system_names) > 1
        and reference == rs.system_names[0]
    )


def reference_note(rs: ResultSet, reference: str, keys: bool = False) -> list[str]:
    """Short lines (they fit 80 columns for names of ordinary length): the reference was
    chosen by name order, the system named like a baseline if one is, how to choose.
    `keys`: the explorer's keys are named too."""
    others = [n for n in rs.system_names if n != reference and named_like_baseline(n)]
    lines = [f"Reference {printable(reference)}: only because its name sorts first."]
    if others and not named_like_baseline(reference):
        other = printable(others[0])
        how = "press r to choose it" if keys else f"--reference {other}"
        lines.append(f"{other} is named like a baseline: {how}.")
    if keys:
        lines.append('Choose: [ ] or r; --reference NAME; reference = "NAME" in tuibench.toml')
    else:
        lines.append('Choose with --reference NAME, or reference = "NAME" in tuibench.toml.')
    return lines
