"""The explorer: `tuibench results/`.

The first frame appears at once; loading and the analysis run in a thread that
reports progress. Every key changes `ViewState`, then `Session.recompute()` and
`refresh_view()` update everything on screen: one path, whatever the option.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import os
import signal
import sys
import threading
import time
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, ProgressBar, Static

from tuibench.core.problems import Problem
from tuibench.core.set_aside import set_aside_line
from tuibench.core.text import printable
from tuibench.tui import worker_pool
from tuibench.tui.commands import TuibenchCommands
from tuibench.tui.export_files import copy_notice, marked_shareables, shareable
from tuibench.tui.keys import APP_KEYS, FOCUS_KEYS, bindings, key_by_id, key_label
from tuibench.tui.navigation import Navigation
from tuibench.tui.palette import Palette, palette_for
from tuibench.tui.pending import pending_words
from tuibench.tui.quitting import Quitting
from tuibench.tui.screens.copy_menu import CopyMenu
from tuibench.tui.screens.export_dialog import ExportDialog, ExportDone, ExportRequest
from tuibench.tui.screens.help import HelpScreen
from tuibench.tui.screens.marked import MarkedScreen, MarksChanged
from tuibench.tui.screens.number_input import OFF, AlphaInput, ThresholdInput
from tuibench.tui.screens.problems import ProblemsScreen
from tuibench.tui.screens.reference_picker import ReferencePicker
from tuibench.tui.series_actions import SeriesActions
from tuibench.tui.state import Node, ViewState, sort_keys, sort_label
from tuibench.tui.terminal_watch import CHECK_EVERY, input_gone
from tuibench.tui.typeahead import TypeAhead
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.key_footer import KeyFooter
from tuibench.tui.widgets.status_line import StatusLine
from tuibench.tui.widgets.still_input import StillInput
from tuibench.tui.widgets.table_view import TableView

if TYPE_CHECKING:  # polars and scipy load in the worker: the first frame comes first
    from tuibench.core.compare import Analysis
    from tuibench.core.model import ResultSet
    from tuibench.tui.session import Session

PROGRESS_EVERY = 0.05  # seconds between progress updates from the loading thread
SIGNAL_GRACE = 3.0  # seconds a signal leaves for restoring the terminal before a hard exit
NARROW = 100  # below this width the tables take the whole width while they have the focus
BACKGROUND_FROM = 200_000  # comparison rows from which a reference switch or a filter runs
# in a worker
FILTER_IDLE = 0.15  # seconds without typing before a large set is filtered


class LoadProgress(Message):
    def __init__(self, done: int, total: int, what: str) -> None:
        self.done, self.total, self.what = done, total, what
        super().__init__()


class Loaded(Message):
    def __init__(
        self,
        rs: ResultSet | None,
        analysis: Analysis | None,
        error: str | None = None,
        session: Session | None = None,
    ) -> None:
        self.rs, self.analysis, self.error, self.session = rs, analysis, error, session
        super().__init__()


class Analysed(Message):
    """A new analysis after an option of the analysis changed (outlier trimming)."""

    def __init__(self, analysis: Analysis | None, options: dict, error: str | None) -> None:
        self.analysis, self.options, self.error = analysis, options, error
        super().__init__()


class FilterInput(StillInput):
    """`/` in the tree: filters as you type; enter keeps it, escape clears it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", id="tuibench.filter.clear")
    ]

    def action_clear_filter(self) -> None:
        self.value = ""
        self.app.action_close_filter()


class TuibenchApp(Quitting, Navigation, TypeAhead, SeriesActions, App[int]):
    CSS_PATH = "tuibench.tcss"
    TITLE = "tuibench"
    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings(APP_KEYS),
        # ctrl+c quits from anywhere, also from a text field (whose own ctrl+c would copy)
        Binding("ctrl+c", "quit", show=False, priority=True, id="tuibench.quit.anywhere"),
        # The palette in turn with the keys typed before it (Textual's own binding takes
        # priority: `q` then ctrl+p opened the palette over an app that was quitting)
        Binding("ctrl+p", "command_palette", show=False, id="tuibench.palette"),
    ]
    COMMANDS = App.COMMANDS | {TuibenchCommands}

    def __init__(
        self,
        paths: list[str],
        *,
        reference: str | None = None,
        alpha: float = 0.05,
        subselections: int = 100,
        seed: int = 0,
        export_dir: str = ".",
        theme: str | None = None,
        fdr: bool = False,
        threshold: float | None = None,
        trim_outliers: bool = False,
        iteration_value: str = "subselection",
        percent: str = "gain",
        trust_single_iteration: bool = False,
    ) -> None:
        super().__init__()
        self.paths = [str(p) for p in paths]
        self.requested_reference = reference
        self.initial_alpha = alpha
        self.subselections = subselections
        self.seed = seed
        self.export_dir = export_dir
        self.requested_theme = theme
        self.initial_options = {
            "fdr": fdr,
            "threshold": threshold,
            "iteration_value": "trimmed" if trim_outliers else iteration_value,
            "percent": percent,
            "trust_single_iteration": trust_single_iteration,
        }
        self.session: Session | None = None
        self.problems: list[Problem] = []
        self.set_aside: str | None = None  # the one line of files that are not results
        self.loaded = False  # True once loading finished, whatever its outcome
        self.export_format = "csv"
        self.zoomed = False
        self._back: list[tuple[Node, int]] = []  # where escape in the tables goes back to
        self._pending: list[str] = []  # keys typed while loading
        # Changes of the view asked for on a large set and not shown yet: a worker computes
        # them (`wanted`); keys read and change the wanted state, so they never act twice.
        self._asked: dict[str, object] = {}
        self._computing = False  # one worker at a time; it starts the next when it is done
        self._filter_timer = None
        # Typed, not applied yet: once the queued keys are read, or on a large set once
        # typing pauses.
        self._typed_filter: str | None = None
        self.stop_loading = threading.Event()
        self.crash: Exception | None = None  # an unhandled exception that ended the app
        self.loader: threading.Thread | None = None

    def get_driver_class(self):
        """Textual's own driver, but where a lone escape acts within ESCDELAY (driver.py)."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:
            from tuibench.tui.driver import PromptEscapeDriver

            return PromptEscapeDriver
        return driver

    def say(self, message: str, **kwargs) -> None:
        """A notification whose text is shown as it is (names from data hold brackets) and
        with control characters escaped (names are data)."""
        if "title" in kwargs:
            kwargs["title"] = printable(kwargs["title"])
        self.notify(printable(message), markup=False, **kwargs)

    @property
    def results_label(self) -> str:
        """The results path as the user gave it."""
        return " ".join(self.paths)

    @property
    def root_label(self) -> str:
        """The tree's root: the one results path, or what several paths make together."""
        return self.paths[0] if len(self.paths) == 1 else "all benchmarks"

    @property
    def main(self) -> Screen:
        """The main screen (tree and tables), also while a dialog is open over it."""
        return self.screen_stack[0]

    @property
    def palette(self) -> Palette:
        return palette_for(self.current_theme.dark)

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
                yield FilterInput(placeholder="filter: name, or glob with * ?", id="filter")
            yield DetailPane(id="pane")
        yield KeyFooter(id="footer")

    def on_mount(self) -> None:
        if self.requested_theme:
            if self.requested_theme in self.available_themes:
                self.theme = self.requested_theme
            else:
                self.say(
                    f"Unknown theme {self.requested_theme!r}; themes are: "
                    + ", ".join(sorted(self.available_themes)),
                    severity="warning",
                )
        self.main.query_one("#main").display = False
        self.main.query_one("#filter").display = False
        self.theme_changed_signal.subscribe(self, lambda _theme: self.refresh_view())
        # Back from SIGTSTP (`fg`): the terminal was left and re-entered blank; draw it all
        # now rather than on the next key.
        self.app_resume_signal.subscribe(self, lambda _app: self.refresh(layout=True))
        self._update_status()
        self._exit_on_signals()
        self._exit_when_terminal_gone()
        worker_pool.install(asyncio.get_running_loop())
        self.load_results()

    def _exit_on_signals(self) -> None:
        """SIGTERM, SIGHUP and SIGINT (sent by `kill`: typed, ctrl+c is a key) leave like `q`
        does: Textual then restores the terminal (alternate screen off, mouse tracking off,
        cursor shown) before the process ends, with 128 + the signal's number."""
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP", "SIGINT"):
            sig = getattr(signal, name, None)
            if sig is None:  # not on this platform
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                signal.signal(sig, partial(self._leave_on_signal, loop))

    def _exit_when_terminal_gone(self) -> None:
        """Leave as on a hang-up when the terminal closes without one (terminal_watch)."""
        if self.is_headless or sys.__stdin__ is None:
            return
        fd = sys.__stdin__.fileno()

        def look() -> None:
            if input_gone(fd):
                self._leave_on_signal(asyncio.get_running_loop(), signal.SIGHUP, None)

        self.set_interval(CHECK_EVERY, look)

    def _leave_on_signal(self, loop: asyncio.AbstractEventLoop, sig: int, _frame) -> None:
        code = 128 + sig
        self.quitting = True  # at once: keys the loop reads before it exits do nothing
        # After a hang-up the terminal is gone and restoring it can block on the dead tty:
        # never outlive the signal by more than a moment. (A plain handler, not the loop's,
        # so that this runs even while the loop is stuck.)
        watchdog = threading.Timer(SIGNAL_GRACE, os._exit, args=(code,))
        watchdog.daemon = True
        watchdog.start()
        loop.call_soon_threadsafe(partial(self.exit, return_code=code))

    def on_unmount(self) -> None:
        self.stop_loading.set()

    def _handle_exception(self, error: Exception) -> None:
        """A bug: Textual exits the app; `run` then prints one line instead of a traceback
        (kept with TEXTUAL=debug)."""
        self.crash = error
        super()._handle_exception(error)
        if "debug" not in self.features:
            self._exit_renderables.clear()

    # -- loading ------------------------------------------------------------------------
    def load_results(self) -> None:
        """Load in a daemon thread: quitting never waits for it. `stop_loading` makes the
        next file's progress call raise LoadCancelled, so the work also stops soon."""
        self.loader = threading.Thread(target=self._load, name="tuibench-load", daemon=True)
        self.loader.start()

    def _load(self) -> None:
        from tuibench.core.load import LoadCancelled

        last = [0.0]

        def progress(done: int, total: int, path: str) -> None:
            if self.stop_loading.is_set():
                raise LoadCancelled
            now = time.monotonic()
            if done == total or now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                self.post_message(LoadProgress(done, total, path))

        try:
            from tuibench.core.compare import Analysis
            from tuibench.core.load import load

            rs = load(self.paths, progress=progress)
            analysis = session = None
            if not rs.empty:
                self.post_message(LoadProgress(-1, 0, "computing statistics"))
                kind = self.initial_options["iteration_value"]
                analysis = Analysis(rs, self.subselections, self.seed, iteration_value=kind)
                session = self._first_session(rs, analysis)
        except LoadCancelled:
            return
        except Exception as exc:  # a bug in a reader must not take the explorer down
            self.post_message(Loaded(None, None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(Loaded(rs, analysis, session=session))
        if analysis is not None:  # while the first screen is read: later switches stay cheap
            analysis.prepare_references(stop=self.stop_loading.is_set)

    def _first_session(self, rs: ResultSet, analysis: Analysis) -> Session:
        """The session of the first screen, with what it draws first (the tree's shape, the
        answer and its per-system summary), made here in the loading thread: at a few
        hundred thousand metrics that takes seconds the keys must not wait for."""
        from tuibench.tui.session import Session

        reference = self.requested_reference or rs.default_reference
        if reference not in rs.system_names:  # on_loaded says so
            reference = rs.system_names[0]
        state = ViewState(reference=reference, alpha=self.initial_alpha, **self.initial_options)
        session = Session(rs, analysis, state)
        session.reference_requested = self.requested_reference is not None
        session.install(state, session.prepare(state, session.compute(state)))
        return session

    def on_load_progress(self, message: LoadProgress) -> None:
        bar = self.main.query_one("#loading-bar", ProgressBar)
        label = self.main.query_one("#loading-file", Static)
        if message.done < 0:
            label.update(Text(message.what + " …"))
            return
        bar.update(total=max(message.total, 1), progress=message.done)
        what = printable(message.what)
        label.update(Text(f"{message.done} / {message.total} files  {what}", style="dim"))

    def on_loaded(self, message: Loaded) -> None:
        self.loaded = True
        if message.error or message.rs is None:
            self._show_failure(Text(f"Loading failed: {message.error}"))
            return
        rs = message.rs
        self.problems = list(rs.problems)
        self.set_aside = set_aside_line(rs.set_aside)
        if rs.empty or message.analysis is None:
            self._show_failure(self._nothing_loaded_text())
            return
        reference = self.requested_reference or rs.default_reference
        if reference not in rs.system_names:
            self.say(
                f"No system is called {reference!r}; comparing against "
                f"{rs.system_names[0]}. Systems: {', '.join(rs.system_names)}",
                title="Unknown reference",
                severity="warning",
                timeout=8,
            )
        if len(rs.system_names) == 1:
            self.say(
                f"Only one system ({rs.system_names[0]}): nothing to compare it with. Give a "
                "folder with one sub-folder per system, or several paths (one per system).",
                title="One system",
                severity="warning",
                timeout=10,
            )
        self.session = message.session
        self.main.query_one("#loading").display = False
        self.main.query_one("#main").display = True
        tree = self.main.query_one(BenchTree)
        tree.build(self.session, self.palette, self.root_label)
        self.refresh_view()
        self.focus_now(self.main.query_one(DetailPane))  # the answer, with its cursor
        self._replay_pending_keys()
        self._prepare_comparisons(self.session)
        # What is loaded lives until the end: keep it out of the collector's full passes,
        # which otherwise stall a reference switch now and then for 100 ms or more.
        gc.collect()
        gc.freeze()

    @work(thread=True, group="prepare")
    def _prepare_comparisons(self, session: Session) -> None:
        """The other references compared ahead, once the loader has its U tests ready."""
        if self.large:  # switches run in a worker anyway; keep the memory
            return
        while self.loader is not None and self.loader.is_alive():
            if self.stop_loading.wait(0.1):  # quitting
                return
        with contextlib.suppress(Exception):  # work ahead: a switch says what failed
            session.prepare_comparisons(stop=self.stop_loading.is_set)

    def _nothing_loaded_text(self) -> Text:
        text = Text()
        text.append(f"Nothing could be loaded from {printable(self.results_label)}.\n\n", "bold")
        n = len(self.problems)
        if n:
            text.append(f"{n} problem{'s' if n != 1 else ''}: press ")
            text.append("p", "bold")
            text.append(" to list them. The first:\n\n")
            text.append(str(self.problems[0]) + "\n")
        text.append(
            "\ntuibench reads a folder with one sub-folder per system, a tidy file with a "
            "'system' column, or several paths (one per system). `tuibench inspect PATH` "
            "shows what was found.",
            style="dim",
        )
        return text

    def _show_failure(self, text: Text) -> None:
        self.main.query_one("#loading-bar").display = False
        self.main.query_one("#loading-file").display = False
        self.main.query_one("#loading-text", Static).update(text)
        self._update_status()

    # -- the one update path ------------------------------------------------------------
    @property
    def wanted(self) -> ViewState:
        """The view state the keys pressed so far ask for (ahead of the screen while a
        worker computes it on a large set)."""
        return dataclasses.replace(self.session.state, **self._asked)

    def update_state(self, **changes: object) -> None:
        """Change the view state, recompute, and show the result everywhere. On a large set
        a change is computed in a worker: keys keep working, and the screen changes at once
        when it is done."""
        if self.session is None:
            return
        if changes and self.large:
            self._asked.update(changes)
            self._compute_wanted()
            self._update_status()
            return
        state = self.session.state
        before = {name: getattr(state, name) for name in changes}
        for name, value in changes.items():
            setattr(state, name, value)
        try:
            self.session.recompute()
        except Exception as exc:  # one comparison's bug must not take the explorer down
            for name, value in before.items():
                setattr(state, name, value)
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            self.say(f"Comparing failed: {type(exc).__name__}: {first}", severity="error")
        self.refresh_view()

    def refresh_view(self) -> None:
        self._update_status()
        session = self.session
        if session is None:
            return
        tree = self.main.query_one(BenchTree)
        if not tree.shows(session):
            tree.build(session, self.palette, self.root_label)
        else:
            tree.relabel(session, self.palette)
        self.main.query_one(DetailPane).show(tree.current, session, self.palette)
        self.ensure_series()

    def _update_status(self) -> None:
        self.update_footer()
        session = self.session
        status = self.main.query_one(StatusLine)
        if session is None:
            status.show(self.results_label, [], None, len(self.problems), self.palette)
            return
        s = session.state
        pending = pending_words(s, self._asked)  # a worker computes it: say what comes
        status.show(
            self.results_label,
            ([("", pending)] if pending else []) + s.status(),
            len(session.systems),
            len(self.problems),
            self.palette,
            s.options() + ([("", chance)] if (chance := session.chance()) else []),
        )

    def focus_place(self) -> str:
        """Where the focus is, as FOCUS_KEYS names it: the keys of the footer and the help."""
        focused = self.main.focused
        if isinstance(focused, FilterInput):
            return "filter"
        if isinstance(focused, DetailPane):
            return focused.mode if focused.mode in FOCUS_KEYS else "metric"
        return "tree"

    def update_footer(self) -> None:
        """The toggles' state in words, and the keys of the place with the focus."""
        try:
            footer = self.main.query_one(KeyFooter)
        except (NoMatches, IndexError):  # closing
            return
        help_key = (key_label(self, key_by_id("tuibench.help", "tree")), "help")
        if self.session is None:
            footer.show([], [("q", "quit"), ("p", "problems")], help_key, self.palette)
            return
        state = self.session.state
        toggles = [
            ("f", "significant only", "on" if state.significant_only else "off"),
            ("s", "", sort_label(state.sort, short=True)),
        ]
        if state.fdr:
            toggles.append(("d", "FDR", "on"))
        place = self.focus_place()
        keys = [
            key_by_id(key_id, place) for key_id in FOCUS_KEYS[place] if self.key_applies(key_id)
        ]
        # the first of a key's keys is enough here (the help lists them all)
        shown = [(key_label(self, key).split(" / ")[0], key.description.lower()) for key in keys]
        footer.show(toggles, shown, help_key, self.palette)

    def key_applies(self, key_id: str) -> bool:
        """Whether the footer lists a key that only some places or sets have a use for."""
        session = self.session
        if session is None:
            return True
        if key_id == "tuibench.series":  # a series of two is only a pair
            return len(session.systems) >= 3
        if key_id == "tuibench.scaling":
            node, model = self.current_node, self.series_model
            return node.is_metric and model is not None and bool(model.families_of(node.benchmark))
        if key_id == "tuibench.fdr":  # shown as a toggle when on
            return not session.state.fdr and len(session.metrics) >= 2
        return True

    @on(BenchTree.NodeHighlighted)
    def _on_highlight(self, event: BenchTree.NodeHighlighted) -> None:
        if self.session is not None and event.node.data is not None and self.screen_stack:
            pane = self.main.query_one(DetailPane)
            if pane.node != event.node.data:
                pane.show(event.node.data, self.session, self.palette)
                self.update_footer()

    @on(BenchTree.Opened)
    def _on_open(self, event: BenchTree.Opened) -> None:
        self.focus_now(self.main.query_one(DetailPane))

    # -- panes ----------------------------------------------------------------------------
    def action_switch_pane(self) -> None:
        if len(self.screen_stack) > 1:  # in a dialog: its next field
            self.screen.focus_next()
            return
        if self.session is None:
            return
        pane = self.main.query_one(DetailPane)
        if pane.has_focus:
            self.zoomed = False
            self.main.query_one("#left").display = True  # a hidden tree cannot take focus
            self.focus_now(self.main.query_one(BenchTree))
        else:
            self.focus_now(pane)

    def action_zoom(self) -> None:
        """Hide the tree (the tables take the width), or show it again with the focus."""
        if self.session is None:
            return
        left = self.main.query_one("#left")
        if left.display:
            self.zoomed = True
            self.focus_now(self.main.query_one(DetailPane))
        else:
            self.zoomed = False
            left.display = True
            self.focus_now(self.main.query_one(BenchTree))
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
            pane = self.main.query_one(DetailPane)
            left = self.main.query_one("#left")
        except (NoMatches, IndexError):  # not composed yet, or closing
            return
        narrow = (width or self.size.width) < NARROW
        hide = self.session is not None and (self.zoomed or (narrow and pane.has_focus))
        if left.display == hide:
            left.display = not hide

    def on_marks_changed(self, _message: MarksChanged) -> None:
        self.update_state()

    @property
    def current_node(self) -> Node:
        return self.main.query_one(BenchTree).current

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
        self.update_state(reference=name)

    def _compute_wanted(self) -> None:
        """Compute what the keys ask for in a worker, unless one is busy: it starts again
        with whatever was asked meanwhile when it is done (never two comparisons at once)."""
        if not self._computing:
            self._computing = True
            self._compute_in_background(self.wanted)

    @work(thread=True, group="compare")
    def _compute_in_background(self, state: ViewState) -> None:
        """What `state` shows, and what its first frame draws, away from the keys."""
        session = self.session
        try:
            computed = session.prepare(state, session.compute(state))
        except Exception as exc:  # keep the explorer up; say what happened
            self.call_from_thread(self._compute_failed, exc)
            return
        self.call_from_thread(self._install_computed, state, computed)

    def _compute_failed(self, exc: Exception) -> None:
        self._computing = False
        self._asked.clear()  # the keys act on what is shown again
        self._update_status()
        self.say(f"Comparing failed: {exc}", severity="error")

    def _install_computed(self, state: ViewState, computed: dict) -> None:
        self._computing = False
        if self.session is None:
            return
        meanwhile = self.wanted
        if meanwhile != state:  # something changed during the computation: once more
            self._compute_wanted()
            return
        before = self.session.state
        self._asked.clear()
        self.session.install(meanwhile, computed)
        self.refresh_view()
        if state.significant_only and not before.significant_only:
            self._say_if_nothing_significant()

    def action_pick_reference(self) -> None:
        if self.session is None:
            return
        self.push_screen(
            ReferencePicker(
                self.session.rs.systems,
                self.wanted.reference,
                {name: i for i, (name, _) in enumerate(self.session.ranking(), 1)},
            ),
            lambda name: self.set_reference(name) if name else None,
        )

    def action_step_reference(self, step: int) -> None:
        if self.session is None:
            return
        names = self.session.systems
        i = names.index(self.wanted.reference)
        self.set_reference(names[(i + step) % len(names)])

    def action_set_alpha(self) -> None:
        if self.session is None:
            return
        self.push_screen(
            AlphaInput(self.session.state.alpha),
            lambda alpha: self.update_state(alpha=alpha) if alpha is not None else None,
        )

    def action_toggle_fdr(self) -> None:
        if self.session is not None:
            self.update_state(fdr=not self.wanted.fdr)

    def action_set_threshold(self) -> None:
        if self.session is None:
            return

        def done(value: object) -> None:
            if value is not None:
                self.update_state(threshold=None if value == OFF else value)

        self.push_screen(ThresholdInput(self.session.state.threshold), done)

    # -- options of the analysis: recomputed in a worker --------------------------------
    def action_toggle_trim(self) -> None:
        if self.session is None:
            return
        self.session.state.trim_outliers = not self.session.state.trim_outliers
        self._reanalyse_now()

    def action_cycle_iteration_value(self) -> None:
        if self.session is None:
            return
        from tuibench.tui.state import ITERATION_LABELS

        kinds = list(ITERATION_LABELS)
        state = self.session.state
        state.iteration_value = kinds[(kinds.index(state.iteration_value) + 1) % len(kinds)]
        self._reanalyse_now()

    def action_toggle_percent(self) -> None:
        if self.session is not None:
            self.update_state(percent="change" if self.wanted.percent == "gain" else "gain")

    def _reanalyse_now(self) -> None:
        self._update_status()
        self.say("Recomputing the statistics …", timeout=2)
        self.reanalyse(self.session.state.analysis_options())

    @work(thread=True, exclusive=True, group="analyse")
    def reanalyse(self, options: dict) -> None:
        from tuibench.core.compare import Analysis

        session = self.session
        try:
            analysis = Analysis(session.rs, self.subselections, self.seed, **options)
        except Exception as exc:  # keep the explorer up; say what happened
            self.post_message(Analysed(None, options, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(Analysed(analysis, options, None))

    def on_analysed(self, message: Analysed) -> None:
        session = self.session
        if session is None or message.options != session.state.analysis_options():
            return  # an older request: a newer one is on its way
        if message.analysis is None:
            self.say(f"Recomputing failed: {message.error}", severity="error")
            return
        session.set_analysis(message.analysis)
        self.update_state()

    # -- view -----------------------------------------------------------------------------
    def action_filter(self) -> None:
        if self.session is None:
            return
        box = self.main.query_one("#filter", FilterInput)
        box.display = True
        self.main.set_focus(box)  # now: keys typed right after `/` belong to the filter

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
            self.update_state(filter_text=value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.action_close_filter()

    def action_close_filter(self) -> None:
        box = self.main.query_one("#filter", FilterInput)
        box.display = bool(box.value)
        self.focus_now(self.main.query_one(BenchTree))

    def action_toggle_significant(self) -> None:
        if self.session is not None:
            on_now = not self.wanted.significant_only
            self.update_state(significant_only=on_now)
            if on_now and not self._asked:  # shown already (a large set says it when shown)
                self._say_if_nothing_significant()

    def _say_if_nothing_significant(self) -> None:
        if not len(self.session.visible_ids):
            self.say("No metric changed significantly against this reference.")

    def action_toggle_answer(self) -> None:
        if self.session is not None:
            self.update_state(answer_first=not self.wanted.answer_first)
            if not self.current_node.is_root:
                self.go_to(Node())

    def action_cycle_sort(self) -> None:
        if self.session is not None:
            state = self.wanted
            keys = sort_keys(self.session.systems, state.reference)
            i = keys.index(state.sort) if state.sort in keys else -1
            self.set_sort(keys[(i + 1) % len(keys)])

    def set_sort(self, sort: str) -> None:
        """Order the tree and the tables (a click on a table's header sorts by its column)."""
        if self.session is not None:
            self.update_state(sort=sort)
            self.say(f"Tree and tables: {sort_label(sort)}", timeout=2)

    def on_table_view_sort_by(self, event: TableView.SortBy) -> None:
        if self.session is None:
            return
        column = event.column
        if column == "metric":
            self.set_sort("name")
        elif column in self.session.systems and column != self.session.state.reference:
            self.set_sort(f"system:{column}")
        else:
            self.set_sort("natural")

    # -- tables ---------------------------------------------------------------------------
    def action_mark(self) -> None:
        if self.session is None:
            return
        node = self.current_node
        done = self.session.toggle_mark(node)
        if done is None:
            self.say("Nothing to mark here.", severity="warning")
            return
        what, mark = done
        self.update_state()
        n = len(self.session.state.marks)
        self.say(
            f"{what.capitalize()}: {mark.table.title} ({n} marked; m lists them)",
            timeout=3,
        )

    def action_show_marked(self) -> None:
        if self.session is None:
            return

        def done(result: str | None) -> None:
            self.update_state()
            if result == "export":
                self.action_export(marked_first=True)

        self.push_screen(MarkedScreen(self.session.state.marks), done)

    def action_export(self, marked_first: bool = False) -> None:
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
            cmp, whole = session.comparison_under(node), session.whole_under(node)
            return [shareable(node, cmp, table.title, facts, whole)]

        request = ExportRequest(
            current=(node, table) if table is not None else None,
            marks=marks,
            reference=session.state.reference,
            export_dir=self.export_dir,
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

        self.push_screen(ExportDialog(request), done)

    def run_facts(self) -> list[tuple[str, str]]:
        from tuibench.core.shareable import run_facts

        return run_facts(self.paths, self.subselections, self.seed)

    def action_copy(self, what: str = "markdown") -> None:
        """Copy the current table (Markdown or TSV) or row through OSC 52."""
        if self.session is None:
            return
        if what == "markdown" and self.main.query_one(DetailPane).mode == "answer":
            self._copy_answer()
            return
        node = self.current_node
        table = self.session.current_table(node)
        if table is None:
            self.say("Nothing to copy here.", severity="warning")
            return
        from tuibench.core.shareable import render_shareable, row_sentences

        if what == "row":
            row = self.row_node()
            if row is None:
                self.say("No row is chosen here: pick a metric in the tree or a row below.")
                return
            text = row_sentences(self.session.comparison_under(row))
            label = f"the row of {row.title()} in words"
        else:
            cmp, whole = self.session.comparison_under(node), self.session.whole_under(node)
            share = shareable(node, cmp, table.title, self.run_facts(), whole)
            text = render_shareable(share, what)
            label = f"{table.title} as {'Markdown' if what == 'markdown' else 'TSV'}"
        self.copy_to_clipboard(text)
        self.say(copy_notice(label, text), timeout=10)

    def _copy_answer(self) -> None:
        """`y` on the answer: the answer as shown (counts, warnings, changes), as Markdown."""
        from tuibench.core.answer_markdown import answer_markdown

        session = self.session
        ranking = session.ranking() if len(session.systems) > 2 else []
        text = answer_markdown(session.answer(), ranking, session.reference_note())
        self.copy_to_clipboard(text)
        self.say(copy_notice("the answer as Markdown", text), timeout=10)

    def row_node(self) -> Node | None:
        """The metric of the current row: the tree's metric, or the row under the cursor of
        the answer or a summary."""
        node = self.current_node
        if node.is_metric:
            return node
        target = self.main.query_one(DetailPane).cursor_target()
        return None if target is None else target.cursor_node

    def action_copy_menu(self) -> None:
        if self.session is None:
            return
        self.push_screen(
            CopyMenu(has_row=self.row_node() is not None),
            lambda what: self.action_copy(what) if what else None,
        )

    # -- other --------------------------------------------------------------------------
    def action_show_problems(self) -> None:
        self.push_screen(ProblemsScreen(self.problems, self.set_aside))

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.focus_place() if self.session is not None else None))


def run(args: argparse.Namespace) -> int:
    """Start the explorer with the parsed command line; return the exit code."""
    app = TuibenchApp(
        list(args.paths),
        reference=args.reference,
        alpha=args.alpha,
        subselections=args.subselections,
        seed=args.seed,
        export_dir=args.export_dir,
        theme=args.theme,
        fdr=getattr(args, "fdr", False),
        threshold=getattr(args, "threshold", None),
        trim_outliers=getattr(args, "trim_outliers", False),
        iteration_value=getattr(args, "iteration_value", "subselection"),
        percent=getattr(args, "percent", "gain"),
        trust_single_iteration=getattr(args, "trust_single_iteration", False),
    )
    app.run(mouse=not args.no_mouse)
    code = app.return_code or 0
    if app.crash is not None:  # one line, like every other error, and never exit 1
        error = app.crash
        first = (str(error).strip().splitlines() or [""])[0]
        print(
            printable(f"tuibench: internal error: {type(error).__name__}: {first}"), file=sys.stderr
        )
        code = 2
    if threading.active_count() > 1:
        # Quit while loading or computing: the terminal is restored and nothing is left to
        # write; the interpreter's teardown would wait for the worker threads.
        with contextlib.suppress(OSError, ValueError):  # a hung-up terminal takes nothing
            sys.stderr.flush()
        os._exit(code)
    return code
