"""The name filter under the tree (`/`): filters as you type; enter keeps it, escape clears it.

Enter and escape close the field and give the tree the focus as the field reads them, in
order with the keys typed around them; the keys it reads after that go on to the tree
(StillInput): `/fio` enter `j` in one read filtered on `fioj` before.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from tuibench.tui.widgets.still_input import StillInput


class FilterInput(StillInput):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", id="tuibench.filter.clear")
    ]

    async def action_submit(self) -> None:
        """Enter: keep the filter, back to the tree (the screen's `close_filter`)."""
        await self.run_action("screen.close_filter")

    async def action_clear_filter(self) -> None:
        self.value = ""
        await self.run_action("screen.close_filter")
