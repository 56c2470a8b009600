"""Ranking with groups the data cannot tell apart, and scaling families from names."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from tuibench.analysis.compare import Analysis
from tuibench.analysis.series.data import series_data
from tuibench.analysis.series.ranking import rank_metrics, rank_summary, ranking_text
from tuibench.analysis.series.scaling import curves, families, log_axis, parameters
from tuibench.ingest.load import load

# Per system, iteration values (one sample each): A clearly best, B and C alike, D worst.
LEVELS = {
    "A": [9.0, 9.1, 8.9, 9.05],
    "B": [10.0, 10.2, 9.9, 10.1],
    "C": [10.1, 10.0, 10.3, 9.95],
    "D": [12.0, 12.1, 11.8, 12.2],
}


@pytest.fixture
def four(tmp_path, make_system):
    for system, values in LEVELS.items():
        rows = [("job", "time", i, v, "s") for i, v in enumerate(values)]
        rows += [("job", "rate", i, 100 / v, "ops/s") for i, v in enumerate(values)]
        rows += [("job", "count", i, v, "widgets") for i, v in enumerate(values)]
        make_system(tmp_path, system, rows)
    return Analysis(load([tmp_path]))


def _metric(ranked, metric):
    return ranked.filter(ranked["metric"] == metric)


def test_groups_follow_overlap_and_welch(four):
    ranked = rank_metrics(four, series_data(four))
    time = _metric(ranked, "time")
    assert time["system"].to_list() == ["A", "B", "C", "D"]
    assert time["group"].to_list() == [1, 2, 2, 3]
    assert ranking_text(time["system"].to_list(), time["group"].to_list()) == "A > {B, C} > D"
    p_bc = sps.ttest_ind(LEVELS["B"], LEVELS["C"], equal_var=False).pvalue
    assert time["p_next"][1] == pytest.approx(p_bc, rel=1e-6)
    assert time["p_next"][3] is None and not time["apart_from_next"][3]
    # A rate: higher is better, so the same order (100 / value), on harmonic means.
    rate = _metric(ranked, "rate")
    assert rate["system"].to_list() == ["A", "B", "C", "D"]
    assert rate["group"].to_list() == [1, 2, 2, 3]
    assert rate["center"][0] == pytest.approx(sps.hmean([100 / v for v in LEVELS["A"]]))


def test_unknown_direction_is_ranked_by_value_and_says_so(four):
    data = series_data(four)
    data.keys = data.keys.with_columns(pl.lit(None, pl.String).alias("better"))
    time = _metric(rank_metrics(four, data), "time")
    assert time["system"].to_list() == ["D", "C", "B", "A"]  # highest value first
    assert time["group"].to_list() == [1, 2, 2, 3]
    text = ranking_text(time["system"].to_list(), time["group"].to_list(), False)
    assert text == "highest first (direction unknown): D, {C, B}, A"


def test_summary_ranking(four):
    ranked = rank_summary(four.compare("B"))
    assert ranked["system"].to_list()[0] == "A" and ranked["system"].to_list()[-1] == "D"
    ref = ranked.filter(ranked["system"] == "B").row(0, named=True)
    assert ref["geomean_gain"] == 0.0


@pytest.mark.parametrize(
    "name, expected",
    [
        ("pgbench/ro/clients:8", [("pgbench/ro/clients:*", "clients", 8.0)]),
        ("BM_memcpy/64", [("BM_memcpy/*", "argument 1", 64.0)]),
        ("nap {ms=10}", [("nap {ms=*}", "ms", 10.0)]),
        (
            "BM_copy/8/64/real_time",
            [
                ("BM_copy/*/64/real_time", "argument 1", 8.0),
                ("BM_copy/8/*/real_time", "argument 2", 64.0),
            ],
        ),
        ("BM_x/min_time:0.500/repeats:3", []),
        ("linux-6.10", []),
        ("fio/randread/4k", []),
    ],
)
def test_parameters(name, expected):
    assert sorted(parameters(name)) == sorted(expected)


def test_families_and_log_axis():
    fam = families(["BM_memcpy/64", "BM_memcpy/4096", "a/clients:4", "a/clients:1", "alone/8"])
    assert fam["family"].unique().sort().to_list() == ["BM_memcpy/*", "a/clients:*"]
    clients = fam.filter(fam["family"] == "a/clients:*")
    assert clients["value"].to_list() == [1.0, 4.0]
    assert log_axis([1, 2, 4, 8, 16]) and log_axis([1, 10, 100])
    assert not log_axis([1, 2, 3]) and not log_axis([0, 1, 2]) and not log_axis([5])


def test_curves_carry_gain_per_value(tmp_path, make_system):
    rng = np.random.default_rng(1)
    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = []
        for clients in (1, 2, 4, 8):
            for it in range(4):
                t = clients * (slow if clients >= 4 else 1.0) * (1 + 0.005 * rng.standard_normal())
                rows.append((f"db/clients:{clients}", "latency", it, t, "ms"))
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("base")
    c = curves(cmp)
    new = c.filter(c["system"] == "new")
    assert new["value"].to_list() == [1.0, 2.0, 4.0, 8.0]
    assert new["verdict"].to_list()[2:] == ["worse", "worse"]
    assert new["gain"][3] == pytest.approx(-new["change"][3])
    assert new["gain_ci_low"][3] < new["gain"][3] < new["gain_ci_high"][3] < 0
    assert log_axis(new["value"].to_list())


def test_ranking_lines_per_metric(four):
    from tuibench.analysis.series.ranking import ranking_lines

    lines = ranking_lines(rank_metrics(four, series_data(four)))
    by = {m: t for _, m, t in lines.select("benchmark", "metric", "ranking").iter_rows()}
    assert by["time"] == "A > {B, C} > D"
    assert by["rate"] == "A > {B, C} > D"


def test_one_iteration_tells_no_system_apart(tmp_path, make_system):
    """One iteration of tight samples per system gives narrow, disjoint intervals from the
    samples of one process: the ranking does not claim an order from them."""
    for system, level in (("A", 9.0), ("B", 10.0), ("C", 12.0)):
        rows = [("job", "time", 0, level + 0.01 * j, "s") for j in range(6)]
        make_system(tmp_path, system, rows)
    analysis = Analysis(load([tmp_path]))
    time = _metric(rank_metrics(analysis, series_data(analysis)), "time")
    assert time["system"].to_list() == ["A", "B", "C"]
    assert time["ci_high"][0] < time["ci_low"][1]  # the intervals alone would part them
    assert time["group"].to_list() == [1, 1, 1]


def test_two_systems_say_no_series_was_tested(tmp_path, make_system):
    """With two systems no change point can be tested: the series view said "the data do
    not show any of its metrics changing level ... over 0 metrics", a test's words."""
    from tuibench.present.series_view import SeriesModel

    for system, level in (("A", 9.0), ("B", 10.0)):
        rows = [("job", "time", i, level + 0.01 * (i % 3), "s") for i in range(5)]
        make_system(tmp_path, system, rows)
    model = SeriesModel.build(Analysis(load([tmp_path])))
    table, _ = model.group_table("")
    (note,) = table.notes
    assert note.startswith("No change point tested: a series needs three systems or more")
    assert "the data do not show" not in note
    metric = model.metric_table("job", "time")
    assert metric.notes[0].startswith("No change point tested")
