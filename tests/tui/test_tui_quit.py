"""Quitting wins over every key queued after it: `q` and then any bound key, sent in one go
(a paste, a fast typist over SSH), ends with status 0 and no error."""

from __future__ import annotations

import pytest
from textual import events
from textual.keys import key_to_character

from tuibench.tui.keys import APP_KEYS, FILTER_KEYS, PANE_KEYS, TREE_KEYS
from tuibench.tui.screens.export_dialog import ExportDialog

# Every key of the explorer's bindings, and the built-in ones that act on their own.
BOUND = sorted(
    {
        name.strip()
        for key in [*APP_KEYS, *TREE_KEYS, *PANE_KEYS, *FILTER_KEYS]
        for name in key.key.split(",")
    }
    | {"escape", "enter", "ctrl+p", "up", "down", "left", "right"}
)


def typed(name: str) -> events.Key:
    return events.Key(name, key_to_character(name))


def test_every_bound_key_is_tried():
    assert {"e", "question_mark", "Y", "a", "t", "r", "m", "c", "y", "p"} <= set(BOUND)


async def send(pilot, *names: str) -> None:
    """Posted together, before the app reads any of them, as a terminal delivers a paste."""
    for name in names:
        pilot.app.post_message(typed(name))
    await pilot.pause(0.2)


@pytest.mark.parametrize("key", [k for k in BOUND if k not in ("q", "ctrl+c")])
async def test_q_then_any_key_quits_cleanly(make_app, loaded, key):
    app = make_app()
    pushed = []
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        app.screen_change_signal.subscribe(app, pushed.append)
        await send(pilot, "q", key, key)
    assert app.crash is None
    assert app.return_code == 0
    assert pushed == []  # no dialog, no screen


async def test_q_in_the_tree_then_every_key_at_once(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("tab")
        await send(pilot, "q", *BOUND)
    assert (app.crash, app.return_code) == (None, 0)


async def test_a_dialog_open_before_q_closes_with_the_app(make_app, loaded):
    """`e` then `q` typed into the dialog's field is a letter there, not a quit; ctrl+c
    then quits, and keys queued after it do nothing."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        await send(pilot, "ctrl+c", "enter", "e", "question_mark")
    assert (app.crash, app.return_code) == (None, 0)


async def test_a_signal_stops_the_keys_queued_after_it(make_app, loaded):
    """SIGTERM's handler marks the app as quitting at once: keys the loop reads before the
    exit does nothing (the handler itself is tested in test_cli_terminal)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        app.quitting = True
        await send(pilot, "e", "question_mark", "a")
        assert len(app.screen_stack) == 1
        app.exit(return_code=143)
    assert (app.crash, app.return_code) == (None, 143)
