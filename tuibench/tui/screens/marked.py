"""The tables marked for export; unmark them here."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tuibench.tui.view.state import Mark
from tuibench.util.text import printable


def mark_text(mark: Mark) -> Text:
    text = Text()
    text.append(printable(mark.table.title or mark.node.title()), "bold")
    text.append(
        f"\n  vs {printable(mark.reference)}, alpha {mark.alpha:g}, {len(mark.table.rows)} rows",
        "dim",
    )
    return text


class MarkedScreen(ModalScreen[str | None]):
    """Dismissed with "export" when the user asks to export the marked tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,m", "dismiss(None)", "Close", id="tuibench.dialog.close"),
        Binding("space,delete,u,x", "unmark", "Unmark", id="tuibench.marked.unmark"),
        Binding("e", "dismiss('export')", "Export all", id="tuibench.marked.export"),
    ]

    def __init__(self, marks: list[Mark], changed: Callable[[], None]) -> None:
        super().__init__()
        self.marks = marks  # the view state's own list: unmarking here unmarks
        self.changed = changed  # shows an unmarking behind the dialog at once

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="marked-dialog"):
            yield Static(id="marked-title", classes="dialog-title")
            yield OptionList(id="marked-list")
            yield Static(
                Text("space/delete: unmark · e: export all marked · escape: close", style="dim"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self._fill()
        self.query_one(OptionList).focus()

    def _fill(self, highlighted: int = 0) -> None:
        n = len(self.marks)
        self.query_one("#marked-title", Static).update(
            f"{n} table{'s' if n != 1 else ''} marked for export"
            if n
            else "No table is marked: press space on a metric or a group to mark its table"
        )
        option_list = self.query_one(OptionList)
        option_list.clear_options()
        option_list.add_options([Option(mark_text(m)) for m in self.marks])
        if self.marks:
            option_list.highlighted = min(highlighted, n - 1)

    def action_unmark(self) -> None:
        i = self.query_one(OptionList).highlighted
        if i is None or not 0 <= i < len(self.marks):
            return
        del self.marks[i]
        self._fill(i)
        self.changed()
