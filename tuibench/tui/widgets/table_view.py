"""Show any core `Table` (whatever its columns) with its verdict colours.

A line-API widget: only the lines on screen are drawn, so a summary of ten thousand metrics
costs what a summary of ten does. It is as tall as its rows (the pane around it scrolls
down); when it is wider than the pane it scrolls sideways while the columns that name a row
(those left of the first numeric one) stay in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tuibench.tui.format import compact_cell, shorten_distinct, shorten_middle, text_width
from tuibench.tui.palette import Palette
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.repaint import PaintedWhole
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.present.summary_window import WindowedTable
    from tuibench.present.tables import Table

PAD = 1  # blank cells either side of every column


MIN_NAME_WIDTH = 20  # a shortened naming column keeps at least this many cells
LAYOUTS_KEPT = 4  # tables whose layouts are kept for showing again


def cell_text(value: object) -> str:
    """A cell as plain text. Display tables hold strings; data tables may hold numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return printable(str(value))  # names are data: controls shown as \x1b


class TableView(PaintedWhole, ScrollView, can_focus=False):
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

    class SortBy(Message):
        """A click on a column's header: order by that column."""

        def __init__(self, column: str) -> None:
            self.column = column
            super().__init__()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.table: Table | None = None
        self._palette: Palette | None = None
        self._sorted_by: str | None = None
        self._compact = False
        self._full: tuple = ([], [], [], set(), [])
        self._short: tuple | None = None
        # The layouts of the last tables shown, by (table, palette, sorted column): a table
        # shown again (a node stepped back to, `v` twice) is not formatted again, row by row.
        self._layouts: dict[tuple, list] = {}
        self._kept: list = [None, self._full, None]
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
        self.width_hint = 0  # the width it will have when shown (set by its pane)

    # -- content --------------------------------------------------------------------------
    def show(
        self,
        table: Table,
        palette: Palette,
        row_nodes: list[tuple[str, str]] | None = None,
        sorted_by: str | None = None,
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
        self._palette = palette
        self._sorted_by = sorted_by
        self._compact = False
        key = (id(table), id(palette), sorted_by)
        kept = self._layouts.pop(key, None)
        if kept is None or kept[0] is not table:  # (an id may be taken again)
            # the compact layout is made when first needed
            kept = [table, self._layout(table, palette, compact=False), None]
        self._layouts[key] = self._kept = kept
        while len(self._layouts) > LAYOUTS_KEPT:
            del self._layouts[next(iter(self._layouts))]
        _, self._full, self._short = kept
        self._use(self._full)
        self.fit_to()
        self.refresh(layout=True)

    def _layout(self, table: Table, palette: Palette, compact: bool) -> tuple:
        """(header, rows, styles, right-aligned columns, widths) of `table`.

        Compact (the mmtests layout on a narrow screen): without the Amean/Hmean column and
        the reference's `(0.00%)`, cells as `1395.0 -9.5%*`."""
        from tuibench.present.summary_window import WindowedTable  # loaded with the core

        if isinstance(table, WindowedTable):
            return self._window_layout(table, palette, compact)
        header = [cell_text(c) for c in table.columns]
        rows = [[cell_text(v) for v in row] for row in table.rows]
        styles: list[list[Style | None]] = [[None] * len(row) for row in table.rows]
        for (r, c), meaning in table.marks.items():
            if r < len(styles) and c < len(styles[r]):
                styles[r][c] = palette.style(meaning)
        right = set(table.numeric)
        if compact:
            rows = [
                [row[1]] + [compact_cell(cell, c == 2) for c, cell in enumerate(row) if c >= 2]
                for row in rows
            ]
            header, styles = header[1:], [row[1:] for row in styles]
            right = {c - 1 for c in right if c >= 1}
        header = [f"{h} ↓" if h and h == self._sorted_by else h for h in header]
        widths = [text_width(h) for h in header]
        for row in rows:
            for c, text in enumerate(row[: len(widths)]):
                w = text_width(text)
                if w > widths[c]:
                    widths[c] = w
        return header, rows, styles, right, widths

    def _window_layout(self, table: WindowedTable, palette: Palette, compact: bool) -> tuple:
        """The layout of a table whose rows are formatted when read: rows and styles made
        for the lines drawn, the widths the table gives (its names measured here)."""
        header = [cell_text(c) for c in table.columns]
        widths = list(table.compact_widths if compact else table.widths)
        name = 0 if compact else 1
        widths[name] = max(map(text_width, table.names), default=0)
        right = set(table.numeric)
        if compact:
            header = header[1:]
            right = {c - 1 for c in right if c >= 1}
        header = [f"{h} ↓" if h and h == self._sorted_by else h for h in header]
        widths = [max(w, text_width(h)) for w, h in zip(widths, header, strict=True)]
        rows = WindowRows(table, palette, compact)
        return header, rows, rows.styles, right, widths

    def _use(self, layout: tuple) -> None:
        self._header, self._rows, self._styles, self._right, self._widths = layout
        self._shown = list(self._widths)
        self._shortened: dict[tuple[int, int], dict[str, str]] = {}  # (column, width) ->
        self.fixed_columns = 0
        self.virtual_size = Size(sum(w + 2 * PAD for w in self._widths), len(self._rows) + 1)

    def _compactable(self) -> bool:
        t = self.table
        return t is not None and t.slug == "summary" and t.columns[:2] == ["", "metric"]

    def plain_rows(self) -> list[list[str]]:
        """The table's cells as plain strings (the full layout, even when compact)."""
        return [list(row) for row in self._full[1]]

    def plain_columns(self) -> list[str]:
        return list(self._full[0])

    @property
    def compact(self) -> bool:
        """Whether the narrow layout is drawn (no mean column, compact cells)."""
        return self._compact

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
            old, self.cursor = self.cursor, line - 1
            # only the row left and the row reached (line 0 is the header)
            for row in {old, self.cursor}:
                if row is not None:
                    self.refresh_lines(row + 1)

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
        if event.y == 0 and self.table is not None:  # a header: sort by its column
            column = self._column_at(event.x)
            if column is not None:
                self.post_message(self.SortBy(self._header[column].removesuffix(" ↓")))
            return
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

    def fit_to(self, width: int | None = None) -> None:
        """Fit the columns to `width` (by default the width it has or will have) before a
        layout gives it to the table (a new table; the pane widens or narrows as the tree
        is hidden or shown), the scroll bar shown or hidden for it: decided by that layout,
        the table was laid out and painted again in a frame of its own (the first metric
        shown at 120x40 settled 40-70 ms later)."""
        width = self._fit_fixed_columns(width)
        if not width:
            return
        scroll = self.virtual_size.width > width  # overflow-x: auto
        if self.table is not None and scroll != self.show_horizontal_scrollbar:
            self.show_horizontal_scrollbar = scroll
            self.horizontal_scrollbar.display = scroll

    def _fit_fixed_columns(self, width: int | None = None) -> int:
        """Keep the naming columns in view when the table scrolls sideways. When they would
        take more than 55% of the width, the widest is shortened in the middle, so numbers
        are on screen even at 80 columns; further, down to MIN_NAME_WIDTH, when that brings
        every column on screen. Returns the width fitted to (0: not known yet)."""
        table = self.table
        if table is None:
            return 0
        # hidden until this paint (a pane's mode changed): the width it will be drawn at
        width = width or self.scrollable_content_region.width or self.size.width
        width = width or self.width_hint
        if width and self._compactable():
            compact = sum(w + 2 * PAD for w in self._full[4]) > width
            if compact != self._compact:
                self._compact = compact
                if not compact:
                    self._use(self._full)
                else:
                    if self._short is None:
                        assert self._palette is not None  # set with the table
                        self._short = self._layout(table, self._palette, compact=True)
                        self._kept[2] = self._short
                    self._use(self._short)
        labels = min(self._right, default=len(self._widths))
        shown = list(self._widths)
        fixed = 0
        if width and sum(w + 2 * PAD for w in shown) > width and labels < len(shown):
            fixed = labels
            names = sum(w + 2 * PAD for w in shown[:fixed])
            values = sum(w + 2 * PAD for w in shown[fixed:])
            # At most 55% for the names; less when that brings every value column on screen
            # (eight systems at 200 columns) and the names keep MIN_NAME_WIDTH.
            widest = max(range(fixed), key=lambda c: shown[c])
            budget = width * 55 // 100
            if budget > width - values >= names - shown[widest] + MIN_NAME_WIDTH:
                budget = width - values
            excess = names - budget
            if excess > 0:
                shown[widest] = max(MIN_NAME_WIDTH, shown[widest] - excess)
        if fixed != self.fixed_columns or shown != self._shown:
            self.fixed_columns = fixed
            self._shown = shown
            self.virtual_size = Size(sum(w + 2 * PAD for w in shown), len(self._rows) + 1)
            self.refresh()
        return width

    def on_resize(self) -> None:
        self._drop_painted()
        self._fit_fixed_columns()

    @property
    def max_scroll_x(self) -> int:
        """Scrolling stops at the first column edge from which every column to the right fits
        beside the fixed ones (at the last column when even that one alone does not)."""
        room = max(1, self.scrollable_content_region.width - self._fixed_width())
        edges = self._edges()
        end = edges[-1] if edges else 0
        for e in edges[:-1]:
            if end - e <= room:
                return e
        return edges[-2] if len(edges) > 1 else 0

    def scroll_columns(self, direction: int) -> None:
        """Scroll sideways by one whole column (the fixed columns stay)."""
        x = round(self.scroll_x)
        edges = self._edges()
        if direction > 0:
            target = next((e for e in edges if e > x), x)
        else:
            target = next((e for e in reversed(edges) if e < x), 0)
        self.scroll_to(x=min(target, self.max_scroll_x), animate=False)

    def _column_at(self, x: int) -> int | None:
        """The column drawn at cell `x` of a line."""
        edge = 0
        for c in range(self.fixed_columns):
            edge += self._shown[c] + 2 * PAD
            if x < edge:
                return c
        first, last = self._columns_in_view(max(0, self.scrollable_content_region.width - edge))
        for c in range(first, last):
            edge += self._shown[c] + 2 * PAD
            if x < edge:
                return c
        return None

    def _columns_in_view(self, room: int) -> tuple[int, int]:
        """The scrolling columns drawn, first..last (exclusive): whole ones only, from the
        column edge at or left of the scroll offset, so no number is ever cut."""
        fixed = self.fixed_columns
        edges = self._edges()
        x = round(self.scroll_x)
        first = max(i for i, e in enumerate(edges) if e <= x) if edges else 0
        first = min(first, max(0, len(self._shown) - fixed - 1)) + fixed
        used, last = 0, first
        while last < len(self._shown):
            w = self._shown[last] + 2 * PAD
            if used + w > room and last > first:
                break
            used += w
            last += 1
        return first, last

    # -- drawing --------------------------------------------------------------------------
    def _segments(self, cells: list[str], styles: list[Style | None], base: Style, start: int):
        """Padded segments of columns `start..` of one line."""
        out = []
        for c in range(start, len(self._shown)):
            text = cells[c] if c < len(cells) else ""
            if text_width(text) > self._shown[c]:  # only naming columns ever give way
                text = self._shortened_form(c, text)
            pad = self._shown[c] - text_width(text)
            text = " " * pad + text if c in self._right else text + " " * pad
            style = base + styles[c] if c < len(styles) and styles[c] else base
            out.append(Segment(" " * PAD, base))
            out.append(Segment(text, style))
            out.append(Segment(" " * PAD, base))
        return out

    def _shortened_form(self, c: int, text: str) -> str:
        """`text` cut to column `c`'s width, still distinct from the column's other cells."""
        width = self._shown[c]
        forms = self._shortened.get((c, width))
        if forms is None:
            if isinstance(self._rows, WindowRows):  # only the names ever give way
                column = self._rows.column(c)
            else:
                column = [row[c] for row in self._rows if c < len(row)]
            forms = self._shortened[(c, width)] = shorten_distinct(column, width)
        return forms.get(text) or shorten_middle(text, width)

    def render_line(self, y: int) -> Strip:
        self.painted()
        width = self.scrollable_content_region.width
        base = self.line_style
        styles: list[Style | None]
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
            return Strip.blank(width, self.line_style)
        fixed = self.fixed_columns
        head: list[Segment] = []
        if fixed:
            bold = base + Style(bold=True)
            head = self._segments(cells[:fixed], styles[:fixed], bold, 0)
            head = head[: 3 * fixed]
        room = max(0, width - self._fixed_width())
        first, last = self._columns_in_view(room)
        segments = self._segments(cells, styles, base, fixed)
        tail = Strip(segments[3 * (first - fixed) : 3 * (last - fixed)])
        if y == 0 and last < len(self._shown):  # columns off screen on the right
            more = len(self._shown) - last
            what = " systems" if self._compactable() else ""
            # The hint in the room after the last column, or over the blanks that end its
            # heading: a table that just fits but for one column still says so.
            text = "".join(segment.text for segment in tail)
            blanks = max(0, len(text) - len(text.rstrip(" ")) - 1)  # one stays: a gap
            gap = room - tail.cell_length
            for hint in (f" → {more} more{what} ", f" → {more} more ", f"→{more}"):
                if gap + blanks >= len(hint):
                    cut = max(0, len(hint) - gap)
                    tail = tail.crop(0, tail.cell_length - cut)
                    tail = Strip.join([tail, Strip([Segment(hint.rjust(gap + cut), base)])])
                    break
        strip = Strip.join([Strip(head), tail]) if head else tail
        return strip.extend_cell_length(width, base).crop(0, width)


class WindowRows:
    """The cells of a `WindowedTable` as `TableView` draws them, made when a line is drawn;
    `styles` the same for their colours."""

    def __init__(self, table: WindowedTable, palette: Palette, compact: bool) -> None:
        self.table, self.palette, self.compact = table, palette, compact
        self._cells: dict[int, list[str]] = {}
        self.styles = _WindowStyles(self)

    def __len__(self) -> int:
        return len(self.table.rows)

    def __getitem__(self, r: int) -> list[str]:
        cells = self._cells.get(r)
        if cells is None:
            row = [cell_text(v) for v in self.table.rows[r]]
            if self.compact:
                row = [row[1]] + [
                    compact_cell(cell, c == 2) for c, cell in enumerate(row) if c >= 2
                ]
            cells = self._cells[r] = row
        return cells

    def __iter__(self):
        return (self[r] for r in range(len(self)))

    def column(self, c: int) -> list[str]:
        if c == (0 if self.compact else 1):
            return list(self.table.names)
        return [row[c] for row in self]

    def style_row(self, r: int) -> list[Style | None]:
        cells = self[r]  # formats the row, and so its marks
        skip = 1 if self.compact else 0
        marks = self.table.marks
        return [
            self.palette.style(m) if (m := marks.get((r, c + skip))) else None
            for c in range(len(cells))
        ]


class _WindowStyles:
    def __init__(self, rows: WindowRows) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, r: int) -> list[Style | None]:
        return self._rows.style_row(r)
