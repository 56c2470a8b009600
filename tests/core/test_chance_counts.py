"""What chance alone would flag is told over the tests that count, as the answer's counts
are: a change seen on one iteration's samples (a test of one process, not counted) is
neither among the "N flagged" of the explorer's header nor among the answer's comparisons
(the header said 25 flagged beside the answer's 24 counted changes on sample_runs/)."""

from __future__ import annotations

import numpy as np
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.present.answer import build_answer
from tuibench.tui.view.session import Session


@pytest.fixture
def analysis(tmp_path, make_system):
    """25 metrics of 3 iterations (t00 10 % slower) and `single`, one iteration a side,
    slower: significant on its samples, not counted."""
    rows: dict[str, list] = {"base": [], "new": []}
    rng = np.random.default_rng(1)
    for k in range(25):
        for i in range(3):
            for system in rows:
                slower = 1.0 if k == 0 and system == "new" else 0.0
                rows[system].append(("b", f"t{k:02d}", i, 10.0 + rng.normal(0, 0.05) + slower, "s"))
    rows["base"] += [("b", "single", 0, v, "s") for v in (10.0, 10.1, 9.9, 10.05)]
    rows["new"] += [("b", "single", 0, v, "s") for v in (11.0, 11.1, 10.9, 11.05)]
    for system, r in rows.items():
        make_system(tmp_path, system, r)
    return Analysis(load([tmp_path]))


@pytest.fixture
def cmp(analysis):
    return analysis.compare("base")


def test_the_tests_that_count_leave_the_one_iteration_test_apart(cmp):
    n, flagged, apart = cmp.tests()
    single = cmp.rows.filter(cmp.rows["metric"] == "single").row(1, named=True)
    assert single["significant"] and single["single_iteration"]  # what is left apart
    assert (n, apart) == (25, 1)
    assert flagged == int(cmp.rows.filter(~cmp.rows["single_iteration"])["significant"].sum())


def test_the_answer_counts_the_tests_that_count(cmp):
    answer = build_answer(cmp, limit=0)
    (new,) = answer.systems
    n, flagged, _ = cmp.tests()
    assert new.tests == n == 25  # `25 comparisons: about 1.2 expected by chance`
    assert new.worse + new.better == flagged


def test_the_explorers_header_flags_what_the_answer_counts(analysis, cmp):
    session = Session.first(analysis.rs, analysis, AnalysisOptions(), ViewOptions())
    _, flagged, _ = cmp.tests()
    # alpha x 25 counted tests: 1.2, as the answer writes it (26 tests and one flag more before)
    assert session.chance() == f"{flagged} flagged, ≈1.2 by chance (d: FDR)"


def test_fdr_says_it_flags_nothing_when_only_an_uncounted_test_is_flagged(tmp_path, make_system):
    """25 unchanged metrics and `single` (one iteration a side, 10 % slower): under --fdr
    nothing that counts is flagged, and the note says so (the one-iteration flag hid it)."""
    from tuibench.model.options import AnalysisOptions as Options
    from tuibench.present.chance import notes as chance_notes

    rng = np.random.default_rng(3)
    for system, slower in (("base", 0.0), ("new", 1.0)):
        rows = [
            ("b", f"t{k:02d}", i, 10 + rng.normal(0, 0.05), "s")
            for k in range(25)
            for i in range(3)
        ]
        rows += [("b", "single", 0, v + slower, "s") for v in (10.0, 10.1, 9.9, 10.05)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path]), Options(fdr=True)).compare("base")
    single = cmp.rows.filter(cmp.rows["metric"] == "single").row(1, named=True)
    assert single["significant"]  # flagged, on one process's samples
    (note,) = chance_notes(cmp)
    assert note.startswith("--fdr flags nothing: the smallest adjusted p over these 25 ")
    assert "With 3 iterations per system" in note


def test_under_a_margin_the_flags_are_named_by_their_p(analysis):
    """Under --threshold a verdict also needs its interval beyond the margin: what chance
    gives is p < alpha, and the header and the note say so rather than "flagged"."""
    from tuibench.model.options import AnalysisOptions as Options
    from tuibench.present import chance

    cmp = analysis.compare("base", Options(threshold=2.0))
    n, at_p, _ = cmp.tests()
    assert chance.header(cmp) == f"{at_p} at p<0.05, ≈1.2 by chance (d: FDR)"
    (note,) = chance.notes(cmp)
    assert note.startswith(f"{n} comparisons at alpha 0.05: about 1.2 would have p < 0.05 ")
    assert f"({at_p} do, beside 1 from one iteration, not counted)" in note
