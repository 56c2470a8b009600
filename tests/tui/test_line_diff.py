"""Only changed cells are written, and the screen is the same as when every update is
written whole: checked with an independent terminal emulator (pyte) fed both ways."""

from __future__ import annotations

import random

import pyte
import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tuibench.tui import sgr
from tuibench.tui.line_diff import TerminalCopy

WIDTH, HEIGHT = 30, 6
COLORS = ColorSystem.EIGHT_BIT
STYLES = [
    None,
    Style(color="red"),
    Style(color="red", meta={"offset": (1, 2)}),  # the same look: meta is not shown
    Style(color="#ff8700", bgcolor="grey11", bold=True),
    Style(color="#ff8700", bgcolor="grey11", dim=True, bold=True),
    Style(color="#ff8700", bgcolor="grey11", dim=True),
    Style(bgcolor="blue", italic=True, underline=True),
    Style(reverse=True, strike=True),
    Style(color="default", bgcolor="default"),
]
TEXTS = ["a", "bc", " ", "   ", "│", "▼▲", "日本", "x日", "é", "e\u0301"]


def emulator() -> tuple[pyte.Screen, pyte.ByteStream]:
    screen = pyte.Screen(WIDTH, HEIGHT)
    return screen, pyte.ByteStream(screen)


def shown(screen: pyte.Screen) -> dict:
    return {(y, x): tuple(c) for y, row in screen.buffer.items() for x, c in row.items()}


def whole(pieces, console: Console) -> bytes:
    """What Textual writes for `pieces`: each whole, rendered by Textual."""
    out = [Control.move_to(x, y).segment.text + Strip(s).render(console) for x, y, s in pieces]
    return "".join(out).encode()


def random_piece(rng: random.Random, width: int = WIDTH - 1) -> tuple[int, int, list[Segment]]:
    """Up to the last column but one: pyte, unlike terminals, wraps a combining mark
    written after the last column (and scrolls on the last line)."""
    x = rng.randrange(width - 4)
    segments, cells = [], x
    for _ in range(rng.randrange(1, 8)):
        text = rng.choice(TEXTS)
        if cells + Segment(text).cell_length > width:
            break
        segments.append(Segment(text, rng.choice(STYLES)))
        cells += Segment(text).cell_length
    return x, rng.randrange(HEIGHT), segments


def run_both(rng: random.Random, updates: int = 12):
    console = Console(color_system="256", force_terminal=True, width=WIDTH)
    full_screen, full = emulator()
    diff_screen, diff = emulator()
    copy = TerminalCopy()
    written = whole_bytes = 0
    pieces = [(0, y, [Segment(" " * WIDTH)]) for y in range(HEIGHT)]
    for n in range(updates):
        if n and rng.random() > 0.3:  # else the same update again: nothing changes
            pieces = [random_piece(rng) for _ in range(rng.randrange(1, 6))]
        data = whole(pieces, console)
        full.feed(data)
        runs, rows = copy.changes(pieces, COLORS)
        out = sgr.render(runs).encode()
        copy.commit(rows, None)
        diff.feed(out)
        written, whole_bytes = written + len(out), whole_bytes + len(data)
        assert shown(diff_screen) == shown(full_screen), f"after update {n}"
    return written, whole_bytes


@pytest.mark.parametrize("seed", range(60))
def test_the_screen_is_as_if_every_update_were_written_whole(seed):
    written, whole_bytes = run_both(random.Random(seed))
    assert written <= whole_bytes


def one_line(text: str, style=None):
    return [(0, 0, [Segment(text, style)])]


def test_an_update_that_changes_nothing_writes_nothing():
    copy = TerminalCopy()
    runs, rows = copy.changes(one_line("hello world"), COLORS)
    assert runs == [(0, 0, [("hello world", sgr.PLAIN)])]
    copy.commit(rows, None)
    assert copy.changes(one_line("hello world"), COLORS)[0] == []
    # meta, or a colour the terminal shows the same, changes nothing either
    meta = Style(color="red", meta={"@click": "x"})
    copy.commit(copy.changes(one_line("hello world", Style(color="red")), COLORS)[1], None)
    assert copy.changes(one_line("hello world", meta), COLORS)[0] == []
    copy.commit(copy.changes(one_line("hello world", Style(color="#870000")), COLORS)[1], None)
    assert copy.changes(one_line("hello world", Style(color="#880101")), COLORS)[0] == []


def test_only_the_changed_cells_are_written_near_ones_together():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("a" * 40), COLORS)[1], None)
    line = "a" * 5 + "b" + "a" * 3 + "c" + "a" * 20 + "d" + "a" * 9
    runs = copy.changes(one_line(line), COLORS)[0]
    assert [(x, "".join(t for t, _ in p)) for x, _, p in runs] == [(5, "baaac"), (30, "d")]


def test_an_update_not_written_is_not_remembered():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("old"), COLORS)[1], None)
    copy.changes(one_line("new"), COLORS)  # Textual did not write it (no commit)
    assert copy.changes(one_line("old"), COLORS)[0] == []


def test_a_forgotten_copy_writes_everything_again():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("same"), COLORS)[1], None)
    copy.forget()
    assert copy.changes(one_line("same"), COLORS)[0] == [(0, 0, [("same", sgr.PLAIN)])]


def test_a_wide_character_is_never_written_by_half():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("ab日cd"), COLORS)[1], None)
    runs = copy.changes(one_line("abX cd"), COLORS)[0]  # X over the left half of 日
    assert [(x, "".join(t for t, _ in p)) for x, _, p in runs] == [(2, "X ")]


@pytest.mark.parametrize(
    ("now", "to", "expected"),
    [
        (Style(bold=True, dim=True), Style(dim=True), "\x1b[0;2m"),  # 22;2 is no shorter
        (Style(color="#ff8700", bold=True), Style(color="#ff8700"), "\x1b[22m"),
        (Style(color="red", bold=True, dim=True), Style(color="red", dim=True), "\x1b[22;2m"),
        (Style(color="red"), Style(color="red", bold=True), "\x1b[1m"),
        (Style(color="red", bgcolor="blue"), None, "\x1b[0m"),
        (Style(color="red"), Style(color="green"), "\x1b[32m"),
        (Style(underline2=True), Style(underline=True), "\x1b[0;4m"),
    ],
)
def test_a_switch_sends_what_differs(now, to, expected):
    assert sgr.switch(sgr.look(now, COLORS), sgr.look(to, COLORS)) == expected


def test_the_same_look_as_textual_renders_it():
    """Every pair of styles, switched the short way, shows as Textual's rendering shows."""
    console = Console(color_system="256", force_terminal=True, width=WIDTH)
    for first in STYLES:
        for second in STYLES:
            segments = [Segment("ab", first), Segment("cd", second), Segment("e")]
            theirs, ours = emulator(), emulator()
            theirs[1].feed(whole([(0, 0, segments)], console))
            pieces = [(s.text, sgr.look(s.style, COLORS)) for s in segments]
            ours[1].feed(sgr.render([(0, 0, pieces)]).encode())
            assert shown(ours[0]) == shown(theirs[0]), (first, second)
