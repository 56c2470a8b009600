"""The explorer writes only the cells that change (tuibench/tui/line_diff.py); what the
terminal shows must still be the whole, right screen. A real explorer on a pseudo-terminal,
its output run through a terminal emulator (pyte): after keys that change whole panes, the
screen is the same as the one written whole after a suspend and resume (which forget what
was shown; unlike a resize, they change no layout)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyte
import pytest

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

import struct  # noqa: E402

# Real processes on a pty: timing on a busy machine can fail a run that is right.
pytestmark = pytest.mark.flaky(reruns=2)

SAMPLE = Path(__file__).resolve().parents[1] / "sample_runs"
COLS, ROWS = 120, 40


class Shown:
    """An explorer on a pty of COLS x ROWS, its output fed to an emulator."""

    def __init__(self, path: Path):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tuibench", str(path)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            # the pty's size, not COLUMNS and LINES (which pytest-xdist sets to 80x24)
            env={
                **{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
                "TERM": "xterm-256color",
            },
            preexec_fn=lambda: (os.setsid(), fcntl.ioctl(0, termios.TIOCSCTTY, 0)),
        )
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.last = time.monotonic()
        self.lock = threading.Lock()
        self.pending = bytearray()
        self.fed = 0  # bytes fed to the emulator so far
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                if not select.select([self.master], [], [], 0.05)[0]:
                    continue
                chunk = os.read(self.master, 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self.lock:
                self.pending.extend(chunk)
                self.last = time.monotonic()

    def settle(self, quiet: float = 0.4, timeout: float = 30.0) -> dict:
        """Until nothing was written for `quiet` s (counted from now at the earliest);
        every cell as shown then."""
        start = time.monotonic()
        end = start + timeout
        while time.monotonic() - max(self.last, start) < quiet and time.monotonic() < end:
            time.sleep(0.05)
        with self.lock:
            data, self.pending = bytes(self.pending), bytearray()
        self.fed += len(data)
        self.stream.feed(data)
        cols = self.screen.columns  # (pyte's insert-characters keeps a cell past the edge)
        rows = self.screen.buffer.items()
        return {(y, x): seen(c) for y, row in rows for x, c in row.items() if x < cols}

    def line(self, y: int) -> str:
        return "".join(self.screen.buffer[y][x].data for x in range(self.screen.columns))

    def press(self, key: bytes | tuple[int, int]) -> dict:
        if isinstance(key, tuple):  # a new size: the terminal's, and the emulator's
            self.settle()
            cols, rows = key
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            self.screen.resize(lines=rows, columns=cols)
            self.proc.send_signal(signal.SIGWINCH)  # the master's resize signals no one
        else:
            os.write(self.master, key)
        return self.settle()

    def suspend_and_resume(self, timeout: float = 60.0) -> dict:
        """The screen written anew, then as shown. (Blanks may be erased, a line's in 3
        bytes: a whole screen is a tenth of a byte a cell at the least.)"""
        self.proc.send_signal(signal.SIGTSTP)  # as ctrl+z in a shell
        end = time.monotonic() + timeout
        while self._state() != "T":  # stopped (a SIGCONT before would be lost)
            assert time.monotonic() < end, "never stopped"
            time.sleep(0.05)
        self.settle()
        before = self.fed
        self.proc.send_signal(signal.SIGCONT)  # `fg`
        end = time.monotonic() + timeout
        while self.fed - before < self.screen.columns * self.screen.lines // 10:
            assert time.monotonic() < end, "not written anew"
            self.settle(quiet=0.2)
        return self.settle(quiet=0.8)

    def _state(self) -> str:
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0]

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        # stopped before the descriptor is closed: the next pty may get its number
        self._stop.set()
        self._reader.join()
        os.close(self.master)


def seen(c) -> tuple:
    """A cell as the eye sees it: a space without a line or reverse video shows only its
    background (the explorer writes spaces in whatever foreground is set)."""
    if c.data == " " and not (c.underscore or c.strikethrough or c.reverse):
        return (" ", c.bg)
    return tuple(c)


@pytest.mark.parametrize(
    "keys",
    [
        [b"n", b"v", b"\r", b"f", b"]", b"/"],  # ends in the filter field
        [b"v", b"s", b"f", b"\x1b", b"n", b"\x1b", b"["],
        [b"\r", b"j", b"j", b"?"],  # ends on the help screen
        [b"n", (100, 30), b"v", (130, 45), b"\r"],
        # the footer's end moved by the terminal, the tree written look by look
        [b"\t", b"f", b"j", b"f", b"s", b"/", b"1"],
    ],
    ids=["n-v-enter-f-]-/", "v-s-f-esc-n-esc-[", "enter-j-j-?", "resized", "tab-f-j-f-s-/-1"],
)
def test_the_screen_is_right_after_keys_that_change_panes(keys):
    term = Shown(SAMPLE)
    try:
        end = time.monotonic() + 60
        while " ref " not in term.line(0):  # loaded: the status line names the reference
            assert time.monotonic() < end, "never loaded"
            term.settle()
        for key in keys:
            term.press(key)
        shown = term.settle(quiet=1.0)
        again = term.suspend_and_resume()
        stale = sorted(at for at in shown.keys() | again.keys() if shown.get(at) != again.get(at))
        assert not stale, [term.line(y) for y in sorted({y for y, _ in stale})][:5]
    finally:
        term.close()
