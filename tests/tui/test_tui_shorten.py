"""Names cut to fit stay distinct: two rows never read the same."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tuibench.tui import format as format_module
from tuibench.tui.format import shorten_distinct

FIO = [f"fio/randwrite/{size}/qd:1 throughput" for size in ("4k", "16k", "64k", "128k")]


def test_names_a_middle_cut_makes_alike_are_told_apart():
    for width in (6, 10, 14, 20, 24, 30):
        forms = shorten_distinct([*FIO, "pgbench/ro/clients:8 tps"], width)
        cut = [forms.get(n, n) for n in FIO]
        assert len(set(cut)) == len(FIO), (width, cut)
        assert all(len(c) <= width for c in cut)
        assert all(c.endswith("throughput") for c in cut) or width < 24


def test_a_name_that_fits_is_left_alone_and_unique_names_keep_the_middle_cut():
    forms = shorten_distinct(["short", "pgbench/ro/clients:8 tps"], 12)
    assert "short" not in forms
    assert forms["pgbench/ro/clients:8 tps"] == "pgbe…s:8 tps"


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.text(alphabet="ab/:-_x", min_size=1, max_size=40), min_size=2, max_size=8),
    st.integers(min_value=3, max_value=30),
)
def test_distinct_names_stay_distinct_within_the_width(names, width):
    forms = shorten_distinct(names, width)
    shown = {n: forms.get(n, n) for n in set(names)}
    assert all(len(s) <= width for n, s in shown.items() if len(n) > width)
    # Distinct whenever the width leaves room for where they differ (3 cells: …x…).
    assert len(set(shown.values())) == len(shown)


def _apart_every_pair(group: list[str], width: int) -> dict[str, str]:
    """The window of `_apart` as first written: each text against every other."""
    forms = {}
    for t in group:
        at = min(format_module._first_difference(t, u) for u in group if u != t)
        start = min(max(0, at - 1 - (width - 3) // 2), len(t) - width)
        end = start + width - 1
        first = "…" if start > 0 else t[0]
        last = "…" if end < len(t) - 1 else t[end]
        forms[t] = first + t[start + 1 : end] + last
    return forms


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="ab/1é", min_size=12, max_size=40), min_size=2, max_size=30),
    st.integers(min_value=3, max_value=11),
)
def test_the_window_against_the_ends_is_the_window_against_every_other(texts, width):
    group = sorted({t for t in texts if len(t) > width})
    assume(len(group) > 1)
    # Only the window's path: no single cut may tell them apart.
    monkey = pytest.MonkeyPatch()
    monkey.setattr(format_module, "_cut", lambda t, head, w: "same")
    try:
        assert format_module._apart(group, width) == _apart_every_pair(group, width)
    finally:
        monkey.undo()
