"""The footer lists c, g and d where they apply, and only there."""

from __future__ import annotations

from tuibench.tui.view.state import Node
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.key_footer import KeyFooter


def footer(app) -> str:
    return app.main.query_one(KeyFooter).plain


async def test_series_scaling_and_fdr_keys_appear_where_they_apply(
    make_app, loaded, make_series, tmp_path
):
    make_series(tmp_path / "runs")  # v1 .. v5, q/clients:1 .. 8
    app = make_app(paths=[str(tmp_path / "runs")])
    async with app.run_test(size=(200, 40)) as pilot:
        await loaded(pilot)
        while app.main.series_model is None:  # four systems: the series is built by itself
            await pilot.pause(0.05)
        tree = app.main.query_one(BenchTree)
        tree.select(Node(("q", "clients:8"), "latency"))  # a family: q/clients:*
        await pilot.pause()
        app.main.update_footer()
        line = footer(app)
        assert " c series" in line and " g scaling" in line and " d fdr" in line.lower()
        tree.select(Node(("q",)))  # a group: no metric to plot against its parameter
        await pilot.pause()
        app.main.update_footer()
        assert " g scaling" not in footer(app) and " c series" in footer(app)
        await pilot.press("d")
        await pilot.pause()
        assert "d FDR: on" in footer(app)


async def test_two_systems_have_no_series_key(make_app, loaded):
    app = make_app(paths=["results/base", "results/patched"])
    async with app.run_test(size=(200, 40)) as pilot:
        await loaded(pilot)
        assert " c series" not in footer(app)
