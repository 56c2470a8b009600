"""Names are data in the explorer too: what it draws never holds a raw control character.

A pilot walks the explorer over results whose names carry ESC/OSC 52/BEL/CR/C1 characters
(tree, tables, plot, header, notifications and every dialog) and checks each rendered line;
a real process in a pty checks the bytes that reach the terminal.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path

import pytest

from tests.test_cli_hostile_names import SYSTEM, write_hostile

RAW = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _raw_on_screen(app) -> list[str]:
    """Every drawn line (of the top screen, with toasts) that holds a control character."""
    bad = []
    for strip in app.screen._compositor.render_strips():
        text = "".join(seg.text for seg in strip if not seg.control)
        if RAW.search(text):
            bad.append(text)
    return bad


async def _walk(results: Path, keys_per_step: list[str]) -> list[tuple[str, list[str]]]:
    from tuibench.tui.app import TuibenchApp

    leaks: list[tuple[str, list[str]]] = []
    app = TuibenchApp([str(results)])
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 30
        while not app.main.loaded:
            assert time.monotonic() < deadline, "the explorer did not finish loading"
            await pilot.pause(0.05)
        await pilot.pause()
        for step in keys_per_step:
            for key in step.split():
                await pilot.press(key)
            await pilot.pause(0.1)
            if bad := _raw_on_screen(app):
                leaks.append((step, bad))
            await pilot.press("escape")
            await pilot.pause()
    return leaks


def test_the_explorer_never_draws_a_raw_control_character(tmp_path):
    results = write_hostile(tmp_path / "results")
    steps = [
        "",  # the first screen
        "j",  # a benchmark
        "l j",  # its first metric: tables and plot
        "l j j",
        "j j j j l j",  # the other benchmark's metric
        "tab",  # focus on the tables
        "r",  # reference picker: system names
        "right_square_bracket",  # the other system as reference: a notification
        "v",  # answer view
        "p",  # problems: file names and reasons
        "l j space m",  # mark: notification, then the marked list
        "l j e",  # export dialog: the table's title
        "l j y",  # copy: a notification with the title
        "l j Y",  # copy menu
        "slash b",  # filter
        "question_mark",
        "z",
        "s f",
    ]
    leaks = asyncio.run(_walk(results, steps))
    assert not leaks, "\n".join(f"after {step!r}: {lines[:3]!r}" for step, lines in leaks)


def test_the_bytes_sent_to_the_terminal_hold_no_name_sequence(tmp_path):
    pytest.importorskip("pty")
    from tests.test_cli_terminal import Terminal

    results = write_hostile(tmp_path / "results")
    term = Terminal([sys.executable, "-m", "tuibench", str(results)])
    term.wait_for(rb"osc\x1b]52;c")  # the name is shown, escaped (and shortened)
    for key in (b"j", b"l", b"j", b"\t", b"r"):
        term.type(key)
        time.sleep(0.3)
    term.type(b"\x1b")
    time.sleep(0.3)
    term.type(b"q")
    code, _ = term.finish()
    assert code == 0
    out = bytes(term.out)
    # (Textual rings the bell itself at times: BEL is looked for inside the names)
    for payload in (b"\x1b]52;", b"\x1b]0;TITLE", b"TITLE\x07", b"b\x07el", b"\xc2\x9b"):
        assert payload not in out, payload
    assert out.count(b"\x1b[?1049h") == 1  # only Textual's own switch to the alternate screen
    assert SYSTEM.encode() not in out
