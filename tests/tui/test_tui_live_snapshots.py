"""Snapshots of live results: after `R`, the Δ of a metric whose verdict changed, the
decided (✓) and undecided (◌) marks of --follow, the status line, and a metric's decision.

Update with `pytest tests/tui/test_tui_live_snapshots.py --snapshot-update`; look at the SVGs.
"""

from __future__ import annotations

import pytest

from tests.tui.test_tui_live import SPIN, iteration, until
from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.screens.main import live
from tuibench.tui.view.state import Node

SIZES = [(80, 24), (160, 48)]


@pytest.fixture
def growing(tmp_path, monkeypatch):
    """results/ with Spin and Sort equal in base and new; `more()` adds iterations where
    new's Spin is 30 % slower and its Sort noisy (undecided)."""
    monkeypatch.chdir(tmp_path)
    # The clock the live screen reads, not the time module's (plotext's dates use that one).
    real = live.time.strftime
    monkeypatch.setattr(
        live.time, "strftime", lambda fmt, *t: "12:00:00" if fmt == "%H:%M:%S" else real(fmt, *t)
    )
    root = tmp_path / "results"
    for i in range(3):
        iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
        iteration(root / "new" / f"run-{i}.txt", 1000, 500, seed=100 + i)

    def more() -> None:
        for i in range(3, 9):
            iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
            iteration(root / "new" / f"run-{i}.txt", 1300, 500 * (1.03 if i % 2 else 0.97), i)

    return more


def reloaded(loaded, more, then=None):
    async def run_before(pilot) -> None:
        app = pilot.app
        await loaded(pilot)
        app.main.go_to(Node.of_metric("Sort", "ns/op"))
        more()
        await until(
            pilot, lambda: app.main._arrived is not None and len(app.main._arrived.added) == 12, 20
        )
        await pilot.press("R")
        await until(
            pilot, lambda: not app.main._reloading and app.main.session.rs.samples.height == 108
        )
        app.clear_notifications()
        if then is not None:
            await then(pilot)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_changed_verdict_marked_after_reload(snap_compare, loaded, growing, size):
    async def tree(pilot) -> None:
        await pilot.press("tab")  # the tree, also at 80 columns

    app = TuibenchApp(["results"], view=ViewOptions(export_dir=".", decide=True))
    assert snap_compare(app, terminal_size=size, run_before=reloaded(loaded, growing, tree))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_metric_says_its_decision(snap_compare, loaded, growing, size):
    async def visit(pilot) -> None:
        pilot.app.main.go_to(SPIN)

    app = TuibenchApp(["results"], view=ViewOptions(export_dir=".", decide=True))
    assert snap_compare(app, terminal_size=size, run_before=reloaded(loaded, growing, visit))
