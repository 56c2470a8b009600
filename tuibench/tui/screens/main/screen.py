"""The main screen: the explorer's keys and what they do.

`MainScreen` binds the keys of keys.py (all but the few the app keeps everywhere: help,
problems, quit) and acts on them: the reference and the options of the comparison, the
analysis's options (recomputed in a worker), the filter, the toggles and the order, marks,
exports and copies. Its view (state, update path, panes) is `MainView` (view.py), loading
the results `Loading`, moving between places `Navigation`, the series views `SeriesActions`.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Input

from tuibench.model.options import AnalysisOptions
from tuibench.tui.keys import MAIN_KEYS, bindings
from tuibench.tui.notices import NoticeRack, say_now
from tuibench.tui.screens.main.live import Live
from tuibench.tui.screens.main.loading import Loading
from tuibench.tui.screens.main.navigation import Navigation
from tuibench.tui.screens.main.series_actions import SeriesActions
from tuibench.tui.textual_adapter import drawn_lines_freed_at_once, lay_out_once
from tuibench.tui.view.state import Node, ViewState, sort_keys, sort_label
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.filter_input import FilterInput
from tuibench.tui.widgets.table_view import TableView

if TYPE_CHECKING:  # the dialogs are imported when first opened: not before the first frame
    from tuibench.tui.screens.export_dialog import ExportDone

FILTER_IDLE = 0.15  # seconds without typing before a large set is filtered
# Actions that need loaded results (check_action disables them before).
NEED_RESULTS = {
    *(k.action.split("(")[0] for k in MAIN_KEYS),
    "copy",
    "step_reference",
}
NEED_RESULTS -= {"switch_pane"}  # tab works in any state


# Rows (metrics x systems) up to which the view of the next `s` is made ahead on the loop.
SORT_AHEAD_UP_TO = 50_000


class Analysed(Message):
    """A new analysis after an option of the analysis changed (what stands for an iteration)."""

    def __init__(self, analysis: Any, options: AnalysisOptions, error: str | None) -> None:
        self.analysis, self.options, self.error = analysis, options, error
        super().__init__()


class MainScreen(Navigation, SeriesActions, Live, Loading):
    BINDINGS: ClassVar[list[BindingType]] = bindings(MAIN_KEYS)
    # Textual's own, but a change of focus does not repaint the whole screen: the widgets
    # that gain or lose it are restyled and repainted (their tint), the rest is unchanged
    # (the whole screen was 20-40 ms of enter, escape, tab and / at 120x40)
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        lay_out_once()  # (for every screen of the app, once)
        drawn_lines_freed_at_once()
        super().__init__(*args, **kwargs)
        self.export_format = "csv"
        self._filter_timer: Any = None
        # Typed, not applied yet: once the queued keys are read, or on a large set once
        # typing pauses.
        self._typed_filter: str | None = None

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield NoticeRack(id="notice")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that act on results do nothing until they are loaded."""
        return self.session is not None or action not in NEED_RESULTS

    def action_pick_reference(self) -> None:
        from tuibench.present.answer import places
        from tuibench.tui.screens.reference_picker import ReferencePicker  # dialogs: on use

        self.app.push_screen(
            ReferencePicker(
                self.loaded_session.rs.systems,
                self.wanted.reference,
                places(self.loaded_session.ranking()),
            ),
            lambda name: self.set_reference(name) if name else None,
        )

    def action_step_reference(self, step: int) -> None:
        names = self.loaded_session.systems
        i = names.index(self.wanted.reference)
        self.set_reference(names[(i + step) % len(names)])

    def action_set_alpha(self) -> None:
        from tuibench.tui.screens.number_input import AlphaInput

        self.app.push_screen(
            AlphaInput(self.loaded_session.state.options.alpha),
            lambda alpha: self._change_options(alpha=alpha) if alpha is not None else None,
        )

    def action_toggle_fdr(self) -> None:
        self._change_options(fdr=not self.wanted.options.fdr)

    def action_set_threshold(self) -> None:
        from tuibench.tui.screens.number_input import OFF, ThresholdInput

        def done(value: object) -> None:
            if value is not None:
                self._change_options(threshold=None if value == OFF else value)

        self.app.push_screen(ThresholdInput(self.loaded_session.state.options.threshold), done)

    def _change_options(self, **changes: Any) -> None:
        """Compare with other options of the comparison (alpha, FDR, threshold)."""
        self.update_state(
            self.wanted.with_options(dataclasses.replace(self.wanted.options, **changes))
        )

    # -- options of the analysis: recomputed in a worker --------------------------------
    def action_toggle_trim(self) -> None:
        state = self.loaded_session.state
        kind = "subselection" if state.options.trimmed else "trimmed"
        self.loaded_session.state = state.with_options(
            dataclasses.replace(state.options, iteration_value=kind)
        )
        self._reanalyse_now()

    def action_cycle_iteration_value(self) -> None:
        from tuibench.tui.view.state import ITERATION_LABELS

        kinds = list(ITERATION_LABELS)
        state = self.loaded_session.state
        kind = kinds[(kinds.index(state.options.iteration_value) + 1) % len(kinds)]
        self.loaded_session.state = state.with_options(
            dataclasses.replace(state.options, iteration_value=kind)
        )
        self._reanalyse_now()

    def action_toggle_percent(self) -> None:
        self.update_state(
            dataclasses.replace(
                self.wanted, percent="change" if self.wanted.percent == "gain" else "gain"
            )
        )

    def _reanalyse_now(self) -> None:
        self._update_status()
        self.say("Recomputing the statistics …", timeout=2)
        self.reanalyse(self.loaded_session.state.options)

    @work(thread=True, exclusive=True, group="analyse")
    def reanalyse(self, options: AnalysisOptions) -> None:
        from tuibench.analysis.compare import Analysis
        from tuibench.tui.view.reopen import forget_samples

        rs = self.loaded_session.rs
        try:  # large results' samples are read again, and freed once read
            analysis = Analysis(rs, options, samples_read=lambda _: forget_samples(rs))
        except Exception as exc:  # keep the explorer up; say what happened
            self.post_message(Analysed(None, options, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(Analysed(analysis, options, None))

    def on_analysed(self, message: Analysed) -> None:
        session = self.session
        if session is None or message.options.analysis_key() != (
            session.state.options.analysis_key()
        ):
            return  # an older request: a newer one is on its way
        if message.analysis is not None and message.analysis.rs is not session.rs:
            return  # of results a reload replaced: the reload computes its own
        if message.analysis is None:
            self.say(f"Recomputing failed: {message.error}", severity="error")
            return
        session.set_analysis(message.analysis)
        self.update_state()

    # -- view -----------------------------------------------------------------------------
    def action_filter(self) -> None:
        box = self.query_one("#filter", FilterInput)
        box.display = True
        self.focus_now(box)  # now: keys typed right after `/` belong to the filter

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        """Filter as you type; on a large set once typing pauses, in a worker."""
        session = self.session
        if session is None:
            return
        first = self._typed_filter is None
        self._typed_filter = event.value
        if not self.large:  # at once; keys already queued are taken together
            if first:
                self.call_later(self._filter_typed)
            return
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_IDLE, self._filter_typed)

    def _filter_typed(self) -> None:
        self._filter_timer = None
        value, self._typed_filter = self._typed_filter, None
        if self.session is not None and value is not None and value != self.wanted.filter_text:
            self.update_state(dataclasses.replace(self.wanted, filter_text=value))

    def action_close_filter(self) -> None:
        box = self.query_one("#filter", FilterInput)
        box.display = bool(box.value)
        self.focus_now(self.query_one(BenchTree))

    def action_toggle_significant(self) -> None:
        on_now = not self.wanted.significant_only
        self.update_state(dataclasses.replace(self.wanted, significant_only=on_now))
        if on_now and self._asked is None:  # shown already (a large set says it when shown)
            self._say_if_nothing_significant()

    def action_toggle_answer(self) -> None:
        self.update_state(
            dataclasses.replace(self.wanted, answer_first=not self.wanted.answer_first)
        )
        if not self.current_node.is_root:
            self.go_to(Node())

    def action_cycle_sort(self) -> None:
        self.set_sort(self._next_sort(self.wanted))

    def _next_sort(self, state: ViewState) -> str:
        keys = sort_keys(self.loaded_session.systems, state.reference)
        i = keys.index(state.sort) if state.sort in keys else -1
        return keys[(i + 1) % len(keys)]

    def _next_ahead(self) -> None:
        """Once the keys rest: the next `n`'s nodes (Navigation), then the view `s` would
        show, made ahead (`Session.ahead`) where that is quick: a key typed meanwhile
        waits for it (at 40,000 rows 13-15 ms with the answer in the pane, 14-30 ms with
        a group's table)."""
        super()._next_ahead()
        session = self.session
        if session is None or self._computing or self._asked is not None:
            return
        if len(session.metrics) * len(session.systems) > SORT_AHEAD_UP_TO:
            return
        state = session.state
        with contextlib.suppress(Exception):  # `s` computes it again and says what failed
            node = self.query_one(DetailPane).node or self.current_node
            session.ahead(dataclasses.replace(state, sort=self._next_sort(state)), node)

    def set_sort(self, sort: str) -> None:
        """Order the tree and the tables (a click on a table's header sorts by its column)."""
        if self.session is not None:
            self.update_state(dataclasses.replace(self.wanted, sort=sort))
            # in the key's frame (a toast came in a frame of its own, 20-50 ms later)
            say_now(self.app, f"Tree and tables: {sort_label(sort)}", timeout=2)

    def on_table_view_sort_by(self, event: TableView.SortBy) -> None:
        if self.session is None:
            return
        column = event.column
        if column == "metric":
            self.set_sort("name")
        elif (
            column in self.loaded_session.systems and column != self.loaded_session.state.reference
        ):
            self.set_sort(f"system:{column}")
        else:
            self.set_sort("natural")

    # -- tables ---------------------------------------------------------------------------
    def action_mark(self) -> None:
        node = self.current_node
        done = self.loaded_session.toggle_mark(node)
        if done is None:
            self.say("Nothing to mark here.", severity="warning")
            return
        what, mark = done
        self.update_state()
        n = len(self.loaded_session.state.marks)
        self.say(
            f"{what.capitalize()}: {mark.table.title} ({n} marked; m lists them)",
            timeout=3,
        )

    def action_show_marked(self) -> None:
        from tuibench.tui.screens.marked import MarkedScreen

        def done(result: str | None) -> None:
            self.update_state()
            if result == "export":
                self.action_export(marked_first=True)

        self.app.push_screen(MarkedScreen(self.loaded_session.state.marks, self.update_state), done)

    def action_export(self, marked_first: bool = False) -> None:
        from tuibench.tui.screens.export_dialog import ExportDialog, ExportRequest
        from tuibench.tui.view.export_files import filter_line, marked_shareables, shareable

        if self.session is None:
            self.say("Nothing is loaded: nothing to export.", severity="warning")
            return
        session, node = self.session, self.current_node
        table = session.current_table(node)
        marks = list(session.state.marks)
        if table is None and not marks:
            self.say("Nothing to export here.", severity="warning")
            return
        facts = self.run_facts()

        def shareables(marked: bool) -> list:
            if marked:
                return marked_shareables(marks, facts)
            assert table is not None  # asked for only when there is a current table
            cmp, whole = session.comparison_under(node), session.whole_under(node)
            heads = filter_line(session.state.filter_text)
            return [shareable(node, cmp, table.title, facts, whole, heads)]

        request = ExportRequest(
            current=(node, table) if table is not None else None,
            marks=marks,
            reference=session.state.reference,
            export_dir=self.view_options.export_dir,
            result_paths=self.paths,
            shareables=shareables,
            fmt=self.export_format,
            marked_first=marked_first,
        )

        def done(result: ExportDone | None) -> None:
            if result is None:
                return
            self.export_format = result.fmt
            what = "table" if result.tables == 1 else f"{result.tables} tables"
            if result.fmt == "html":
                what = "the report"
            self.say(f"Wrote {what} as {result.fmt} to {result.path}", timeout=8)

        self.app.push_screen(ExportDialog(request), done)

    def run_facts(self) -> list[tuple[str, str]]:
        from tuibench.output.shareable import run_facts

        return run_facts(self.paths, self.options.subselections, self.options.seed)

    def action_copy(self, what: str = "markdown") -> None:
        """Copy the current table (Markdown or TSV) or row through OSC 52."""
        if what == "markdown" and self.query_one(DetailPane).mode == "answer":
            self._copy_answer()
            return
        node = self.current_node
        table = self.loaded_session.current_table(node)
        if table is None:
            self.say("Nothing to copy here.", severity="warning")
            return
        from tuibench.output.rendering import render_shareable
        from tuibench.output.shareable import row_sentences
        from tuibench.tui.view.export_files import copy_notice, filter_line, shareable

        if what == "row":
            row = self.row_node()
            if row is None:
                self.say("No row is chosen here: pick a metric in the tree or a row below.")
                return
            text = row_sentences(self.loaded_session.comparison_under(row))
            label = f"the row of {row.title()} in words"
        else:
            cmp, whole = (
                self.loaded_session.comparison_under(node),
                self.loaded_session.whole_under(node),
            )
            heads = filter_line(self.loaded_session.state.filter_text)
            share = shareable(node, cmp, table.title, self.run_facts(), whole, heads)
            text = render_shareable(share, what)
            label = f"{table.title} as {'Markdown' if what == 'markdown' else 'TSV'}"
        self.app.copy_to_clipboard(text)
        self.say(copy_notice(label, text), timeout=10)

    def _copy_answer(self) -> None:
        """`y` on the answer: the answer as shown (counts, warnings, changes), as Markdown."""
        from tuibench.output.answer_markdown import answer_markdown
        from tuibench.tui.view.export_files import copy_notice, filter_line

        session = self.loaded_session
        ranking = session.ranking() if len(session.systems) > 2 else []
        heads = [*session.reference_note(), *filter_line(session.state.filter_text, True)]
        text = answer_markdown(session.answer(), ranking, heads)
        self.app.copy_to_clipboard(text)
        self.say(copy_notice("the answer as Markdown", text), timeout=10)

    def row_node(self) -> Node | None:
        """The metric of the current row: the tree's metric, or the row under the cursor of
        the answer or a summary."""
        node = self.current_node
        if node.is_metric:
            return node
        target = self.query_one(DetailPane).cursor_target()
        return None if target is None else target.cursor_node

    def action_copy_menu(self) -> None:
        from tuibench.tui.screens.copy_menu import CopyMenu

        self.app.push_screen(
            CopyMenu(has_row=self.row_node() is not None),
            lambda what: self.action_copy(what) if what else None,
        )
