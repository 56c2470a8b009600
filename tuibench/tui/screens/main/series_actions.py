"""A part of the main screen: the series analysis in a worker, the series (`c`) and scaling (`g`)
views, and the change-point marks in the tree.

The series analysis (change points of every metric, scaling families) depends on the
analysis, alpha and how sizes read; it runs in a thread whenever one of them changes, so a
series of 50 systems x 20,000 metrics never blocks the explorer. Until it is done the marks
are absent and the views say they wait. It starts by itself when the results hold at least
AUTO_SYSTEMS systems (a series rather than a comparison of a few); with fewer, the first
`c` or `g` starts it, and from then on it follows every change.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from tuibench.tui.screens.main.view import MainView
from tuibench.tui.view.state import Node

if TYPE_CHECKING:
    from tuibench.present.series_view import SeriesModel

AUTO_SYSTEMS = 4


class SeriesActions(MainView):
    series_model: SeriesModel | None = None
    _series_key: tuple | None = None

    def _series_options(self) -> tuple:
        state = self.loaded_session.state
        return (id(self.loaded_session.analysis), state.options.alpha, state.percent)

    def ensure_series(self, asked: bool = False) -> None:
        """Start the series analysis when what it depends on changed (cheap otherwise)."""
        if self.session is None or len(self.loaded_session.systems) < 2:
            return
        wanted = asked or self._series_key is not None
        if not wanted and len(self.loaded_session.systems) < AUTO_SYSTEMS:
            return
        key = self._series_options()
        if key == self._series_key:
            return
        self._series_key = key
        self.series_model = None
        self._set_tree_series_marks({})
        _, alpha, percent = key
        work = partial(self._build_series, self.loaded_session.analysis, alpha, percent, key)
        self.run_worker(work, thread=True, exclusive=True, group="series", exit_on_error=False)

    def _build_series(self, analysis, alpha: float, percent: str, key: tuple):
        from tuibench.present.series_view import SeriesModel

        try:
            model = SeriesModel.build(analysis, alpha, percent)
        except Exception as exc:  # a bug must not take the explorer down
            self.app.call_from_thread(
                self.say, f"Series analysis failed: {exc}", severity="error", timeout=10
            )
            return
        self.app.call_from_thread(self._series_ready, model, key)

    def _series_ready(self, model: SeriesModel, key: tuple) -> None:
        if key != self._series_key:
            return  # an older request: a newer one is running
        self.series_model = model
        self._set_tree_series_marks(model.marks())

    def _set_tree_series_marks(self, marks: dict) -> None:
        from tuibench.tui.widgets.bench_tree import BenchTree

        self.query_one(BenchTree).set_series_marks(marks)

    def action_show_series(self) -> None:
        if len(self.loaded_session.systems) < 2:
            self.say("One system: a series needs two or more.", severity="warning")
            return
        from tuibench.tui.screens.series import SeriesScreen

        self.ensure_series(asked=True)
        self.app.push_screen(
            SeriesScreen(self.current_node, self.palette, lambda: self.series_model)
        )

    def action_show_scaling(self) -> None:
        model = self.series_model
        if model is None:
            self.ensure_series(asked=True)
            self.say("Reading the series in the background; try again in a moment.", timeout=3)
            return
        node = self.current_node
        target = _scaling_metric(model, self.loaded_session.metrics_under(node), node)
        if target is None:
            self.say(
                "No numeric parameter in the names here (like clients:8, BM_x/64, {ms=10}) "
                "with two or more values.",
                timeout=6,
            )
            return
        from tuibench.tui.screens.scaling import ScalingScreen

        bench, metric = target
        self.app.push_screen(
            ScalingScreen(model, self.loaded_session.cmp, bench, metric, self.palette)
        )


def _scaling_metric(
    model: SeriesModel, under: list[tuple[str, str]], node: Node
) -> tuple[str, str] | None:
    """The metric to plot: the highlighted one, else the first below the node in a family."""
    if node.metric is not None:
        key = (node.benchmark, node.metric)
        return key if model.families_of(key[0]) else None
    in_family = set(model.families["benchmark"].to_list())
    return next((k for k in under if k[0] in in_family), None)
