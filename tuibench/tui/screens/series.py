"""The series view (`c`): a metric along the series of systems, or a group's change points.

For a metric: each system's centre with its 95 % interval along the series (plot and
table), change points marked. For a group or the root: the change points of its metrics,
largest step first; enter opens a metric along the series. The series analysis runs in the
app's worker: until it is done the view says so and waits, the explorer stays live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tuibench.tui.palette import Palette
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.series_plot import SeriesPlot
from tuibench.util.text import printable

if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from tuibench.present.series_view import SeriesModel
    from tuibench.present.tables import Table

POLL = 0.2  # seconds between looks at whether the series analysis is done


def fill(widget: DataTable, table: Table, palette: Palette) -> None:
    """Show a core Table: cells as Text (never markup), names printable, marks coloured."""
    widget.clear(columns=True)
    for c, name in enumerate(table.columns):
        justify: JustifyMethod = "right" if c in table.numeric else "left"
        widget.add_column(Text(printable(name), justify=justify), key=str(c))
    for r, row in enumerate(table.rows):
        cells = []
        for c, value in enumerate(row):
            meaning = table.marks.get((r, c))
            cells.append(
                Text(
                    # a cell's own lines stay lines; any other control is shown escaped
                    "\n".join(map(printable, ("" if value is None else str(value)).split("\n"))),
                    style=palette.style(meaning) if meaning else "",
                    justify="right" if c in table.numeric else "left",
                )
            )
        widget.add_row(*cells, height=max(c.plain.count("\n") + 1 for c in cells))


def needed_width(table: Table) -> int:
    """The columns' width as DataTable lays them out (a cell padded by 1 on each side)."""
    widths = [cell_len(printable(name)) for name in table.columns]
    for row in table.rows:
        for c, value in enumerate(row):
            lines = printable("" if value is None else str(value)).split("\n")
            widths[c] = max(widths[c], *(cell_len(line) for line in lines))
    return sum(w + 2 for w in widths)


class SeriesScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,c", "app.pop_screen", "Back", id="tuibench.series.close"),
    ]
    DEFAULT_CSS = """
    SeriesScreen { layout: vertical; }
    SeriesScreen #series-title { height: auto; padding: 0 1; text-style: bold; }
    SeriesScreen #series-plot { height: 45%; min-height: 8; }
    SeriesScreen #series-table { height: 1fr; }
    SeriesScreen #series-notes { height: auto; max-height: 5; padding: 0 1; color: $text-muted; }
    """

    def __init__(
        self, node: Node, palette: Palette, model: Callable[[], SeriesModel | None]
    ) -> None:
        super().__init__()
        self.node = node
        self.palette = palette
        self.model = model  # the series analysis, once its worker is done
        self.keys: list[tuple[str, str]] = []  # the metric of each row of a group's list

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="series-title")
            yield SeriesPlot(id="series-plot")
            yield DataTable(id="series-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="series-notes")

    def on_mount(self) -> None:
        self.query_one(SeriesPlot).display = self.node.is_metric
        if not self._show():
            self.query_one("#series-title", Static).update(
                Text(
                    f"{printable(self.node.title())}: finding change points along the "
                    "series (in the background) …"
                )
            )
            self._poll = self.set_interval(POLL, self._try_again)

    def _try_again(self) -> None:
        if self._show():
            self._poll.stop()

    def _show(self) -> bool:
        model = self.model()
        if model is None:
            return False
        table_widget = self.query_one(DataTable)
        title = self.query_one("#series-title", Static)
        if self.node.metric is not None:
            bench, metric = self.node.benchmark, self.node.metric
            unit = _unit(model, bench, metric)
            table = model.metric_table(bench, metric, unit)
            room = self.app.size.width - 2  # the vertical scrollbar
            if needed_width(table) > room:  # the step's interval below its size
                table = model.metric_table(bench, metric, unit, narrow=True)
            self.query_one(SeriesPlot).show(
                model.metric_rows(bench, metric), printable(unit), self.palette
            )
            hint = "escape: back"
        else:
            table, self.keys = model.group_table(self.node.benchmark)
            hint = "enter: the metric along the series · escape: back"
        title.update(Text(f"{printable(table.title)}   ({hint})"))
        fill(table_widget, table, self.palette)
        self.query_one("#series-notes", Static).update(Text(printable(" ".join(table.notes))))
        table_widget.focus()
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if self.node.is_metric or event.cursor_row >= len(self.keys):
            return
        bench, metric = self.keys[event.cursor_row]
        self.app.push_screen(SeriesScreen(Node.of_metric(bench, metric), self.palette, self.model))


def _unit(model: SeriesModel, bench: str, metric: str) -> str:
    keys = model.data.keys
    row = keys.filter((keys["benchmark"] == bench) & (keys["metric"] == metric))
    return (row["unit"][0] or "") if row.height else ""
