"""Set the significance level: a number strictly between 0 and 1."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


def parse_alpha(text: str) -> float | None:
    """The alpha in `text`, or None when it is not a number with 0 < alpha < 1."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if 0 < value < 1 else None


class AlphaInput(ModalScreen[float | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel")
    ]

    def __init__(self, current: float) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="alpha-dialog"):
            yield Static("Significance level (alpha)", classes="dialog-title")
            yield Static(
                Text(
                    "A change is significant when Welch's p-value is below alpha.",
                    style="dim",
                )
            )
            yield Input(value=f"{self.current:g}", id="alpha-value", select_on_focus=True)
            yield Static(id="alpha-error", classes="dialog-error")
            yield Static(Text("enter: apply · escape: cancel", style="dim"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    def _check(self, text: str) -> float | None:
        value = parse_alpha(text)
        error = self.query_one("#alpha-error", Static)
        if value is None:
            error.update(Text("alpha must be a number between 0 and 1 (exclusive)"))
        else:
            error.update("")
        return value

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = self._check(event.value)
        if value is not None:
            self.dismiss(value)
