"""Keys are found by any word of what they do: in the help and in the command palette."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.widgets import Static

from tuibench.tui.commands import TuibenchCommands
from tuibench.tui.keys import words_match
from tuibench.tui.screens.help import HelpScreen


def test_words_match_every_word_in_any_case():
    assert words_match("change point", "Series", "… with its change points")
    assert words_match("HTML", "Export", "… JSON, HTML report or text")
    assert not words_match("change html", "Series", "… with its change points")
    assert not words_match("   ", "anything")


@pytest.mark.parametrize(
    ("query", "title"),
    [("worst", "Next change"), ("html", "Export"), ("change point", "Series")],
)
async def test_the_palette_finds_an_action_by_its_description(make_app, loaded, query, title):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        provider = TuibenchCommands(app.screen)
        found = [hit.text async for hit in provider.search(query)]
        assert title in found, found


def shown(app) -> str:
    console = Console(width=120, record=True)
    with console.capture() as capture:
        console.print(app.screen.query_one("#help-text", Static).content)
    return capture.get()


async def test_help_filters_its_rows_by_the_words_typed(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("slash", *"change point")
        await pilot.pause()
        text = shown(app)
        assert "change points" in text and "Export" not in text
        assert "Glyphs" in text  # ◆: a change point along the series
        await pilot.press("escape")  # clears the search, back to the list
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = shown(app)
        assert "Export the current table" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
