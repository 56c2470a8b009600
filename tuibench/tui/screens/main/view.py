"""The main screen's state and view: the update path, the panes.

`MainView` owns what the explorer shows: the paths and options it was started with, the
loaded `Session`, and the path from a changed `ViewState` to the screen (`update_state`,
`refresh_view`). Loading the results is loading.py's (`Loading`); the keys' actions are in
screen.py (`MainScreen`), navigation.py and series_actions.py, which build on this class.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from tuibench import process_settings
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.model.problems import Problem
from tuibench.tui import textual_adapter
from tuibench.tui.keys import FOCUS_KEYS, key_by_id, key_label
from tuibench.tui.notices import say
from tuibench.tui.palette import Palette, palette_for
from tuibench.tui.screens.main.help_ahead import HelpAhead
from tuibench.tui.terminal import first_frame
from tuibench.tui.view.pending import status_words
from tuibench.tui.view.state import Node, ViewState, sort_label
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.filter_input import FilterInput
from tuibench.tui.widgets.key_footer import KeyFooter
from tuibench.tui.widgets.status_line import StatusLine
from tuibench.util.text import printable

if TYPE_CHECKING:  # polars and scipy load in the worker: the first frame comes first
    from textual.widget import Widget

    from tuibench.present.series_view import SeriesModel
    from tuibench.tui.content.picture import Picture
    from tuibench.tui.view.session import Session, Shown

NARROW = 100  # below this width the tables take the whole width while they have the focus
BACKGROUND_FROM = 200_000  # comparison rows from which a reference switch or a filter runs
# in a worker


class MainView(Screen):
    """The tree of benchmarks and metrics, the detail pane, the status line and the footer."""

    series_model: SeriesModel | None = None  # made by SeriesActions

    def __init__(self, paths: list[str], options: AnalysisOptions, view: ViewOptions) -> None:
        super().__init__()
        self.paths = [str(p) for p in paths]
        self.options = options  # as the command line gave them: the first view's
        self.view_options = view
        self.session: Session | None = None
        self.picture: Picture | None = None  # a first open's, drawn until the session comes
        self.problems: list[Problem] = []
        self.set_aside: str | None = None  # the one line of files that are not results
        self.loaded = False  # True once loading finished, whatever its outcome
        self.zoomed = False
        self._back: list[tuple[Node, int]] = []  # where escape in the tables goes back to
        # Changes of the view asked for on a large set and not shown yet: a worker computes
        # them (`wanted`); keys read and change the wanted state, so they never act twice.
        self._asked: ViewState | None = None
        self._computing = False  # one worker at a time; it starts the next when it is done
        self.stop_loading = threading.Event()
        self.loader: threading.Thread | None = None
        self.progress_from = 0.0  # time.monotonic() from which the load's progress shows
        # Set once the first frame with results is drawn: the work ahead waits for it, so
        # that it does not take the interpreter from that frame.
        self.first_shown = threading.Event()
        self.picture_posted = threading.Event()  # a first open's picture came
        self.picture_drawn = threading.Event()  # ... and is drawn (or was not)
        self.ahead = ""  # what the loading thread still works ahead on, in words
        self.help_ahead = HelpAhead(self)  # the help of the place, rendered ahead

    def say(self, message: str, **kwargs: Any) -> None:
        say(self.app, message, **kwargs)

    def focus_now(self, widget: Widget) -> None:
        """Focus `widget` now (`widget.focus()` waits for the next turn of the loop, and the
        keys already queued would go to the old focus)."""
        self.set_focus(widget)

    @property
    def loaded_session(self) -> Session:
        """The session, for the code that runs only once results are loaded (the keys that
        need them are idle before: `check_action`)."""
        assert self.session is not None, "used before the results were loaded"
        return self.session

    def ensure_series(self, asked: bool = False) -> None:
        """The series analysis follows the view: SeriesActions starts it."""

    def load_results(self) -> None:
        """Loading (loading.py) starts here, once the screen is mounted."""

    # Live results (live.py) hook in here: watching, the status line's words, marks seen.
    def prepare_watch(self) -> dict[str, int] | None:
        return None

    def start_watching(self) -> None:
        pass

    def stop_watching(self) -> None:
        pass

    def live_status(
        self, options: list[tuple[str, str]], chance: str | None
    ) -> list[tuple[str, str]]:
        return options + ([("", chance)] if chance else [])

    def mark_seen(self, node: Node) -> None:
        pass

    def on_mount(self) -> None:
        self.query_one("#main").display = False
        self.query_one("#filter").display = False
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh_view())
        self._update_status()
        self.load_results()
        # A replayed first frame (terminal/first_frame.py) gives way to the loading screen
        # if the results take longer than they did.
        copy = textual_adapter.terminal_copy(self.app)
        self.set_timer(first_frame.HOLD_UP_TO, lambda: textual_adapter.release(self.app, copy))

    def on_unmount(self) -> None:
        self.stop_loading.set()
        self.stop_watching()

    @property
    def results_label(self) -> str:
        """The results path as the user gave it."""
        return " ".join(self.paths)

    @property
    def root_label(self) -> str:
        """The tree's root: the one results path, or what several paths make together."""
        return self.paths[0] if len(self.paths) == 1 else "all benchmarks"

    @property
    def palette(self) -> Palette:
        return palette_for(self.app.current_theme.dark)

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Vertical(id="loading"):
            yield Static(Text(f"Loading {printable(self.results_label)} …"), id="loading-text")
            yield ProgressBar(id="loading-bar", show_eta=False)
            yield Static(id="loading-file")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BenchTree(id="tree")
                yield FilterInput(placeholder="filter: name, or glob with * ? [ ]", id="filter")
            yield DetailPane(id="pane")
        yield KeyFooter(id="footer")

    # -- the update path ----------------------------------------------------------------
    @property
    def wanted(self) -> ViewState:
        """The view state the keys pressed so far ask for (ahead of the screen while a
        worker computes it on a large set)."""
        return self._asked or self.loaded_session.state

    def update_state(self, state: ViewState | None = None) -> None:
        """Show `state` (a changed copy of `wanted`; None: the current state again) everywhere.
        On a large set, or at an alpha whose tables are not solved yet, a change is computed
        in a worker: keys keep working, and the screen changes at once when it is done."""
        session = self.session
        if session is None:
            return
        if state is not None and (self.large or self._solves_a_table(state)):
            self._asked = state
            self._compute_wanted()
            self._update_status()
            return
        before = session.state
        session.state = state or before
        try:
            session.recompute()
        except Exception as exc:  # one comparison's bug must not take the explorer down
            session.state = before
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            self.say(f"Comparing failed: {type(exc).__name__}: {first}", severity="error")
        self.refresh_view()

    def refresh_view(self) -> None:
        self._update_status()
        session = self.session
        if session is None:
            return
        tree = self.query_one(BenchTree)
        if not tree.shows(session):
            tree.build(session, self.palette, self.root_label)
        else:
            tree.relabel(session, self.palette)
        self.query_one(DetailPane).show(tree.current, session, self.palette)
        self.ensure_series()

    @property
    def drawn_from(self) -> Session | Picture | None:
        """What the screen draws: the session, or before it a first open's picture."""
        return self.session or self.picture

    def _update_status(self) -> None:
        self.update_footer()
        session = self.drawn_from
        status = self.query_one(StatusLine)
        if session is None:
            status.show(self.results_label, [], None, len(self.problems), self.palette)
            return
        s = session.state
        # A worker computes it, or the loader works ahead: say what comes.
        pending = status_words(s, self._asked, self.ahead)
        # The options that change the verdicts (threshold, FDR, filter ...) beside ref, α
        # and it, before what a line cut at 80 columns may lose.
        status.show(
            self.results_label,
            ([("", pending)] if pending else []) + s.status() + s.option_labels(),
            len(session.systems),
            len(self.problems),
            self.palette,
            self.live_status([], session.chance()),
        )

    def focus_place(self) -> str:
        """Where the focus is, as FOCUS_KEYS names it: the keys of the footer and the help."""
        focused = self.focused
        if isinstance(focused, FilterInput):
            return "filter"
        if isinstance(focused, DetailPane):
            return focused.mode if focused.mode in FOCUS_KEYS else "metric"
        return "tree"

    def update_footer(self) -> None:
        """The toggles' state in words, and the keys of the place with the focus."""
        try:
            footer = self.query_one(KeyFooter)
        except (NoMatches, IndexError):  # closing
            return
        help_key = (key_label(self.app, key_by_id("tuibench.help", "tree")), "help")
        if self.drawn_from is None:
            footer.show([], [("q", "quit"), ("p", "problems")], help_key, self.palette)
            return
        state = self.drawn_from.state
        toggles = [
            ("f", "significant only", "on" if state.significant_only else "off"),
            ("s", "", sort_label(state.sort, short=True)),
        ]
        if state.options.fdr:
            toggles.append(("d", "FDR", "on"))
        place = self.focus_place()
        keys = [
            key_by_id(key_id, place) for key_id in FOCUS_KEYS[place] if self.key_applies(key_id)
        ]
        # the first of a key's keys is enough here (the help lists them all)
        shown = [
            (key_label(self.app, key).split(" / ")[0], key.description.lower()) for key in keys
        ]
        footer.show(toggles, shown, help_key, self.palette)
        if self.session is not None:  # not while a picture stands: the imports go first
            self.help_ahead.rest(place)

    def key_applies(self, key_id: str) -> bool:
        """Whether the footer lists a key that only some places or sets have a use for."""
        session = self.drawn_from
        if session is None:
            return True
        if key_id == "tuibench.series":  # a series of two is only a pair
            return len(session.systems) >= 3
        if key_id == "tuibench.scaling":
            node, model = self.current_node, self.series_model
            return node.is_metric and model is not None and bool(model.families_of(node.benchmark))
        if key_id == "tuibench.fdr":  # shown as a toggle when on
            return not session.state.options.fdr and len(session.metrics) >= 2
        return True

    @on(BenchTree.NodeHighlighted)
    def _on_highlight(self, event: BenchTree.NodeHighlighted) -> None:
        if self.session is not None and event.node.data is not None and self.app.screen_stack:
            pane = self.query_one(DetailPane)
            if pane.node != event.node.data:
                pane.show(event.node.data, self.session, self.palette)
                self.update_footer()
                self.mark_seen(event.node.data)

    @on(BenchTree.Opened)
    def _on_open(self, event: BenchTree.Opened) -> None:
        self.focus_now(self.query_one(DetailPane))

    # -- panes ----------------------------------------------------------------------------
    def action_switch_pane(self) -> None:
        if len(self.app.screen_stack) > 1:  # in a dialog: its next field
            self.screen.focus_next()
            return
        if self.session is None:
            return
        pane = self.query_one(DetailPane)
        if pane.has_focus:
            self.zoomed = False
            self._show_left(True)  # a hidden tree cannot take focus
            self.focus_now(self.query_one(BenchTree))
        else:
            self.focus_now(pane)

    def action_zoom(self) -> None:
        """Hide the tree (the tables take the width), or show it again with the focus."""
        left = self.query_one("#left")
        if left.display:
            self.zoomed = True
            self.focus_now(self.query_one(DetailPane))
        else:
            self.zoomed = False
            self._show_left(True)
            self.focus_now(self.query_one(BenchTree))
        self._arrange()

    def on_descendant_focus(self) -> None:
        self._arrange()
        self.update_footer()

    def on_resize(self, event: events.Resize) -> None:
        self._arrange(event.size.width)  # `self.size` still holds the previous size here

    def _arrange(self, width: int | None = None) -> None:
        """Hide the tree when zoomed, or when the terminal is narrow and the tables have the
        focus."""
        try:
            pane = self.query_one(DetailPane)
            left = self.query_one("#left")
        except (NoMatches, IndexError):  # not composed yet, or closing
            return
        narrow = (width or self.size.width) < NARROW
        hide = self.drawn_from is not None and (self.zoomed or (narrow and pane.has_focus))
        if left.display == hide:
            self._show_left(not hide, width)

    def _show_left(self, shown: bool, width: int | None = None) -> None:
        """Show or hide the tree's column, the pane's tables fitted to the width they get
        (after the layout, they were laid out again in a frame of their own)."""
        left = self.query_one("#left")
        if left.display != shown:
            self.query_one(DetailPane).fit_beside(left, shown, width or self.size.width)
            left.display = shown

    @property
    def current_node(self) -> Node:
        return self.query_one(BenchTree).current

    # -- reference and alpha ------------------------------------------------------------
    @property
    def large(self) -> bool:
        """Whether a new comparison or filter is computed in a worker (keys keep working)."""
        session = self.session
        return session is not None and len(session.metrics) * len(session.systems) >= (
            BACKGROUND_FROM
        )

    def set_reference(self, name: str) -> None:
        if self.session is None or name not in self.session.systems:
            return
        if name == self.wanted.reference:
            return
        if self.large:
            self.say(f"Comparing against {name} …", timeout=2)
        self.update_state(dataclasses.replace(self.wanted, reference=name))

    @staticmethod
    def _solves_a_table(state: ViewState) -> bool:
        """Whether comparing at `state`'s alpha first solves a table of the power (0.1 to
        0.65 s, once per alpha): a worker does it, on a small set too."""
        from tuibench.stats import power

        options = state.options
        return not power.solved(options.alpha, effects=options.threshold is not None)

    def _compute_wanted(self) -> None:
        """Compute what the keys ask for in a worker, unless one is busy: it starts again
        with whatever was asked meanwhile when it is done (never two comparisons at once)."""
        if not self._computing:
            self._computing = True
            self._compute_in_background(self.wanted)

    @work(thread=True, group="compare")
    def _compute_in_background(self, state: ViewState) -> None:
        """What `state` shows, and what its first frame draws, away from the keys."""
        session = self.loaded_session
        try:
            computed = session.compute(state)
            if trim := process_settings.heap_trimmer():  # the comparison's temporaries
                trim()  # given back before the answer's (a million metrics: 0.2 GB)
            computed = session.prepare(state, computed)
        except Exception as exc:  # keep the explorer up; say what happened
            self.app.call_from_thread(self._compute_failed, exc)
            return
        self.app.call_from_thread(self._install_computed, state, computed)

    def _say_if_nothing_significant(self) -> None:
        if not len(self.loaded_session.visible_ids):
            matching = " matching the filter" if self.loaded_session.state.filter_text else ""
            self.say(f"No metric{matching} changed significantly against this reference.")

    def _compute_failed(self, exc: Exception) -> None:
        self._computing = False
        self._asked = None  # the keys act on what is shown again
        self._update_status()
        self.say(f"Comparing failed: {exc}", severity="error")

    def _install_computed(self, state: ViewState, computed: Shown) -> None:
        self._computing = False
        if self.session is None:
            return
        meanwhile = self.wanted
        if meanwhile != state:  # something changed during the computation: once more
            self._compute_wanted()
            return
        before = self.session.state
        self._asked = None
        self.session.install(meanwhile, computed)
        self.refresh_view()
        if state.significant_only and not before.significant_only:
            self._say_if_nothing_significant()
