"""The per-system geometric mean is over every metric of the comparison, whatever the
filter; where the counts beside it cover fewer metrics, the answer says so."""

from __future__ import annotations

import math

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output.answer_markdown import answer_markdown
from tuibench.present.answer import build_answer, geomean_text, scope_text


@pytest.fixture
def cmp(tmp_path, make_system):
    """new is 10 % slower on `app slow`, the same on `app run` and `lib x`."""
    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = []
        for bench, metric, factor in (("app", "run", 1.0), ("app", "slow", slow), ("lib", "x", 1)):
            rows += [(bench, metric, i, 10.0 * factor + 0.01 * (i % 3), "ms") for i in range(5)]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path])).compare("base")


def test_the_whole_comparison_says_nothing_more(cmp):
    (a,) = build_answer(cmp, limit=0).systems
    assert not a.filtered and scope_text(a) == ""
    assert " over " not in geomean_text(a)


def test_a_filter_keeps_the_geomean_of_every_metric_and_says_so(cmp):
    (whole,) = build_answer(cmp, limit=0).systems
    (a,) = build_answer(cmp.filter(benchmark="lib"), limit=0).systems
    assert (a.worse, a.same) == (0, 1)  # the counts: the filter's one metric
    assert math.isclose(a.geomean, whole.geomean)  # by hand: (1 / 1.1) ** (1 / 3)
    assert math.isclose(a.geomean, (1 / 1.1) ** (1 / 3), rel_tol=1e-3)
    assert a.geomean_over == 3
    assert geomean_text(a).endswith(" over 3 metrics")
    assert scope_text(a) == "geomean over 3 metrics, whatever the filter"
    copied = answer_markdown(build_answer(cmp.filter(benchmark="lib"), limit=0), [], [])
    assert "over 3 metrics" in copied


def test_the_scope_names_the_metrics_the_geomean_leaves_out(tmp_path, make_system):
    """A metric with one iteration on a side is left out of the geomean: under a filter the
    answer says over how many metrics it is, and how many it leaves out, not "all"."""
    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = []
        for bench, metric, factor in (("app", "run", 1.0), ("app", "slow", slow)):
            rows += [(bench, metric, i, 10.0 * factor + 0.01 * (i % 3), "ms") for i in range(5)]
        rows += [("lib", "once", 0, 5.0 + 0.01 * j, "ms") for j in range(4)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("base")
    (a,) = build_answer(cmp.filter(benchmark="app"), limit=0).systems
    assert (a.geomean_over, a.geomean_left_out) == (2, 1)
    assert scope_text(a) == "geomean over 2 metrics (1 left out), whatever the filter"


def test_the_html_systems_table_says_what_its_geomean_is_over(tmp_path, make_system):
    """The page's per-system counts cover every compared metric; beside them the geomean
    says over how many metrics it is and how many it leaves out, and its note no longer
    claims it is over "the metrics both have"."""
    import re

    from tuibench.output.html_report import _systems_section

    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = [("app", "slow", i, 10.0 * slow + 0.01 * (i % 3), "ms") for i in range(5)]
        rows += [("lib", "once", 0, 5.0 + 0.01 * j, "ms") for j in range(4)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("base")
    page = _systems_section(build_answer(cmp, limit=0))
    heads = re.findall(r"<th scope=col>(.*?)</th>", page)
    cells = re.findall(r'<td class="num">(.*?)</td>', page)
    assert dict(zip(heads[1:], cells, strict=True))["geomean over"] == "1"
    assert dict(zip(heads[1:], cells, strict=True))["left out"] == "1"
    assert "both have" not in page and "not those the counts beside it cover" in page
