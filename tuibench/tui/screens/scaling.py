"""The scaling view (`g`): a metric against a numeric parameter of the benchmark's name.

One line per system with each point's 95 % interval, a logarithmic axis when the values
about double; the table gives, per parameter value and system, the centre and the gain
against the reference. `g` again shows the next family when a name has several parameters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tuibench.tui.palette import Palette
from tuibench.tui.screens.series import fill
from tuibench.tui.widgets.series_plot import ScalingPlot
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.analysis.compare import Comparison
    from tuibench.present.series_view import SeriesModel


class ScalingScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="tuibench.scaling.close"),
        Binding("g", "next_family", "Next parameter", id="tuibench.scaling.next"),
    ]
    DEFAULT_CSS = """
    ScalingScreen { layout: vertical; }
    ScalingScreen #scaling-title { height: auto; padding: 0 1; text-style: bold; }
    ScalingScreen #scaling-plot { height: 50%; min-height: 8; }
    ScalingScreen #scaling-table { height: 1fr; }
    ScalingScreen #scaling-notes { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    """

    def __init__(
        self,
        model: SeriesModel,
        cmp: Comparison,
        benchmark: str,
        metric: str,
        palette: Palette,
    ) -> None:
        super().__init__()
        self.model, self.cmp, self.metric, self.palette = model, cmp, metric, palette
        self.families = model.families_of(benchmark)
        self.index = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="scaling-title")
            yield ScalingPlot(id="scaling-plot")
            yield DataTable(id="scaling-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="scaling-notes")

    def on_mount(self) -> None:
        self._show()

    def action_next_family(self) -> None:
        self.index = (self.index + 1) % len(self.families)
        self._show()

    def _show(self) -> None:
        from tuibench.analysis.series.scaling import log_axis

        family, parameter = self.families[self.index]
        curve = self.model.curve(self.cmp, family, parameter, self.metric)
        table = self.model.scaling_table(self.cmp, family, parameter, self.metric)
        more = f"  g: next parameter ({self.index + 1}/{len(self.families)})"
        hint = "escape: back" + (more if len(self.families) > 1 else "")
        self.query_one("#scaling-title", Static).update(
            Text(f"{printable(table.title)}   ({hint})")
        )
        rows = curve.to_dicts()
        self.query_one(ScalingPlot).show(
            rows,
            [s for s in self.cmp.systems if any(r["system"] == s for r in rows)],
            log_axis([r["value"] for r in rows]),
            printable(f"{self.metric} by {parameter}"),
            self.palette,
        )
        widget = self.query_one(DataTable)
        fill(widget, table, self.palette)
        self.query_one("#scaling-notes", Static).update(Text(printable(" ".join(table.notes))))
        widget.focus()
