"""The explorer asks Textual for a short wait after a lone escape, unless the user set
ESCDELAY: Textual reads it once, when it loads, so the command sets it before."""

from __future__ import annotations

import argparse

import pytest

from tuibench import cli


@pytest.fixture
def seen(monkeypatch, tmp_path):
    import tuibench.tui.app as app

    got = {}
    monkeypatch.setattr(cli, "_is_terminal", lambda: True)
    monkeypatch.setattr(
        app, "run", lambda args: got.setdefault("ESCDELAY", cli.os.environ.get("ESCDELAY")) and 0
    )
    args = argparse.Namespace(paths=[str(tmp_path)], iteration_value="subselection")
    return lambda: (cli.explore(args), got["ESCDELAY"])[1]


def test_escape_waits_25_ms_by_default(seen, monkeypatch):
    monkeypatch.setenv("ESCDELAY", "")  # recorded, so that the test leaves none behind
    monkeypatch.delenv("ESCDELAY")
    assert seen() == "25"


def test_the_users_escdelay_wins(seen, monkeypatch):
    monkeypatch.setenv("ESCDELAY", "200")
    assert seen() == "200"
