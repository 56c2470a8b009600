"""Keys typed right after the key that opens a dialog (`e`, `a`, `t`) reach the dialog's
field: the app hands such keys to the dialog (typeahead.py), which keeps them until its
field has the focus."""

from __future__ import annotations

from textual import events
from textual.screen import Screen

from tuibench.tui.textual_adapter import forward_event


class TypedAhead(Screen):
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
            forward_event(self.focused or self, key)
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
            forward_event(target, key)
