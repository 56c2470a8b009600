"""Snapshots of the answer that must warn: a reference first only by its name, verdicts not
robust, on two iterations, a direction the name contradicts, chance at 23 comparisons and a
change of unknown direction (tests/data/tui/kernels, make_kernels_fixture.py).

Update with `pytest tests/tui/test_tui_answer_snapshots.py --snapshot-update` and look at
the SVGs.
"""

from __future__ import annotations

import pytest

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp


def app() -> TuibenchApp:
    return TuibenchApp(["kernels"], view=ViewOptions(export_dir="."))


def before(loaded, *keys: str):
    async def run_before(pilot) -> None:
        await loaded(pilot)
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_answer_says_what_to_read_it_with(snap_compare, tui_data, loaded, size):
    assert snap_compare(app(), terminal_size=size, run_before=before(loaded))


def test_answer_against_the_baseline(snap_compare, tui_data, loaded):
    """`]`: the reference the user chose; nothing more to say about it."""
    assert snap_compare(
        app(), terminal_size=(80, 24), run_before=before(loaded, "right_square_bracket")
    )
