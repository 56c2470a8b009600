"""A small dialog for one number: alpha (0 < a < 1) or the practical threshold (percent)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tuibench.model.options import MIN_ALPHA, alpha_problem
from tuibench.tui.screens.typed_ahead import TypedAhead
from tuibench.tui.widgets.still_input import StillInput

OFF = "off"  # what the threshold dialog returns for "no threshold"


def parse_alpha(text: str) -> float | None:
    """The alpha in `text`, or None when it is not a number with 0 < alpha < 1."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if alpha_problem(value) is None else None


def parse_threshold(text: str) -> float | str | None:
    """A percentage with 0 < t < 100, or OFF for an empty field; None when invalid."""
    text = text.strip().rstrip("%").strip()
    if not text or text.lower() == OFF:
        return OFF
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < 100 else None


class NumberInput(TypedAhead, ModalScreen[object]):
    """Dismissed with the parsed value, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel")
    ]

    def __init__(
        self, title: str, explanation: str, value: str, parse: Callable, error: str
    ) -> None:
        super().__init__()
        self.title_text, self.explanation = title, explanation
        self.value, self.parse, self.error = value, parse, error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="number-dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(Text(self.explanation, style="dim"))
            yield StillInput(
                value=self.value, id="number-value", select_on_focus=True, on_submit=self._submit
            )
            yield Static(id="number-error", classes="dialog-error")
            yield Static(Text("enter: apply · escape: cancel", style="dim"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.set_focus(self.query_one(Input))  # now: keys typed right after `a` or `t`
        self.release_typed()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    def _check(self, text: str) -> object:
        value = self.parse(text)
        self.query_one("#number-error", Static).update(Text(self.error if value is None else ""))
        return value

    def _submit(self, text: str) -> None:
        """Enter, as the field reads it: closed before the keys typed behind it are read."""
        value = self._check(text)
        if value is not None:
            self.dismiss(value)


class AlphaInput(NumberInput):
    def __init__(self, current: float) -> None:
        super().__init__(
            "Significance level (alpha)",
            "A change is significant when its p-value is below alpha.",
            f"{current:g}",
            parse_alpha,
            f"alpha must be a number between 0 and 1 (exclusive), at least {MIN_ALPHA:g}",
        )


class ThresholdInput(NumberInput):
    def __init__(self, current: float | None) -> None:
        super().__init__(
            "Practical threshold (percent)",
            "With a threshold, a change is worse or better only when its whole 95% interval "
            "lies beyond ±threshold, equivalent when it lies inside, inconclusive otherwise. "
            "Empty or 'off': no threshold.",
            "" if current is None else f"{current:g}",
            parse_threshold,
            "a percentage between 0 and 100 (exclusive), or empty for none",
        )
