"""A lone escape acts within ESCDELAY. Textual's input thread waits for input up to 0.1 s
and only then sees that an escape had no sequence after it: whatever ESCDELAY is, escape
acted 100-110 ms after the key. Here the wait is no longer than ESCDELAY (25 ms as
`tuibench` starts it; `cli.explore`), so escape acts after 25-35 ms. The thread wakes that
often while idle; it writes nothing then."""

from __future__ import annotations

import selectors
import types

from textual import constants
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver


class _PromptSelector(selectors.SelectSelector):
    def select(self, timeout: float | None = None):
        if timeout is not None:
            timeout = min(timeout, constants.ESCAPE_DELAY)
        return super().select(timeout)


class PromptEscapeDriver(LinuxDriver):
    def run_input_thread(self) -> None:
        # the module's input loop makes its selector from `selectors.SelectSelector`
        linux_driver.selectors = types.SimpleNamespace(  # type: ignore[assignment]  # a stand-in
            SelectSelector=_PromptSelector, EVENT_READ=selectors.EVENT_READ
        )
        super().run_input_thread()
