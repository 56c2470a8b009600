"""Show any core `Table` (whatever its columns) with its verdict colours.

A line-API widget: only the lines on screen are drawn, so a summary of ten thousand metrics
costs what a summary of ten does. It is as tall as its rows (the pane around it scrolls
down); when it is wider than the pane it scrolls sideways while the columns that name a row
(those left of the first numeric one) stay in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tuibench.core.text import printable
from tuibench.tui.palette import Palette
from tuibench.tui.state import Node

if TYPE_CHECKING:
    from tuibench.core.tables import Table

PAD = 1  # blank cells either side of every column


MIN_NAME_WIDTH = 20  # a shortened naming column keeps at least this many cells


def cell_text(value: object) -> str:
    """A cell as plain text. Display tables hold strings; data tables may hold numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return printable(str(value))  # names are data: controls shown as \x1b


class TableView(ScrollView, can_focus=False):
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "table-view--header",
        "table-view--odd-row",
        "table-view--cursor",
    }

    DEFAULT_CSS = """
    TableView {
        width: 100%;
        height: auto;
        overflow-x: auto;
        overflow-y: hidden;
        scrollbar-size-horizontal: 1;
        & > .table-view--header {
            text-style: bold;
            background: $panel;
        }
        & > .table-view--odd-row {
            background: $foreground 4%;
        }
        & > .table-view--cursor {
            background: $accent 30%;
        }
    }
    """

    class Open(Message):
        """Enter or a click on a row that stands for a metric."""

        def __init__(self, node: Node, row: int) -> None:
            self.node, self.row = node, row
            super().__init__()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.table: Table | None = None
        # (benchmark, metric) of each row, when the rows are metrics: they open them
        self.row_nodes: list[tuple[str, str]] | None = None
        self.cursor: int | None = None
        self.fixed_columns = 0
        self._header: list[str] = []
        self._rows: list[list[str]] = []
        self._styles: list[list[Style | None]] = []
        self._widths: list[int] = []  # each column's natural width
        self._shown: list[int] = []  # as drawn: a long naming column may give way
        self._right: set[int] = set()

    # -- content --------------------------------------------------------------------------
    def show(
        self, table: Table, palette: Palette, row_nodes: list[tuple[str, str]] | None = None
    ) -> None:
        """Show `table`; with `row_nodes` (one metric per row) its rows get a cursor that
        opens them."""
        if row_nodes is not None and len(row_nodes) != len(table.rows):
            row_nodes = None
        keep = self.row_nodes[self.cursor] if self.row_nodes and self.cursor is not None else None
        self.row_nodes = row_nodes
        self.cursor = None
        if row_nodes:
            self.cursor = row_nodes.index(keep) if keep in row_nodes else 0
        self.table = table
        self._header = [cell_text(c) for c in table.columns]
        self._rows = [[cell_text(v) for v in row] for row in table.rows]
        styles: list[list[Style | None]] = [[None] * len(row) for row in table.rows]
        for (r, c), meaning in table.marks.items():
            if r < len(styles) and c < len(styles[r]):
                styles[r][c] = palette.style(meaning)
        self._styles = styles
        self._right = set(table.numeric)
        widths = [cell_len(h) for h in self._header]
        for row in self._rows:
            for c, text in enumerate(row[: len(widths)]):
                widths[c] = max(widths[c], cell_len(text))
        self._widths = widths
        self._shown = list(widths)
        self.virtual_size = Size(sum(w + 2 * PAD for w in widths), len(self._rows) + 1)
        self._fit_fixed_columns()
        self.refresh(layout=True)

    def plain_rows(self) -> list[list[str]]:
        """What the table shows, as plain strings (for tests and checks)."""
        return [list(row) for row in self._rows]

    def plain_columns(self) -> list[str]:
        return list(self._header)

    @property
    def row_count(self) -> int:
        return len(self._rows)

    # -- cursor ---------------------------------------------------------------------------
    @property
    def rows(self) -> list[int]:
        """The lines (0 is the header) that the cursor can be on."""
        return [r + 1 for r in range(len(self.row_nodes or []))]

    @property
    def cursor_node(self) -> Node | None:
        if self.row_nodes is None or self.cursor is None or self.cursor >= len(self.row_nodes):
            return None
        return Node.of_metric(*self.row_nodes[self.cursor])

    def move_cursor(self, step: int) -> bool:
        if not self.row_nodes:
            return False
        cursor = self.cursor or 0
        new = min(max(cursor + step, 0), len(self.row_nodes) - 1)
        if new == cursor and self.cursor is not None:
            return False
        self.set_cursor(new + 1)
        return True

    def set_cursor(self, line: int) -> None:
        """Put the cursor on a line (1 = the first row)."""
        if self.row_nodes and 1 <= line <= len(self.row_nodes):
            self.cursor = line - 1
            self.refresh()

    @property
    def cursor_line(self) -> int | None:
        return None if self.cursor is None else self.cursor + 1

    def open_cursor(self) -> bool:
        node = self.cursor_node
        if node is None:
            return False
        self.post_message(self.Open(node, self.cursor_line or 1))
        return True

    def on_click(self, event) -> None:
        line = event.y
        if self.row_nodes and 1 <= line <= len(self.row_nodes):
            self.set_cursor(line)
            self.open_cursor()

    # -- sideways -------------------------------------------------------------------------
    def _edges(self) -> list[int]:
        edges = [0]
        for w in self._shown[self.fixed_columns :]:
            edges.append(edges[-1] + w + 2 * PAD)
        return edges

    def _fixed_width(self) -> int:
        return sum(w + 2 * PAD for w in self._shown[: self.fixed_columns])

    def _fit_fixed_columns(self) -> None:
        """Keep the naming columns in view when the table scrolls sideways. When they would
        take more than 55% of the width, the widest is shortened from the left (the end of a
        hierarchical name tells rows apart), so numbers are on screen even at 80 columns."""
        table = self.table
        if table is None:
            return
        labels = min(table.numeric, default=len(self._widths))
        width = self.scrollable_content_region.width or self.size.width
        shown = list(self._widths)
        fixed = 0
        if width and sum(w + 2 * PAD for w in shown) > width and labels < len(shown):
            fixed = labels
            excess = sum(w + 2 * PAD for w in shown[:fixed]) - width * 55 // 100
            if excess > 0:
                widest = max(range(fixed), key=lambda c: shown[c])
                shown[widest] = max(MIN_NAME_WIDTH, shown[widest] - excess)
        if fixed != self.fixed_columns or shown != self._shown:
            self.fixed_columns = fixed
            self._shown = shown
            self.virtual_size = Size(sum(w + 2 * PAD for w in shown), len(self._rows) + 1)
            self.refresh()

    def on_resize(self) -> None:
        self._fit_fixed_columns()

    @property
    def max_scroll_x(self) -> int:
        """Scrolling stops when the last column is in view beside the fixed ones."""
        total = sum(w + 2 * PAD for w in self._shown)
        return max(0, total - self.scrollable_content_region.width)

    def scroll_columns(self, direction: int) -> None:
        """Scroll sideways by one whole column (the fixed columns stay)."""
        x = round(self.scroll_x)
        edges = self._edges()
        if direction > 0:
            target = next((e for e in edges if e > x), x)
        else:
            target = next((e for e in reversed(edges) if e < x), 0)
        self.scroll_to(x=min(target, self.max_scroll_x), animate=False)

    # -- drawing --------------------------------------------------------------------------
    def _segments(self, cells: list[str], styles: list[Style | None], base: Style, start: int):
        """Padded segments of columns `start..` of one line."""
        out = []
        for c in range(start, len(self._shown)):
            text = cells[c] if c < len(cells) else ""
            if cell_len(text) > self._shown[c]:
                text = "…" + text[len(text) - self._shown[c] + 1 :]
            pad = self._shown[c] - cell_len(text)
            text = " " * pad + text if c in self._right else text + " " * pad
            style = base + styles[c] if c < len(styles) and styles[c] else base
            out.append(Segment(" " * PAD, base))
            out.append(Segment(text, style))
            out.append(Segment(" " * PAD, base))
        return out

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            cells, styles = self._header, [None] * len(self._header)
            base = base + self.get_component_rich_style("table-view--header")
        elif y - 1 < len(self._rows):
            r = y - 1
            cells, styles = self._rows[r], self._styles[r]
            if r == self.cursor:
                base = base + self.get_component_rich_style("table-view--cursor")
            elif r % 2:
                base = base + self.get_component_rich_style("table-view--odd-row")
        else:
            return Strip.blank(width, self.rich_style)
        fixed = self.fixed_columns
        head: list[Segment] = []
        if fixed:
            bold = base + Style(bold=True)
            head = self._segments(cells[:fixed], styles[:fixed], bold, 0)
            head = head[: 3 * fixed]
        tail = Strip(self._segments(cells, styles, base, fixed))
        fixed_width = self._fixed_width()
        x = round(self.scroll_x)
        tail = tail.crop(x, x + max(0, width - fixed_width))
        strip = Strip.join([Strip(head), tail]) if head else tail
        return strip.extend_cell_length(width, base).crop(0, width)
