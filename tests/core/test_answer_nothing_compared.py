"""A system with no metric to set against the reference's (a folder whose files are none of
them results, say) is said to be so: its counts are all 0, and "no significant change"
would read as if its metrics had been compared."""

from __future__ import annotations

import polars as pl
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output.answer_markdown import answer_markdown
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable
from tuibench.present.answer import answer_lines, build_answer

NOTHING = "Nothing compared: no metric has values on both sides."


@pytest.fixture
def cmp(tmp_path, make_system):
    """base and same measured `app run`; other's folder holds notes, not results."""
    write_systems(tmp_path, make_system)
    return Analysis(load([tmp_path])).compare("base")


def write_systems(root, make_system) -> None:
    for system in ("base", "same"):
        rows = [("app", "run", i, 10.0 + 0.01 * (i % 3), "ms") for i in range(5)]
        make_system(root, system, rows)
    (root / "other").mkdir()
    (root / "other" / "notes.txt").write_text("rebooted before the run\n")


def test_the_answer_knows_which_system_had_nothing_compared(cmp):
    answer = build_answer(cmp, limit=0)
    by_name = {a.system: a for a in answer.systems}
    assert by_name["other"].nothing_compared and not by_name["other"].changes
    assert not by_name["same"].nothing_compared  # compared, and the same
    assert by_name["same"].same == 1


def test_every_form_of_the_answer_says_nothing_was_compared(cmp):
    answer = build_answer(cmp, limit=0)
    copied = answer_markdown(answer, [], [])  # `y` on the answer
    page = render_shareable(Shareable(cmp, ""), "html")
    for text in (copied, page):
        assert NOTHING in text
        assert text.count("No significant change.") == 1  # `same`'s, which was compared
    assert "  " + NOTHING in answer_lines(answer)


def test_a_system_with_nothing_compared_is_not_ranked(cmp):
    """The ranking by geometric mean numbers the systems that have one; `other` has none:
    it is not ranked, rather than ranked last."""
    from tuibench.present.answer import places

    answer = build_answer(cmp, limit=0)
    by_hand = [(a.system, a.geomean) for a in answer.systems if a.geomean is not None]
    by_hand = sorted([*by_hand, ("base", 1.0)], key=lambda s: -s[1])
    ranking = [*by_hand, ("other", None)]
    assert places(ranking) == {"base": 1, "same": 2} or places(ranking) == {"same": 1, "base": 2}
    line = answer_markdown(answer, ranking, []).splitlines()[2]
    assert line.startswith("Ranking by geomean: #1 ")
    assert line.endswith(" · other not ranked") and "#3" not in line


def rows_of(metric: str, level: float = 10.0, spread: float = 0.01) -> list[tuple]:
    return [("app", metric, i, level + spread * (i % 3), "ms") for i in range(5)]


def test_a_metric_the_reference_lacks_is_not_compared_rather_than_undecided(tmp_path, make_system):
    """`n/a` (nothing to compare) and `inconclusive` (under --threshold) are counted apart:
    a metric only one side has was counted as "undecided", the word of an interval that
    crosses the margin."""
    from tuibench.model.options import AnalysisOptions

    make_system(tmp_path, "base", rows_of("run") + rows_of("wide", spread=2.0))
    make_system(tmp_path, "new", rows_of("run") + rows_of("wide", spread=2.0) + rows_of("idle"))
    make_system(tmp_path, "solo", rows_of("idle"))
    cmp = Analysis(load([tmp_path]), AnalysisOptions(threshold=1.0)).compare("base")
    answer = build_answer(cmp, limit=0)
    by = {a.system: a for a in answer.systems}
    assert (by["new"].same, by["new"].other, by["new"].missing) == (1, 1, 1)  # run, wide, idle
    head = "new vs base: ▼0 worse · ▲0 better · 1 same · 1 undecided · 1 not compared · "
    assert any(line.startswith(head) for line in answer_lines(answer))
    # idle has no reference value; run and wide have none of solo's own
    assert (by["solo"].missing, by["solo"].other) == (3, 0)
    assert by["solo"].nothing_compared


def test_a_metric_the_system_lacks_is_not_compared_too(tmp_path, make_system):
    """A benchmark that crashed in the new build (only the reference has it) is counted
    "not compared", as one the reference lacks is: the counts add up to the metrics."""
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.present.answer import build_answer, counts_text

    for system, own in (("base", "crashed"), ("new", "added")):
        rows = [("app", "t", i, 10 + 0.01 * (i % 3), "ms") for i in range(5)]
        rows += [("app", own, i, 5 + 0.01 * (i % 3), "ms") for i in range(5)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("base")
    (a,) = build_answer(cmp).systems
    assert (a.same, a.missing) == (1, 2)
    assert counts_text(a, "base") == "new vs base: ▼0 worse · ▲0 better · 1 same · 2 not compared"
    (a,) = build_answer(cmp.filter(metric="crashed")).systems
    assert a.missing == 1 and a.nothing_compared


def test_under_a_threshold_the_quiet_line_names_the_margin(tmp_path, make_system):
    """A significant 0.5 % change inside a 2 % margin is equivalent: nothing is listed, and
    the line under the counts says there is no change beyond the margin, not that there
    is no significant change (the header counts it as flagged)."""
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.model.options import AnalysisOptions
    from tuibench.output.answer_markdown import answer_markdown
    from tuibench.present.answer import build_answer, quiet_text

    for system, level in (("base", 10.0), ("new", 10.05)):
        rows = [("app", "t", i, level * (1 + 0.0005 * (i % 3 - 1)), "ms") for i in range(6)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path]), AnalysisOptions(threshold=2.0)).compare("base")
    assert cmp.rows.filter(~pl.col("is_reference"))["significant"].to_list() == [True]
    answer = build_answer(cmp)
    assert quiet_text(answer.systems[0], answer.threshold).startswith("No change beyond")
    assert "No change beyond the practical margin of ±2%." in answer_markdown(answer, [], [])
    plain = build_answer(Analysis(load([tmp_path])).compare("base"))
    assert plain.systems[0].worse == 1  # without the margin, the 0.5 % is a change
