"""U tests are computed for the reference asked for, kept, and equal to scipy's."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load


@pytest.fixture
def four(tmp_path, make_system):
    rng = np.random.default_rng(9)
    for k, system in enumerate(("a", "b", "c", "d")):
        rows = []
        for i in range(3):
            for v in 10 * (1 + 0.02 * k) * (1 + rng.normal(0, 0.02, 7)):
                rows.append(("x", "time", i, round(v, 2), "s"))  # rounded: ties
            for v in rng.integers(1, 6, 5):
                rows.append(("y", "ops", i, int(v), "ops"))  # many ties
        make_system(tmp_path, system, rows)
    return load([tmp_path])


def test_only_the_references_asked_for_are_computed(four):
    analysis = Analysis(four)
    assert analysis._utest_p == {}
    first = analysis.compare("c").rows
    assert list(analysis._utest_p) == [2]
    analysis.compare("a")
    assert sorted(analysis._utest_p) == [0, 2]
    again = analysis.compare("c").rows  # kept: the same numbers
    assert again["p_utest"].to_list() == first["p_utest"].to_list()


def test_every_reference_matches_scipy(four):
    analysis = Analysis(four)
    samples = four.samples
    for ref in ("a", "b", "c", "d"):
        for row in analysis.compare(ref).rows.iter_rows(named=True):
            if row["is_reference"]:
                continue

            def pooled(system, row=row):
                sel = samples.filter(
                    (samples["system"] == system) & (samples["metric"] == row["metric"])
                )
                return sel["value"].to_numpy()

            want = sps.mannwhitneyu(pooled(row["system"]), pooled(ref)).pvalue
            assert row["p_utest"] == pytest.approx(want, rel=1e-9)


def test_prepare_references_keeps_every_reference(four):
    prepared = Analysis(four)
    prepared.prepare_references()
    assert sorted(prepared._utest_p) == [0, 1, 2, 3]
    fresh = Analysis(four)
    for ref in ("a", "d"):
        want = fresh.compare(ref).rows["p_utest"].to_list()
        assert prepared.compare(ref).rows["p_utest"].to_list() == want
