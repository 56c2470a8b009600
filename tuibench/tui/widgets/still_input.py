"""A text field whose cursor does not blink.

Over SSH a blinking cursor is a frame every half second while nobody types (642 bytes each
time for the filter); the cursor stays visible, only still.
"""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Input


class StillInput(Input):
    cursor_blink = reactive(False, init=False)
