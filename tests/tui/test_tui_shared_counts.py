"""In the explorer, `f` (only significant changes) changes the rows a copy or an export
lists, never the per-system counts: they are over every metric, as the summary is."""

from __future__ import annotations

import json
import re

from tuibench.output.formats import EXTENSIONS, FORMATS
from tuibench.tui.screens.export_dialog import ExportDialog

COUNTS = re.compile(r"\w+ vs base: ▼\d+ worse · ▲\d+ better · \d+ same[^<\n|]*")


def counts_in(text: str) -> list[str]:
    return [m.strip() for m in COUNTS.findall(text)]


async def export(pilot, name: str) -> None:
    await pilot.press("e")
    assert isinstance(pilot.app.screen, ExportDialog)
    await pilot.press(*name, "enter")  # the suggested name is selected: typing replaces it
    await pilot.pause()
    assert not isinstance(pilot.app.screen, ExportDialog)


async def test_f_then_y_and_e_keep_the_counts(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("v", "y")  # the table of every metric (y on the answer: the answer)
        every = app.clipboard
        for fmt in FORMATS:
            await export(pilot, f"every.{EXTENSIONS[fmt]}")
        await pilot.press("f")
        assert app.main.session.state.significant_only
        await pilot.press("y")
        significant = app.clipboard
        for fmt in FORMATS:
            await export(pilot, f"significant.{EXTENSIONS[fmt]}")
    assert counts_in(every) == counts_in(significant)
    assert "patched vs base: ▼1 worse · ▲2 better · 2 same" in counts_in(significant)
    assert "tuned vs base: ▼0 worse · ▲1 better · 4 same" in counts_in(significant)
    assert "Counts over all 5 metrics; the table lists 4" in significant
    for fmt in FORMATS:
        ext = EXTENSIONS[fmt]
        a = (tmp_path / f"every.{ext}").read_text()
        b = (tmp_path / f"significant.{ext}").read_text()
        if fmt in ("csv", "tsv"):
            assert len(b.splitlines()) < len(a.splitlines())
        elif fmt == "json":
            assert json.loads(a)["summary"] == json.loads(b)["summary"]
            assert len(json.loads(b)["rows"]) < len(json.loads(a)["rows"])
        else:
            assert counts_in(a) == counts_in(b) != [], fmt
            assert "Counts over all 5 metrics; the table lists 4" in b, fmt
