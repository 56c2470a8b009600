"""The name filter under the tree (`/`): filters as you type; enter keeps it, escape clears it."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from tuibench.tui.widgets.still_input import StillInput


class FilterInput(StillInput):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", id="tuibench.filter.clear")
    ]

    class Cleared(Message):
        """Escape in the filter: it is empty now and closes."""

    def action_clear_filter(self) -> None:
        self.value = ""
        self.post_message(self.Cleared())
