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
from itertools import compress, groupby, repeat
from operator import itemgetter, ne

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style

from tuibench.tui import sgr

# A cell nobody knows: never equal to a real one, so it is always written.
UNKNOWN = (None, None)
# Unchanged cells between two changed runs of a line are written again when there are at
# most this many: a cursor move costs 6 to 10 bytes.
GAP = 6
Cell = tuple  # (text, look): text "" is the right half of a wide character
Piece = tuple[int, int, Iterable[Segment]]  # (x, y, segments) as Textual writes them
Run = tuple[int, int, list[tuple[str, sgr.Look]]]  # (x, y, [(text, look)])


class TerminalCopy:
    """What the terminal shows, as written through `changes`; `forget` when it is lost
    (a resize, a suspend: the terminal may have changed cells nobody wrote)."""

    def __init__(self) -> None:
        self._rows: dict[int, list[Cell]] = {}
        self._stale = True
        self._looks: dict[Style | None, sgr.Look] = {}
        self._color_system: ColorSystem | None = None
        self.cursor: object = None  # where the last update left the (hidden) cursor
        self.size: object = None  # of the last whole-screen update

    def forget(self) -> None:
        # may run in a signal handler: one assignment, read by the next `changes`
        self._stale = True

    def changes(self, pieces: Iterable[Piece], color_system: ColorSystem) -> tuple[list[Run], dict]:
        """The runs to write for `pieces`, and the rows to `commit` once they are written."""
        if color_system != self._color_system:
            self._color_system, self._looks = color_system, {}
            self._stale = True
        if self._stale:
            self._stale = False
            self._rows = {}
            self.cursor = None
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
            for start, stop in _changed(old, cells):
                runs.append((x + start, y, _pieces(cells[start:stop])))
            _halves_lost(row, x, end, old, cells)
            row[x:end] = cells
        return runs, rows

    def commit(self, rows: dict, cursor: object) -> None:
        """The runs were written: the terminal now shows them."""
        if self._stale:  # lost meanwhile: the next update writes everything anyway
            return
        self._rows.update(rows)
        self.cursor = cursor

    def _look(self, style: Style | None) -> sgr.Look:
        """What of a style reaches the terminal (not its meta, not colours the terminal
        shows the same)."""
        look = self._looks.get(style)
        if look is None:
            if len(self._looks) > 4096:  # meta makes many styles; keep the cache small
                self._looks.clear()
            assert self._color_system is not None  # set by the update that asks for looks
            look = self._looks[style] = sgr.look(style, self._color_system)
        return look

    def _cells(self, segments: Iterable[Segment]) -> list[Cell]:
        cells: list[Cell] = []
        extend = cells.extend
        for text, style, control in segments:
            if not control:
                extend(zip(text if text.isascii() else _chars(text), repeat(self._look(style))))
        return cells


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
    for i in compress(range(len(new)), differ):
        if runs and i - runs[-1][1] <= GAP:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    return [(start, stop) for start, stop in runs]


def _halves_lost(row: list[Cell], x: int, end: int, old: list[Cell], new: list[Cell]) -> None:
    """Writing over half of a wide character outside the piece may blank its other half:
    those cells are unknown from now on."""
    if x > 0 and old and old[0][0] == "":
        row[x - 1] = UNKNOWN
    if end < len(row) and row[end][0] == "" and new and new[-1] != old[-1]:
        row[end] = UNKNOWN


def _pieces(cells: list[Cell]) -> list[tuple[str, sgr.Look]]:
    """Cells back to text, one piece per stretch of the same look."""
    text = itemgetter(0)
    return [("".join(map(text, group)), look) for look, group in groupby(cells, itemgetter(1))]
