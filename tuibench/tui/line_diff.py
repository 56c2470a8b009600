"""Write to the terminal only the cells that change. Textual repaints a whole region when a
pane changes (a new table, a reflow) even where most of its cells look as before; over SSH
each repainted cell is bytes on the link. This keeps a copy of what the terminal shows, cell
by cell, as it was written, and turns an update into the runs of cells that differ from it.

Pure: styled segments in, runs of segments out. The Textual side (which updates, where they
come from, when the terminal's content is lost) is in `textual_adapter.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import compress, groupby, islice, pairwise, repeat
from operator import itemgetter, ne

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style

from tuibench.tui import sgr

# A cell nobody knows: never equal to a real one, so it is always written.
UNKNOWN = (None, None)
# Unchanged cells between two changed runs of a line are written again when that takes no
# more bytes than moving over them (ESC [ n C) and no change of colours: at most GAP cells.
GAP = 6
MOVE_BYTES = 4
# A line's end that moved sideways by up to this many cells (a word of the footer grew) is
# moved by the terminal (insert or delete characters: 3 to 5 bytes), not written again,
# when that saves more than SHIFT_COST cells.
MAX_SHIFT = 8
SEGMENTS_KEPT = 20_000  # segments whose cells are kept (a few screens' worth)
SHIFT_COST = 8
Cell = tuple  # (text, look): text "" is the right half of a wide character
Piece = tuple[int, int, Iterable[Segment]]  # (x, y, segments) as Textual writes them
# (x, y, [(text, look)]), or (x, y, a control sequence sent there)
Run = tuple[int, int, list[tuple[str, sgr.Look]] | str]


class TerminalCopy:
    """What the terminal shows, as written through `changes`; `forget` when it is lost
    (a resize, a suspend: the terminal may have changed cells nobody wrote)."""

    def __init__(self) -> None:
        self._rows: dict[int, list[Cell]] = {}
        self._stale = True
        self._looks: dict[Style | None, tuple[sgr.Look, sgr.Look]] = {}
        self._segment_cells: dict[Segment, tuple[Cell, ...]] = {}  # (by text and style)
        self._color_system: ColorSystem | None = None
        self.cursor: object = None  # where the last update left the (hidden) cursor
        self.look: sgr.Look | None = None  # the SGR look the last update left; None: unknown
        self.size: object = None  # of the last whole-screen update
        # set by the driver: the terminal's line feed only moves down; it erases in colour
        self.line_feed = self.erase = False
        # the absolute move the app appends to an update that moved the cursor there already
        self.tail: str | None = None
        # The terminal shows a replayed frame (terminal/first_frame.py): the first screen's
        # updates are held back until a release (textual_adapter.release).
        self.held = False

    def forget(self) -> None:
        # may run in a signal handler: assignments, read by the next `changes`; a frame
        # replayed is lost with the rest (a resize), so it holds nothing back any more
        self._stale = True
        self.held = False

    def changes(
        self, pieces: Iterable[Piece], color_system: ColorSystem, width: int | None = None
    ) -> tuple[list[Run], dict]:
        """The runs to write for `pieces` (on a screen `width` cells wide, when known), and
        the rows to `commit` once they are written."""
        if color_system != self._color_system:
            self._color_system, self._looks = color_system, {}
            self._segment_cells = {}
            self._stale = True
        if self._stale:
            self._stale = False
            self._rows = {}
            self.cursor = self.look = None
        runs: list[Run] = []
        rows: dict[int, list[Cell]] = {}  # this update's rows, as they will be
        for x, y, segments in pieces:
            cells = self._cells(segments)
            if y not in rows:
                rows[y] = list(self._rows.get(y, ()))
            row = rows[y]
            end = x + len(cells)
            if len(row) < end:
                row.extend(repeat(UNKNOWN, end - len(row)))
            old = row[x:end]
            if old == cells:
                continue
            moved = old
            if end == width:  # the terminal can move the rest of the line
                shift, moved = _shifted(old, cells)
                if shift is not None:
                    runs.append((x + shift[0], y, shift[1]))
            for start, stop in _changed(moved, cells):
                runs.append((x + start, y, _pieces(cells[start:stop])))
            _halves_lost(row, x, end, old, cells)
            row[x:end] = cells
        return runs, rows

    def commit(self, rows: dict, cursor: object, look: sgr.Look | None) -> None:
        """The runs were written, leaving the terminal in SGR `look`: it now shows them."""
        if self._stale:  # lost meanwhile: the next update writes everything anyway
            return
        self._rows.update(rows)
        self.cursor, self.look = cursor, look

    def sgr_look(self) -> sgr.Look | None:
        """The SGR look the terminal is in, as far as known."""
        return None if self._stale else self.look

    def terminal(self, cursor: tuple[int, int]) -> sgr.Terminal:
        """How the next update starts (the cursor where the last one left it, when known)
        and that it leaves the cursor at `cursor`."""
        start = None if self._stale else self.cursor
        return sgr.Terminal(start, cursor, self.line_feed, self.erase)  # type: ignore[arg-type]

    def _look(self, style: Style | None) -> tuple[sgr.Look, sgr.Look]:
        """What of a style reaches the terminal (not its meta, not colours the terminal
        shows the same), and what of it a space shows."""
        looks = self._looks.get(style)
        if looks is None:
            if len(self._looks) > 4096:  # meta makes many styles; keep the cache small
                self._looks.clear()
            assert self._color_system is not None  # set by the update that asks for looks
            look = sgr.look(style, self._color_system)
            looks = self._looks[style] = (look, sgr.blank(look))
        return looks

    def _cells(self, segments: Iterable[Segment]) -> list[Cell]:
        """The cells of `segments`, each segment's taken from the last updates' when it was
        seen (Textual keeps its lines' segments: most recur from update to update)."""
        cells: list[Cell] = []
        extend = cells.extend
        known = self._segment_cells
        for segment in segments:
            if segment[2]:  # a control
                continue
            found = known.get(segment)
            if found is None:
                if len(known) > SEGMENTS_KEPT:
                    known.clear()
                found = known[segment] = self._segment_cells_of(segment[0], segment[1])
            extend(found)
        return cells

    def _segment_cells_of(self, text: str, style: Style | None) -> tuple[Cell, ...]:
        """A space is kept with its blank look: a change of foreground under spaces
        changes nothing on the screen, and a space can be written in the look before it."""
        look, blank = self._look(style)
        chars = text if text.isascii() else _chars(text)
        if blank is look or " " not in text:
            return tuple(zip(chars, repeat(look)))
        if not text.strip(" "):
            return tuple(zip(chars, repeat(blank)))
        return tuple((char, blank if char == " " else look) for char in chars)


@lru_cache(maxsize=4096)
def _chars(text: str) -> tuple[str, ...]:
    """A text's cells: a wide character takes two (the second ""), a combining mark joins
    the cell before it."""
    chars: list[str] = []
    for char in text:
        width = get_character_cell_size(char)
        if width == 0:
            if chars:
                chars[-1] += char
        else:
            chars.append(char)
            if width == 2:
                chars.append("")
    return tuple(chars)


def _changed(old: list[Cell], new: list[Cell]) -> list[tuple[int, int]]:
    """Runs [start, stop) of `new` that differ from `old`, near ones joined. A wide
    character's two cells change together, so a run never cuts one in two."""
    differ = list(map(ne, old, new))
    if all(differ):
        return [(0, len(new))]
    runs: list[list[int]] = []
    # a stretch of changed (or same) cells at a time, found without a loop per cell: a
    # repainted pane changes thousands
    n = len(differ)
    edges = [0, *compress(range(1, n), map(ne, differ, islice(differ, 1, None))), n]
    for i, end in pairwise(edges):
        if not differ[i]:
            continue
        if runs and i - runs[-1][1] <= GAP and _written_through(new, runs[-1][1], i):
            runs[-1][1] = end
        else:
            runs.append([i, end])
    return [(start, stop) for start, stop in runs]


def _written_through(cells: list[Cell], start: int, stop: int) -> bool:
    """Whether the unchanged cells [start, stop) cost no more written again than moved
    over: their text's bytes at most a move's, in the look of the cell before them."""
    look = cells[start - 1][1]
    size = 0
    for text, seen in cells[start:stop]:
        if seen != look and not (
            seen[0] is None and look[0] is not None and sgr.shows_as(look, seen)
        ):
            return False
        size += len(text) if text.isascii() else len(text.encode())
    return size <= MOVE_BYTES


def _shifted(old: list[Cell], new: list[Cell]) -> tuple[tuple[int, str] | None, list[Cell]]:
    """When the end of a line moved sideways: where and how the terminal moves it (delete
    or insert characters from the first changed cell), and the cells it then shows (those
    it blanks unknown). Else None and `old`."""
    differ = list(map(ne, old, new))
    count = sum(differ)
    if count <= SHIFT_COST:
        return None, old
    at = differ.index(True)
    # no wide character that might be cut in two (nor an unknown cell): every text set
    if not all(map(itemgetter(0), old[at:])):
        return None, old
    best: tuple[int, int, str] = (count - SHIFT_COST, 0, "")
    n = len(old)
    probe = (at + n) // 2  # a cell that a moved end moves, checked before counting them
    for d in range(1, min(MAX_SHIFT, n - at - 1) + 1):
        # cells deleted at `at`, the rest moved left; or blanks inserted, the rest right
        if probe + d < n and new[probe] == old[probe + d]:
            left = sum(map(ne, old[at + d :], new[at : n - d])) + d
            if left < best[0]:
                best = (left, d, "P")
        if probe + d < n and new[probe + d] == old[probe]:
            right = sum(map(ne, old[at : n - d], new[at + d :])) + d
            if right < best[0]:
                best = (right, d, "@")
    _, d, final = best
    if not d:
        return None, old
    if final == "P":
        moved = old[:at] + old[at + d :] + [UNKNOWN] * d
    else:
        moved = old[:at] + [UNKNOWN] * d + old[at : n - d]
    return (at, f"\x1b[{d if d > 1 else ''}{final}"), moved


def _halves_lost(row: list[Cell], x: int, end: int, old: list[Cell], new: list[Cell]) -> None:
    """Writing over half of a wide character outside the piece may blank its other half:
    those cells are unknown from now on."""
    if x > 0 and old and old[0][0] == "":
        row[x - 1] = UNKNOWN
    if end < len(row) and row[end][0] == "" and new and new[-1] != old[-1]:
        row[end] = UNKNOWN


def _pieces(cells: list[Cell]) -> list[tuple[str, sgr.Look]]:
    """Cells back to text, one piece per stretch of the same look; spaces join the piece
    beside them when they look the same in its look."""
    text = itemgetter(0)
    pieces: list[tuple[str, sgr.Look]] = []
    for look, group in groupby(cells, itemgetter(1)):
        chars = "".join(map(text, group))
        if pieces:
            before, was = pieces[-1]
            if look == was or (look[0] is None and sgr.shows_as(was, look)):
                pieces[-1] = (before + chars, was)
                continue
            if was[0] is None and sgr.shows_as(look, was):
                pieces[-1] = (before + chars, look)
                continue
        pieces.append((chars, look))
    return pieces
