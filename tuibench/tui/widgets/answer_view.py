"""The first screen: per system against the reference, the counts and the significant
changes worst first, one per line, each line opening its metric.

A line-API widget drawn from plain strings (tui/content/answer_lines.py): a line is cheap
whatever the number of metrics, and the columns are sized from the strings' lengths (no
Rich measuring). Numbers come first after the glyph, so they are never cut; the name takes
what is left, shortened in the middle.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tuibench.tui.content.answer_lines import Line
from tuibench.tui.format import shorten_distinct, shorten_middle
from tuibench.tui.palette import Palette
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.repaint import PaintedWhole


class AnswerView(PaintedWhole, ScrollView, can_focus=False):
    """The answer, with a cursor on the change lines; the pane around it scrolls."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"answer-view--cursor"}
    DEFAULT_CSS = """
    AnswerView {
        width: 100%;
        height: auto;
        overflow: hidden hidden;
        & > .answer-view--cursor {
            background: $accent 30%;
        }
    }
    """

    class Open(Message):
        def __init__(self, node: Node, row: int) -> None:
            self.node, self.row = node, row
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Line] = []
        self.cursor: int | None = None
        self._widths: list[int] = []
        self._shortened: dict[int, dict[str, str]] = {}
        self._palette: Palette | None = None
        self._key: object = None

    def show(self, lines: list[Line], palette: Palette, key: object) -> None:
        """Show `lines` (made for `key`: the same key keeps the cursor)."""
        if key == self._key and palette is self._palette:
            return
        keep = self.cursor_node
        self._key, self._palette = key, palette
        self.lines = lines
        widths = [0] * 6
        for line in self.lines:
            if line.cells:
                widths = [max(w, len(c)) for w, c in zip(widths, line.cells, strict=False)]
        self._widths = widths
        self._shortened = {}  # width -> the names cut to it
        rows = self.rows
        self.cursor = None
        if rows:
            self.cursor = next((i for i in rows if self.lines[i].node == keep), rows[0])
        self.virtual_size = Size(self.size.width, len(self.lines))
        self.refresh(layout=True)

    # -- cursor ---------------------------------------------------------------------------
    @property
    def rows(self) -> list[int]:
        return [i for i, line in enumerate(self.lines) if line.node is not None]

    @property
    def cursor_line(self) -> int | None:
        return self.cursor

    @property
    def cursor_node(self) -> Node | None:
        if self.cursor is None or self.cursor >= len(self.lines):
            return None
        return self.lines[self.cursor].node

    def move_cursor(self, step: int) -> bool:
        """Move to the next (or previous) change line; False when there is none."""
        rows = self.rows
        if not rows:
            return False
        i = rows.index(self.cursor) if self.cursor in rows else 0
        j = min(max(i + step, 0), len(rows) - 1)
        if j == i and self.cursor in rows:
            return False
        self.set_cursor(rows[j])
        return True

    def set_cursor(self, line: int) -> None:
        if 0 <= line < len(self.lines) and self.lines[line].node is not None:
            old, self.cursor = self.cursor, line
            # only the two lines that change: over SSH a move is then a few hundred bytes
            for y in {old, line}:
                if y is not None:
                    self.refresh_lines(y)

    def open_cursor(self) -> bool:
        node = self.cursor_node
        if node is None:
            return False
        self.post_message(self.Open(node, self.cursor or 0))
        return True

    def on_click(self, event) -> None:
        line = event.y + round(self.scroll_y)
        if 0 <= line < len(self.lines) and self.lines[line].node is not None:
            self.set_cursor(line)
            self.open_cursor()

    # -- drawing --------------------------------------------------------------------------
    def on_resize(self) -> None:
        self._drop_painted()

    def render_line(self, y: int) -> Strip:
        self.painted()
        width = self.scrollable_content_region.width or self.size.width
        base = self.line_style
        if y >= len(self.lines):
            return Strip.blank(width, base)
        line = self.lines[y]
        if y == self.cursor:
            base = base + self.get_component_rich_style("answer-view--cursor")
        if line.cells is None:
            named = self._palette.named if self._palette else lambda _name: None
            segments = [Segment(t, base + named(s)) for t, s in line.parts]
        else:
            segments = self._change(line, width, base)
        return Strip(segments).extend_cell_length(width, base).crop(0, width)

    def _shortened_name(self, name: str, room: int) -> str:
        """`name` cut to `room` cells, still distinct from the other names listed."""
        forms = self._shortened.get(room)
        if forms is None:
            names = [line.cells[6] for line in self.lines if line.cells and len(line.cells) > 6]
            forms = self._shortened[room] = shorten_distinct(names, room)
        return forms.get(name) or shorten_middle(name, room)

    def _change(self, line: Line, width: int, base: Style) -> list[Segment]:
        palette = self._palette
        glyph, size, interval, p, verdict, marks, name, note = line.cells or [""] * 8
        w = self._widths
        if line.node is None:  # the column heads
            style = name_style = base + Style(dim=True)
        else:
            style = base + palette.style(line.verdict) if palette else base
            name_style = base
        numbers = f"{size:>{w[1]}} {interval:<{w[2]}}  {p:<{w[3]}}  {verdict:<{w[4]}}  "
        marks = f"{marks:<{w[5]}}  " if w[5] else ""
        room = max(8, width - 5 - len(numbers) - len(marks) - len(note))
        warning = base + palette.warning_style if palette else base
        return [
            Segment(f"   {glyph} ", style),
            Segment(numbers, style),
            Segment(marks, warning),
            Segment(self._shortened_name(name, room), name_style),
            Segment(note, base + Style(dim=True)),
        ]
