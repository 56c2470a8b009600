"""Export the current table or every marked table to a file.

Enter straight away accepts every suggestion. The format follows a typed extension (`x.md`
is Markdown), the format choice otherwise; `html` is the complete report of what is chosen.
A target inside a results folder, below a file, or that is not a regular file (a device, a
FIFO, a socket, a folder) is refused (with the reason); an existing file is replaced only
after a yes; the write is atomic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Select, Static
from textual.widgets.input import Selection

from tuibench.tui.screens.confirm import ConfirmScreen
from tuibench.tui.screens.typed_ahead import TypedAhead
from tuibench.tui.view.export_files import (
    default_path,
    format_of,
    means_stdout,
    output_refusal,
    resolve,
    suggest_marked_name,
    suggest_name,
    with_extension,
)
from tuibench.tui.view.state import Mark, Node
from tuibench.tui.widgets.still_input import StillInput
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.output.shareable import Shareable
    from tuibench.present.tables import Table


@dataclass
class ExportRequest:
    """What the dialog needs to know; `current` is None when there is no current table.

    `shareables` gives what is written for the current table (marked=False) or the marked
    ones (marked=True): the comparisons behind the tables, with their titles.
    """

    current: tuple[Node, Table] | None
    marks: list[Mark]
    reference: str
    export_dir: str
    result_paths: list[str]
    shareables: Callable[[bool], list[Shareable]]
    fmt: str = "csv"
    marked_first: bool = False


@dataclass
class ExportDone:
    path: Path
    fmt: str
    tables: int


class FormatSelect(Select[str]):
    """The format choice: arrows or space open the list; enter moves on to the file name."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,space,up", "show_overlay", "Show menu", show=False),
        Binding("enter", "app.focus_next", "Next field", show=False),
    ]


class ExportDialog(TypedAhead, ModalScreen[ExportDone | None]):
    AUTO_FOCUS = "#export-path"  # typing goes to the file name, whatever was focused before
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="tuibench.dialog.cancel")
    ]

    def __init__(self, request: ExportRequest) -> None:
        super().__init__()
        self.request = request
        self._suggested = ""
        self._marked = bool(request.marks) and (request.marked_first or request.current is None)

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        from tuibench.output.formats import FORMATS

        r = self.request
        with Vertical(classes="dialog", id="export-dialog"):
            yield Static("Export", classes="dialog-title")
            current = Text("current table")
            if r.current is not None:
                current.append(f": {printable(r.current[1].title)}", "dim")
            marked = Text(f"all marked tables ({len(r.marks)})")
            if r.current is not None and r.marks:  # a choice only where there is one
                with RadioSet(id="export-what"):
                    yield RadioButton(current, value=not self._marked, id="export-current")
                    yield RadioButton(marked, value=self._marked, id="export-marked")
            else:
                yield Static(marked if self._marked else current, id="export-what")
            yield FormatSelect(
                [(f, f) for f in FORMATS],
                value=r.fmt if r.fmt in FORMATS else "csv",
                allow_blank=False,
                id="export-format",
            )
            yield StillInput(id="export-path", on_submit=lambda _text: self.export())
            yield Static(id="export-error", classes="dialog-error")
            yield Static(
                Text(
                    "enter: export · tab: next field · escape: cancel\n"
                    "html: the complete report, with plots, for a browser",
                    style="dim",
                ),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self._suggest()
        path = self.query_one("#export-path", Input)
        self.set_focus(path)  # now: the keys typed right after `e` go to the name
        # The suggested file name is selected: a typed name replaces it, in the same folder.
        path.selection = Selection(len(path.value) - len(Path(path.value).name), len(path.value))
        self.release_typed()

    # -- state ----------------------------------------------------------------------------
    @property
    def fmt(self) -> str:
        value = self.query_one("#export-format", Select).value
        return value if isinstance(value, str) else "csv"  # a format of core.export.FORMATS

    @property
    def marked(self) -> bool:
        return self._marked

    def tables(self) -> list[Table]:
        if self.marked:
            return [m.table for m in self.request.marks]
        return [self.request.current[1]] if self.request.current else []

    def text(self, fmt: str) -> str:
        from tuibench.output.rendering import render_shareable

        return render_shareable(self.request.shareables(self.marked), fmt)

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
        self._marked = event.pressed.id == "export-marked"
        self._suggest()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value == format_of(self.query_one("#export-path", Input).value):
            self._check()  # the typed extension chose it: the name stays as typed
            return
        self._suggest()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        typed = format_of(event.value)
        choice = self.query_one("#export-format", Select)
        if typed is not None and typed != choice.value:
            choice.value = typed  # the typed extension decides; the name stays as typed
        self._check()

    def _check(self) -> str | None:
        """Show (and return) why the target cannot be written, before the user presses enter."""
        text = self.query_one("#export-path", Input).value.strip()
        why: str | None
        if not text:
            why = "give a file name"
        elif not self.tables():
            why = "nothing to export"
        elif means_stdout(text):
            why = "standard output is this screen: give a file name"
        else:  # devices, FIFOs, sockets and folders are refused: nothing but a file is replaced
            why = output_refusal(text, self.request.result_paths)
        self.query_one("#export-error", Static).update(Text(printable(why or "")))
        return why

    # -- writing ------------------------------------------------------------------------
    def export(self) -> None:
        if self._check():
            return
        text = self.query_one("#export-path", Input).value.strip()
        fmt = format_of(text) or self.fmt
        target = resolve(text)
        if target.exists():
            question = Text()
            question.append(printable(str(target)), "bold")
            question.append(" already exists.\nReplace it?")
            self.app.push_screen(
                ConfirmScreen(question, yes="Replace"),
                lambda yes: self._write(target, fmt, overwrite=True) if yes else None,
            )
            return
        self._write(target, fmt, overwrite=False)

    def _write(self, target: Path, fmt: str, overwrite: bool) -> None:
        from tuibench.output.writing import write_atomic

        error = self.query_one("#export-error", Static)
        try:
            text = self.text(fmt)
        except ValueError as exc:  # e.g. marked tables that one HTML report cannot hold
            error.update(Text(printable(str(exc))))
            return
        try:
            path = write_atomic(target, text, overwrite=overwrite)
        except FileExistsError:
            if target.exists():
                error.update(
                    Text(printable(f"{target} appeared meanwhile: press enter again to decide"))
                )
            else:
                error.update(Text(printable(f"cannot write {target}: a file is in the way")))
            return
        except OSError as exc:
            error.update(Text(f"cannot write: {exc.strerror or exc}"))
            return
        self.dismiss(ExportDone(path, fmt, len(self.tables())))
