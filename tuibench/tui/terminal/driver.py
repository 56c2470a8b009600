"""The explorer's terminal driver: Textual's Linux driver, with two changes for SSH.

Only changed cells are written: the driver keeps a copy of what the terminal shows
(line_diff.py) and the app's updates are cut down to the cells that differ from it
(textual_adapter.show_changes_only). Starting (or resuming after a suspend) and every
resize forget the copy: the next update is written whole.

A lone escape acts within ESCDELAY. Textual's input thread waits for input up to 0.1 s
and only then sees that an escape had no sequence after it: whatever ESCDELAY is, escape
acted 100-110 ms after the key. Here the wait is no longer than ESCDELAY (10 ms as
`tuibench` starts it; `cli.explore`), so escape acts after 10-20 ms. The thread wakes that
often while idle; it writes nothing then.

Fewer bytes per cursor move and blank: the output's line feed only moves down (ONLCR off
while the explorer runs: `\n` is one byte where `ESC[B` is three), and where terminfo says
the terminal erases in the background colour set (`bce`), blanks are erased (ECH, EL)
rather than written. The app moves the cursor to its place after every update, outright;
the update already left it there, so that move is dropped (`TerminalCopy.tail`). Garbage
is collected once the screen has settled (idle_gc.py)."""

from __future__ import annotations

import asyncio
import contextlib
import curses
import functools
import selectors
import termios
from collections.abc import Callable

from textual import constants
from textual.drivers.linux_driver import LinuxDriver

from tuibench.tui import textual_adapter
from tuibench.tui.line_diff import TerminalCopy
from tuibench.tui.terminal import first_frame
from tuibench.tui.terminal.idle_gc import IdleCollector
from tuibench.tui.textual_adapter import use_input_selector


class _PromptSelector(selectors.SelectSelector):
    def __init__(self, read: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.read = read  # told when input is ready, before it is parsed

    def select(self, timeout: float | None = None):
        if timeout is not None:
            timeout = min(timeout, constants.ESCAPE_DELAY)
        ready = super().select(timeout)
        if ready and self.read is not None:
            self.read()
        return ready


class PromptEscapeDriver(LinuxDriver):
    shown: TerminalCopy | None = None

    _oflag: int | None = None  # the output terminal's, before ONLCR was turned off
    _idle: IdleCollector | None = None  # garbage collected once the screen settled

    def start_application_mode(self) -> None:
        if self.shown is None:
            self.shown = TerminalCopy()
        self.shown.forget()
        super().start_application_mode()
        self.shown.line_feed = self._line_feed_only()
        self.shown.erase = self._erases_in_colour()
        with contextlib.suppress(RuntimeError):  # no loop: nothing to collect after
            self._idle = IdleCollector(asyncio.get_running_loop())
        textual_adapter.forget_on_resize(self.shown.forget)
        app = textual_adapter.driver_app(self)
        textual_adapter.show_changes_only(app, self.shown)
        frame = first_frame.take()  # a reopen's first frame, drawn before Textual's (once)
        if frame is not None:
            self.write(textual_adapter.replay(app, self.shown, frame["lines"]))
            self.flush()

    def stop_application_mode(self) -> None:
        # the last update leaves its colours set (the next one goes on from them): not
        # for the shell after the explorer
        self.write("\x1b[0m")
        if self.shown is not None:
            self.shown.forget()
        super().stop_application_mode()
        if self._idle is not None:
            self._idle.stop()
            self._idle = None
        if self._oflag is not None:
            with contextlib.suppress(termios.error, OSError):
                attrs = termios.tcgetattr(self._output())
                attrs[1] = self._oflag
                termios.tcsetattr(self._output(), termios.TCSANOW, attrs)
            self._oflag = None

    def write(self, data: str) -> None:
        shown = self.shown
        if shown is not None and shown.tail is not None:
            if data.endswith(shown.tail):  # the update moved the cursor there already
                data = data[: -len(shown.tail)]
            shown.tail = None
        if self._idle is not None:
            self._idle.activity()
        super().write(data)

    def _output(self) -> int:
        if self._file is None:
            raise OSError("no output")
        return self._file.fileno()

    def _erases_in_colour(self) -> bool:
        """Whether terminfo says the terminal (TERM) erases in the background colour set."""
        try:
            curses.setupterm(None, self._output())
            return curses.tigetflag("bce") > 0
        except (curses.error, OSError, ValueError):
            return False

    def _line_feed_only(self) -> bool:
        """Turn the output's NL -> CR NL off (the app writes no line feed of its own);
        whether a line feed now only moves down."""
        try:
            fd = self._output()
            attrs = termios.tcgetattr(fd)
            oflag = attrs[1]
            if oflag & termios.OPOST and oflag & termios.ONLCR:
                attrs[1] = oflag & ~termios.ONLCR
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
                self._oflag = oflag
        except (termios.error, OSError, ValueError, AttributeError):
            return False
        return True

    def run_input_thread(self) -> None:
        use_input_selector(functools.partial(_PromptSelector, self._input_ready))
        super().run_input_thread()

    def _input_ready(self) -> None:
        """A key's bytes are there (the input thread): the idle collection waits (a lone
        escape becomes a key only ESCDELAY later)."""
        idle = self._idle
        if idle is not None:
            idle.input()
