"""A text field whose cursor does not blink, and that takes the keys in the order typed.

Over SSH a blinking cursor is a frame every half second while nobody types (642 bytes each
time for the filter); the cursor stays visible, only still.

Keys typed together (fast, pasted, or over SSH: one read) are all queued to the field that
has the focus, before it reads any. Textual runs a field's own bindings (ctrl+u,
backspace, the arrows, enter, ...) only when the key has bubbled up to the app, after the
field took the characters queued behind it: ctrl+u then `0.02` left the field empty. Here
a key the field binds runs its action as the field reads it. `on_submit`, when given, is
what enter does, in place, so that a dialog closes before the keys behind its enter are
read; and a key the field reads once the focus has left it (closed by enter, or its dialog
dismissed) goes back to the app, which hands it to the new focus: `a 0.01 enter v` lost
the `v` to the closed dialog's field.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.reactive import reactive
from textual.widgets import Input

from tuibench.tui.textual_adapter import bound_action


class StillInput(Input):
    cursor_blink = reactive(False, init=False)

    def __init__(self, *args, on_submit: Callable[[str], object] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._on_submit = on_submit

    async def action_submit(self) -> None:
        if self._on_submit is None:
            await super().action_submit()
        else:
            self._on_submit(self.value)

    async def on_key(self, event: events.Key) -> None:
        """Before Input's own handler (a subclass's comes first), which runs unless this one
        prevents it."""
        if self.app.focused is not self:  # typed behind a key that moved the focus away
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
            return
        if not event.is_printable and (action := bound_action(self, event.key)):
            event.stop()
            event.prevent_default()
            await self.run_action(action)
