"""On a large set, work that does not fit in a key runs in a worker, and the header says what
is coming until it is shown."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

from tuibench.model.options import AnalysisOptions
from tuibench.tui.view.pending import pending_words
from tuibench.tui.view.state import ViewState
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.status_line import StatusLine


async def _until(pilot, done, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not done():
        assert asyncio.get_running_loop().time() < deadline, "never happened"
        await pilot.pause(0.02)


async def test_a_switch_in_a_worker_says_so_until_it_is_shown(make_app, loaded, monkeypatch):
    import tuibench.tui.screens.main.view as app_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)  # every set counts as large
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        gate = threading.Event()  # holds the comparison until the screen was looked at
        compute = app.main.session.compute
        monkeypatch.setattr(app.main.session, "compute", lambda s: gate.wait(10) and compute(s))
        status = app.main.query_one(StatusLine)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert "comparing against patched …" in status.plain  # the key answered at once
        assert "ref base " in status.plain + " "  # and the screen still shows base
        await pilot.press("tab")  # to the tree: its keys work meanwhile
        tree = app.main.query_one(BenchTree)
        line = tree.cursor_line
        await pilot.press("j")
        assert tree.cursor_line == line + 1
        gate.set()
        await _until(pilot, lambda: not app.main._asked and not app.main._computing)
        await pilot.pause()
        assert "ref patched " in status.plain + " "
        assert "comparing" not in status.plain


async def test_a_failed_comparison_stops_saying_it_is_coming(make_app, loaded, monkeypatch):
    import tuibench.tui.screens.main.view as app_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)

        def broken(_state):
            raise RuntimeError("no memory left")

        monkeypatch.setattr(app.main.session, "compute", broken)
        await pilot.press("f")
        status = app.main.query_one(StatusLine)
        await _until(pilot, lambda: not app.main._computing)
        await pilot.pause()
        assert "significant only …" not in status.plain
        assert not app.main.session.state.significant_only


def test_pending_words_name_each_change_not_shown_yet():
    shown = ViewState(reference="base")

    def asked(**changes):
        return dataclasses.replace(shown, **changes)

    assert pending_words(shown, None) == ""
    assert pending_words(shown, asked(reference="base")) == ""  # asked and undone: nothing
    assert pending_words(shown, asked(reference="tuned")) == "comparing against tuned …"
    words = pending_words(shown, asked(significant_only=True, filter_text="db"))
    assert words == "significant only, filtering db …"
    alpha = AnalysisOptions(alpha=0.01)
    assert pending_words(shown, asked(options=alpha)) == "recomputing …"
    assert pending_words(shown, asked(answer_first=False)) == "the table of every metric …"
    assert pending_words(asked(answer_first=False), shown) == "the answer …"


async def test_v_says_so_and_its_table_is_made_in_the_worker(make_app, loaded, monkeypatch):
    """`v` on a large set: the header names what comes at once; the root's table is made
    with the rest in the worker, not on the UI thread when it lands."""
    import tuibench.tui.screens.main.view as app_module
    from tuibench.present import summary_window
    from tuibench.tui.view import session as session_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)
    made_on: list[str] = []
    summary = summary_window.summary

    def recorded(cmp, title=""):
        if not title:  # the root's (a group's has its name)
            made_on.append(threading.current_thread().name)
        return summary(cmp, title)

    monkeypatch.setattr(session_module.summary_window, "summary", recorded)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        gate = threading.Event()
        compute = app.main.session.compute
        monkeypatch.setattr(app.main.session, "compute", lambda s: gate.wait(10) and compute(s))
        status = app.main.query_one(StatusLine)
        made_on.clear()
        await pilot.press("v")
        await pilot.pause()
        assert "the table of every metric …" in status.plain
        gate.set()
        await _until(pilot, lambda: not app.main._asked and not app.main._computing)
        await pilot.pause()
        assert not app.main.session.state.answer_first and "…" not in status.plain
        assert app.main.query_one("#summary").display
        assert made_on and threading.main_thread().name not in made_on


async def test_a_new_alpha_is_compared_in_a_worker_on_a_small_set_too(
    make_app, loaded, monkeypatch
):
    """Comparing at an alpha not seen yet first solves tables of the power (0.5 to 0.8 s):
    the key answers at once, and the header says what is coming until it is shown."""
    from tuibench.stats import power

    monkeypatch.setattr(power, "_TABLES", {})  # no alpha but the default's solved yet
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        assert not app.main.large
        gate = threading.Event()
        compute = app.main.session.compute
        monkeypatch.setattr(app.main.session, "compute", lambda s: gate.wait(10) and compute(s))
        status = app.main.query_one(StatusLine)
        await pilot.press("a", "ctrl+a", "ctrl+k", *"0.0123", "enter")
        await pilot.pause()
        assert "recomputing …" in status.plain
        assert "α 0.05 " in status.plain + " "  # still what is shown
        gate.set()
        await _until(pilot, lambda: not app.main._asked and not app.main._computing)
        await pilot.pause()
        assert "α 0.0123 " in status.plain + " " and "recomputing" not in status.plain
        for alpha in ("0.05", "0.0123"):  # both solved: computed in the key
            await pilot.press("a", "ctrl+a", "ctrl+k", *alpha, "enter")
            assert not app.main._computing
            assert f"α {alpha} " in status.plain + " "
