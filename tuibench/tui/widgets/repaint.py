"""Repaint no more than changed: a widget shown or resized by a reflow is painted whole by
it, yet Textual keeps the whole-widget repaint asked before (while hidden, or by the resize
itself) and paints it all again with the next change. Over SSH that was 8 KB for a cursor
move at 120x40, where the move alone is two lines (benchmarks/bench_keys_bytes.py).

Mixed into line-API widgets. A whole repaint asked after the last paint is kept: the
counters tell whether a paint (a `render_line`) came after the last whole refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from tuibench.tui.textual_adapter import drop_pending_repaint

if TYPE_CHECKING:
    from textual.widget import Widget as _Widget  # the base it is mixed in before
else:
    _Widget = object


class PaintedWhole(_Widget):
    _whole_asked = 0
    _whole_painted = 0

    def refresh(self, *regions: Region, **kwargs):
        if not regions and kwargs.get("repaint", True):
            self._whole_asked += 1
        return super().refresh(*regions, **kwargs)

    def painted(self) -> None:
        """Call from `render_line`: what was asked so far is being painted."""
        self._whole_painted = self._whole_asked

    def on_show(self) -> None:
        self._drop_painted()

    _paint_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style walks every ancestor's styles: once per paint, not per line.
        self._paint_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._paint_style = None

    @property
    def line_style(self) -> Style:
        """`rich_style`, computed once per paint while `render_line` runs."""
        return self.rich_style if self._paint_style is None else self._paint_style

    def _drop_painted(self) -> None:
        if self._whole_painted == self._whole_asked:
            drop_pending_repaint(self)
