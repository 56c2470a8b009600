"""Live results: the explorer notices result files added, grown or removed under its paths
(ingest/watch.py), says on the status line what arrived, and reloads on `R` (by itself with
`--follow`), keeping the reference, cursor, filter, sort and options; marked tables are
unmarked (they hold the numbers of when they were marked), and the notice says so. Metrics
whose verdict changed are marked Δ in the tree until visited.

Every reload goes through `Session.reload` (one function: tui/view/reloads.py reads only
what is new and analyses only what it touches), in a worker.
A part of the main screen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message

from tuibench.tui.screens.main.view import MainView
from tuibench.tui.view.state import Node

if TYPE_CHECKING:
    from tuibench.ingest.watch import Change, Watcher
    from tuibench.tui.view.session import Session


class FilesChanged(Message):
    def __init__(self, change: Change) -> None:
        self.change = change
        super().__init__()


class Reloaded(Message):
    def __init__(self, session: Session | None, change: Change | None, error: str = "") -> None:
        self.session, self.change, self.error = session, change, error
        super().__init__()


class Live(MainView):
    watcher: Watcher | None = None
    _arrived: Change | None = None  # complete files noticed, not loaded yet
    _applied = ""  # what the last reload brought, in words
    _reloading = False
    _reload_again = False

    # -- watching -----------------------------------------------------------------------
    def prepare_watch(self) -> dict[str, int] | None:
        """In the loading thread, before the first load: the files known complete (what the
        load reads; None when not watching)."""
        from tuibench.ingest.watch import Watcher, watch_mode

        if self.watcher is None:
            mode = watch_mode(self.paths)
            if mode == "off":
                return None
            self.watcher = Watcher(self.paths, self._noticed, mode)
        return self.watcher.complete()

    def start_watching(self) -> None:
        if self.watcher is not None and self.watcher.thread is None:
            self.watcher.start()

    def stop_watching(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()

    def _noticed(self, change: Change) -> None:
        """The watcher's thread: complete files changed."""
        with contextlib.suppress(Exception):  # closing
            self.post_message(FilesChanged(change))

    def on_files_changed(self, message: FilesChanged) -> None:
        arrived = self._arrived
        self._arrived = message.change if arrived is None else arrived.merge(message.change)
        if self.view_options.follow:
            self.action_reload()
            return
        self._update_status()
        words = self._arrived.summary(self._system_of())
        self.say(f"{words}. R reloads.", title="New results", timeout=6)

    def _system_of(self):
        from tuibench.ingest.watch import system_namer

        systems = [] if self.session is None else self.session.rs.systems
        return system_namer([(s.path, s.name) for s in systems], self.paths)

    def live_status(
        self, options: list[tuple[str, str]], chance: str | None
    ) -> list[tuple[str, str]]:
        """The status line's options with the word on live results: how many verdicts
        changed and are not seen yet (Δ) first, the options, then what arrived (or what the
        last reload brought), then the word on chance."""
        unseen = len(self.session.unseen) if self.session is not None else 0
        items = [("Δ", str(unseen))] if unseen else []
        items += options
        if self._reloading:
            items.append(("", "reloading …"))
        elif self._arrived:
            items.append(("", self._arrived.summary(self._system_of()) + " (R)"))
        elif self._applied:
            items.append(("", self._applied))
        return items + ([("", chance)] if chance else [])

    # -- reloading ----------------------------------------------------------------------
    def action_reload(self) -> None:
        """`R`: read the results again, keeping the view (by itself with --follow)."""
        if self.session is None:
            if self.loaded:  # nothing could be loaded before: the first load once more
                self.loaded = False
                self.load_results()
            return
        if self._reloading or self._computing:
            self._reload_again = True
            return
        self._reloading = True
        change, self._arrived = self._arrived, None
        self._update_status()
        self._reload(self.session, dataclasses.replace(self.wanted), change)

    @work(thread=True, group="reload")
    def _reload(self, session: Session, state, change: Change | None) -> None:
        complete = self.watcher.complete() if self.watcher is not None else None
        try:
            new = session.reload(self.paths, state, complete)
        except Exception as exc:  # keep the explorer up with what it has; say why
            self.post_message(Reloaded(None, change, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(Reloaded(new, change))

    def on_reloaded(self, message: Reloaded) -> None:
        self._reloading = False
        if message.session is None:
            if message.change:
                self._arrived = message.change.merge(self._arrived or type(message.change)())
            self.say(f"Reloading failed: {message.error}", severity="error", timeout=10)
        elif self.session is not None:
            self._install_reload(message.session, message.change)
        self._update_status()
        if self._reload_again or (self.view_options.follow and self._arrived):
            self._reload_again = False
            self.action_reload()

    def _install_reload(self, new: Session, change: Change | None) -> None:
        """Show the reloaded results with the view as it is now (keys pressed meanwhile
        count): same place in the tree, same pane."""
        from tuibench.model.set_aside import set_aside_line
        from tuibench.tui.widgets.bench_tree import BenchTree

        # Marked tables hold the numbers they were marked with: after new results they
        # would be exported stale (a verdict the screen no longer shows), so they go.
        stale = len(self.loaded_session.state.marks)
        wanted = dataclasses.replace(self.wanted, marks=[])
        if wanted.options.analysis_key() != new.state.options.analysis_key():
            self._reload_again = True  # an option of the analysis changed meanwhile
            return
        if wanted.reference not in new.systems:  # gone: the reload chose one
            wanted.reference = new.state.reference
        if wanted.sort != new.state.sort and wanted.sort.startswith("system:"):
            wanted.sort = new.state.sort
        self._asked = None
        if wanted != new.state:
            new.state = wanted
            new.recompute()
        self.session = new
        self.problems = list(new.rs.problems)
        self.set_aside = set_aside_line(new.rs.set_aside)
        tree = self.query_one(BenchTree)
        tree.build(new, self.palette, self.root_label)  # keeps the cursor's place
        self.refresh_view()
        self.mark_seen(tree.current)
        unmarked = (
            f"; {stale} marked table{'s' if stale != 1 else ''} unmarked (their numbers were "
            "from before: mark them again)"
            if stale
            else ""
        )
        if change:
            words = change.summary(self._system_of())
            self._applied = f"{words} (loaded {time.strftime('%H:%M:%S')})"
            self.say(f"Loaded: {words}{unmarked}", title="Reloaded", timeout=4)
        else:
            self._applied = f"reloaded {time.strftime('%H:%M:%S')}"
            if unmarked:
                self.say(f"Reloaded{unmarked}", title="Reloaded", timeout=4)

    def mark_seen(self, node: Node) -> None:
        """The metric is on screen: its Δ (verdict changed by a reload) goes."""
        from tuibench.tui.widgets.bench_tree import BenchTree

        if self.session is not None and node.is_metric and self.session.unseen:
            self.query_one(BenchTree).mark_seen(node)
            self.session.unseen.discard((node.benchmark, node.metric or ""))
            self._update_status()
