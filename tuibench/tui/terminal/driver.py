"""The explorer's terminal driver: Textual's Linux driver, with two changes for SSH.

Only changed cells are written: the driver keeps a copy of what the terminal shows
(line_diff.py) and the app's updates are cut down to the cells that differ from it
(textual_adapter.show_changes_only). Starting (or resuming after a suspend) and every
resize forget the copy: the next update is written whole.

A lone escape acts within ESCDELAY. Textual's input thread waits for input up to 0.1 s
and only then sees that an escape had no sequence after it: whatever ESCDELAY is, escape
acted 100-110 ms after the key. Here the wait is no longer than ESCDELAY (10 ms as
`tuibench` starts it; `cli.explore`), so escape acts after 10-20 ms. The thread wakes that
often while idle; it writes nothing then."""

from __future__ import annotations

import selectors

from textual import constants
from textual.drivers.linux_driver import LinuxDriver

from tuibench.tui import textual_adapter
from tuibench.tui.line_diff import TerminalCopy
from tuibench.tui.textual_adapter import use_input_selector


class _PromptSelector(selectors.SelectSelector):
    def select(self, timeout: float | None = None):
        if timeout is not None:
            timeout = min(timeout, constants.ESCAPE_DELAY)
        return super().select(timeout)


class PromptEscapeDriver(LinuxDriver):
    shown: TerminalCopy | None = None

    def start_application_mode(self) -> None:
        if self.shown is None:
            self.shown = TerminalCopy()
        self.shown.forget()
        super().start_application_mode()
        textual_adapter.forget_on_resize(self.shown.forget)
        textual_adapter.show_changes_only(textual_adapter.driver_app(self), self.shown)

    def stop_application_mode(self) -> None:
        # the last update leaves its colours set (the next one goes on from them): not
        # for the shell after the explorer
        self.write("\x1b[0m")
        if self.shown is not None:
            self.shown.forget()
        super().stop_application_mode()

    def run_input_thread(self) -> None:
        use_input_selector(_PromptSelector)
        super().run_input_thread()
