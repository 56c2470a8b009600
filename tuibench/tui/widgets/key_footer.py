"""The footer: the state of the toggles in words, then the keys of the place with the focus.

Whole items only: what does not fit is left out (the least useful keys first), never cut in
the middle of a word; the help key always stays.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from tuibench.tui.palette import Palette
from tuibench.util.text import printable

SEP = " │ "
GAP = "  "


class KeyFooter(Widget):
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        background: $panel;
        color: $foreground;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._state: list[tuple[str, str, str]] = []  # (key, what, value); what may be ""
        self._keys: list[tuple[str, str]] = []  # (key, what), most useful first
        self._help: tuple[str, str] = ("?", "help")
        self._palette: Palette | None = None
        self.plain = ""  # the line as last drawn, for tests

    def show(
        self,
        state: list[tuple[str, str, str]],
        keys: list[tuple[str, str]],
        help_key: tuple[str, str],
        palette: Palette,
    ) -> None:
        new = (state, keys, help_key, palette)
        if new != (self._state, self._keys, self._help, self._palette):
            self._state, self._keys, self._help, self._palette = new
            self.refresh()

    def render(self) -> Text:
        text = self.line(self.content_size.width)
        self.plain = text.plain
        return text

    def line(self, width: int) -> Text:
        """The footer at `width` cells: the state, then as many keys as fit, then help."""
        palette = self._palette
        key_style = palette.accent_style if palette is not None else "bold"
        value_style = "bold"
        parts: list[Text] = []
        for key, what, value in self._state:
            part = Text()
            part.append(printable(key), key_style)
            part.append(f" {what}: " if what else " ")
            part.append(printable(value), value_style)
            parts.append(part)
        state = Text(SEP).join(parts)
        if parts:
            state.append(SEP)
        help_part = self._key(*self._help, key_style)
        room = width - state.cell_len - help_part.cell_len
        if room < 0:  # very narrow: the state alone, whole items only
            return self._fit(parts, width)
        chosen = []
        for i, (key, what) in enumerate(self._keys):  # the most useful first
            part = self._key(key, what, key_style)
            if part.cell_len + len(GAP) <= room:
                chosen.append((i, part))
                room -= part.cell_len + len(GAP)
        line = state
        for _, part in sorted(chosen, key=lambda c: c[0]):
            line.append_text(part)
            line.append(GAP)
        line.append_text(help_part)
        return line

    @staticmethod
    def _key(key: str, what: str, style) -> Text:
        part = Text()
        part.append(printable(key), style)
        part.append(f" {what}")
        return part

    @staticmethod
    def _fit(parts: list[Text], width: int) -> Text:
        line = Text()
        for part in parts:
            extra = part.cell_len + (len(SEP) if line.cell_len else 0)
            if line.cell_len + extra > width:
                break
            if line.cell_len:
                line.append(SEP)
            line.append_text(part)
        return line
