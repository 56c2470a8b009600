"""A reopen shows the first screen of its last open at once (tui/terminal/first_frame.py):
a real explorer on a pseudo-terminal, its output run through a terminal emulator. The
second open never draws the loading screen and ends on the same screen as the first; once
a file changed, the frame kept is not shown."""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pty")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_cli_changed_cells import SAMPLE, Shown

pytestmark = pytest.mark.flaky(reruns=2)


class Recorded(Shown):
    """Shown, keeping every byte the emulator is fed."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.written = bytearray()
        feed = self.stream.feed
        self.stream.feed = lambda data: (self.written.extend(data), feed(data))  # type: ignore[method-assign]


def opened(path: Path) -> tuple[dict, bytes]:
    """The screen once loaded and settled (past the frame's keeping), and every byte."""
    term = Recorded(path)
    try:
        end = time.monotonic() + 60
        while " ref " not in term.line(0):
            assert time.monotonic() < end, "never loaded"
            term.settle(quiet=0.1)
        time.sleep(1.0)  # past first_frame.SETTLED_AFTER: the frame is kept
        return term.settle(quiet=0.5), bytes(term.written)
    finally:
        term.close()


def test_a_reopen_shows_the_last_first_screen_before_loading(tmp_path, monkeypatch):
    monkeypatch.setenv("TUIBENCH_WATCH", "off")
    runs = tmp_path / "runs"
    shutil.copytree(SAMPLE, runs)
    first, written = opened(runs)
    assert b"Loading" in written  # a first open: the loading screen, then the results

    again, written = opened(runs)
    assert b"Loading" not in written
    assert again == first

    one = next(p for p in runs.rglob("*.json"))
    stat = one.stat()
    os.utime(one, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    changed, written = opened(runs)
    assert b"Loading" in written  # other files: loaded as on a first open
    assert changed == first
