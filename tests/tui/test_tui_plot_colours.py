"""Every system of a plot can be told apart: 12 distinct colours, then other markers."""

from __future__ import annotations

import itertools

import pytest

from tuibench.tui.palette import DARK, LIGHT, system_styles
from tuibench.tui.widgets.series_plot import ScalingPlot


@pytest.mark.parametrize("dark", [True, False])
def test_twelve_systems_have_twelve_colours_far_apart(dark):
    colours = [colour for colour, _ in system_styles(12, dark)]
    assert len(set(colours)) == 12
    # Far apart in RGB, not only different (the old plots gave two purples and two reds).
    closest = min(
        sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5
        for a, b in itertools.combinations(colours, 2)
    )
    assert closest > 60


@pytest.mark.parametrize("dark", [True, False])
def test_past_twelve_the_marker_tells_them_apart(dark):
    styles = system_styles(40, dark)
    assert len(set(styles)) == 40


def test_the_scaling_plot_draws_each_system_in_its_own_style(monkeypatch):
    systems = [f"v6.{i}" for i in range(14)]
    rows = [
        {"system": s, "value": v, "center": 1.0 + i + v, "ci_low": i + v, "ci_high": 2.0 + i + v}
        for i, s in enumerate(systems)
        for v in (1.0, 2.0, 4.0)
    ]
    plot = ScalingPlot()
    drawn: list[tuple] = []
    monkeypatch.setattr(plot, "refresh", lambda *a, **k: None)
    real = plot.plt.plot

    def record(*args, **kw):
        if "label" in kw:  # a system's curve, not an error bar
            drawn.append((kw["label"], kw["color"], kw["marker"]))
        return real(*args, **kw)

    monkeypatch.setattr(plot.plt, "plot", record)
    for palette in (DARK, LIGHT):
        drawn.clear()
        plot.show(rows, systems, False, "t", palette)
        assert [d[0] for d in drawn] == systems
        assert len({d[1:] for d in drawn}) == 14
        assert len({d[1] for d in drawn[:12]}) == 12
