"""The explorer: `tuibench results/`.

The app is thin: the main screen (screens/main/) loads the results and owns what is shown
and the keys that change it. The app starts it, keeps the keys that work everywhere (help,
problems, quit, the command palette), takes keys typed ahead (typeahead.py), and leaves
cleanly on a signal, a vanished terminal or a bug.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tuibench.model.options import DEFAULT_ANALYSIS, DEFAULT_VIEW, AnalysisOptions, ViewOptions
from tuibench.tui import worker_pool
from tuibench.tui.commands import TuibenchCommands
from tuibench.tui.keys import GLOBAL_KEYS, bindings
from tuibench.tui.notices import say
from tuibench.tui.screens.main import MainScreen
from tuibench.tui.screens.main.loading import ResultsShown
from tuibench.tui.terminal.quitting import Quitting
from tuibench.tui.terminal.watch import CHECK_EVERY, input_gone
from tuibench.tui.textual_adapter import CrashHook, drop_exit_output
from tuibench.tui.typeahead import TypeAhead
from tuibench.util.text import printable

if TYPE_CHECKING:  # imported when first opened: not before the first frame
    from tuibench.tui.screens.help import HelpScreen

SIGNAL_GRACE = 3.0  # seconds a signal leaves for restoring the terminal before a hard exit


class TuibenchApp(CrashHook, Quitting, TypeAhead):
    CSS_PATH = "tuibench.tcss"
    TITLE = "tuibench"
    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings(GLOBAL_KEYS),
        # ctrl+c quits from anywhere, also from a text field (whose own ctrl+c would copy)
        Binding("ctrl+c", "quit", show=False, priority=True, id="tuibench.quit.anywhere"),
        # The palette in turn with the keys typed before it (Textual's own binding takes
        # priority: `q` then ctrl+p opened the palette over an app that was quitting)
        Binding("ctrl+p", "command_palette", show=False, id="tuibench.palette"),
    ]
    COMMANDS = App.COMMANDS | {TuibenchCommands}

    def __init__(
        self,
        paths: list[str],
        options: AnalysisOptions = DEFAULT_ANALYSIS,
        view: ViewOptions = DEFAULT_VIEW,
    ) -> None:
        super().__init__()
        self.main = MainScreen(paths, options, view)  # the first screen, under every dialog
        self._pending: list[str] = []  # keys typed while loading
        self.crash: Exception | None = None  # an unhandled exception that ended the app
        self._help: HelpScreen | None = None  # the help screen, once shown

    def get_default_screen(self) -> Screen:
        return self.main

    def say(self, message: str, **kwargs: Any) -> None:
        say(self, message, **kwargs)

    def get_driver_class(self):
        """Textual's own driver, but where a lone escape acts within ESCDELAY (driver.py)."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:
            from tuibench.tui.terminal.driver import PromptEscapeDriver

            return PromptEscapeDriver
        return driver

    def on_mount(self) -> None:
        if self.main.view_options.theme:
            if self.main.view_options.theme in self.available_themes:
                self.theme = self.main.view_options.theme
            else:
                self.say(
                    f"Unknown theme {self.main.view_options.theme!r}; themes are: "
                    + ", ".join(sorted(self.available_themes)),
                    severity="warning",
                )
        # Back from SIGTSTP (`fg`): the terminal was left and re-entered blank; draw it all
        # now rather than on the next key.
        self.app_resume_signal.subscribe(self, lambda _app: self.refresh(layout=True))
        self._exit_on_signals()
        self._exit_when_terminal_gone()
        worker_pool.install(asyncio.get_running_loop())

    def _exit_on_signals(self) -> None:
        """SIGTERM, SIGHUP and SIGINT (sent by `kill`: typed, ctrl+c is a key) leave like `q`
        does: Textual then restores the terminal (alternate screen off, mouse tracking off,
        cursor shown) before the process ends, with 128 + the signal's number."""
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP", "SIGINT"):
            sig = getattr(signal, name, None)
            if sig is None:  # not on this platform
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                signal.signal(sig, partial(self._leave_on_signal, loop))

    def _exit_when_terminal_gone(self) -> None:
        """Leave as on a hang-up when the terminal closes without one (terminal_watch)."""
        if self.is_headless or sys.__stdin__ is None:
            return
        fd = sys.__stdin__.fileno()

        def look() -> None:
            if input_gone(fd):
                self._leave_on_signal(asyncio.get_running_loop(), signal.SIGHUP, None)

        self.set_interval(CHECK_EVERY, look)

    def _leave_on_signal(self, loop: asyncio.AbstractEventLoop, sig: int, _frame) -> None:
        code = 128 + sig
        self.quitting = True  # at once: keys the loop reads before it exits do nothing
        # After a hang-up the terminal is gone and restoring it can block on the dead tty:
        # never outlive the signal by more than a moment. (A plain handler, not the loop's,
        # so that this runs even while the loop is stuck.)
        watchdog = threading.Timer(SIGNAL_GRACE, os._exit, args=(code,))
        watchdog.daemon = True
        watchdog.start()
        loop.call_soon_threadsafe(partial(self.exit, return_code=code))

    def on_unmount(self) -> None:
        self.main.stop_loading.set()

    def crashed(self, error: Exception) -> None:
        """A bug: Textual exits the app; `run` then prints one line instead of a traceback
        (kept with TEXTUAL=debug)."""
        self.crash = error
        if "debug" not in self.features:
            drop_exit_output(self)

    def on_results_shown(self, _message: ResultsShown) -> None:
        self._replay_pending_keys()

    def action_show_problems(self) -> None:
        from tuibench.tui.screens.problems import ProblemsScreen  # on use: not on the first frame

        self.push_screen(ProblemsScreen(self.main.problems, self.main.set_aside))

    def action_help(self) -> None:
        from tuibench.tui.screens.help import HelpScreen

        main = self.main
        place = main.focus_place() if main.drawn_from is not None else None
        if self._help is None:  # kept: a new screen costs a compose and two layouts
            self._help = HelpScreen(place, main.key_applies)
            self.install_screen(self._help, "tuibench-help")
        else:
            self._help.show_place(place, main.key_applies)
        self.push_screen(self._help)


def run(paths: list[str], options: AnalysisOptions, view: ViewOptions) -> int:
    """Start the explorer; return the exit code."""
    app = TuibenchApp(paths, options, view)
    app.run(mouse=view.mouse)
    code = app.return_code or 0
    if app.crash is not None:  # one line, like every other error, and never exit 1
        error = app.crash
        first = (str(error).strip().splitlines() or [""])[0]
        print(
            printable(f"tuibench: internal error: {type(error).__name__}: {first}"), file=sys.stderr
        )
        code = 2
    if threading.active_count() > 1:
        # Quit while loading or computing: the terminal is restored and nothing is left to
        # write; the interpreter's teardown would wait for the worker threads.
        with contextlib.suppress(OSError, ValueError):  # a hung-up terminal takes nothing
            sys.stderr.flush()
        os._exit(code)
    return code
