"""The explorer asks Textual for a short wait after a lone escape, unless the user set
ESCDELAY: Textual reads it once, when it loads, so the command sets it before."""

from __future__ import annotations

import pytest

from tuibench.cli import commands, explorer_parser


@pytest.fixture
def seen(monkeypatch, tmp_path):
    import tuibench.tui.app as app

    got = {}
    monkeypatch.setattr(commands, "_is_terminal", lambda: True)
    monkeypatch.setattr(
        app,
        "run",
        lambda *args: got.setdefault("ESCDELAY", commands.os.environ.get("ESCDELAY")) and 0,
    )
    args = explorer_parser().parse_args([str(tmp_path)])
    return lambda: (commands.explore(args), got["ESCDELAY"])[1]


def test_escape_waits_10_ms_by_default(seen, monkeypatch):
    monkeypatch.setenv("ESCDELAY", "")  # recorded, so that the test leaves none behind
    monkeypatch.delenv("ESCDELAY")
    assert seen() == "10"


def test_the_users_escdelay_wins(seen, monkeypatch):
    monkeypatch.setenv("ESCDELAY", "200")
    assert seen() == "200"


def test_the_input_thread_waits_no_longer_than_escdelay(monkeypatch):
    """Textual's input loop waits 0.1 s for input before it looks at a lone escape; the
    explorer's driver makes that wait ESCDELAY at most (0.1 s by default: the same)."""
    import selectors
    import sys

    from textual import constants

    from tuibench.tui.app import TuibenchApp
    from tuibench.tui.terminal import driver

    if sys.platform.startswith("linux"):
        assert TuibenchApp(["x"]).get_driver_class() is driver.PromptEscapeDriver
    asked = []
    monkeypatch.setattr(selectors.SelectSelector, "select", lambda self, t=None: asked.append(t))
    monkeypatch.setattr(constants, "ESCAPE_DELAY", 0.025)
    selector = driver._PromptSelector()
    selector.select(0.1)
    selector.select(0.01)
    selector.select(None)
    assert asked == [0.025, 0.01, None]
