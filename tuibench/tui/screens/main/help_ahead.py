"""The help of the place with the focus, rendered ahead once the keys rest: `?` then draws
kept lines (its tables took 80 ms of each `?` at 120x40)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tuibench.tui.keys import FOCUS_KEYS

if TYPE_CHECKING:
    from textual.timer import Timer


class Place(Protocol):
    """What the help ahead reads of its screen (view.MainView, which imports this)."""

    @property
    def app(self) -> Any: ...
    def focus_place(self) -> str: ...
    def key_applies(self, key_id: str) -> bool: ...
    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...
    def run_worker(
        self, work: Callable[[], object], *, thread: bool, exclusive: bool, group: str
    ) -> object: ...


HELP_AHEAD = 0.3  # seconds of rest before the help of a new place is rendered ahead
HELP_MODULE = "tuibench.tui.screens.help"


class HelpAhead:
    """One per main screen: `rest(place)` after each change of place or keys."""

    def __init__(self, screen: Place) -> None:
        self.screen = screen
        self.timer: Timer | None = None

    def rest(self, place: str) -> None:
        """Render the help of `place` once the keys rest, unless it is ready. The help's
        module is imported after the first screen (view.DIALOG_MODULES), in the loading
        thread: until that import ends (its functions all there), nothing is ready."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        ready = getattr(sys.modules.get(HELP_MODULE), "help_ready", None)
        if ready is None or not ready(self.screen.app, place, self.screen.key_applies):
            self.timer = self.screen.set_timer(HELP_AHEAD, lambda: self._start(place))

    def _start(self, place: str) -> None:
        self.timer = None
        screen = self.screen
        if screen.focus_place() == place:  # (the keys that apply read the screen: here)
            here = frozenset(k for k in FOCUS_KEYS[place] if screen.key_applies(k))
            screen.run_worker(
                lambda: self._prepare(place, here), thread=True, exclusive=True, group="help"
            )

    def _prepare(self, place: str, here: frozenset[str]) -> None:
        with contextlib.suppress(Exception):  # work ahead: `?` renders what is missing
            from tuibench.tui.screens.help import prepare_help

            prepare_help(self.screen.app, place, here.__contains__)
