"""Export the current table or every marked table to a file.

Enter straight away accepts every suggestion. A target inside a results folder is refused
(with the reason); an existing file is replaced only after a yes; the write is atomic.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Select, Static

from tuibench.tui.export_files import (
    default_path,
    refusal,
    resolve,
    suggest_marked_name,
    suggest_name,
    with_extension,
)
from tuibench.tui.screens.confirm import ConfirmScreen
from tuibench.tui.state import Mark, Node

if TYPE_CHECKING:
    from tuibench.core.tables import Table


@dataclass
class ExportRequest:
    """What the dialog needs to know; `current` is None when there is no current table."""

    current: tuple[Node, Table] | None
    marks: list[Mark]
    reference: str
    export_dir: str
    result_paths: list[str]
    fmt: str = "csv"
    marked_first: bool = False


@dataclass
class ExportDone:
    path: Path
    fmt: str
    tables: int


class ExportDialog(ModalScreen[ExportDone | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel")
    ]

    def __init__(self, request: ExportRequest) -> None:
        super().__init__()
        self.request = request
        self._suggested = ""

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        from tuibench.core.output_formats import FORMATS

        r = self.request
        with Vertical(classes="dialog", id="export-dialog"):
            yield Static("Export", classes="dialog-title")
            with RadioSet(id="export-what"):
                current = Text("current table")
                if r.current is not None:
                    current.append(f": {r.current[1].title}", "dim")
                yield RadioButton(
                    current,
                    value=not self._marked_default(),
                    disabled=r.current is None,
                    id="export-current",
                )
                yield RadioButton(
                    Text(f"all marked tables ({len(r.marks)})"),
                    value=self._marked_default(),
                    disabled=not r.marks,
                    id="export-marked",
                )
            yield Select(
                [(f, f) for f in FORMATS],
                value=r.fmt if r.fmt in FORMATS else "csv",
                allow_blank=False,
                id="export-format",
            )
            yield Input(id="export-path")
            yield Static(id="export-error", classes="dialog-error")
            yield Static(
                Text("enter: export · tab: next field · escape: cancel", style="dim"),
                classes="dialog-hint",
            )

    def _marked_default(self) -> bool:
        r = self.request
        return bool(r.marks) and (r.marked_first or r.current is None)

    def on_mount(self) -> None:
        self._suggest()
        path = self.query_one("#export-path", Input)
        path.focus()
        path.cursor_position = len(path.value)

    # -- state ----------------------------------------------------------------------------
    @property
    def fmt(self) -> str:
        value = self.query_one("#export-format", Select).value
        return value if isinstance(value, str) else "csv"  # a format of core.export.FORMATS

    @property
    def marked(self) -> bool:
        return self.query_one("#export-marked", RadioButton).value

    def tables(self) -> list[Table]:
        if self.marked:
            return [m.table for m in self.request.marks]
        return [self.request.current[1]] if self.request.current else []

    def suggestion(self) -> str:
        r = self.request
        if self.marked:
            name = suggest_marked_name(r.marks, self.fmt)
        elif r.current is not None:
            name = suggest_name(r.current[0], r.reference, self.fmt)
        else:
            name = f"table.{self.fmt}"
        return default_path(r.export_dir, name)

    def _suggest(self) -> None:
        """Put the suggestion in the path field unless the user has typed their own."""
        path = self.query_one("#export-path", Input)
        if path.value in ("", self._suggested):
            path.value = self._suggested = self.suggestion()
        else:
            path.value = with_extension(path.value, self.fmt)
        self._check()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        self._suggest()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._suggest()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._check()

    def _check(self) -> str | None:
        """Show (and return) why the target cannot be written, before the user presses enter."""
        text = self.query_one("#export-path", Input).value.strip()
        if not text:
            why = "give a file name"
        elif not self.tables():
            why = "nothing to export"
        else:
            why = refusal(resolve(text), self.request.result_paths)
        self.query_one("#export-error", Static).update(Text(why or ""))
        return why

    # -- writing ------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.export()

    def export(self) -> None:
        if self._check():
            return
        target = resolve(self.query_one("#export-path", Input).value.strip())
        if target.exists():
            question = Text()
            question.append(str(target), "bold")
            question.append(" already exists.\nReplace it?")
            self.app.push_screen(
                ConfirmScreen(question, yes="Replace"),
                lambda yes: self._write(target, overwrite=True) if yes else None,
            )
            return
        self._write(target, overwrite=False)

    def _write(self, target: Path, overwrite: bool) -> None:
        from tuibench.core.export import render, write_atomic

        tables = self.tables()
        text = render(tables if len(tables) > 1 else tables[0], self.fmt)
        try:
            path = write_atomic(target, text, overwrite=overwrite)
        except FileExistsError:
            self.query_one("#export-error", Static).update(
                Text(f"{target} appeared meanwhile: press enter again to decide")
            )
            return
        except OSError as exc:
            self.query_one("#export-error", Static).update(Text(f"cannot write: {exc}"))
            return
        self.dismiss(ExportDone(path, self.fmt, len(tables)))
