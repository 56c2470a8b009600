"""The private parts of Textual the explorer relies on, all used through
tuibench/tui/textual_adapter.py: these tests fail when a Textual release changes one."""

from __future__ import annotations

import inspect
import os
import signal

import pyte
from textual.app import App, ComposeResult
from textual.drivers import linux_driver
from textual.widgets import Static

from tuibench.tui import textual_adapter
from tuibench.tui.line_diff import TerminalCopy


class Recording(App):
    """Records what Textual hands its display (headless, it would write nothing)."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list = []

    def compose(self) -> ComposeResult:
        yield Static("hello", id="a")
        yield Static("world " * 5, id="b")

    def _display(self, screen, renderable) -> None:
        self.handed.append(renderable)


def terminal_after(app: Recording, screen: pyte.Screen, stream: pyte.ByteStream) -> list[str]:
    """Writes what the display was handed, as Textual would; the screen's text."""
    for update in app.handed:
        if update is not None:
            stream.feed(update.render_segments(app.console).encode())
    app.handed.clear()
    return screen.display


async def test_the_display_gets_only_the_changed_cells():
    app = Recording()
    copy = TerminalCopy()
    async with app.run_test(size=(40, 6)) as pilot:
        textual_adapter.show_changes_only(app, copy)
        screen = pyte.Screen(40, 6)
        stream = pyte.ByteStream(screen)
        app.screen.refresh()  # a whole-screen update (LayoutUpdate), all of it new
        await pilot.pause()
        assert any(isinstance(u, textual_adapter.ChangedCells) for u in app.handed)
        expected = [strip.text for strip in app.screen._compositor.render_strips()]
        assert terminal_after(app, screen, stream) == expected

        app.query_one("#a", Static).update("hullo")  # a partial update (ChopsUpdate)
        await pilot.pause()
        runs = [run for u in app.handed if u is not None for run in u.runs]
        assert [(x, y, "".join(t for t, _ in p)) for x, y, p in runs] == [(1, 0, "u")]
        expected = [strip.text for strip in app.screen._compositor.render_strips()]
        assert terminal_after(app, screen, stream) == expected

        app.screen.refresh()  # everything again, nothing changed: nothing to write
        await pilot.pause()
        assert app.handed and all(u is None for u in app.handed)


def test_a_resize_forgets_before_the_drivers_own_handler(monkeypatch):
    calls = []
    before = signal.signal(signal.SIGWINCH, lambda *_: calls.append("driver"))
    try:
        textual_adapter.forget_on_resize(lambda: calls.append("forget"))
        os.kill(os.getpid(), signal.SIGWINCH)
        assert calls == ["forget", "driver"]
    finally:
        signal.signal(signal.SIGWINCH, before)


def test_the_input_thread_makes_its_selector_where_it_is_replaced(monkeypatch):
    monkeypatch.setattr(linux_driver, "selectors", linux_driver.selectors)
    source = inspect.getsource(linux_driver.LinuxDriver.run_input_thread)
    assert "selectors.SelectSelector()" in source

    class Mine:
        pass

    textual_adapter.prompt_input_selectors(Mine)
    assert linux_driver.selectors.SelectSelector is Mine


async def test_a_pending_whole_repaint_is_dropped():
    app = Recording()
    async with app.run_test(size=(40, 6)):
        widget = app.query_one("#a", Static)
        widget.refresh()
        assert widget._repaint_regions
        textual_adapter.drop_pending_repaint(widget)
        assert not widget._repaint_regions


async def test_a_driver_knows_its_app():
    app = Recording()
    assert textual_adapter.driver_app(linux_driver.LinuxDriver(app)) is app
