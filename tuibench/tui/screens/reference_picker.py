"""Pick the reference system: every system with its description, the current one marked."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.model.systems import SystemInfo


class ReferencePicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel")
    ]

    def __init__(
        self, systems: list[SystemInfo], current: str, ranks: dict[str, int] | None = None
    ) -> None:
        super().__init__()
        self.systems = systems
        self.current = current
        self.ranks = ranks or {}  # system -> rank, best first, against the current reference

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="reference-dialog"):
            yield Static("Reference system", classes="dialog-title")
            options = []
            for info in self.systems:
                prompt = Text()
                is_current = info.name == self.current
                prompt.append("● " if is_current else "  ", "bold")
                if self.ranks:
                    rank = self.ranks.get(info.name)
                    prompt.append(f"#{rank} " if rank else "   ", "dim")
                prompt.append(printable(info.name), "bold")
                if is_current:
                    prompt.append("  (current)", "dim")
                if info.description:
                    prompt.append("\n    " + printable(info.description), "dim")
                options.append(Option(prompt))
            yield OptionList(*options, id="reference-list")
            yield Static(
                Text(
                    "enter: compare against it · escape: cancel"
                    + (" · #: rank by geometric mean" if self.ranks else ""),
                    style="dim",
                ),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        names = [s.name for s in self.systems]
        option_list = self.query_one(OptionList)
        if self.current in names:
            option_list.highlighted = names.index(self.current)
        option_list.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.systems[event.option_index].name)
