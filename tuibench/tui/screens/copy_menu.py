"""What `Y` copies: the table as Markdown, as TSV for a spreadsheet, or the current row."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

# (key, what is returned, label)
CHOICES = [
    ("m", "markdown", "the table as Markdown: for a pull request, a mail, a wiki"),
    ("t", "tsv", "the table as TSV: every field, for a spreadsheet"),
    ("r", "row", "the current row: each system against the reference, in words"),
]


class CopyMenu(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel"),
        *(Binding(key, f"dismiss('{what}')", show=False) for key, what, _ in CHOICES),
    ]

    def __init__(self, has_row: bool) -> None:
        super().__init__()
        self.has_row = has_row

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="copy-dialog"):
            yield Static("Copy to the clipboard", classes="dialog-title")
            options = []
            for key, what, label in CHOICES:
                prompt = Text()
                prompt.append(f"{key}  ", "bold")
                prompt.append(label)
                disabled = what == "row" and not self.has_row
                if disabled:
                    prompt.append(" (no row is chosen here)", "dim")
                options.append(Option(prompt, id=what, disabled=disabled))
            yield OptionList(*options, id="copy-list")
            yield Static(
                Text("enter or the key: copy · escape: cancel", style="dim"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)
