"""Moving between places: opening a row's metric, back to the same row, jumping to the next
flagged metric in severity order. A part of the main screen."""

from __future__ import annotations

from textual.timer import Timer
from textual.widget import Widget

from tuibench.tui.screens.main.view import MainView
from tuibench.tui.textual_adapter import StyledOnFocus
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.table_view import TableView

BACK_KEPT = 32  # places `escape` can go back to
NEXT_AHEAD = 0.3  # seconds of rest before the tree makes the nodes of the next `n`


class Navigation(MainView):
    """A part of the main screen: opening rows, going back, the next flagged metric."""

    _back: list[tuple[Node, int]]
    _next_landed: Node | None = None  # where the last `n` / `N` went
    _ahead: Timer | None = None  # `_next_ahead`, waiting for the keys to rest

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
        if self.session is None:
            return
        current = self.query_one(DetailPane).node or self.current_node
        target = self._flagged_after(current, step)
        if target is None:
            # Changes of unknown direction are listed in the answer but are neither.
            self.say(
                "No metric got significantly worse or better against this reference.", timeout=3
            )
            return
        node, wrapped = target
        if wrapped:
            self.say("Wrapped around: back to the " + ("worst" if step > 0 else "last"))
        self._remember_before_next(current)
        self.go_to(node)
        self.query_one(DetailPane).scroll_home(animate=False)
        self._next_landed = self.query_one(DetailPane).node

    def _flagged_after(self, current: Node, step: int) -> tuple[Node, bool] | None:
        """The metric `n` (step 1) or `N` (-1) goes to from `current`, and whether that
        wraps around; None when no metric is flagged."""
        session = self.session
        if session is None:
            return None
        order = session.severity_order()
        if not len(order):
            return None
        key = (current.benchmark, current.metric) if current.metric is not None else None
        position = session.severity_position(key)
        if position is None:
            return Node.of_metric(*session.metrics[order[0 if step > 0 else -1]]), False
        i = position + step
        wrapped = not 0 <= i < len(order)
        return Node.of_metric(*session.metrics[order[i % len(order)]]), wrapped

    def update_footer(self) -> None:
        """After each key: also, once the keys rest, the tree's nodes on the way to the
        metric `n` would go to next are made (`_next_ahead`)."""
        super().update_footer()
        if self._ahead is not None:
            self._ahead.stop()
        self._ahead = self.set_timer(NEXT_AHEAD, self._next_ahead) if self.session else None

    def _next_ahead(self) -> None:
        """Its groups' children added to the tree before `n` needs them: at a million
        metrics that was 25-30 ms of the first `n` to a metric of a group not yet opened.
        (Adding children to a closed group changes no line on screen.)"""
        self._ahead = None
        if self._computing or self._asked is not None:  # a new view comes: its footer too
            return
        current = self.query_one(DetailPane).node or self.current_node
        target = self._flagged_after(current, 1)
        if target is not None:
            self.query_one(BenchTree).landing(target[0])

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
