"""The per-system counts in what is shared (Markdown, text, LaTeX, HTML, JSON, the explorer's
copies and exports, `report --only-significant`) are over every metric, as the per-system
summary is: keeping only the significant rows must not turn "13 same" into "0 same"."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.output.formats import FORMATS
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable

# `patched vs base: ▼2 worse · ▲1 better · 6 same · ...` up to the end of its line or tag
COUNTS = re.compile(r"[\w-]+ vs base: ▼\d+ worse · ▲\d+ better · \d+ same[^<\n|]*")
# app/<name>: (factor of patched against base, unit); '' = unknown direction
METRICS = {
    "slow": (1.06, "ms"),
    "slower": (1.10, "ms"),
    "fast": (0.93, "ms"),
    "odd": (1.08, ""),
    **{f"flat{i}": (1.0, "ms") for i in range(6)},
}


@pytest.fixture
def mixed(tmp_path, make_system):
    """Two systems: two regressions, one improvement, one change of unknown direction and
    six unchanged metrics (5 iterations of 6 samples, 1 % noise)."""
    rng = np.random.default_rng(11)
    for system in ("base", "patched"):
        rows = []
        for name, (factor, unit) in METRICS.items():
            f = factor if system == "patched" else 1.0
            for i in range(5):
                for v in 100 * f * (1 + rng.normal(0, 0.01, 6)):
                    rows.append(("app", name, i, round(v, 4), unit))
        make_system(tmp_path, system, rows)
    return tmp_path


def expected(cmp) -> str:
    """The counts, computed here from the verdicts of every row."""
    rows = cmp.rows.filter(pl.col("system") == "patched")
    known = rows.filter(pl.col("better").is_in(["lower", "higher"]))
    n = {v: known.filter(pl.col("verdict") == v).height for v in ("worse", "better", "same")}
    unknown = rows.height - known.height
    return (
        f"patched vs base: ▼{n['worse']} worse · ▲{n['better']} better · {n['same']} same · "
        f"{unknown} of unknown direction"
    )


def counts_in(text: str) -> list[str]:
    return [m.strip() for m in COUNTS.findall(text)]


def test_the_data_has_what_the_test_needs(mixed):
    cmp = Analysis(load([mixed])).compare("base")
    assert (
        expected(cmp) == "patched vs base: ▼2 worse · ▲1 better · 6 same · 1 of unknown direction"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_filtered_shareable_counts_every_metric(mixed, fmt):
    cmp = Analysis(load([mixed])).compare("base")
    significant = cmp.filter(only_significant=True)
    assert significant.rows.height < cmp.rows.height
    whole = render_shareable(Shareable(cmp, "t"), fmt)
    shown = render_shareable(Shareable(significant, "t", whole=cmp), fmt)
    if fmt in ("csv", "tsv"):  # fields of the rows only: no counts to get wrong
        assert len(shown.splitlines()) == significant.rows.height + 1
        return
    if fmt == "json":  # the summary is over every metric in both
        assert json.loads(shown)["summary"] == json.loads(whole)["summary"]
        return
    want = expected(cmp)
    assert counts_in(whole) == counts_in(shown) != []
    assert all(line.startswith(want) for line in counts_in(shown))
    assert "Counts over all 10 metrics; the table lists 4" in shown
    if fmt == "html":  # the per-system table too
        row = re.compile(r"<tr><th scope=row>patched</th>.*?</tr>")
        assert row.findall(shown) == row.findall(whole) != []
    # before: over the listed rows alone
    alone = render_shareable(Shareable(significant, "t"), fmt)
    assert "0 same" in " ".join(counts_in(alone))


@pytest.mark.parametrize("fmt", ["markdown", "latex", "html", "text"])
def test_report_only_significant_counts_every_metric(mixed, fmt, capsys):
    outs = []
    for extra in ([], ["--only-significant"]):
        assert main(["report", str(mixed), "--format", fmt, *extra]) == 0
        outs.append(capsys.readouterr().out)
    every, significant = outs
    assert len(significant) < len(every)
    if fmt == "text":  # the per-system table: metrics, left out, geomean, better, worse, same
        table = [line for line in every.splitlines() if line.startswith("patched ")]
        assert table and table[-1] in significant.splitlines()
        return
    assert counts_in(every) == counts_in(significant) != []
    cmp = Analysis(load([mixed])).compare("base")
    assert counts_in(significant)[0].startswith(expected(cmp))
