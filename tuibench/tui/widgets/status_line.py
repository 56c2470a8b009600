"""The header line: results path, reference, alpha, systems, problems, active options."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from tuibench.tui.palette import Palette
from tuibench.util.text import printable

SEP = " │ "


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def show(
        self,
        path: str,
        items: list[tuple[str, str]],
        systems: int | None,
        problems: int,
        palette: Palette,
        options: Sequence[tuple[str, str]] = (),
    ) -> None:
        text = Text()
        text.append("tuibench ", palette.accent_style)
        text.append(printable(path), "bold")
        self._items(text, items, palette)
        if systems is not None:
            text.append(SEP, palette.muted)
            text.append(f"{systems} system{'s' if systems != 1 else ''}")
        self._items(text, options, palette)  # sort and filter before what cut lines may lose
        text.append(SEP, palette.muted)
        label = f"{problems} problem{'s' if problems != 1 else ''}"
        if problems:
            text.append(f"{label} (p)", palette.warning_style)
        else:
            text.append(label, palette.muted)
        if text.plain != self.plain or text != self._text:
            self._text = text
            self.update(text, layout=False)  # one line, always: no relayout
        self.plain = text.plain

    plain: str = ""
    _text: Text | None = None

    @staticmethod
    def _items(text: Text, items: Sequence[tuple[str, str]], palette: Palette) -> None:
        for label, value in items:
            text.append(SEP, palette.muted)
            if label:
                text.append(f"{label} ", palette.muted)
            text.append(printable(value), "bold")
