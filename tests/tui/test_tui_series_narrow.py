"""The series table at 80 columns: no cell is cut (a step's interval goes below its size),
and the legend cites only systems that exist."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Static

from tests.tui.test_tui_series import wait_for
from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.screens.series import SeriesScreen
from tuibench.tui.view.state import Node

Q8 = Node.of_metric("q/clients:8", "latency")


async def series_of(app, pilot, loaded, node: Node) -> SeriesScreen:
    await loaded(pilot)
    await wait_for(pilot, lambda: app.main.series_model is not None)
    app.main.query_one("BenchTree").select(node)
    await pilot.pause()
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, SeriesScreen))
    await pilot.pause(0.1)
    return app.screen


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_no_cell_is_cut(tmp_path, make_series, loaded, size):
    make_series(tmp_path / "results")
    app = TuibenchApp([str(tmp_path / "results")], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=size) as pilot:
        screen = await series_of(app, pilot, loaded, Q8)
        table = screen.query_one(DataTable)
        # every column as wide as its widest line, and all of them within the screen
        for i in range(table.row_count):
            for column, cell in zip(table.ordered_columns, table.get_row_at(i), strict=True):
                assert (
                    max(map(cell_len, cell.plain.split("\n")))
                    <= column.get_render_width(table) - 2 * table.cell_padding
                )
        assert table.virtual_size.width <= table.scrollable_content_region.width
        step = [table.get_row_at(i)[6].plain for i in range(table.row_count)][3]
        interval = re.search(r"\[[-+][\d.]+%, [-+][\d.]+%\]", step)
        assert step.startswith("◆ -") and interval and " p " in step
        assert ("\n" in step) == (size[0] == 80)  # below its size only when narrow
        notes = screen.query_one("#series-notes", Static).render().plain
        assert "{B, C}" not in notes
        named = re.findall(r"\{([^}]*)\}", notes)
        assert named  # v1 .. v5 fall in two groups
        for group in named:
            assert set(group.split(", ")) <= {"v1", "v2", "v3", "v4", "v5"}
