"""A lone escape acts within ESCDELAY. Textual's input thread waits for input up to 0.1 s
and only then sees that an escape had no sequence after it: whatever ESCDELAY is, escape
acted 100-110 ms after the key. Here the wait is no longer than ESCDELAY (25 ms as
`tuibench` starts it; `cli.explore`), so escape acts after 25-35 ms. The thread wakes that
often while idle; it writes nothing then."""

from __future__ import annotations

import selectors

from textual import constants
from textual.drivers.linux_driver import LinuxDriver

from tuibench.tui.textual_adapter import use_input_selector


class _PromptSelector(selectors.SelectSelector):
    def select(self, timeout: float | None = None):
        if timeout is not None:
            timeout = min(timeout, constants.ESCAPE_DELAY)
        return super().select(timeout)


class PromptEscapeDriver(LinuxDriver):
    def run_input_thread(self) -> None:
        use_input_selector(_PromptSelector)
        super().run_input_thread()
