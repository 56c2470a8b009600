"""Repaint no more than changed: a widget shown or resized by a reflow is painted whole by
it, yet Textual keeps the whole-widget repaint asked before (while hidden, or by the resize
itself) and paints it all again with the next change. Over SSH that was 8 KB for a cursor
move at 120x40, where the move alone is two lines (benchmarks/bench_keys_bytes.py).

Mixed into line-API widgets. A whole repaint asked after the last paint is kept: the
counters tell whether a paint (a `render_line`) came after the last whole refresh.
"""

from __future__ import annotations

from textual.geometry import Region

from tuibench.tui.textual_adapter import drop_pending_repaint


class PaintedWhole:
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

    def _drop_painted(self) -> None:
        if self._whole_painted == self._whole_asked:
            drop_pending_repaint(self)
