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
    if reference == "base":
        assert by_system["new"][1:] == ["-", "", "", "not compared", ""]
        assert len(table.rows) == 3
    else:  # the reference lacks it: every row says so, none is added for it
        assert set(by_system) == {"base", "old"}
        assert {row[4] for row in table.rows} == {"not compared"}


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


def write_csv(root, system: str, rows: list[tuple]) -> None:
    """rows: (metric, iteration, sample, value) of benchmark `app`, in ms."""
    (root / system).mkdir(parents=True)
    lines = ["benchmark,metric,iteration,sample,value,unit"]
    lines += [f"app,{m},{i},{s},{v},ms" for m, i, s, v in rows]
    (root / system / "r.csv").write_text("\n".join(lines) + "\n")


@pytest.fixture
def uneven(tmp_path):
    """base: `both` (4 iterations), `one` (1 iteration of 10 samples), `gone`; new: `both`,
    `one` (4 iterations, the same centre), `extra` (1 iteration: the reference lacks it);
    other: `both` only."""
    spread = [0.01 * (k % 5) for k in range(10)]
    four = [(i, s, 10.0 + spread[i * 2 + s]) for i in range(4) for s in range(2)]
    single = [(0, s, 10.0 + spread[s]) for s in range(10)]
    write_csv(tmp_path, "base", [(m, *x) for m in ("both", "gone") for x in four])
    (tmp_path / "base" / "one.csv").write_text(
        "benchmark,metric,iteration,sample,value,unit\n"
        + "".join(f"app,one,{i},{s},{v},ms\n" for i, s, v in single)
    )
    write_csv(tmp_path, "new", [(m, *x) for m in ("both", "one") for x in four])
    (tmp_path / "new" / "extra.csv").write_text(
        "benchmark,metric,iteration,sample,value,unit\n"
        + "".join(f"app,extra,{i},{s},{v},ms\n" for i, s, v in single)
    )
    write_csv(tmp_path, "other", [("both", *x) for x in four])
    return Analysis(load([tmp_path])).compare("base")


def test_rows_and_counts_agree_on_what_was_not_compared(uneven):
    from tuibench.present.answer import build_answer

    by_system = {a.system: a for a in build_answer(uneven, limit=0).systems}
    # new: `gone` (it lacks it) and `extra` (the reference lacks it, one iteration of new's
    # own): not compared; `one` from one iteration (the reference's), not counted as same
    assert (by_system["new"].missing, by_system["new"].single_iteration) == (2, 1)
    assert by_system["new"].same == 1  # `both`
    assert by_system["other"].missing == 2  # `gone` and `one`; `extra` is no metric of a
    text = render_shareable(Shareable(uneven, ""), "markdown")
    rows = [[c.strip() for c in r.strip("|").split("|")] for r in text.splitlines()]
    verdicts = {(r[1], r[2]): r[-1] for r in rows if len(r) > 7 and r[0] == "app"}
    assert verdicts[("one", "new")] == "same (one iteration, not counted)"
    assert verdicts[("gone", "new")] == verdicts[("extra", "new")] == "not compared"
    # the reference lacks `extra`: new's row says so; no row is made up for base or other
    assert [k for k in verdicts if k[0] == "extra"] == [("extra", "new")]
    for system in ("new", "other"):  # the rows a reader counts are the counts
        rows_said = [k for k, v in verdicts.items() if k[1] == system and v == "not compared"]
        assert len(rows_said) == by_system[system].missing


def test_the_pages_rows_by_class_are_the_counts(uneven):
    """The verdict filter finds what the counts say: the rows of class `na` are the metrics
    not compared (none of them marked `~`), those of class `single` the ones of one
    iteration left uncounted."""
    from tuibench.present.answer import build_answer

    new = {a.system: a for a in build_answer(uneven, limit=0).systems}["new"]
    page = render_shareable(Shareable(uneven, ""), "html")
    body = page[page.index('<table id="rows"') :]
    rows = re.findall(
        r'<tr class="([^"]*)"><td>app</td><td>(?:<a[^>]*>)?(\w+)</?a?>?</td>'
        r"<td>(\w+)",
        body,
    )
    classes = [cls for cls, _metric, system in rows if system == "new"]
    assert classes.count("na") == new.missing == 2
    assert classes.count("single") == new.single_iteration == 1
    assert "~ not compared" not in page
