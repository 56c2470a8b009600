"""A text field whose cursor does not blink, and whose editing keys keep the order typed.

Over SSH a blinking cursor is a frame every half second while nobody types (642 bytes each
time for the filter); the cursor stays visible, only still.

Textual runs a field's own bindings (ctrl+u, backspace, the arrows, enter, ...) when the
key has bubbled up to the app, after the field has taken the characters typed behind it:
ctrl+u then `0.02` in one read (fast, pasted, or over SSH) left the field empty, the
characters deleted by the ctrl+u before them. Here a key the field binds runs its action
as the field reads it, in order with the characters.
"""

from __future__ import annotations

from textual import events
from textual.reactive import reactive
from textual.widgets import Input


class StillInput(Input):
    cursor_blink = reactive(False, init=False)

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable and (bound := self._bindings.key_to_bindings.get(event.key)):
            event.stop()
            event.prevent_default()
            await self.run_action(bound[0].action)
            return
        await super()._on_key(event)
