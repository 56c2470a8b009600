"""The explorer's summary of many metrics formats only the rows it reads, and reads as the
whole table does: the same cells, colours and notes, columns at least as wide."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.conftest import write_system
from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.present import summary_window
from tuibench.present.tables import summary_table
from tuibench.tui.palette import palette_for
from tuibench.tui.widgets.table_view import TableView
from tuibench.util.text import printable

METRICS = summary_window.WINDOW_FROM + 50


@pytest.fixture(scope="module")
def analysis(tmp_path_factory):
    """Four systems; values from 1e-6 to 1e7 in several units, some with no unit (direction
    unknown), some twenty times slower, some negative, one iteration for a few (of one
    sample for some); one name holds an escape sequence."""
    root = tmp_path_factory.mktemp("many")
    rng = np.random.default_rng(5)
    base = 10.0 ** rng.uniform(-6, 7, METRICS)
    base[::37] *= -1
    units = np.array(["s", "", "MB/s", "ms"])[rng.integers(0, 4, METRICS)]
    shift = {"a": np.ones(METRICS), "b": rng.choice([1, 1, 1.05, 0.9, 20], METRICS)}
    shift["c"] = rng.choice([1, 1.02, 0.5], METRICS)
    shift["d"] = np.ones(METRICS)  # unchanged: under a margin, every cell equivalent or not
    for system in ("a", "b", "c", "d"):
        rows = []
        for i in range(METRICS):
            iterations = 1 if i % 53 == 0 else 3
            for it in range(iterations):
                # one iteration of two samples (a test on them), or of one (no test: `[x]`)
                for _ in range((1 if i % 106 == 0 else 2) if iterations == 1 else 1):
                    v = base[i] * shift[system][i] * (1 + 0.01 * rng.standard_normal())
                    name = f"suite{i % 7}/bench{i}" + ("\x1b[2J" if i == 3 else "")
                    rows.append((name, "time", it, f"{v:.6g}", units[i]))
        write_system(root, system, rows)
    return Analysis(load([root]))


@pytest.fixture(scope="module")
def cmp(analysis):
    return analysis.compare("a")


def test_rows_marks_and_notes_as_the_whole_table(cmp):
    full = summary_table(cmp, "t")
    table = summary_window.summary(cmp, "t")
    assert isinstance(table, summary_window.WindowedTable)
    assert (table.title, table.columns, table.numeric) == (full.title, full.columns, full.numeric)
    assert table.notes == full.notes
    assert any(note.startswith("[  x.xx%]: no test") for note in full.notes)
    assert len(table.rows) == len(full.rows) == METRICS
    assert table.rows[-1] == full.rows[-1]
    assert list(table.rows) == full.rows
    assert table.marks == full.marks
    assert table.names == [printable(row[1]) for row in full.rows]  # as the view draws them
    assert any(name.startswith("suite3/bench3\\x1b[2J time") for name in table.names)


def test_only_the_rows_read_are_formatted(cmp):
    table = summary_window.summary(cmp)
    table.rows[summary_window.BLOCK + 3]
    made = [i for i in range(len(table.rows)) if list.__getitem__(table.rows, i) is not None]
    assert made == list(range(summary_window.BLOCK, 2 * summary_window.BLOCK))


@pytest.mark.parametrize("threshold", [None, 2.0])  # under a margin: `=x=` and the verdicts
@pytest.mark.parametrize("compact", [False, True])
def test_columns_as_wide_as_their_widest_cell_or_a_little_wider(analysis, cmp, compact, threshold):
    from tuibench.model.options import AnalysisOptions

    if threshold is not None:
        cmp = analysis.compare("a", AnalysisOptions(threshold=threshold))
        assert (cmp.rows["verdict"] == "equivalent").any()
    palette = palette_for(True)
    view = TableView()
    exact = view._layout(summary_table(cmp), palette, compact)
    window = view._layout(summary_window.summary(cmp), palette, compact)
    assert window[0] == exact[0]
    assert [list(r) for r in window[1]] == exact[1]
    assert [window[2][r] for r in range(METRICS)] == exact[2]
    widths, widest = window[4], exact[4]
    assert all(w >= x for w, x in zip(widths, widest, strict=True))
    assert widths[: 2 - compact] == widest[: 2 - compact]  # the naming columns: exact
    assert sum(widths) - sum(widest) <= 2 * len(cmp.systems)


def test_few_metrics_get_the_whole_table(cmp):
    part = cmp.rows.filter(cmp.rows["benchmark"].is_in(["suite0/bench0", "suite1/bench1"]))
    small = summary_window.summary(dataclasses.replace(cmp, rows=part))
    assert not isinstance(small, summary_window.WindowedTable)


def test_compact_cells_keep_the_marks_of_untested_and_equivalent(cmp):
    """At a narrow width the cells drop their padding but not what they mean: `[x]` (no
    test could be made) stays bracketed, `=x=` (equivalent) keeps its mark."""
    from tuibench.tui.format import compact_cell

    assert compact_cell("2.64 [ -10.00%]", False) == "2.64 [-10.0%]"
    assert compact_cell("2.64 [?+10.00%]", False) == "2.64 [+10.0%?]"
    assert compact_cell("101 =  -1.11%=", False) == "101 -1.1%="
    assert compact_cell("101 ( -1.11%)", False) == "101 -1.1%"
    cells = [c for row in summary_table(cmp).rows for c in row[2:] if isinstance(c, str)]
    untested = [compact_cell(c, False) for c in cells if " [" in c]
    assert untested and all(c.endswith(("%]", "%?]")) for c in untested)


def test_a_column_of_equivalent_cells_is_measured_with_their_mark(tmp_path):
    """Under a margin every cell of an unchanged system reads `10.0 =  -0.10%=` (compact
    `10.0 -0.1%=`): the column is measured with that mark, not one cell narrower."""
    from tuibench.model.options import AnalysisOptions

    rng = np.random.default_rng(8)
    for system in ("a", "d"):
        rows = [
            (f"bench{i}", "time", it, f"{10 * (1 + 0.001 * rng.standard_normal()):.6g}", "s")
            for i in range(METRICS)
            for it in range(4)
        ]
        write_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("a", AnalysisOptions(threshold=2.0))
    assert set(cmp.rows.filter(~cmp.rows["is_reference"])["verdict"]) == {"equivalent"}
    palette = palette_for(True)
    view = TableView()
    for compact in (False, True):
        exact = view._layout(summary_table(cmp), palette, compact)[4]
        window = view._layout(summary_window.summary(cmp), palette, compact)[4]
        assert all(w >= x for w, x in zip(window, exact, strict=True)), (compact, window, exact)
