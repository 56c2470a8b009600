"""Plots of the series views: a metric along the series, and a scaling curve.

SeriesPlot: each system's centre (a dot) and 95 % interval (a bar) at its place in the
series; a dashed vertical line before the first system of each new level (a change point),
and each level's centre as a horizontal line across its systems.
ScalingPlot: the metric against a parameter, one line per system, each point with its 95 %
interval; a logarithmic axis when the values about double.
"""

from __future__ import annotations

import math

from textual_plotext import PlotextPlot

from tuibench.tui.palette import DARK, Palette, system_styles
from tuibench.tui.widgets.iteration_plot import axis_labels, even_ticks, finite
from tuibench.util.text import printable

MAX_LABELS = 12  # system names written under the axis; the others are numbered in the table


def _bars(plt, bars: list[tuple[float, float, float]], palette: Palette) -> None:
    """Vertical bars from low to high at x, in braille (a quarter of a cell per dot), so a
    bar is drawn where its interval lies even when it is shorter than a cell."""
    for x, lo, hi in bars:
        if finite(lo) and finite(hi):
            plt.plot([x, x], [lo, hi], marker="braille", color=palette.neutral)


class SeriesPlot(PlotextPlot):
    """One metric along the series (rows from `SeriesModel.metric_rows`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[dict] = []
        self.unit = ""
        self.palette: Palette | None = None

    def show(self, rows: list[dict], unit: str, palette: Palette) -> None:
        self.rows, self.unit, self.palette = rows, unit, palette
        self.replot()

    def replot(self) -> None:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        rows, palette = self.rows, self.palette
        if not rows or palette is None:
            self.refresh()
            return
        xs = list(range(1, len(rows) + 1))
        ys = [r[c] for r in rows for c in ("center", "ci_low", "ci_high")]
        ticks = even_ticks(ys)
        # Drawn first, so the points stay on top: each level's mean centre across its
        # systems, and a dotted line before the first system of each new level.
        start = 0
        for i in range(1, len(rows) + 1):
            if i == len(rows) or rows[i]["level"] != rows[start]["level"]:
                level = [r["center"] for r in rows[start:i] if finite(r["center"])]
                if level:
                    y = sum(level) / len(level)
                    plt.plot([start + 0.6, i + 0.4], [y, y], marker="braille", color=palette.accent)
                if i < len(rows) and ticks:
                    step = rows[i]["step"] or {}
                    colour = {"worse": palette.worse, "better": palette.better}.get(
                        step.get("verdict", ""), palette.accent
                    )
                    plt.plot([i + 0.5, i + 0.5], [ticks[0], ticks[-1]], marker="⋮", color=colour)
                start = i
        _bars(plt, [(x, r["ci_low"], r["ci_high"]) for x, r in zip(xs, rows, strict=True)], palette)
        centres = [(x, r["center"]) for x, r in zip(xs, rows, strict=True) if finite(r["center"])]
        if centres:
            plt.scatter([c[0] for c in centres], [c[1] for c in centres], marker="●")
        unit = self.unit
        if ticks:
            labels, unit = axis_labels(ticks, self.unit)
            plt.yticks(ticks, labels)
            plt.ylim(ticks[0], ticks[-1])
        every = max(1, math.ceil(len(rows) / MAX_LABELS))
        shown = [x for x in xs if (x - 1) % every == 0]
        labels = [printable(rows[x - 1]["system"]) if len(rows) <= 6 else str(x) for x in shown]
        plt.xticks(shown, labels)  # type: ignore[arg-type]  # plotext's stubs: list[float]
        plt.xlim(0.5, len(rows) + 0.5)
        title = "centre (●) and 95% CI along the series; ⋮ change point; — level"
        plt.title(f"{title}, {printable(unit)}" if unit else title)
        self.refresh()


class ScalingPlot(PlotextPlot):
    """A metric against a numeric parameter, one line per system (rows of `curves`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[dict] = []
        self.systems: list[str] = []
        self.log_x = False
        self.title_text = ""
        self.palette: Palette | None = None

    def show(
        self, rows: list[dict], systems: list[str], log_x: bool, title: str, palette: Palette
    ) -> None:
        self.rows, self.systems, self.log_x = rows, systems, log_x
        self.title_text, self.palette = title, palette
        self.replot()

    def replot(self) -> None:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        if not self.rows or self.palette is None:
            self.refresh()
            return
        if self.log_x:
            plt.xscale("log")
        styles = system_styles(len(self.systems), self.palette is DARK)
        for system, (colour, marker) in zip(self.systems, styles, strict=True):
            pts = sorted(
                (r["value"], r["center"], r["ci_low"], r["ci_high"])
                for r in self.rows
                if r["system"] == system and finite(r["center"])
            )
            if not pts:
                continue
            plt.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                marker=marker,
                color=colour,
                label=printable(system),
            )
            _bars(plt, [(v, lo, hi) for v, _, lo, hi in pts], self.palette)
        values = sorted({r["value"] for r in self.rows})
        plt.xticks(values, [f"{v:g}" for v in values])
        ticks = even_ticks([r[c] for r in self.rows for c in ("center", "ci_low", "ci_high")])
        unit = ""
        if ticks:
            labels, unit = axis_labels(ticks, self.rows[0].get("unit"))
            plt.yticks(ticks, labels)
            plt.ylim(ticks[0], ticks[-1])
        title = self.title_text + (f", {printable(unit)}" if unit else "")
        plt.title(title + ("  (log axis)" if self.log_x else ""))
        self.refresh()
