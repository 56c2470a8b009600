"""Moving between places: opening a row's metric, back to the same row, jumping to the next
flagged metric in severity order. A part of the main screen."""

from __future__ import annotations

from textual.widget import Widget

from tuibench.tui.screens.main.view import MainView
from tuibench.tui.textual_adapter import StyledOnFocus
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.table_view import TableView

BACK_KEPT = 32  # places `escape` can go back to


class Navigation(MainView):
    """A part of the main screen: opening rows, going back, the next flagged metric."""

    _back: list[tuple[Node, int]]
    _next_landed: Node | None = None  # where the last `n` / `N` went

    def focus_now(self, widget: Widget) -> None:
        """As MainView's, with the new focus styled (both panes' tint), the layout arranged
        and the footer updated at once: in the key's own frame, where Textual does it on
        the Focus and Blur events, a frame later."""
        before = self.focused
        super().focus_now(widget)
        after = self.focused
        if after is not before:
            for pane, focused in ((before, False), (after, True)):
                if isinstance(pane, StyledOnFocus):
                    pane.style_focus(focused)
            self._arrange()
            self.update_footer()

    def go_to(self, node: Node) -> None:
        """Put the tree's cursor on `node` and show it, in one frame. (The tree once moved a
        frame after the pane, to draw the pane sooner; unfocused, the tree draws again only
        its cursor's lines, and one frame settled 15-20 ms sooner than two.)"""
        tree = self.query_one(BenchTree)
        tree.select(node)
        node = tree.current
        if self.session is not None:
            self.query_one(DetailPane).show(node, self.session, self.palette)
            self.update_footer()  # the pane may show another kind of place now
            self.mark_seen(node)

    def open_row(self, node: Node, row: int) -> None:
        """Open a row's metric; `escape` comes back to this row of this place."""
        here = self.query_one(DetailPane).node or Node()
        self._back = [*self._back[-BACK_KEPT + 1 :], (here, row)]
        self.go_to(node)
        pane = self.query_one(DetailPane)
        pane.scroll_home(animate=False)
        self.focus_now(pane)

    # Handlers by name: `@on` is not seen on a class that is not a message pump.
    def on_answer_view_open(self, event: AnswerView.Open) -> None:
        event.stop()
        self.open_row(event.node, event.row)

    def on_table_view_open(self, event: TableView.Open) -> None:
        event.stop()
        self.open_row(event.node, event.row)

    def action_back(self) -> None:
        """Escape in the tables: back to the row a metric was opened from, else the tree."""
        if not self._back:
            self.action_switch_pane()
            return
        node, row = self._back.pop()
        self._next_landed = None
        self.go_to(node)
        pane = self.query_one(DetailPane)
        pane.set_cursor_line(row)

    def action_next_flagged(self, step: int) -> None:
        """`n` / `N`: the next or previous metric where some system changed significantly,
        regressions first, each group worst first."""
        session = self.session
        if session is None:
            return
        order = session.severity_order()
        if not len(order):
            # Changes of unknown direction are listed in the answer but are neither.
            self.say(
                "No metric got significantly worse or better against this reference.", timeout=3
            )
            return
        current = self.query_one(DetailPane).node or self.current_node
        key = (current.benchmark, current.metric) if current.metric is not None else None
        position = session.severity_position(key)
        if position is None:
            i = 0 if step > 0 else len(order) - 1
        else:
            i = position + step
            if not 0 <= i < len(order):
                i %= len(order)
                self.say("Wrapped around: back to the " + ("worst" if step > 0 else "last"))
        self._remember_before_next(current)
        self.go_to(Node.of_metric(*session.metrics[order[i]]))
        self.query_one(DetailPane).scroll_home(animate=False)
        self._next_landed = self.query_one(DetailPane).node

    def _remember_before_next(self, current: Node) -> None:
        """`escape` after `n` goes back to where the first `n` was pressed (the answer, a
        summary's row): a run of `n` from there is one step back, not one per key."""
        pane = self.query_one(DetailPane)
        if self._next_landed == current and pane.node == current:
            return
        target = pane.cursor_target()
        row = target.cursor_line if target is not None else None
        here = pane.node or current
        self._back = [*self._back[-BACK_KEPT + 1 :], (here, row or 0)]
