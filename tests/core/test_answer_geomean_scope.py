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
    assert a.geomean_over is None and scope_text(a) == ""
    assert "over all" not in geomean_text(a)


def test_a_filter_keeps_the_geomean_of_every_metric_and_says_so(cmp):
    (whole,) = build_answer(cmp, limit=0).systems
    (a,) = build_answer(cmp.filter(benchmark="lib"), limit=0).systems
    assert (a.worse, a.same) == (0, 1)  # the counts: the filter's one metric
    assert math.isclose(a.geomean, whole.geomean)  # by hand: (1 / 1.1) ** (1 / 3)
    assert math.isclose(a.geomean, (1 / 1.1) ** (1 / 3), rel_tol=1e-3)
    assert a.geomean_over == 3
    assert geomean_text(a).endswith(" over all 3 metrics")
    assert scope_text(a) == "geomean over all 3 metrics, whatever the filter"
    copied = answer_markdown(build_answer(cmp.filter(benchmark="lib"), limit=0), [], [])
    assert "over all 3 metrics" in copied
