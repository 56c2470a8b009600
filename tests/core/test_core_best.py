"""The best-system mark (analysis/best.py) on hand-built comparisons."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from tuibench.analysis.best import GLYPH, best_systems
from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.output.export import render
from tuibench.present.tables import detail_table, summary_table
from tuibench.tui.format import compact_cell

NOISE = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])  # one value per iteration, five iterations

# metric -> unit, and per system the centre of its iteration values
CASES = {
    "clear": ("ms", {"a": 100.0, "b": 90.0, "c": 95.0}),  # b: ahead of c and of a
    "tied": ("ms", {"a": 100.0, "b": 90.0, "c": 90.2}),  # b and c cannot be told apart
    "flat": ("ms", {"a": 100.0, "b": 100.3, "c": 99.8}),  # nothing significant
    "ref_best": ("ms", {"a": 90.0, "b": 100.0, "c": 105.0}),  # every other one worse
    "rate": ("tx/s", {"a": 100.0, "b": 110.0, "c": 120.0}),  # higher is better: c
    "unknown": ("", {"a": 100.0, "b": 90.0, "c": 95.0}),  # direction unknown
    # ahead of the runner-up, but the runner-up is the reference and the top is not
    # significantly better than it: its intervals overlap and Welch's p is above 0.05
    "close_to_ref": ("ms", {"a": 100.0, "b": 99.4, "c": 110.0}),
}


def values(centre: float) -> list[float]:
    return list(centre + NOISE)


@pytest.fixture
def three(tmp_path, make_system):
    for system in ("a", "b", "c"):
        rows = [
            ("bench", metric, i, v, unit)
            for metric, (unit, centres) in CASES.items()
            for i, v in enumerate(values(centres[system]))
        ]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path]))


def welch_p(x: float, y: float) -> float:
    return stats.ttest_ind(values(x), values(y), equal_var=False).pvalue


def test_the_data_says_what_the_cases_claim():
    # Independent check of the hand-built cases with scipy.
    assert welch_p(90.0, 95.0) < 0.05 and welch_p(90.0, 100.0) < 0.05
    assert welch_p(90.0, 90.2) > 0.05
    assert welch_p(100.0, 100.3) > 0.05 and welch_p(100.0, 99.8) > 0.05
    assert welch_p(99.4, 100.0) > 0.05


@pytest.mark.parametrize("reference", ["a", "b", "c"])
def test_best_where_the_data_supports_it(three, reference):
    # Whichever the reference: b is first (clear) and apart from c, and significantly
    # better than a or c; a is first (ref_best) and apart, and better than b or c.
    best = best_systems(three.compare(reference))
    assert best == {("bench", "clear"): "b", ("bench", "ref_best"): "a", ("bench", "rate"): "c"}
    # Never: two tied at the top, nothing significant, unknown direction.
    for metric in ("tied", "flat", "unknown"):
        assert ("bench", metric) not in best


def test_ahead_of_the_runner_up_but_not_of_the_reference(three):
    # Against a, b is first by centre, but neither apart from a nor significantly better.
    assert ("bench", "close_to_ref") not in best_systems(three.compare("a"))
    # With a practical margin of 20 %, b's 10 % gain is not `better`: the ranking still
    # puts it apart from c, but the comparison against the reference does not agree.
    cmp = three.compare("a", AnalysisOptions(threshold=20))
    row = cmp.rows.filter((cmp.rows["metric"] == "clear") & (cmp.rows["system"] == "b"))
    assert row["verdict"][0] != "better"
    assert ("bench", "clear") not in best_systems(cmp)


def test_two_systems_get_no_mark(tmp_path, make_system):
    for system in ("a", "b"):
        rows = [("bench", "t", i, v, "ms") for i, v in enumerate(values(CASES["clear"][1][system]))]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("a")
    assert cmp.rows.filter(cmp.rows["verdict"] == "better").height == 1  # b is better
    assert best_systems(cmp) == {}
    assert GLYPH not in render(summary_table(cmp), "text")


def _with_one_iteration_c(tmp_path, make_system, b: float, c: float, spread: float) -> Analysis:
    """a (100) and b of several iterations; c of one iteration of 9 samples, `c` +/- `spread`."""
    for system, centre in (("a", 100.0), ("b", b)):
        rows = [("bench", "t", i, v, "ms") for i, v in enumerate(values(centre))]
        make_system(tmp_path, system, rows)
    rows = [("bench", "t", 0, c + d, "ms") for d in np.linspace(-spread, spread, 9)]
    make_system(tmp_path, "c", rows)
    return Analysis(load([tmp_path]))


def test_a_verdict_from_one_iteration_does_not_count(tmp_path, make_system):
    # c has a single iteration of many samples: its significant change is not trusted.
    analysis = _with_one_iteration_c(tmp_path, make_system, 97.0, 80.0, 0.5)
    cmp = analysis.compare("a")
    row = cmp.rows.filter(cmp.rows["system"] == "c").row(0, named=True)
    assert row["single_iteration"] and row["verdict"] == "better"
    assert best_systems(cmp) == {}
    assert best_systems(analysis.compare("a", AnalysisOptions(trust_single_iteration=True))) == {
        ("bench", "t"): "c"
    }


def test_the_mark_in_the_tables(three):
    cmp = three.compare("a")
    table = summary_table(cmp)
    cells = {r[1]: r[2:] for r in table.rows}
    clear = cells["bench clear (ms)"]
    assert clear[1].startswith(GLYPH) and not clear[0].startswith(GLYPH)
    assert not clear[2].startswith(GLYPH)
    assert cells["bench ref_best (ms)"][0].startswith(GLYPH)
    assert not any(c.startswith(GLYPH) for c in cells["bench tied (ms)"])
    row = next(i for i, r in enumerate(table.rows) if r[1] == "bench clear (ms)")
    assert table.marks[(row, 3)] == "best"
    assert any(n.startswith(GLYPH) for n in table.notes)
    # The compact cell of a narrow screen keeps the mark; the text export keeps columns.
    assert compact_cell(clear[1], False).startswith(GLYPH + "90.0 ")
    text = render(table, "text").splitlines()
    body = [line for line in text if line.startswith(("Amean", "Hmean"))]
    assert len({len(line) for line in body if "clear" in line or "tied" in line}) == 1
    detail = detail_table(cmp, "bench", "clear")
    assert [r[0] for r in detail.rows] == ["a (ref)", f"b {GLYPH}", "c"]
    assert detail.marks[(1, 0)] == "best"
    assert GLYPH not in "".join(r[0] for r in detail_table(cmp, "bench", "tied").rows)


def test_a_runner_up_of_one_iteration_tells_the_top_apart_only_when_trusted(tmp_path, make_system):
    """c, of one iteration, is second: its interval is of one process's samples, narrow, and
    clear of b's. The series ranking's rule says that tells b apart from nothing; the mark
    follows it, unless --trust-single-iteration counts such verdicts."""
    analysis = _with_one_iteration_c(tmp_path, make_system, 90.0, 93.0, 0.1)
    cmp = analysis.compare("a")
    b, c = (cmp.rows.filter(cmp.rows["system"] == s).row(0, named=True) for s in "bc")
    assert b["ci_high"] < c["ci_low"]  # apart by the intervals alone
    assert best_systems(cmp) == {}
    trusted = analysis.compare("a", AnalysisOptions(trust_single_iteration=True))
    assert best_systems(trusted) == {("bench", "t"): "b"}
