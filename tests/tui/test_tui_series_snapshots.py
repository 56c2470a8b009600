"""Layout snapshots of the series (c) and scaling (g) views, at 80x24 and 160x48.

Update with `pytest tests/tui/test_tui_series_snapshots.py --snapshot-update` and look at
the SVGs.
"""

from __future__ import annotations

import asyncio

import pytest

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.view.state import Node

SIZES = [(80, 24), (160, 48)]


@pytest.fixture
def series_results(tmp_path, monkeypatch, make_series):
    """results/v1 .. v5 (run from tmp_path, so the header reads `results`)."""
    make_series(tmp_path / "results", digits=6)
    monkeypatch.chdir(tmp_path)


def view(loaded, node: Node, key: str):
    async def run_before(pilot) -> None:
        await loaded(pilot)
        app = pilot.app
        while app.main.series_model is None:
            await asyncio.sleep(0.02)
        await pilot.pause()
        app.main.query_one("BenchTree").select(node)
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause(0.3)

    return run_before


def app() -> TuibenchApp:
    return TuibenchApp(["results"], view=ViewOptions(export_dir="."))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_series_of_a_group(snap_compare, series_results, loaded, size):
    assert snap_compare(app(), terminal_size=size, run_before=view(loaded, Node(), "c"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_series_of_a_metric(snap_compare, series_results, loaded, size):
    node = Node.of_metric("q/clients:8", "latency")
    assert snap_compare(app(), terminal_size=size, run_before=view(loaded, node, "c"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_scaling_curve(snap_compare, series_results, loaded, size):
    node = Node.of_metric("q/clients:8", "latency")
    assert snap_compare(app(), terminal_size=size, run_before=view(loaded, node, "g"))
