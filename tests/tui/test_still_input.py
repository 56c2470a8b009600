"""A field's editing keys keep the order typed, also when they come in one read with the
characters around them (typed fast, pasted, or over SSH)."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult

from tuibench.tui.widgets.still_input import StillInput


class Field(App):
    def compose(self) -> ComposeResult:
        yield StillInput(value="0.05")


def _burst(app: App, keys: list[tuple[str, str | None]]) -> None:
    """Keys as one read from the terminal hands them over: all queued before any is seen."""
    for key, character in keys:
        app._driver.send_message(events.Key(key, character))


def _typed(text: str) -> list[tuple[str, str | None]]:
    names = {".": "full_stop"}
    return [(names.get(c, c), c) for c in text]


@pytest.mark.parametrize(
    ("keys", "value"),
    [
        # ctrl+u deleted the characters typed after it: the field was left empty
        ([("ctrl+u", None), *_typed("0.02")], "0.02"),
        # backspace, then a character: the character stays, the 5 goes
        ([("backspace", None), *_typed("1")], "0.01"),
        # the cursor moved before the character is placed
        ([("home", None), *_typed("1"), ("end", None), *_typed("9")], "10.059"),
    ],
)
async def test_editing_keys_in_one_read_keep_their_order(keys, value):
    app = Field()
    async with app.run_test() as pilot:
        field = app.query_one(StillInput)
        field.focus()
        field.cursor_position = len(field.value)
        await pilot.pause()
        _burst(app, keys)
        await pilot.pause(0.2)
        assert field.value == value
