"""The series (c) and scaling (g) views and the change-point marks in the tree."""

from __future__ import annotations

import asyncio
import threading

import pytest
from textual.widgets import DataTable, Static

from tuibench.model.options import ViewOptions
from tuibench.present.series_view import SeriesModel
from tuibench.tui.app import TuibenchApp
from tuibench.tui.screens.scaling import ScalingScreen
from tuibench.tui.screens.series import SeriesScreen
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.bench_tree import BenchTree

SIZE = (100, 32)
Q8 = Node.of_metric("q/clients:8", "latency")


@pytest.fixture
def series_app(tmp_path, make_series):
    """v1 .. v5; `q/clients:N` latency is 10 % worse from v4 on for N = 4 and 8."""
    make_series(tmp_path / "results")
    return lambda: TuibenchApp(
        [str(tmp_path / "results")], view=ViewOptions(export_dir=str(tmp_path))
    )


async def wait_for(pilot, condition, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("condition not reached")
        await pilot.pause(0.02)
    await pilot.pause()


def rows_of(screen) -> list[list[str]]:
    table = screen.query_one(DataTable)
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_tree_marks_and_the_series_views(series_app, loaded):
    app = series_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await wait_for(pilot, lambda: app.main.series_model is not None)
        tree = app.main.query_one(BenchTree)
        tree.select(Q8)
        await pilot.pause()
        assert tree.shown_label(Q8).endswith(" ◆v4")
        assert "◆" not in tree.shown_label(Node.of_metric("q/clients:1", "latency"))

        tree.select(Node())
        await pilot.pause()
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, SeriesScreen))
        group = rows_of(app.screen)
        assert [r[0] for r in group] in (
            ["q/clients:8 latency", "q/clients:4 latency"],
            ["q/clients:4 latency", "q/clients:8 latency"],
        )
        assert all(r[1] == "v3 -> v4" and r[4] == "worse" for r in group)

        await pilot.press("enter")  # the first (largest) step's metric along the series
        await pilot.pause()
        metric_screen = app.screen
        assert metric_screen is not None and metric_screen.node.is_metric
        series = rows_of(metric_screen)
        assert [r[1] for r in series] == ["v1", "v2", "v3", "v4", "v5"]
        assert [r[5] for r in series] == ["1", "1", "1", "2", "2"]
        assert series[3][6].startswith("◆ -") and series[4][6] == ""
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, SeriesScreen)

        tree.select(Q8)
        await pilot.pause()
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, ScalingScreen))
        scaling = rows_of(app.screen)
        assert len(scaling) == 4 * 5
        v5 = [r for r in scaling if r[1] == "v5"]
        assert [r[0] for r in v5] == ["1", "2", "4", "8"]
        assert [r[6] for r in v5] == ["same", "same", "worse", "worse"]
        await pilot.press("escape")


async def test_the_view_waits_for_the_worker_and_the_explorer_stays_live(
    series_app, loaded, monkeypatch
):
    build = SeriesModel.build
    release = threading.Event()

    def held_build(*args, **kwargs):
        release.wait(30)  # the series analysis is "slow" until the test lets it finish
        return build(*args, **kwargs)

    monkeypatch.setattr(SeriesModel, "build", classmethod(lambda cls, *a, **k: held_build(*a, **k)))
    app = series_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, SeriesScreen))
        title = app.screen.query_one("#series-title", Static)
        assert "finding change points" in str(title.render())
        await pilot.press("escape")  # the explorer answers keys meanwhile
        await wait_for(pilot, lambda: not isinstance(app.screen, SeriesScreen))
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, SeriesScreen))
        assert app.main.series_model is None
        release.set()
        await wait_for(pilot, lambda: app.main.series_model is not None)
        await wait_for(pilot, lambda: app.screen.query_one(DataTable).row_count == 2)
        await pilot.press("escape")


async def test_scaling_without_a_parameter_says_so(tmp_path, make_system, loaded):
    for system in ("a", "b"):
        make_system(
            tmp_path / "r", system, [("plain", "time", i, 1 + i / 100, "s") for i in range(3)]
        )
    app = TuibenchApp([str(tmp_path / "r")], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert app.main.series_model is None  # two systems: it waits to be asked
        app.main.query_one(BenchTree).select(Node.of_metric("plain", "time"))
        await pilot.press("g")  # starts it
        await wait_for(pilot, lambda: app.main.series_model is not None)
        await pilot.press("g")
        await pilot.pause()
        assert not isinstance(app.screen, ScalingScreen)
        assert any("No numeric parameter" in n.message for n in app._notifications)
