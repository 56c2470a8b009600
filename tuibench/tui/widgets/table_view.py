"""Show any core `Table` (whatever its columns) with its verdict colours."""

from __future__ import annotations

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from tuibench.core.tables import Table
from tuibench.tui.palette import Palette


def cell_text(value: object) -> str:
    """A cell as plain text. Display tables hold strings; data tables may hold numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class TableView(DataTable, can_focus=False):
    """A read-only table: no cursor, as tall as its rows.

    When it is wider than the pane it scrolls sideways (the pane's left/right keys move every
    table together) while the columns that name a row (those left of the first numeric one)
    stay in place. Every cell is a `rich.text.Text`: names from data are never markup.
    """

    DEFAULT_CSS = """
    TableView {
        width: 100%;
        height: auto;
        max-height: 100000;
        overflow-x: auto;
        overflow-y: hidden;
        scrollbar-size-horizontal: 1;
        background: transparent;
        & > .datatable--fixed {
            background: transparent;
            text-style: bold;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id,
            classes=classes,
            show_cursor=False,
            cursor_type="none",
            zebra_stripes=True,
        )
        self.table: Table | None = None

    def show(self, table: Table, palette: Palette) -> None:
        """Show `table`. Same columns and as many rows: cells change in place (no relayout
        unless a column gets wider), which keeps a reference switch cheap."""
        previous, self.table = self.table, table
        rows = [
            [
                Text(
                    cell_text(value),
                    style=palette.style(table.marks.get((r, c))),
                    justify="right" if c in table.numeric else "left",
                )
                for c, value in enumerate(row)
            ]
            for r, row in enumerate(table.rows)
        ]
        if (
            previous is not None
            and previous.columns == table.columns
            and previous.numeric == table.numeric
            and len(previous.rows) == len(table.rows) == self.row_count
        ):
            for r, cells in enumerate(rows):
                for c, cell in enumerate(cells):
                    if self.get_cell_at(Coordinate(r, c)) != cell:
                        self.update_cell_at(Coordinate(r, c), cell, update_width=True)
            return
        self.clear(columns=True)
        for i, name in enumerate(table.columns):
            justify = "right" if i in table.numeric else "left"
            self.add_column(Text(str(name), justify=justify), key=str(i))
        self.add_rows(rows)
        self.call_after_refresh(self.fit_fixed_columns)

    def scroll_columns(self, direction: int) -> None:
        """Scroll sideways by one whole column (the fixed columns stay)."""
        widths = [c.get_render_width(self) for c in self.ordered_columns[self.fixed_columns :]]
        edges = [0]
        for w in widths:
            edges.append(edges[-1] + w)
        x = round(self.scroll_x)
        if direction > 0:
            target = next((e for e in edges if e > x), x)
        else:
            target = next((e for e in reversed(edges) if e < x), 0)
        self.scroll_to(x=min(target, self.max_scroll_x), animate=False)

    def on_resize(self) -> None:
        self.fit_fixed_columns()

    def fit_fixed_columns(self) -> None:
        """Keep the naming columns in view when the table scrolls sideways, if they leave
        room for the numbers."""
        table = self.table
        if table is None:
            return
        labels = min(table.numeric, default=len(table.columns))
        widths = [c.get_render_width(self) for c in self.ordered_columns]
        width = self.scrollable_content_region.width
        fixed = 0
        if sum(widths) > width:
            fixed = labels
            while fixed and sum(widths[:fixed]) > width * 0.7:
                fixed -= 1
        if fixed != self.fixed_columns:
            self.fixed_columns = fixed

    def plain_rows(self) -> list[list[str]]:
        """What the table shows, as plain strings (for tests and checks)."""
        return [[str(cell) for cell in self.get_row_at(i)] for i in range(self.row_count)]

    def plain_columns(self) -> list[str]:
        return [str(column.label) for column in self.ordered_columns]
