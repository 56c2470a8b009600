"""A metric whose values are negative: the answer says its change has no interval (not
"unbounded"), and the --decide line of its view says why it cannot be decided."""

from __future__ import annotations

import numpy as np

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.present.answer import answer_lines, build_answer
from tuibench.tui.view.decisions import MetricDecisions


def _negative(tmp_path, make_system):
    rng = np.random.default_rng(1)
    for system, offset in (("base", -50.0), ("new", -45.0)):
        rows = [("app", "offset", i, offset + rng.normal(0, 1), "ms") for i in range(5)]
        rows = [(b, m, i, v + rng.normal(0, 1), u) for b, m, i, v, u in rows for _ in range(4)]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path]))


def test_a_negative_metric_says_it_has_no_interval(tmp_path, make_system):
    analysis = _negative(tmp_path, make_system)
    lines = answer_lines(build_answer(analysis.compare("base")))
    (line,) = [x for x in lines if "app offset" in x]
    assert "[no interval]" in line and "unbounded" not in line


def test_a_negative_metric_says_why_it_cannot_be_decided(tmp_path, make_system):
    analysis = _negative(tmp_path, make_system)
    decisions = MetricDecisions(analysis, "base", 0.05, None)
    ((system, words),) = decisions.lines("app", "offset")
    assert system == "new" and words.startswith("n/a: ") and "positive" in words
    assert decisions.mark(("app", "offset")) is None  # neither decided nor undecided
