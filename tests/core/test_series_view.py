"""The headless model behind the explorer's series and scaling views."""

from __future__ import annotations

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.present.series_display import step_size
from tuibench.present.series_view import SeriesModel


@pytest.fixture
def analysis(tmp_path, make_series):
    """v1 .. v5; `q/clients:N` latency gets 10 % worse at v4 for N = 4 and 8 only."""
    make_series(tmp_path)
    return Analysis(load([tmp_path]))


def test_marks_and_metric_table(analysis):
    model = SeriesModel.build(analysis)
    assert model.marks() == {("q/clients:4", "latency"): "v4", ("q/clients:8", "latency"): "v4"}
    rows = model.metric_rows("q/clients:8", "latency")
    assert [r["level"] for r in rows] == [1, 1, 1, 2, 2]
    assert rows[3]["step"]["previous"] == "v3"
    table = model.metric_table("q/clients:8", "latency", "ms")
    assert table.rows[3][6].startswith("◆ -") and abs(rows[3]["step"]["gain"] + 0.1) < 0.01
    assert table.marks == {(3, 6): "worse"}
    assert "No change point" in model.metric_table("q/clients:1", "latency").notes[0]


def test_group_lists_changes_largest_first(analysis):
    model = SeriesModel.build(analysis)
    table, keys = model.group_table("q")
    assert len(table.rows) == 2 and set(keys) == {
        ("q/clients:4", "latency"),
        ("q/clients:8", "latency"),
    }
    sizes = [abs(r["change"]) for r in model.changes_under("q")]
    assert sizes == sorted(sizes, reverse=True)
    none = model.group_table("other")[0]
    assert none.rows == []
    assert none.notes[0].startswith("No change point under other: the data do not show")


def test_scaling_table_per_value(analysis):
    model = SeriesModel.build(analysis)
    assert model.families_of("q/clients:2") == [("q/clients:*", "clients")]
    table = model.scaling_table(analysis.compare("v1"), "q/clients:*", "clients", "latency")
    v5 = [r for r in table.rows if r[1] == "v5"]
    assert [r[0] for r in v5] == ["1", "2", "4", "8"]
    assert [r[6] for r in v5] == ["same", "same", "worse", "worse"]
    assert "logarithmic axis" in table.notes[0]


def test_step_size_reads_gain_change_and_unknown():
    r = {"change": 0.1, "change_ci_low": 0.05, "change_ci_high": 0.15, "better": "lower"}
    assert step_size(r) == "-10.0% [-15.0%, -5.0%]"
    assert step_size(r, "change") == "+10.0% [+5.0%, +15.0%]"
    assert step_size({**r, "better": "higher"}) == "+10.0% [+5.0%, +15.0%]"
    assert step_size({**r, "better": None}).startswith("?+10.0%")


def test_tree_marks_drop_the_prefix_every_system_shares():
    from tuibench.present.series_view import _shared_prefix

    names = ["linux-6.9", "linux-6.10", "linux-6.10-tuned"]
    assert [n[_shared_prefix(names) :] for n in names] == ["6.9", "6.10", "6.10-tuned"]
    assert _shared_prefix(["v1", "v2"]) == 0 and _shared_prefix(["ab", "ab-c"]) == 0


def test_scaling_table_under_fdr_shows_the_adjusted_p_its_verdicts_use(analysis):
    from tuibench.present.tables import fmt_p

    model = SeriesModel.build(analysis)
    plain = model.scaling_table(analysis.compare("v1"), "q/clients:*", "clients", "latency")
    cmp = analysis.compare("v1", AnalysisOptions(fdr=True))
    table = model.scaling_table(cmp, "q/clients:*", "clients", "latency")
    assert plain.columns[5] == "p" and table.columns[5] == "p (BH)"
    assert "Benjamini-Hochberg" in table.notes[0]
    rows = cmp.rows.filter(cmp.rows["metric"] == "latency")
    adjusted = {
        (r["system"], r["benchmark"]): fmt_p(r["p_adjusted"])
        for r in rows.iter_rows(named=True)
        if not r["is_reference"]
    }
    shown = {(r[1], f"q/clients:{r[0]}"): r[5] for r in table.rows if r[1] != "v1"}
    assert shown == adjusted
    assert any(a != fmt_p(p) for a, p in zip(adjusted.values(), rows["p_welch"], strict=False))
