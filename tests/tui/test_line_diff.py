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
    """Every cell as the eye sees it: a space without a line or reverse video shows only
    its background. (pyte's insert-characters keeps a cell past the right edge: not shown.)"""
    rows = screen.buffer.items()
    return {(y, x): seen(c) for y, row in rows for x, c in row.items() if x < screen.columns}


def seen(c) -> tuple:
    if c.data == " " and not (c.underscore or c.strikethrough or c.reverse):
        return (" ", c.bg)
    return tuple(c)


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


def run_both(rng: random.Random, updates: int = 12, new_pieces=None, shortcuts=False):
    """`shortcuts`: the terminal takes line feeds as such and erases in colour, and each
    update starts where the one before left the cursor and leaves it somewhere."""
    new_pieces = new_pieces or (lambda: [random_piece(rng) for _ in range(rng.randrange(1, 6))])
    console = Console(color_system="256", force_terminal=True, width=WIDTH)
    full_screen, full = emulator()
    diff_screen, diff = emulator()
    copy = TerminalCopy()
    copy.line_feed = copy.erase = shortcuts
    written = whole_bytes = 0
    pieces = [(0, y, [Segment(" " * WIDTH)]) for y in range(HEIGHT)]
    for n in range(updates):
        if n and rng.random() > 0.3:  # else the same update again: nothing changes
            pieces = new_pieces()
        data = whole(pieces, console)
        full.feed(data)
        runs, rows = copy.changes(pieces, COLORS, WIDTH)
        cursor = (rng.randrange(WIDTH), rng.randrange(HEIGHT))
        terminal = copy.terminal(cursor) if shortcuts else None
        out, look = sgr.render(runs, copy.sgr_look(), WIDTH if shortcuts else None, terminal)
        copy.commit(rows, cursor if shortcuts else None, look)
        diff.feed(out.encode())
        if shortcuts:
            assert (diff_screen.cursor.x, diff_screen.cursor.y) == cursor
        written, whole_bytes = written + len(out), whole_bytes + len(data)
        assert shown(diff_screen) == shown(full_screen), f"after update {n}"
    return written, whole_bytes


@pytest.mark.parametrize("shortcuts", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_the_screen_is_as_if_every_update_were_written_whole(seed, shortcuts):
    written, whole_bytes = run_both(random.Random(seed), shortcuts=shortcuts)
    assert written <= whole_bytes


def shifted_lines(rng: random.Random, lines: dict) -> list:
    """Lines to the right edge, each the one before with a few cells put in or taken out
    (as a footer's word that grows moves the rest of the line)."""
    pieces = []
    for _ in range(rng.randrange(1, 4)):
        y = rng.randrange(HEIGHT)
        segments = lines.get(y) or [Segment(rng.choice(TEXTS[:-1]), rng.choice(STYLES))]
        segments = list(segments)
        at = rng.randrange(len(segments) + 1)
        if rng.random() < 0.5 or len(segments) < 2:
            segments.insert(at, Segment(rng.choice(TEXTS[:-1]), rng.choice(STYLES)))
        else:
            del segments[min(at, len(segments) - 1)]
        while Segment.get_line_length(segments) < WIDTH:  # filled up to the right edge
            segments.append(Segment(rng.choice(TEXTS[:-1]), rng.choice(STYLES)))
        line = Strip(segments).crop(0, WIDTH)
        if line.cell_length < WIDTH:  # a wide character did not fit at the edge
            line = Strip([*line, Segment(" " * (WIDTH - line.cell_length))])
        lines[y] = list(line)
        pieces.append((0, y, list(line)))
    return pieces


@pytest.mark.parametrize("shortcuts", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_lines_moved_sideways_by_the_terminal_show_as_written_whole(seed, shortcuts):
    rng = random.Random(seed)
    lines: dict = {}
    written, whole_bytes = run_both(rng, 16, lambda: shifted_lines(rng, lines), shortcuts)
    assert written <= whole_bytes


@pytest.mark.parametrize("line_feed", [False, True])
def test_every_cursor_move_lands_where_asked(line_feed):
    """Each form (up/down, line feeds, back spaces, carriage return, column absolute,
    outright) from every cell to every cell of a screen: the emulator's cursor lands."""
    width, height = 120, 12
    screen = pyte.Screen(width, height)
    stream = pyte.ByteStream(screen)
    forms = set()
    for ay in range(height):
        for ax in (0, 1, 3, 9, 10, 57, 100, 119):
            for y in range(height):
                for x in (0, 1, 2, 5, 8, 9, 10, 11, 60, 99, 119):
                    stream.feed(f"\x1b[{ay + 1};{ax + 1}H".encode())
                    step = sgr.move((ax, ay), x, y, line_feed)
                    stream.feed(step.encode())
                    assert (screen.cursor.x, screen.cursor.y) == (x, y), repr(step)
                    forms.update(c for c in "\n\r\bABCDGH" if c in step)
    assert forms >= set("\r\bABCDGH") | ({"\n"} if line_feed else set())
    assert sgr.move((5, 3), 5, 4, line_feed=True) == "\n"
    assert sgr.move((100, 0), 5, 0) == "\x1b[6G"
    assert sgr.move((70, 2), 0, 3, line_feed=True) == "\n\r"


def test_blanks_are_erased_where_shorter():
    """Trailing blanks of a piece: erased (ECH; EL at the right edge) in the background
    set, the cursor moved on past them when more follows; a few are written."""
    copy = TerminalCopy()
    copy.erase = copy.line_feed = True
    blue = Style(bgcolor="blue")
    line = [Segment("ab" + " " * 12, blue), Segment("cd", Style(color="red")), Segment(" " * 6)]
    runs, _ = copy.changes([(0, 0, line)], COLORS, 22)
    out, _ = sgr.render(runs, None, 22, copy.terminal((0, 1)))
    assert out == "\x1b[1;1H\x1b[0;44mab\x1b[12X\x1b[12C\x1b[0;31mcd\x1b[K\n\r"
    screen, stream = emulator()
    stream.feed(b"\x1b[45m" + b"x" * WIDTH + out.encode())
    theirs, their_stream = emulator()
    console = Console(color_system="256", force_terminal=True, width=WIDTH)
    their_stream.feed(whole([(0, 0, line)], console))
    # (the cells past the update's 22 are the emulator's, not the update's)
    assert [shown(screen)[0, x] for x in range(22)] == [shown(theirs)[0, x] for x in range(22)]
    # an underline shows on blanks: written
    copy.forget()
    runs, _ = copy.changes([(0, 0, [Segment("a" + " " * 10, Style(underline=True))])], COLORS)
    assert "X" not in sgr.render(runs, None, None, copy.terminal((0, 0)))[0]


def test_a_line_whose_end_moved_is_moved_by_the_terminal():
    copy = TerminalCopy()
    before = "f only: off │ s natural order │ ] next ref  y copy "
    after = "f only: on │ s natural order │ ] next ref  y copy  "
    copy.commit(copy.changes(one_line(before), COLORS, len(before))[1], None, None)
    runs = copy.changes(one_line(after), COLORS, len(after))[0]
    # one cell deleted after "o", "n" written over the first "f", the last cell again
    assert runs[0] == (9, 0, "\x1b[P")
    assert [(x, "".join(t for t, _ in p)) for x, _, p in runs[1:]] == [(9, "n"), (50, " ")]
    # not at a piece that ends before the right edge: the cells beyond would move too
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line(before), COLORS, len(before) + 1)[1], None, None)
    runs = copy.changes(one_line(after), COLORS, len(after) + 1)[0]
    assert all(not isinstance(p, str) for _, _, p in runs)


def test_spaces_are_written_in_the_look_before_them():
    """A space shows only its background: a change of colour under spaces writes nothing,
    and spaces after a coloured word need no switch of colour."""
    red, green = Style(color="red", bgcolor="blue"), Style(color="green", bgcolor="blue")
    copy = TerminalCopy()
    line = [Segment("ab", red), Segment("   ", green), Segment("cd", red)]
    runs, rows = copy.changes([(0, 0, line)], COLORS)
    out, look = sgr.render(runs, None)
    assert out == "\x1b[1;1H\x1b[0;31;44mab   cd"
    copy.commit(rows, None, look)
    line = [Segment("ab", red), Segment("   ", Style(color="yellow", bgcolor="blue"))]
    assert copy.changes([(0, 0, [*line, Segment("cd", red)])], COLORS)[0] == []


def one_line(text: str, style=None):
    return [(0, 0, [Segment(text, style)])]


def test_an_update_that_changes_nothing_writes_nothing():
    copy = TerminalCopy()
    runs, rows = copy.changes(one_line("hello world"), COLORS)
    assert runs == [(0, 0, [("hello world", sgr.PLAIN)])]
    copy.commit(rows, None, None)
    assert copy.changes(one_line("hello world"), COLORS)[0] == []
    # meta, or a colour the terminal shows the same, changes nothing either
    meta = Style(color="red", meta={"@click": "x"})
    copy.commit(copy.changes(one_line("hello world", Style(color="red")), COLORS)[1], None, None)
    assert copy.changes(one_line("hello world", meta), COLORS)[0] == []
    copy.commit(
        copy.changes(one_line("hello world", Style(color="#870000")), COLORS)[1], None, None
    )
    assert copy.changes(one_line("hello world", Style(color="#880101")), COLORS)[0] == []


def test_only_the_changed_cells_are_written_near_ones_together():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("a" * 40), COLORS)[1], None, None)
    line = "a" * 5 + "b" + "a" * 3 + "c" + "a" * 20 + "d" + "a" * 9
    runs = copy.changes(one_line(line), COLORS)[0]
    assert [(x, "".join(t for t, _ in p)) for x, _, p in runs] == [(5, "baaac"), (30, "d")]


def test_an_update_not_written_is_not_remembered():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("old"), COLORS)[1], None, None)
    copy.changes(one_line("new"), COLORS)  # Textual did not write it (no commit)
    assert copy.changes(one_line("old"), COLORS)[0] == []


def test_a_forgotten_copy_writes_everything_again():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("same"), COLORS)[1], None, None)
    copy.forget()
    assert copy.changes(one_line("same"), COLORS)[0] == [(0, 0, [("same", sgr.PLAIN)])]


def test_a_wide_character_is_never_written_by_half():
    copy = TerminalCopy()
    copy.commit(copy.changes(one_line("ab日cd"), COLORS)[1], None, None)
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
            ours[1].feed(sgr.render([(0, 0, pieces)], None)[0].encode())
            assert shown(ours[0]) == shown(theirs[0]), (first, second)
