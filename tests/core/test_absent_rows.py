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
def cmp(tmp_path, make_system):
    """base has `app a`, `app b` and `app c`; new lacks `app c`; old lacks `app a`."""
    for system, metrics in (("base", "abc"), ("new", "ab"), ("old", "bc")):
        rows = [("app", m, i, 10.0 + 0.1 * i, "ms") for m in metrics for i in range(3)]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path])).compare("base")


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
