"""The right pane: a metric's tables and plot, or the summary of a group."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Vertical, VerticalScroll
from textual.geometry import Region
from textual.widgets import Static

from tuibench.tui.content.answer_lines import AnswerContent, answer_content, answer_parts
from tuibench.tui.keys import PANE_KEYS, bindings
from tuibench.tui.palette import Palette
from tuibench.tui.textual_adapter import StyledOnFocus
from tuibench.tui.view.state import VIEW_ROWS, Node, sort_label
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.table_view import TableView
from tuibench.util.text import printable

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widget import Widget

    from tuibench.tui.view.session import Session
    from tuibench.tui.widgets.iteration_plot import IterationPlot


class PlotSlot(Container):
    """Where a metric's plot goes: the plot (a plotext widget) is made at its first `show`,
    so that plotext's import (16 ms) is not on the way to the first frame."""

    DEFAULT_CSS = "PlotSlot > * { width: 100%; height: 100%; }"

    def show(self, rows: list[dict], unit: str, palette: Palette) -> None:
        plot = self._plot()
        plot.show(rows, unit, palette)

    def _plot(self) -> IterationPlot:
        from tuibench.tui.widgets.iteration_plot import IterationPlot

        if not self.children:
            self.mount(IterationPlot())
        return self.query_one(IterationPlot)


WIDE = 110  # from this width on, the per-iteration table and the plot stand side by side
# seconds the tree's cursor rests before the summaries of the groups beside it are made:
# less than the gap between keys of a person reading as they go (a key typed during it
# waits for it, and is then most often the one it made ready)
WARM_AFTER = 0.15
# ... on sets up to this many comparison rows (metrics x systems): beyond, a summary's
# cost was not measured, and a key typed meanwhile would wait for it
WARM_UP_TO = 200_000


class DetailPane(StyledOnFocus, VerticalScroll):
    """Scrolls down; left and right scroll the tables that are wider than the pane."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(PANE_KEYS)

    # -- the row cursor of the answer and of group tables ----------------------------------
    def cursor_target(self) -> AnswerView | TableView | None:
        """The list whose rows the cursor moves over, when it shows one."""
        if self.mode == "answer":
            return self.query_one(AnswerView)
        if self.mode == "summary":
            table = self.query_one("#summary", TableView)
            return table if table.row_nodes else None
        return None

    def action_cursor(self, step: int) -> None:
        target = self.cursor_target()
        if target is None or not target.move_cursor(step):
            if step > 0:
                self.scroll_down(animate=False)
            else:
                self.scroll_up(animate=False)
            return
        self.scroll_to_cursor()

    def scroll_to_cursor(self) -> None:
        """Keep the cursor's line in view (with the header of its table at the top)."""
        target = self.cursor_target()
        line = None if target is None else target.cursor_line
        if target is None or line is None:
            return
        top = target.region.y - self.scrollable_content_region.y + round(self.scroll_y)
        self.scroll_to_region(Region(0, top + line, 1, 1), animate=False, immediate=True)

    def action_open_row(self) -> None:
        target = self.cursor_target()
        if target is not None:
            target.open_cursor()

    def set_cursor_line(self, line: int) -> None:
        target = self.cursor_target()
        if target is not None:
            target.set_cursor(line)
            self.call_after_refresh(self.scroll_to_cursor)

    def action_scroll_tables(self, direction: int) -> None:
        """Move every table sideways by one column (the naming columns stay)."""
        for table in self.query(TableView):
            table.scroll_columns(direction)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.node: Node | None = None
        self._shown: dict[str, Text | str] = {}
        self.mode = "message"
        self._warming: Timer | None = None
        self._answer: tuple[object, AnswerContent] | None = None  # the answer's, and its key

    def compose(self) -> ComposeResult:
        yield Static(id="pane-title")
        yield Static(id="pane-decision")  # --decide / --follow: decided, or how many more
        yield Static(id="pane-message")
        yield AnswerView(id="answer")
        with Vertical(id="metric-view"):
            yield TableView(id="detail")
            yield Static("Data and noise", classes="heading section")
            yield TableView(id="noise")
            with Container(id="lower"):  # side by side when wide; the plot first
                yield PlotSlot(id="plot")
                with Vertical(id="iterations-box"):
                    yield Static("Per-iteration values", classes="heading")
                    yield TableView(id="iterations")
        with Vertical(id="summary-view"):
            yield TableView(id="summary")
            yield Static(id="systems-heading", classes="heading section")
            yield TableView(id="systems")
        yield Static(id="pane-notes")

    def on_resize(self) -> None:
        wide = self.scrollable_content_region.width >= WIDE
        self.set_class(wide, "-wide")
        # Wide and tall: the plot takes what the tables leave.
        height = max(14, min(36, self.size.height - 16)) if wide else 14
        self.query_one("#plot", PlotSlot).styles.height = height

    def plot_ahead(self) -> None:
        """The plot's widget made while the first screen is read (its module imported):
        made at the first metric shown, its mount took 60-70 ms of that key."""
        self.query_one("#plot", PlotSlot)._plot()

    _left_width = 0  # the tree's column beside the pane, as wide as when last shown

    def fit_beside(self, left: Widget, shown: bool, width: int) -> None:
        """The tree's column `left` is about to be shown or hidden in a screen `width`
        cells wide: the tables fitted to the pane's width then."""
        if not shown:  # (a hidden widget has no width: kept for when it comes back)
            self._left_width = left.outer_size.width
        self.fit_tables(width - (self._left_width if shown else 0))

    def fit_tables(self, width: int) -> None:
        """The pane is about to be `width` cells wide: its tables fitted now, laid out once."""
        room = width - self.styles.gutter.width
        if self.show_vertical_scrollbar or self.styles.scrollbar_gutter == "stable":
            room -= self.styles.scrollbar_size_vertical
        wide = room >= WIDE  # the per-iteration table then stands beside the plot
        for table in self.query(TableView):
            if table.display and not (wide and table.id == "iterations"):
                table.fit_to(room)

    # -- what to show ---------------------------------------------------------------------
    def show(self, node: Node, session: Session, palette: Palette) -> None:
        self.node = node
        if node.is_metric:
            self._show_metric(node, session, palette)
        elif node.is_root and session.state.answer_first and len(session.systems) > 1:
            self._show_answer(session, palette)
        else:
            self._show_summary(node, session, palette)
        if self._warming is not None:
            self._warming.stop()
            self._warming = None
        if len(session.metrics) * len(session.systems) < WARM_UP_TO:
            self._warming = self.set_timer(WARM_AFTER, lambda: self._warm(node, session, 1))

    def _warm(self, node: Node, session: Session, step: int) -> None:
        """While the tree's cursor rests on `node` (focused or not: tab comes back to it),
        the summary of the group on the line below it (then above) is made and its first
        rows formatted: `j` or `k` onto it then only draws. On 20,000 metrics that is 10-15
        ms of a key's 40-60 (the summary of 2,000 metrics), spent here one group at a time
        so that a key typed meanwhile waits for one at most."""
        self._warming = None
        trees = self.screen.query(BenchTree)
        tree = trees.first() if trees else None
        if tree is None or self.node != node:
            return
        if tree.current == node:
            beside = tree.beside_cursor(step)
            if beside is not None and not beside.is_metric:
                table = session.summary(beside, VIEW_ROWS)
                if table is not None and table.rows:
                    table.rows[0]  # read: its first rows formatted now
        if step > 0:
            self._warming = self.set_timer(0.01, lambda: self._warm(node, session, -1))

    def show_message(self, message: Text | str) -> None:
        self.node = None
        self._mode("message")
        self._set("#pane-title", "")
        self._set("#pane-message", message)
        self._set("#pane-notes", "")

    def _set(self, selector: str, content: Text | str) -> None:
        """Update a Static only when its content changes (an update costs a relayout)."""
        widget = self.query_one(selector, Static)
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            widget.update(content)

    def _mode(self, mode: str) -> None:
        self.mode = mode
        self.query_one(AnswerView).display = mode == "answer"
        self.query_one("#metric-view").display = mode == "metric"
        self.query_one("#summary-view").display = mode == "summary"
        self.query_one("#pane-message").display = mode == "message"
        self.query_one("#pane-decision").display = False  # shown by _show_decision

    def _show_metric(self, node: Node, session: Session, palette: Palette) -> None:
        info = session.metric_info(node)
        detail = session.current_table(node)
        if info is None or detail is None:
            self.show_message(Text(f"{printable(node.title())} is not shown (filtered out)."))
            return
        self._mode("metric")
        title = Text()
        title.append(printable(node.benchmark), "bold")
        title.append(" › ", palette.muted)
        title.append(printable(node.metric or ""), "bold")
        from tuibench.present.tables import MEAN_LABEL, direction_words

        mean = MEAN_LABEL.get(info["mean_kind"], info["mean_kind"])
        facts = [info["unit"] or "no unit", direction_words(info["better"]), mean]
        title.append("   " + printable(" · ".join(f for f in facts if f)), palette.muted)
        if detail.best is not None:  # found by the table (a second search: 5-10 ms of `n`)
            title.append("   ★ best: ", palette.better_style)
            title.append(printable(detail.best), "bold")
        self._set("#pane-title", title)
        self._show_decision(node, session, palette)
        # the pane's width, for the tables to fit it before their first paint (hidden, a
        # table has no width of its own; fitted after it, it took a frame more)
        width = self.scrollable_content_region.width
        noise = session.noise(node)
        for name, table in (("#detail", detail), ("#noise", noise)):
            view = self.query_one(name, TableView)
            view.width_hint = width
            view.show(table, palette)
        iterations = session.iterations(node)
        self.query_one("#iterations", TableView).show(iterations, palette)
        self.query_one("#plot", PlotSlot).show(
            session.metric_rows(node), info["unit"] or "", palette
        )
        notes = Text()
        prefixes = tuple(f"{name}: " for name in session.systems)
        for note in [*detail.notes, *noise.notes, *iterations.notes]:
            if note.startswith(prefixes):  # about one system: a degenerate case, stand out
                notes.append("• ", palette.warning_style)
                notes.append(printable(note) + "\n")
            else:  # a legend of the table
                notes.append(printable(note) + "\n", palette.muted)
        notes.rstrip()
        self._set("#pane-notes", notes)

    def _show_decision(self, node: Node, session: Session, palette: Palette) -> None:
        """`tuibench decide`'s verdict of each system, when --decide or --follow is on."""
        decisions = session.decisions()
        if decisions is None:
            return
        lines = decisions.lines(node.benchmark, node.metric or "")
        text = Text()
        text.append(f"decide (anytime-valid, same within ±{decisions.threshold:g} %): ", "bold")
        if not lines:
            text.append("no system to decide: only the reference has this metric", palette.muted)
        for i, (system, words) in enumerate(lines):
            text.append(" · " if i else "", palette.muted)
            text.append(printable(system) + " ")
            style = palette.muted if words.startswith("undecided") else "bold"
            text.append(words, style)
        self._set("#pane-decision", text)
        self.query_one("#pane-decision").display = True

    def _show_answer(self, session: Session, palette: Palette) -> None:
        answer, ranking, note = answer_parts(session)
        # What the lines are made of: `f`, `s` and the cursor leave the answer as it is, and
        # building its lines again (names shortened to fit) was most of such a key's work.
        key = (answer, tuple(ranking), tuple(note), palette)
        if self._answer is None or self._answer[0] != key:
            self._answer = key, answer_content(answer, ranking, note)
        self.show_answer(self._answer[1], palette, key)

    def show_answer(self, content: AnswerContent, palette: Palette, key: object) -> None:
        """The answer pane as `content` draws it (made for `key`: the same keeps the cursor);
        a first open's picture shows its own this way (tui/content/picture.py)."""
        self.node = Node()
        self._mode("answer")
        title = Text()
        for text, style in content.title:
            title.append(text, palette.named(style))
        self._set("#pane-title", title)
        self.query_one(AnswerView).show(content.lines, palette, key)
        self._set("#pane-notes", Text(content.notes, style=palette.muted))

    def _show_summary(self, node: Node, session: Session, palette: Palette) -> None:
        table = session.summary(node, VIEW_ROWS)
        if table is None:
            why = (
                "No metric matches the filter or has a significant change here."
                if session.state.filter_text or session.state.significant_only
                else "No metrics here."
            )
            self.show_message(Text(why))
            return
        self._mode("summary")
        count = session.count_under(node)
        shown = f"first {len(table.rows):,} of " if len(table.rows) < count else ""
        title = Text()
        title.append(printable(table.title), "bold")
        title.append(
            f" · {shown}{count:,} metric{'s' if count != 1 else ''} · "
            f"{sort_label(session.state.sort)}",
            palette.muted,
        )
        self._set("#pane-title", title)
        sort = session.state.sort
        marked = "metric" if sort == "name" else sort[len("system:") :] if ":" in sort else None
        summary = self.query_one("#summary", TableView)
        # fitted (compact or not) before its first paint: one frame, not two
        summary.width_hint = self.scrollable_content_region.width
        summary.show(table, palette, session.metrics_under(node, VIEW_ROWS), sorted_by=marked)
        systems = session.systems_summary(node)
        self.query_one("#systems", TableView).display = systems is not None
        self.query_one("#systems-heading", Static).display = systems is not None
        legend = list(table.notes)
        if shown:
            legend.insert(
                0,
                f"The table shows the first {len(table.rows):,} metrics in this order: "
                "/ filters, f keeps the significant changes, s orders them worst first; "
                "m, e and y take every row.",
            )
        legend.append(
            "On a narrow screen a cell reads `value +x.x%*` (its mark as the full cell's: "
            "* as the star above, ~ one iteration, = equivalent, [+x.x%] untested), the "
            "reference shows its value alone, and → counts the columns off screen (←/→ or "
            "h/l scroll by whole columns)."
        )
        if systems is not None:
            heading = printable(systems.title)
            if count < len(session.metrics):  # a group, a filter or `f`: not only these
                heading += " · over every metric, not only those listed here"
            self._set("#systems-heading", heading)
            self.query_one("#systems", TableView).show(systems, palette)
            legend += systems.notes
        notes = Text("\n".join(map(printable, legend)), style=palette.muted)
        self._set("#pane-notes", notes)
