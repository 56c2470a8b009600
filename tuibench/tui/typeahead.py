"""No key is lost: keys typed while loading wait for the screen; a new focus takes effect at
once, so keys typed right after `tab` or `enter` (pasted, or fast over SSH) reach it; keys
typed right after the key that opens a dialog (`e`, `a`, `t`) reach the dialog's field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from tuibench.tui.app_parts import AppParts

if TYPE_CHECKING:
    _Screen = Screen[Any]  # TypedAhead's base for the type checker
else:
    _Screen = object

# Keys that act at once while loading; every other key waits until the results are shown.
WHILE_LOADING = {"q", "ctrl+c", "ctrl+q", "question_mark", "p", "ctrl+p"}
PENDING_KEPT = 64


class TypeAhead(AppParts):
    """Mixed into the app: `self` is the TuibenchApp."""

    _pending: list[str]

    def focus_now(self, widget: Widget) -> None:
        """Focus `widget` now (`widget.focus()` waits for the next turn of the loop, and the
        keys already queued would go to the old focus)."""
        self.main.set_focus(widget)

    async def on_event(self, event: events.Event) -> None:
        # The screen a key was typed on: the app hands every queued key to the focus of that
        # moment, so keys typed right after one that opens a dialog still go to the old one.
        if isinstance(event, events.Key) and not event.is_forwarded and self.screen_stack:
            event.typed_on = self.screen  # type: ignore[attr-defined]  # our own tag
        await super().on_event(event)

    def on_key(self, event: events.Key) -> None:
        if self.session is None and not self.loaded and len(self.screen_stack) == 1:
            if event.key not in WHILE_LOADING and len(self._pending) < PENDING_KEPT:
                self._pending.append(event.key)
                event.stop()
                event.prevent_default()
            return
        screen = self.screen
        typed_on = getattr(event, "typed_on", None)
        if isinstance(screen, TypedAhead) and typed_on is not None and typed_on is not screen:
            event.stop()
            event.prevent_default()
            screen.take_typed(event)  # typed before the dialog opened: it belongs there
            return
        # Keys typed right after `/` went to the tree before the filter had the focus and
        # come back up here: they belong to the filter.
        focused = self.focused
        typed = event.character if event.is_printable else None
        if isinstance(focused, Input) and focused.id == "filter" and typed:
            event.stop()
            event.prevent_default()  # a letter in the filter is not also a key of the app
            focused.insert_text_at_cursor(typed)

    def _replay_pending_keys(self) -> None:
        """The keys typed while loading, in order, now that there is something to act on."""
        pending, self._pending = self._pending, []
        for key in pending:  # through the app's queue, in order, like typed keys
            self.simulate_key(key)


class TypedAhead(_Screen):
    """Mixed into a dialog that a key opens: keys typed after that key but before the dialog
    has its focus are kept, then handed to the focus in order. The dialog calls
    `release_typed()` once its field has the focus (at the end of `on_mount`)."""

    _typed: list[events.Key] | None = None  # typed before the dialog had its focus
    _typed_ready = False  # the dialog's field has the focus: keys go straight to it

    def take_typed(self, event: events.Key) -> None:
        # Sent on as the app sends a typed key to the focus: it bubbles back up to the app,
        # which looks up the bindings (enter, ctrl+u, ...) of the new focus.
        key = events.Key(event.key, event.character).set_sender(self.app)
        if self._typed_ready:
            (self.focused or self)._forward_event(key)
        else:
            self._typed = [*(self._typed or []), key]

    def on_key(self, event: events.Key) -> None:
        """A key sent to the dialog itself before any field had the focus."""
        if not self._typed_ready and self.focused is None:
            event.stop()
            event.prevent_default()
            self.take_typed(event)

    def release_typed(self) -> None:
        self._typed_ready = True
        typed, self._typed = self._typed or [], None
        target = self.focused or self
        for key in typed:  # into the focus's queue, ahead of every later key
            target._forward_event(key)
