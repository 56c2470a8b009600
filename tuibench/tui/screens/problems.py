"""Everything that could not be read while loading: path, line, where, and why."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tuibench.model.problems import Problem
from tuibench.util.text import printable


def problem_text(p: Problem) -> Text:
    text = Text()
    text.append(printable(p.path), "bold")
    if p.line is not None:
        text.append(f":{p.line}", "bold")
    if p.where:
        text.append(f" (at {printable(p.where)})", "dim")
    text.append("\n  " + printable(p.reason))
    return text


class ProblemsScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,p", "dismiss(None)", "Close", id="tuibench.dialog.close"),
    ]

    def __init__(self, problems: list[Problem], set_aside: str | None = None) -> None:
        super().__init__()
        self.problems = problems
        self.set_aside = set_aside  # the one line of files that are not results

    def compose(self) -> ComposeResult:
        n = len(self.problems)
        # Past a few hundred, the first ones and counts by kind: 100,000 took 14.5 s to list.
        from tuibench.present.problem_summary import summarise  # polars: after the first frame

        summary = summarise(self.problems)
        with Vertical(classes="dialog wide", id="problems-dialog"):
            yield Static(
                f"{n} problem{'s' if n != 1 else ''} while loading", classes="dialog-title"
            )
            if summary.unlisted:
                yield Static(Text("\n".join(summary.lines())), id="problems-kinds")
            if self.problems:
                yield OptionList(
                    *(Option(problem_text(p)) for p in summary.listed), id="problems-list"
                )
            elif not self.set_aside:
                yield Static("Everything was read.", id="problems-none")
            if self.set_aside:
                yield Static(printable(f"Set aside: {self.set_aside}."), id="problems-set-aside")
            yield Static(
                Text(
                    "The rest of the results loaded. `tuibench inspect PATH` lists every "
                    "file with what was read from it. escape: close",
                    style="dim",
                ),
                classes="dialog-hint",
            )
