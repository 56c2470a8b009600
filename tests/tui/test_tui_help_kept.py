"""The help screen is kept between `?` presses and its lines rendered ahead: what it shows
must be what a new help screen of the same place shows."""

from __future__ import annotations

from rich.console import Console
from textual.containers import VerticalScroll
from textual.widgets import Static

from tuibench.tui.screens import help as help_screen
from tuibench.tui.screens.help import HelpScreen, help_ready, help_renderable
from tuibench.tui.widgets.still_input import StillInput

SIZE = (120, 40)


def text_of(renderable) -> str:
    console = Console(width=94, record=True)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


async def test_help_again_shows_the_keys_of_the_new_place(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        first = app.screen
        assert isinstance(first, HelpScreen)
        assert "Here, in the answer" in text_of(first.query_one("#help-text", Static).content)
        body = first.query_one("#help-body", VerticalScroll)
        body.scroll_end(animate=False, immediate=True)
        await pilot.press("slash", *"html")  # a search left open
        await pilot.press("escape", "escape")  # clears it, then closes
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("tab")  # the tree
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is first  # the same screen, as a new one would start
        text = text_of(first.query_one("#help-text", Static).content)
        expected = text_of(help_renderable(app, "tree", applies=app.main.key_applies))
        assert text == expected and "Here, in the tree" in text
        assert app.screen.focused is body and body.scroll_y == 0
        field = first.query_one("#help-search", StillInput)
        assert field.value == "" and not field.has_class("shown")
        await pilot.press("escape")
        assert app.focused is not None and app.main.focus_place() == "tree"


async def ready(pilot, place: str, timeout: float = 20.0) -> bool:
    """Whether the help of `place` gets rendered ahead (a busy machine delays the timer)."""
    app = pilot.app
    for _ in range(int(timeout / 0.1)):
        if help_ready(app, place, app.main.key_applies):
            return True
        await pilot.pause(0.1)
    return False


async def test_help_of_the_place_is_rendered_ahead_once_keys_rest(make_app, loaded):
    help_screen._kept.clear()  # nothing rendered by the tests before
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert await ready(pilot, "answer")
        await pilot.press("tab")
        assert app.main.focus_place() == "tree"
        assert await ready(pilot, "tree")
