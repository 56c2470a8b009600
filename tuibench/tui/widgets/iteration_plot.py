"""Per-iteration values of one metric, one column per system, with each system's 95% CI.

The dots are the iteration values (spread a little sideways so that equal values stay
visible); the bar beside them is the confidence interval, with a tick at the centre. The bar
is red when the system is significantly worse than the reference, green when better.
"""

from __future__ import annotations

import math

from textual_plotext import PlotextPlot

from tuibench.tui.palette import Palette
from tuibench.util.text import printable

PICTURES_KEPT = 12
SPREAD = 0.3  # width of the cloud of iteration values around each system's position
BAR_OFFSET = 0.28  # where the interval bar stands, right of the dots


def finite(x: object) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def axis_labels(ticks: list[float], unit: str | None) -> tuple[list[str], str]:
    """Tick labels and the unit they are in, in the one scale of present/numbers.py
    (`21.5` and `µs`): the ticks told apart, the prefix moved into the unit."""
    from tuibench.present.numbers import scale_for  # numpy: not before the first frame

    scale = scale_for(ticks, unit or None)
    return [scale.number(t) for t in ticks], scale.unit


def y_ticks(rows: list[dict], count: int = 5) -> list[float]:
    """Ticks over every iteration value and interval bound of `rows` (`even_ticks`)."""
    values = [v for r in rows for v in (r["iteration_values"] or [])]
    return even_ticks(values + [r[c] for r in rows for c in ("ci_low", "ci_high", "center")], count)


def even_ticks(values: list[float], count: int = 5) -> list[float]:
    """`count` evenly spaced ticks over the finite `values`, with a little margin."""
    ys = [v for v in values if finite(v)]
    if not ys:
        return []
    lo, hi = min(ys), max(ys)
    pad = (hi - lo) * 0.08 or abs(hi) * 0.01 or 1.0
    lo, hi = lo - pad, hi + pad
    return [lo + (hi - lo) * i / (count - 1) for i in range(count)]


class IterationPlot(PlotextPlot):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[dict] = []
        self.unit = ""
        self._palette: Palette | None = None
        self._data_key: object = None
        self._drawn: object = None  # the data key of what plotext holds
        self._pictures: dict[object, object] = {}

    def show(self, rows: list[dict], unit: str, palette: Palette) -> None:
        """`rows`: comparison rows of one metric (system, iteration_values, center, ci_*)."""
        key = (
            unit,
            palette,
            tuple(
                (
                    r["system"],
                    tuple(r["iteration_values"] or ()),
                    r["ci_low"],
                    r["center"],
                    r["ci_high"],
                    r["verdict"],
                )
                for r in rows
            ),
        )
        if key == self._data_key:
            return
        self._data_key = key
        self.rows, self.unit, self._palette = rows, unit, palette
        self.refresh()  # drawn in render(), unless a kept picture fits

    def render(self):
        """Plotext draws the whole canvas on every render: keep the last few pictures, so
        that stepping through references (or a relayout) redraws nothing."""
        key = (self._data_key, self.size, self.app.theme, self.theme)
        picture = self._pictures.pop(key, None)
        if picture is None:
            if self._drawn != self._data_key:
                self.replot()
            picture = super().render()
        self._pictures[key] = picture  # most recent last
        while len(self._pictures) > PICTURES_KEPT:
            del self._pictures[next(iter(self._pictures))]
        return picture

    def replot(self) -> None:
        self._drawn = self._data_key
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        palette = self._palette
        if palette is None or not self.rows:
            self.refresh()
            return
        n = len(self.rows)
        values_seen = False
        for i, row in enumerate(self.rows):
            x = i + 1
            values = [v for v in row["iteration_values"] or [] if finite(v)]
            colour = {
                "worse": palette.worse,
                "better": palette.better,
                "reference": palette.reference,
            }.get(row["verdict"], palette.neutral)
            if values:
                values_seen = True
                k = len(values)
                xs = [
                    x - SPREAD / 2 + (SPREAD * j / (k - 1) if k > 1 else SPREAD / 2)
                    for j in range(k)
                ]
                plt.scatter(xs, values, marker="dot", color=palette.neutral)
            lo, centre, hi = row["ci_low"], row["center"], row["ci_high"]
            bx = x + BAR_OFFSET
            if finite(lo) and finite(hi):
                plt.plot([bx, bx], [lo, hi], marker="braille", color=colour)
            if finite(centre):
                plt.plot([bx - 0.08, bx + 0.08], [centre, centre], marker="braille", color=colour)
                values_seen = True
        if not values_seen:
            self.refresh()
            return
        ticks = y_ticks(self.rows)
        unit = self.unit
        if ticks:
            labels, unit = axis_labels(ticks, self.unit)
            plt.yticks(ticks, labels)
            plt.ylim(ticks[0], ticks[-1])
        plt.xticks(list(range(1, n + 1)), [printable(str(r["system"])) for r in self.rows])
        plt.xlim(0.4, n + 0.6)
        title = "per-iteration values (dots) and 95% CI (bars)"
        plt.title(f"{title}, {printable(unit)}" if unit else title)
        self.refresh()
