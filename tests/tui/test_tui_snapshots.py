"""Layout snapshots on the small fixture, fully loaded, at 80x24 and 160x48.

Update with `pytest tests/tui/test_tui_snapshots.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

import pytest

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.view.state import Node

SIZES = [(80, 24), (160, 48)]


def app() -> TuibenchApp:
    return TuibenchApp(["results"], view=ViewOptions(export_dir="."))


def before(loaded, then=None):
    async def run_before(pilot) -> None:
        await loaded(pilot)
        if then is not None:
            await then(pilot)
        await pilot.pause()

    return run_before


async def open_metric(pilot) -> None:
    pilot.app.main.query_one("BenchTree").select(Node.of_metric("db/read", "tps"))
    await pilot.pause()


async def press(pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_first_screen_is_the_answer(snap_compare, tui_data, loaded, size):
    assert snap_compare(app(), terminal_size=size, run_before=before(loaded))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_root_summary(snap_compare, tui_data, loaded, size):
    async def table(pilot) -> None:
        await press(pilot, "v")

    assert snap_compare(app(), terminal_size=size, run_before=before(loaded, table))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_metric_detail(snap_compare, tui_data, loaded, size):
    assert snap_compare(app(), terminal_size=size, run_before=before(loaded, open_metric))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reference_picker(snap_compare, tui_data, loaded, size):
    async def pick(pilot) -> None:
        await press(pilot, "r")

    assert snap_compare(app(), terminal_size=size, run_before=before(loaded, pick))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help_screen(snap_compare, tui_data, loaded, size):
    async def help_(pilot) -> None:
        await press(pilot, "question_mark")

    assert snap_compare(app(), terminal_size=size, run_before=before(loaded, help_))


async def eight_systems_table(pilot) -> None:
    await pilot.app.workers.wait_for_complete()  # the series of eight systems, by itself
    await press(pilot, "v")


def test_eight_systems_fit_at_200_columns(snap_compare, tui_data, loaded):
    """Every system's column of the summary, with whole numbers, beside the tree."""
    eight = TuibenchApp(["eight"], view=ViewOptions(export_dir="."))
    assert snap_compare(
        eight, terminal_size=(200, 50), run_before=before(loaded, eight_systems_table)
    )
