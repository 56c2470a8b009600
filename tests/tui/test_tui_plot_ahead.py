"""The metric's plot widget is made while the first screen is read, not by the first key
that shows a metric (its mount was 60-70 ms of that key in a terminal)."""

from __future__ import annotations

from tuibench.tui.widgets.detail_pane import DetailPane, PlotSlot


async def test_the_plot_is_made_before_a_metric_is_shown(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        slot = app.main.query_one("#plot", PlotSlot)
        for _ in range(100):  # the loading thread imports its module after the first frame
            if slot.children:
                break
            await pilot.pause(0.05)
        assert slot.children, "no plot made ahead"
        assert app.main.query_one(DetailPane).mode == "answer"  # no key showed a metric
