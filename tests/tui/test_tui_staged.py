"""The first screen comes before the loading thread's work ahead (storing the screen, the
other references' U tests): keys act meanwhile, the header says what is still being
prepared, and the screen at the end is the one a load without that work shows."""

from __future__ import annotations

import asyncio
import threading

from polars.testing import assert_frame_equal

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.tui.view.pending import status_words
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import ViewState
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.status_line import StatusLine


async def _until(pilot, done, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not done():
        assert asyncio.get_running_loop().time() < deadline, "never happened"
        await pilot.pause(0.02)


async def test_first_screen_before_the_work_ahead(make_app, loaded, monkeypatch):
    import tuibench.tui.screens.main.loading as loading
    import tuibench.tui.screens.main.view as view

    monkeypatch.setattr(view, "BACKGROUND_FROM", 0)  # large: switches in a worker, words said
    gate = threading.Event()
    started: list[bool] = []  # whether the first screen was drawn when the work began
    prepare = Analysis.prepare_references

    def held(analysis, stop=None):
        started.append(app.main.first_shown.is_set())
        gate.wait(20)
        prepare(analysis, stop)

    monkeypatch.setattr(Analysis, "prepare_references", held)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        status = app.main.query_one(StatusLine)
        await _until(pilot, lambda: loading.AHEAD_WORDS in status.plain)
        assert started == [True]
        assert app.main.loader is not None and app.main.loader.is_alive()
        assert "ref base " in status.plain + " "  # the results are on screen
        await pilot.press("tab")  # the tree's keys act meanwhile
        tree = app.main.query_one(BenchTree)
        line = tree.cursor_line
        await pilot.press("j")
        assert tree.cursor_line == line + 1
        # A reference whose U tests are not prepared yet: computed by the switch itself.
        asked = threading.Event()  # holds the switch until its words were looked at
        compute = app.main.session.compute
        monkeypatch.setattr(app.main.session, "compute", lambda s: asked.wait(10) and compute(s))
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert f"comparing against patched, {loading.AHEAD_WORDS} …" in status.plain
        asked.set()
        await _until(pilot, lambda: not app.main._asked and not app.main._computing)
        await pilot.pause()
        assert "ref patched " in status.plain + " "
        assert loading.AHEAD_WORDS in status.plain  # still working ahead, and saying so
        gate.set()
        await _until(pilot, lambda: not app.main.loader.is_alive())
        await _until(pilot, lambda: loading.AHEAD_WORDS not in status.plain)
        session = app.main.session
        rs = load(["results"])  # the same, without the staging
        plain = Session(rs, Analysis(rs, session.state.options), session.state)
        assert_frame_equal(session.cmp.full_rows(), plain.cmp.full_rows(), check_exact=True)
        assert session.answer() == plain.answer()


async def test_small_sets_say_nothing_of_the_work_ahead(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await _until(pilot, lambda: not app.main.loader.is_alive())
        await pilot.pause()
        assert app.main.first_shown.is_set()
        assert "…" not in app.main.query_one(StatusLine).plain


def test_status_words_join_what_is_asked_and_what_is_prepared():
    shown = ViewState(reference="base")
    asked = ViewState(reference="tuned")
    assert status_words(shown, None) == ""
    assert status_words(shown, None, "preparing") == "preparing …"
    assert status_words(shown, asked) == "comparing against tuned …"
    assert status_words(shown, asked, "preparing") == "comparing against tuned, preparing …"


async def test_the_loader_turns_the_collector_on_again(make_app, loaded):
    """The command line pauses the garbage collector while the libraries load; the loading
    thread turns it on once it has its modules."""
    import gc

    from tuibench import process_settings

    process_settings.pause_collection()
    try:
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await loaded(pilot)
            assert gc.isenabled()
    finally:
        gc.enable()
