"""At 80 columns the tree's column is narrower than long names: the names give way (cut in
the middle), so that the verdict marks beside them and the scroll bar stay in sight."""

from __future__ import annotations

import numpy as np

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.widgets.bench_tree import BenchTree

LONG = "hackbench-process-pipes-over-unix-sockets"


def _write(tmp_path, make_system, benchmarks: int, systems: int = 2) -> None:
    rng = np.random.default_rng(3)
    for system, factor in (("base", 1.0), ("patched", 1.10), ("tuned", 1.10))[:systems]:
        rows = [
            (f"{LONG}-{b}", "time", i, round(v, 5), "s")
            for b in range(benchmarks)
            for i in range(5)
            for v in 100 * (factor if b == 0 else 1.0) * (1 + rng.normal(0, 0.005, 4))
        ]
        make_system(tmp_path, system, rows)


async def test_long_names_keep_their_marks_in_sight(tmp_path, loaded, make_system):
    _write(tmp_path, make_system, 40)
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("tab")  # into the tree
        await pilot.pause()
        tree = app.main.query_one(BenchTree)
        column = app.main.query_one("#left")
        assert tree.region.right <= column.content_region.right  # the scroll bar shows
        width = tree.scrollable_content_region.width
        lines = [tree.render_line(y).text for y in range(3)]
    assert all(len(line.rstrip()) <= width for line in lines)
    group = lines[1]  # the first benchmark, the one that regressed (10 % slower)
    assert "…" in group and group.rstrip().endswith("▼1")
    assert group.split()[-2].startswith("hackben") and group.split()[-2].endswith("-0")


async def test_the_root_drops_its_reference_before_its_name(
    tmp_path, loaded, make_system, monkeypatch
):
    """With several systems the root's line names the reference ("vs base") where there is
    room; at 80 columns its name and counts stay whole instead (the header names it)."""
    _write(tmp_path / "kernel-results", make_system, 2, systems=3)
    monkeypatch.chdir(tmp_path)
    lines = []
    for size in ((80, 24), (160, 24)):
        app = TuibenchApp(["kernel-results"], view=ViewOptions(export_dir=str(tmp_path)))
        async with app.run_test(size=size) as pilot:
            await loaded(pilot)
            await pilot.press("tab")
            await pilot.pause()
            lines.append(app.main.query_one(BenchTree).render_line(0).text.rstrip())
    narrow, wide = lines
    assert narrow == "▾ kernel-results ▼1"
    assert wide == "▾ kernel-results ▼1  vs base"
