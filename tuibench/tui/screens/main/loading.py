"""The main screen's loading: the results read and analysed in a thread, then shown.

The first frame (the loading header) comes at once; a daemon thread imports what loading
needs, takes the first screen from the cache when the files are unchanged (read ahead while
Textual loaded, or written by load_ahead's child on a first open), else loads and
analyses, and posts `Loaded`. The screen then shows the results in one frame, replays the
keys typed meanwhile (`ResultsShown`) and the thread works ahead: the other references,
the cache's entries. On a first open the child's picture of the first screen comes before
all that (`Pictured`, tui/content/picture.py), drawn before polars is imported. A part of
the main screen (see __init__.py).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import threading
import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import ProgressBar, Static

from tuibench import process_settings
from tuibench.model.set_aside import set_aside_line
from tuibench.tui import textual_adapter
from tuibench.tui.screens.main.view import MainView
from tuibench.tui.terminal import first_frame
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.analysis.compare import Analysis
    from tuibench.model.results import ResultSet
    from tuibench.tui.content.picture import Picture
    from tuibench.tui.view.session import Session

PROGRESS_EVERY = 0.05  # seconds between progress updates from the loading thread
# Seconds of loading (imports included) before the files read show: each count is a frame
# made with the interpreter the loading thread needs (sample_runs/ takes 0.35-0.4 s). The
# bar moves from the start: its frames keep the idle collection (idle_gc.py) off meanwhile.
PROGRESS_AFTER = 0.5
PICTURE_DRAWN_UP_TO = 1.0  # seconds the loading thread waits for the picture's frame
FREEZE_AFTER = 0.3  # seconds from the results to collecting and freezing what is loaded
LOADING_MODULES = (  # the libraries first: a picture is drawn between two of them
    "numpy",
    "numpy.ma",  # imported by polars' first Series from numpy (15 ms): before it is needed
    "polars",
    "tuibench.ingest.load",
    "tuibench.tui.view.read_ahead",
    "tuibench.tui.view.reloads",
    "tuibench.tui.view.reopen",
    "tuibench.tui.view.session",
)
DIALOG_MODULES = (
    "tuibench.tui.screens.copy_menu",
    "tuibench.tui.screens.export_dialog",
    "tuibench.tui.screens.help",
    "tuibench.tui.screens.marked",
    "tuibench.tui.screens.number_input",
    "tuibench.tui.screens.problems",
    "tuibench.tui.screens.reference_picker",
    "tuibench.tui.widgets.iteration_plot",  # plotext: made at a metric's first plot
)
AHEAD_WORDS = "preparing the other references"  # the status line, while the loader does


def _freeze_loaded() -> None:
    gc.collect()
    gc.freeze()


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
        files: bytes | None = None,
    ) -> None:
        self.rs, self.analysis, self.error, self.session = rs, analysis, error, session
        self.files = files  # the digest of the files shown, when their frame may be kept
        super().__init__()


class Pictured(Message):
    """A first open's picture of the first screen, before its session."""

    def __init__(self, picture: Picture) -> None:
        self.picture = picture
        super().__init__()


class WorkingAhead(Message):
    """The loading thread's work after the first screen started ("" once it ended)."""

    def __init__(self, words: str) -> None:
        self.words = words
        super().__init__()


class ResultsShown(Message):
    """The results are on screen: the keys typed while loading may act now."""


class Loading(MainView):
    """Loading the results in a thread and showing them (see the module's text)."""

    # -- loading ------------------------------------------------------------------------
    def load_results(self) -> None:
        """Load in a daemon thread: quitting never waits for it. `stop_loading` makes the
        next file's progress call raise LoadCancelled, so the work also stops soon."""
        self.progress_from = time.monotonic() + PROGRESS_AFTER
        self.loader = threading.Thread(target=self._load, name="tuibench-load", daemon=True)
        self.loader.start()

    def _imports(self) -> None:
        """What loading and the first screen need, one module at a time: a first open's
        picture that came meanwhile is drawn before the next (an import would share the
        interpreter with its frame). Then the collector runs again (the command line
        pauses it while the libraries load)."""
        try:
            for name in LOADING_MODULES:
                if self.picture_posted.is_set():
                    self.picture_drawn.wait(PICTURE_DRAWN_UP_TO)
                importlib.import_module(name)
        finally:
            process_settings.resume_collection()

    def _picture_first(self) -> None:
        """A first open's picture, posted as soon as the loading child sends it (in a
        thread of its own: the loading thread imports meanwhile)."""
        from tuibench.ingest.reuse import cache
        from tuibench.tui.view import load_ahead

        if not load_ahead.started(self.paths, self.options):
            return
        with contextlib.suppress(Exception):  # the check of the child's entry, made ahead
            cache.code_digest()
        payload = load_ahead.picture(self.paths, self.options)
        if payload is None:
            return
        from tuibench.tui.content.picture import decoded

        try:
            picture = decoded(payload)
        except Exception:  # started as without it
            return
        if picture is not None and self.post_message(Pictured(picture)):
            self.picture_posted.set()

    def _load(self) -> None:
        pictured = threading.Thread(
            target=self._picture_first, name="tuibench-picture", daemon=True
        )
        pictured.start()
        self._imports()
        from tuibench.ingest.load import LoadCancelled

        last = [0.0]

        def progress(done: int, total: int, path: str) -> None:
            if self.stop_loading.is_set():
                raise LoadCancelled
            now = time.monotonic()
            if now >= self.progress_from and (done == total or now - last[0] >= PROGRESS_EVERY):
                last[0] = now
                self.post_message(LoadProgress(done, total, path))

        try:
            from tuibench.tui.view import load_ahead, read_ahead
            from tuibench.tui.view.reloads import Reloads
            from tuibench.tui.view.reopen import DROPPED_PAST, Reopen, drop_samples

            complete = self.prepare_watch()  # files still being written are not read yet
            # Unchanged results: the first screen's data, maybe read while Textual loaded.
            early = read_ahead.take(self.paths, self.options)
            pictured.join()  # the picture read from the child's pipe before its last word
            if self.picture_posted.is_set():  # and drawn before the session is restored
                self.picture_drawn.wait(PICTURE_DRAWN_UP_TO)
            load_ahead.wait(self.paths, self.options)  # small results' first open: its entry
            reopen, restored = Reopen.made(self.paths, self.options, complete, early)
            reloads = Reloads(self.paths)  # kept by the session: reloads read what is new
            found = reopen.found  # the cache's entries are written after the first screen
            if restored is None:  # each file as found is stat'ed once, by `reopen`
                rs, analysis = reloads.load(progress, complete, found, True, reopen.identity), None
                if rs.samples.height > DROPPED_PAST:
                    # Its samples are freed once analysed: the load's entry is written from
                    # them first (a few seconds of a minute's load), not after the first screen.
                    with contextlib.suppress(Exception):
                        reloads.loader.write_unwritten()
            else:
                rs, analysis = restored
            session = None
            if not rs.empty:
                if time.monotonic() >= self.progress_from:
                    self.post_message(LoadProgress(-1, 0, "computing statistics"))
                # Large results' samples are freed once read (reopen.drop_samples).
                unwritten = bool(reloads.loader.unwritten)
                drop = functools.partial(drop_samples, rs, reopen, unwritten)
                analysis = analysis or reloads.analyse(rs, self.options, drop)
                session = self._first_session(rs, analysis)
                session.reloads = reloads
        except LoadCancelled:
            return
        except Exception as exc:  # a bug in a reader must not take the explorer down
            self.post_message(Loaded(None, None, f"{type(exc).__name__}: {exc}"))
            return
        keep = reopen.load_key is not None and len(found.units) <= first_frame.FILES_UP_TO
        files = reopen.files if keep else None  # the first frame may be kept
        self.post_message(Loaded(rs, analysis, session=session, files=files))
        if analysis is None:
            with contextlib.suppress(Exception):
                reloads.loader.write_unwritten()
            return
        # Work ahead, while the first screen is read: later switches stay cheap. What fails
        # here (a restored analysis whose files changed) is said by the key that needs it.
        while not self.first_shown.wait(0.1):
            if self.stop_loading.is_set():
                return
        self._import_dialogs()
        with contextlib.suppress(Exception):  # the app may be gone
            self.app.call_from_thread(lambda: self.query_one(DetailPane).plot_ahead())
        # Said where it takes long enough to matter: a switch meanwhile computes its own.
        said = self.large and len(rs.system_names) > 1
        if said:
            self.post_message(WorkingAhead(AHEAD_WORDS))
        with contextlib.suppress(Exception):  # the cache unwritten: the next start loads
            reloads.loader.write_unwritten()
        with contextlib.suppress(Exception):
            reopen.store_first(rs, analysis, session)  # reopening shows this at once
            unwritten = bool(reloads.loader.unwritten)  # dropped now, not before the entries
            drop_samples(rs, reopen, unwritten, analysis.keeps_figures)
            if reopen.stored or restored:  # a mark used now is dropped last
                read_ahead.mark(self.paths, self.options, reopen.size)
            analysis.prepare_references(stop=self.stop_loading.is_set)
            reopen.store_all(rs, analysis, stop=self.stop_loading.is_set)
        if said:
            self.post_message(WorkingAhead(""))

    @staticmethod
    def _import_dialogs() -> None:
        """The dialogs, imported once the first screen is out (not before it: about 20 ms),
        so that the first key that opens one does not wait for its import."""
        with contextlib.suppress(Exception):
            for name in DIALOG_MODULES:
                importlib.import_module(name)

    def _first_session(self, rs: ResultSet, analysis: Analysis) -> Session:
        """The session of the first screen, with what it draws first (the tree's shape, the
        answer and its per-system summary), made here in the loading thread: at a few
        hundred thousand metrics that takes seconds the keys must not wait for."""
        from tuibench.tui.view.session import Session

        session = Session.first(rs, analysis, self.options, self.view_options)
        session.decisions()  # made here too, when asked for: not on the first frame's time
        return session

    def on_load_progress(self, message: LoadProgress) -> None:
        bar = self.query_one("#loading-bar", ProgressBar)
        label = self.query_one("#loading-file", Static)
        if message.done < 0:
            label.update(Text(message.what + " …"))
            return
        bar.update(total=max(message.total, 1), progress=message.done)
        what = printable(message.what)
        label.update(Text(f"{message.done} / {message.total} files  {what}", style="dim"))

    def on_pictured(self, message: Pictured) -> None:
        """Draw the picture as `_show_loaded` draws its session (the same widgets and
        calls), unless the session came first."""
        picture = message.picture
        try:
            if not self.loaded:
                self._show_picture(picture)
        except Exception:  # a bug in drawing it: the session draws the screen, later
            self.picture = None
            self.query_one("#main").display = False
            self.query_one("#loading").display = True
            self.set_focus(None)
        finally:
            self.call_after_refresh(self.picture_drawn.set)

    def _show_picture(self, picture: Picture) -> None:
        self.picture = picture
        self.problems, self.set_aside = list(picture.problems), picture.set_aside
        self.query_one("#loading").display = False
        self.query_one("#main").display = True
        self.query_one(BenchTree).build(picture, self.palette, self.root_label)
        self.query_one(DetailPane).show_answer(picture.answer, self.palette, picture)
        self._update_status()
        self.focus_now(self.query_one(DetailPane))
        textual_adapter.release(self.app, textual_adapter.terminal_copy(self.app))

    def on_loaded(self, message: Loaded) -> None:
        try:
            self._show_loaded(message)
        finally:  # a replayed first frame gives way to what this handler made, laid out
            textual_adapter.release(self.app, textual_adapter.terminal_copy(self.app))

    def _show_loaded(self, message: Loaded) -> None:
        self.loaded = True
        self.picture = None  # the session draws the same screen now
        typed = bool(getattr(self.app, "_pending", None))  # their frame is not the first's
        # After the frame this handler makes: the watcher's imports would delay it.
        self.call_after_refresh(self._after_first_frame, None if typed else message.files)
        if message.error or message.rs is None:
            self._show_failure(Text(f"Loading failed: {message.error}"))
            return
        rs = message.rs
        self.problems = list(rs.problems)
        self.set_aside = set_aside_line(rs.set_aside)
        if rs.empty or message.analysis is None:
            self._show_failure(self._nothing_loaded_text())
            return
        reference = self.view_options.reference or rs.default_reference
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
        self.session = session = message.session
        assert session is not None  # the loader makes one whenever something loaded
        self.query_one("#loading").display = False
        self.query_one("#main").display = True
        tree = self.query_one(BenchTree)
        tree.build(session, self.palette, self.root_label)
        self.refresh_view()
        self.focus_now(self.query_one(DetailPane))  # the answer, with its cursor
        self.post_message(ResultsShown())
        self._prepare_comparisons(session)
        # What is loaded lives until the end: keep it out of the collector's full passes,
        # which otherwise stall a reference switch now and then for 100 ms or more. Once
        # the first frame with results is out: the collection takes 50 ms or more.
        self.set_timer(FREEZE_AFTER, _freeze_loaded)

    def on_working_ahead(self, message: WorkingAhead) -> None:
        self.ahead = message.words
        self._update_status()

    def _after_first_frame(self, files: bytes | None) -> None:
        self.first_shown.set()
        if files is not None and self.session is not None:
            inputs = self.app.inputs_seen  # type: ignore[attr-defined]  # typeahead.py
            keep = functools.partial(self._keep_first_frame, files, inputs)
            self.set_timer(first_frame.SETTLED_AFTER, keep)
        self.start_watching()

    def _keep_first_frame(self, files: bytes, inputs: int) -> None:
        """Keep the first screen, settled: the next start with the same files shows it at
        once (first_frame.py). Not when a key, the mouse or a dialog changed it, nor when
        the terminal's size did."""
        size = (self.app.size.width, self.app.size.height)
        key = first_frame.key_for(size)
        if key is None or self.app.screen is not self:
            return
        if self.app.inputs_seen != inputs or textual_adapter.terminal_copy(self.app) is None:  # type: ignore[attr-defined]
            return
        lines = textual_adapter.screen_lines(self)
        first_frame.stored_at(key, first_frame.encode(lines, size, files))

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
        if self.set_aside:  # files there, none of them results: the likeliest reason
            text.append(f"\nSet aside: {printable(self.set_aside)}.\n")
        text.append(
            "\ntuibench reads a folder with one sub-folder per system, a tidy file with a "
            "'system' column, or several paths (one per system). `tuibench inspect PATH` "
            "shows what was found.",
            style="dim",
        )
        return text

    def _show_failure(self, text: Text) -> None:
        self.query_one("#main").display = False  # a picture may stand there (on_pictured)
        self.query_one("#loading").display = True
        self.set_focus(None)  # not a hidden pane's keys
        self.query_one("#loading-bar").display = False
        self.query_one("#loading-file").display = False
        self.query_one("#loading-text", Static).update(text)
        self._update_status()
