"""No key is lost: keys typed while loading wait for the screen; a new focus takes effect at
once, so keys typed right after `tab` or `enter` (pasted, or fast over SSH) reach it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widget import Widget
from textual.widgets import Input

if TYPE_CHECKING:
    from tuibench.tui.app import TuibenchApp

# Keys that act at once while loading; every other key waits until the results are shown.
WHILE_LOADING = {"q", "ctrl+c", "ctrl+q", "question_mark", "p", "ctrl+p"}
PENDING_KEPT = 64


class TypeAhead:
    """Mixed into the app: `self` is the TuibenchApp."""

    _pending: list[str]

    def focus_now(self: TuibenchApp, widget: Widget) -> None:
        """Focus `widget` now (`widget.focus()` waits for the next turn of the loop, and the
        keys already queued would go to the old focus)."""
        self.main.set_focus(widget)

    def on_key(self: TuibenchApp, event: events.Key) -> None:
        if self.session is None and not self.loaded and len(self.screen_stack) == 1:
            if event.key not in WHILE_LOADING and len(self._pending) < PENDING_KEPT:
                self._pending.append(event.key)
                event.stop()
                event.prevent_default()
            return
        # Keys typed right after `/` went to the tree before the filter had the focus and
        # come back up here: they belong to the filter.
        focused = self.focused
        typed = event.is_printable and event.character
        if isinstance(focused, Input) and focused.id == "filter" and typed:
            event.stop()
            focused.insert_text_at_cursor(event.character)

    def _replay_pending_keys(self: TuibenchApp) -> None:
        """The keys typed while loading, in order, now that there is something to act on."""
        pending, self._pending = self._pending, []
        for key in pending:  # through the app's queue, in order, like typed keys
            self.simulate_key(key)
