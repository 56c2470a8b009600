"""A system without a metric (its benchmark crashed or was skipped) keeps a line in the
tables of one row per metric and system: the text report shows `-` in its column, and the
Markdown and HTML tables, which had no row for it, now say "not compared" there too."""

from __future__ import annotations

import re

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable


@pytest.fixture
def analysis(tmp_path, make_system):
    """base has `app a`, `app b` and `app c`; new lacks `app c`; old lacks `app a`."""
    for system, metrics in (("base", "abc"), ("new", "ab"), ("old", "bc")):
        rows = [("app", m, i, 10.0 + 0.1 * i, "ms") for m in metrics for i in range(3)]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path]))


@pytest.fixture
def cmp(analysis):
    return analysis.compare("base")


def test_the_markdown_table_has_a_row_for_each_system_of_each_metric(cmp):
    text = render_shareable(Shareable(cmp, ""), "markdown")
    rows = [line for line in text.splitlines() if line.startswith("| app |")]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    assert [(c[1], c[2]) for c in cells] == [
        (metric, system) for metric in "abc" for system in ("base", "new", "old")
    ]
    absent = {(c[1], c[2]): c for c in cells if c[-1] == "not compared"}
    assert set(absent) == {("a", "old"), ("c", "new")}
    assert all(c[3] == "-" and not any(c[4:7]) for c in absent.values())  # no number


def test_the_html_table_has_a_row_for_each_system_of_each_metric(cmp):
    page = render_shareable(Shareable(cmp, ""), "html")
    body = page[page.index('<table id="rows"') : page.index("</table>", page.index('id="rows"'))]
    rows = re.findall(r"<tr class=\"([^\"]*)\">(.*?)</tr>", body, re.S)
    cells = [(cls, re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)) for cls, row in rows]
    names = [(re.sub(r"<[^>]+>", "", c[1]), re.sub(r"<[^>]+>", "", c[2])) for _, c in cells]
    assert names == [(metric, system) for metric in "abc" for system in ("base", "new", "old")]
    absent = [(names[i], cls, c) for i, (cls, c) in enumerate(cells) if "not compared" in c[8]]
    assert [n for n, _, _ in absent] == [("a", "old"), ("c", "new")]
    for _, cls, c in absent:
        assert cls == "na"  # the verdict filter's n/a finds them
        assert c[9] == "no values of this metric" and not any(c[4:8])
    assert f">{len(rows)} rows<" in page


@pytest.mark.parametrize("reference", ["base", "new"])
def test_the_explorers_metric_table_lists_a_system_without_the_metric(analysis, reference):
    from tuibench.present.tables import detail_table

    table = detail_table(analysis.compare(reference), "app", "c")  # new has no `app c`
    by_system = {row[0]: row for row in table.rows}
    label = "new (ref)" if reference == "new" else "new"
    assert by_system[label][1:] == ["-", "", "", "not compared", ""]
    assert len(table.rows) == 3


def test_a_change_on_one_iteration_is_filtered_apart_from_the_counted_ones(tmp_path):
    """The page's verdict filter `worse` finds the metrics the counts call worse: a change
    seen on one iteration's samples (not counted) has its own class and option."""
    for system, slower in (("base", 1.0), ("new", 1.2)):
        lines = ["benchmark,metric,iteration,sample,value,unit"]
        for it in range(3):  # `app three`: 3 iterations, 20 % slower
            lines += [f"app,three,{it},{s},{10 * slower + 0.01 * (it + s)},ms" for s in range(3)]
        lines += [f"app,one,0,{s},{10 * slower + 0.01 * s},ms" for s in range(5)]
        (tmp_path / system).mkdir()
        (tmp_path / system / "r.csv").write_text("\n".join(lines) + "\n")
    cmp = Analysis(load([tmp_path])).compare("base")
    page = render_shareable(Shareable(cmp, ""), "html")
    body = page[page.index('<table id="rows"') :]
    classes = re.findall(r'<tr class="([^"]*)"><td>app</td><td>(?:<a[^>]*>)?(\w+)', body)
    assert ("worse", "three") in classes and ("single", "one") in classes
    assert '<option value="single">one iteration, not counted</option>' in page
    assert "▼1 worse" in page  # the counts: `three` only
