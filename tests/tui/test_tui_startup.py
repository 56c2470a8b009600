"""The explorer's start: what its first frame does not wait for, and a loading failure."""

from __future__ import annotations

import subprocess
import sys

from textual.widgets import Static

from tuibench.tui.screens.main.loading import DIALOG_MODULES
from tuibench.tui.view.reloads import Reloads


def test_the_dialogs_are_not_imported_with_the_app():
    code = "import sys, tuibench.tui.app; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.split())
    assert "tuibench.tui.screens.main.screen" in loaded
    assert not loaded & set(DIALOG_MODULES)
    assert "textual_plotext" not in loaded  # the plot is made at a metric's first plot


async def test_the_dialogs_are_imported_once_the_first_screen_is_out(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        app.main.loader.join(20)
        assert set(DIALOG_MODULES) <= set(sys.modules)
        await pilot.press("question_mark")  # and they open as before
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"


async def test_a_failing_load_is_said_on_the_screen(make_app, loaded, monkeypatch):
    def broken(self, *args, **kwargs):
        raise ValueError("a reader's bug")

    monkeypatch.setattr(Reloads, "load", broken)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        text = str(app.main.query_one("#loading-text", Static).render())
        assert "Loading failed: ValueError: a reader's bug" in text
        assert app.main.session is None


async def test_the_first_load_writes_the_cache_after_the_first_screen(
    make_app, loaded, monkeypatch, cache_folder
):
    from tuibench.ingest.reuse import file_reads, load_cache

    monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)  # worth storing, however small
    shown_when_written: list[tuple[str, bool]] = []
    put, store = load_cache.put, file_reads.KeptReads.store

    def put_seen(*args, **kwargs):
        shown_when_written.append(("load", app.main.first_shown.is_set()))
        put(*args, **kwargs)

    def store_seen(kept):
        shown_when_written.append(("reads", app.main.first_shown.is_set()))
        store(kept)

    monkeypatch.setattr(load_cache, "put", put_seen)
    monkeypatch.setattr(file_reads.KeptReads, "store", store_seen)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        app.main.loader.join(20)
    assert shown_when_written == [("load", True), ("reads", True)]
    assert sorted(p.name.split("-")[0] for p in cache_folder.glob("*.tbc")) == [
        "load",
        "reads",
        "screen",
    ]


async def test_the_first_load_takes_the_files_identity_once(make_app, loaded, monkeypatch):
    """The loading thread's `Reopen` stats every file for the files' identity; the load
    reuses it rather than stat every file again."""
    from tuibench.ingest.reuse import identity

    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    calls = []
    files = identity.files

    def counted(found):
        calls.append(len(found.units))
        return files(found)

    monkeypatch.setattr(identity, "files", counted)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert len(calls) == 1 and calls[0] > 0


def progress_posted(monkeypatch, after: float) -> list[int]:
    """The counts the loading thread posts (`done`; -1: computing statistics), with
    PROGRESS_AFTER set to `after` seconds."""
    from tuibench.tui.screens.main import loading

    monkeypatch.setattr(loading, "PROGRESS_AFTER", after)
    posted: list[int] = []
    on_progress = loading.Loading.on_load_progress
    monkeypatch.setattr(
        loading.Loading, "on_load_progress", lambda s, m: (posted.append(m.done), on_progress(s, m))
    )
    return posted


async def test_a_short_load_counts_no_files(make_app, loaded, monkeypatch):
    """Before PROGRESS_AFTER the loading thread posts no progress (each count is a frame
    made with the interpreter it needs); the bar moves meanwhile."""
    posted = progress_posted(monkeypatch, 60.0)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.main.query_one("#loading-bar").percentage is None  # moving
        await loaded(pilot)
        assert app.main.session is not None
    assert posted == []


async def test_a_long_load_counts_its_files(make_app, loaded, monkeypatch):
    posted = progress_posted(monkeypatch, 0.0)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
    assert -1 in posted  # "computing statistics"
    assert any(done > 0 for done in posted)  # the files read


async def test_a_replayed_first_frame_gives_way_to_the_loading_screen_in_time(
    make_app, monkeypatch
):
    """Results that take longer than HOLD_UP_TO: the held frame is released by the main
    screen's timer (terminal/first_frame.py), not only by the results."""
    from tuibench.tui import textual_adapter
    from tuibench.tui.line_diff import TerminalCopy
    from tuibench.tui.screens.main.loading import Loading
    from tuibench.tui.terminal import first_frame

    copy = TerminalCopy()
    copy.held = True
    monkeypatch.setattr(textual_adapter, "terminal_copy", lambda app: copy)
    monkeypatch.setattr(first_frame, "HOLD_UP_TO", 0.2)
    monkeypatch.setattr(Loading, "load_results", lambda self: None)  # never loaded
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.05)
        assert copy.held
        await pilot.pause(0.4)
        assert not copy.held
