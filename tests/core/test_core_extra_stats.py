"""U test, Fieller ratio, FDR, practical threshold, noise, trimming, sample-size advice and the
per-system summary: against scipy, statsmodels, enumeration, bootstrap and hand computation."""

from __future__ import annotations

import itertools
import json
import math
import re
import warnings

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from tuibench import stats
from tuibench.analysis.compare import ROW_COLUMNS, Analysis, decide
from tuibench.cli import analysis_options, explorer_parser, main
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.present.systems_table import system_summary_table
from tuibench.present.tables import detail_table, noise_table


def _write(tmp_path, make_system, data: dict[str, dict[tuple[str, str], list[list[float]]]]):
    """data[system][(metric, unit)] = iterations of samples, all under benchmark `b`."""
    for system, metrics in data.items():
        rows = [
            ("b", metric, i, v, unit)
            for (metric, unit), its in metrics.items()
            for i, it in enumerate(its)
            for v in it
        ]
        make_system(tmp_path, system, rows)
    return load([tmp_path])


def _row(cmp, system, metric="time"):
    df = cmp.rows.filter((pl.col("system") == system) & (pl.col("metric") == metric))
    assert df.height == 1
    return df.row(0, named=True)


def _pooled(rs, system, metric="time"):
    return rs.samples.filter(
        (pl.col("system").cast(pl.String) == system) & (pl.col("metric").cast(pl.String) == metric)
    )["value"].to_numpy()


@pytest.fixture
def mixed(tmp_path, make_system):
    """Three systems; a continuous time, a tied integer count, a rate, a tiny sample."""
    rng = np.random.default_rng(3)
    data = {}
    for s, shift in (("base", 0.0), ("fast", -0.03), ("same", 0.001)):
        its = [
            list(np.round(100 * (1 + shift) * (1 + rng.normal(0, 0.02, 12)), 3)) for _ in range(5)
        ]
        counts = [list(rng.integers(3, 7, 8).astype(float)) for _ in range(4)]
        rate = [list(np.round(1e4 / np.array(it), 4)) for it in its]
        small = [[round(5 + shift * 50 + rng.normal(0, 0.1), 4)] for _ in range(3)]
        data[s] = {
            ("time", "s"): its,
            ("allocs", "allocs/op"): counts,
            ("tput", "ops/s"): rate,
            ("tiny", "ms"): small,
        }
    return _write(tmp_path, make_system, data)


# -- Mann-Whitney U -------------------------------------------------------------------------


def test_utest_matches_scipy_on_the_pooled_raw_samples(mixed):
    a = Analysis(mixed)
    for reference in ("base", "fast"):
        cmp = a.compare(reference)
        for metric in ("time", "allocs", "tput", "tiny"):
            ref = _pooled(mixed, reference, metric)
            for system in ("base", "fast", "same"):
                row = _row(cmp, system, metric)
                if system == reference:
                    assert row["p_utest"] is None and row["utest_min_p"] is None
                    continue
                want = sps.mannwhitneyu(_pooled(mixed, system, metric), ref).pvalue
                assert row["p_utest"] == pytest.approx(want, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("chunk", [1 << 20, 7])  # tiny: the running counts cross chunks
def test_mwu_pairs_against_scipy_on_random_blocks(chunk, monkeypatch):
    from tuibench.stats import utest

    monkeypatch.setattr(utest, "COUNT_CHUNK", chunk)
    rng = np.random.default_rng(8)
    values, labels, starts, counts, blocks = [], [], [], [], []
    for b in range(60):
        sides = [
            rng.normal(0, 1, rng.integers(0, 14))
            if b % 2
            else rng.integers(0, 5, rng.integers(0, 14)).astype(float)
            for _ in range(3)
        ]
        pairs = [(v, s) for s, side in enumerate(sides) for v in side]
        rng.shuffle(pairs)
        starts.append(len(values))
        counts.append(len(pairs))
        values += [v for v, _ in pairs]
        labels += [s for _, s in pairs]
        blocks.append(sides)
    u, n, tie = stats.mwu_pairs(
        np.array(values), np.array(labels), np.array(starts), np.array(counts), 3
    )
    p = stats.mwu_pvalue(u, n[:, :, None], n[:, None, :], tie)
    checked = 0
    for b, sides in enumerate(blocks):
        for i, j in itertools.permutations(range(3), 2):
            if len(sides[i]) and len(sides[j]):
                want = sps.mannwhitneyu(sides[i], sides[j])
                assert u[b, i, j] == pytest.approx(want.statistic)
                assert p[b, i, j] == pytest.approx(want.pvalue, rel=1e-9)
                checked += 1
    assert checked > 200


def _enumerated(n1: int, n2: int) -> dict[int, float]:
    """Exact two-sided p of every attainable U with n1 + n2 distinct values, by enumerating
    every arrangement."""
    n = n1 + n2
    us = []
    for first in itertools.combinations(range(n), n1):
        rest = [k for k in range(n) if k not in first]
        us.append(sum(x > y for x in first for y in rest))
    us = np.array(us)
    return {
        int(u): min(1.0, 2 * np.sum(us >= max(u, n1 * n2 - u)) / len(us)) for u in np.unique(us)
    }


@pytest.mark.parametrize("n1,n2", [(1, 1), (1, 4), (2, 3), (3, 3), (2, 6), (4, 4), (3, 7)])
def test_smallest_u_pvalue_and_exact_distribution_against_enumeration(n1, n2):
    exact = _enumerated(n1, n2)
    assert stats.mwu_min_p(np.array(n1), np.array(n2)) == pytest.approx(min(exact.values()))
    assert min(exact.values()) == pytest.approx(min(1.0, 2 / math.comb(n1 + n2, n1)))
    for u, p in exact.items():
        assert stats.mwu_pvalue(u, n1, n2, 0) == pytest.approx(p, rel=1e-12)


def test_samples_per_side_for_significance():
    assert stats.mwu_samples_for(0.05) == 4  # 2 / C(8, 4) = 0.029; 2 / C(6, 3) = 0.1
    assert stats.mwu_samples_for(0.01) == 5  # 2 / C(10, 5) = 0.0079


def test_note_when_the_utest_cannot_reach_alpha(mixed):
    row = _row(Analysis(mixed).compare("base"), "fast", "tiny")  # 3 samples a side
    assert row["utest_min_p"] == pytest.approx(0.1)
    assert "cannot reach p < 0.05 with 3 and 3 samples" in row["note"]
    assert "at least 4 per side" in row["note"]
    assert "cannot reach" not in (_row(Analysis(mixed).compare("base"), "fast")["note"] or "")


# -- ratio of centres (Fieller) -------------------------------------------------------------


def test_fieller_agrees_with_a_bootstrap_on_large_samples(tmp_path, make_system):
    rng = np.random.default_rng(21)
    ref = rng.normal(100, 6, 400)
    new = rng.normal(104, 8, 400)
    rs = _write(
        tmp_path,
        make_system,
        {"ref": {("time", "s"): [[v] for v in ref]}, "new": {("time", "s"): [[v] for v in new]}},
    )
    row = _row(Analysis(rs).compare("ref"), "new")
    assert row["ratio"] == pytest.approx(new.mean() / ref.mean())
    assert row["change"] == pytest.approx(row["ratio"] - 1)
    b = 4000
    i = rng.integers(0, 400, (b, 400))
    j = rng.integers(0, 400, (b, 400))
    boot = new[i].mean(axis=1) / ref[j].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    width = hi - lo
    assert row["ratio_ci_low"] == pytest.approx(lo, abs=0.1 * width)
    assert row["ratio_ci_high"] == pytest.approx(hi, abs=0.1 * width)


def _fieller_by_hand(num, den, level=0.95):
    """Fieller's interval for mean(num) / mean(den), Welch-Satterthwaite df, by the formula."""
    a, b = np.mean(num), np.mean(den)
    va, vb = np.var(num, ddof=1) / len(num), np.var(den, ddof=1) / len(den)
    df = (va + vb) ** 2 / (va**2 / (len(num) - 1) + vb**2 / (len(den) - 1))
    t = sps.t.ppf(0.5 + level / 2, df)
    g = t * t * vb / (b * b)
    assert g < 1
    centre = a / b
    half = t / b * math.sqrt(va + centre**2 * vb - g * va)
    return (centre - half) / (1 - g), (centre + half) / (1 - g)


def test_fieller_by_hand_for_amean_and_on_reciprocals_for_hmean(mixed):
    cmp = Analysis(mixed).compare("base")
    ref, row = _row(cmp, "base"), _row(cmp, "fast")
    lo, hi = _fieller_by_hand(row["iteration_values"], ref["iteration_values"])
    assert (row["ratio_ci_low"], row["ratio_ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
    ref, row = _row(cmp, "base", "tput"), _row(cmp, "fast", "tput")
    # Hmean: H_sys / H_ref = mean(1/v_ref) / mean(1/v_sys).
    lo, hi = _fieller_by_hand(
        1 / np.array(ref["iteration_values"]), 1 / np.array(row["iteration_values"])
    )
    assert row["ratio"] == pytest.approx(row["center"] / ref["center"])
    assert (row["ratio_ci_low"], row["ratio_ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
    assert row["ratio_ci_low"] < row["ratio"] < row["ratio_ci_high"]


def test_fieller_unbounded_when_the_denominator_may_be_zero(tmp_path, make_system):
    rs = _write(
        tmp_path,
        make_system,
        {
            "ref": {("delta", "ms"): [[0.5], [-0.3], [0.4], [0.2]]},
            "new": {("delta", "ms"): [[1.0], [1.1], [0.9], [1.05]]},
        },
    )
    row = _row(Analysis(rs).compare("ref"), "new", "delta")
    assert row["ratio"] is not None
    assert row["ratio_ci_low"] is None and row["ratio_ci_high"] is None
    assert "ratio interval unbounded" in row["note"]
    lo, hi, unbounded = stats.fieller(
        np.array([1.0]), np.array([0.01]), np.array([0.2]), np.array([0.04]), np.array([6.0])
    )
    assert unbounded[0] and np.isnan(lo[0]) and np.isnan(hi[0])


def test_interval_overlap_by_hand(mixed):
    cmp = Analysis(mixed).compare("base")
    ref = _row(cmp, "base")
    for system in ("fast", "same"):
        row = _row(cmp, system)
        want = max(row["ci_low"], ref["ci_low"]) <= min(row["ci_high"], ref["ci_high"])
        assert row["ci_overlap"] is want
    assert _row(cmp, "fast")["ci_overlap"] is False and _row(cmp, "same")["ci_overlap"] is True
    assert ref["ci_overlap"] is None


# -- false discovery rate -------------------------------------------------------------------


def test_benjamini_hochberg_over_the_rows_and_recomputed_by_filter(mixed):
    cmp = Analysis(mixed).compare("base")
    others = cmp.rows.filter(~pl.col("is_reference") & pl.col("p_welch").is_not_null())
    want = sps.false_discovery_control(others["p_welch"].to_numpy(), method="bh")
    assert others["p_adjusted"].to_numpy() == pytest.approx(want, rel=1e-12)
    assert cmp.rows.filter(pl.col("is_reference"))["p_adjusted"].null_count() == 4
    part = cmp.filter(metric="t*")  # time, tput, tiny
    sub = part.rows.filter(~pl.col("is_reference") & pl.col("p_welch").is_not_null())
    want = sps.false_discovery_control(sub["p_welch"].to_numpy(), method="bh")
    assert sub["p_adjusted"].to_numpy() == pytest.approx(want, rel=1e-12)
    assert stats.bh_adjust(np.array([np.nan, 0.5])).tolist()[1] == 0.5


def test_fdr_judges_on_adjusted_p(mixed):
    a = Analysis(mixed)
    plain, fdr = (
        a.compare("base", AnalysisOptions(alpha=0.05)),
        a.compare("base", AnalysisOptions(alpha=0.05, fdr=True)),
    )
    assert (plain.rows["p_adjusted"].fill_null(-1) == fdr.rows["p_adjusted"].fill_null(-1)).all()
    for r in fdr.rows.iter_rows(named=True):
        if not r["is_reference"]:
            assert r["significant"] == (r["p_adjusted"] is not None and r["p_adjusted"] < 0.05)
    # A p just under alpha that the adjustment pushes over it.
    rows = pl.DataFrame(
        {
            "is_reference": [False, False, False],
            "p_welch": [0.04, 0.045, 0.9],
            "better": ["lower"] * 3,
            "change": [0.05, 0.05, 0.0],
            "ratio_ci_low": [1.01, 1.01, 0.9],
            "ratio_ci_high": [1.09, 1.09, 1.1],
        }
    )
    assert decide(rows, 0.05, False, None)["verdict"].to_list() == ["worse", "worse", "same"]
    assert decide(rows, 0.05, True, None)["verdict"].to_list() == ["same", "same", "same"]


# -- practical threshold --------------------------------------------------------------------


def test_threshold_rule_on_intervals():
    rows = pl.DataFrame(
        {
            "is_reference": [True, False, False, False, False, False, False],
            "p_welch": [None, 1e-6, 1e-6, 0.5, 0.01, 1e-6, 0.3],
            "better": ["lower", "lower", "lower", "lower", "lower", "higher", "lower"],
            "change": [0.0, 0.06, -0.06, 0.001, 0.03, 0.06, None],
            "ratio_ci_low": [None, 1.04, 0.92, 0.99, 1.01, 1.04, None],
            "ratio_ci_high": [None, 1.08, 0.96, 1.01, 1.05, 1.08, None],
        }
    )
    verdicts = decide(rows, 0.05, False, 2.0)["verdict"].to_list()
    assert verdicts == [
        "reference",
        "worse",  # a slower time, wholly beyond +2 %
        "better",  # a faster time, wholly beyond -2 %
        "equivalent",  # inside +/-2 %
        "inconclusive",  # significant, but the interval crosses the +2 % margin
        "better",  # a higher rate, wholly beyond +2 %
        "inconclusive",  # no interval
    ]
    # Beyond the margin but not significant: not enough to call it worse.
    rows = rows.with_columns(pl.lit(0.2).alias("p_welch"))
    assert decide(rows, 0.05, False, 2.0)["verdict"][1] == "inconclusive"


def test_threshold_through_compare(mixed):
    cmp = Analysis(mixed).compare("base", AnalysisOptions(threshold=1.0))
    assert _row(cmp, "fast")["verdict"] == "better"  # 3 % faster, tight
    assert _row(cmp, "fast", "tput")["verdict"] == "better"  # a higher rate
    assert {r["verdict"] for r in cmp.rows.iter_rows(named=True)} <= {
        "reference",
        "worse",
        "better",
        "equivalent",
        "inconclusive",
    }
    with pytest.raises(ValueError, match="threshold"):
        Analysis(mixed).compare("base", AnalysisOptions(threshold=0))


# -- noise: RSD, outliers, trimming, variance components -------------------------------------


OUTLIER_IT = [1.0, 10, 11, 12, 13, 14, 15, 16, 17, 25, 60]  # sorted, 11 samples
# Q1 = 11.5, Q3 = 16.5 (linear), IQR 5: mild fences [4, 24], extreme [-3.5, 31.5].
# 1: low mild; 25: high mild; 60: high extreme.


@pytest.fixture
def outliers(tmp_path, make_system):
    second = [12.0, 13, 14, 12.5, 13.5, 14.5, 13, 12]
    data = {
        "ref": {("time", "s"): [OUTLIER_IT, second]},
        "new": {("time", "s"): [[v * 1.1 for v in OUTLIER_IT], [v * 1.1 for v in second]]},
    }
    return _write(tmp_path, make_system, data)


def test_tukey_fences_by_hand():
    low, high, n_low, n_high, n_ext = stats.tukey(
        np.array(OUTLIER_IT), np.array([0]), np.array([11])
    )
    assert (low[0], high[0]) == (4.0, 24.0)
    assert (n_low[0], n_high[0], n_ext[0]) == (1, 2, 1)
    q1, q3 = np.percentile(OUTLIER_IT, [25, 75])
    assert (q1, q3) == (11.5, 16.5)


def test_outlier_counts_summed_over_iterations(outliers):
    row = _row(Analysis(outliers).compare("ref"), "ref")
    assert (row["outliers_low"], row["outliers_high"], row["outliers_extreme"]) == (1, 2, 1)
    assert row["trimmed"] is False and row["center_raw"] == row["center"]


def test_trim_removes_samples_beyond_the_mild_fences(outliers, tmp_path, make_system):
    cmp = Analysis(outliers, AnalysisOptions(iteration_value="trimmed")).compare("ref")
    raw = Analysis(outliers).compare("ref")
    row = _row(cmp, "ref")
    assert row["trimmed"] is True
    assert row["samples"] == 19 - 3
    assert row["outliers_low"] == 1 and row["outliers_high"] == 2  # what was removed
    # `trimmed` is the iteration's mean inside the fences; the raw centre is the mean of
    # every sample's iteration means (the same value without the trim).
    kept = [v for v in OUTLIER_IT if 4 <= v <= 24]
    second = [12.0, 13, 14, 12.5, 13.5, 14.5, 13, 12]
    assert row["iteration_values"] == pytest.approx([np.mean(kept), np.mean(second)])
    assert row["center"] == pytest.approx((np.mean(kept) + np.mean(second)) / 2)
    assert row["center_raw"] == pytest.approx((np.mean(OUTLIER_IT) + np.mean(second)) / 2)
    assert row["iteration_value"] == "trimmed" and _row(raw, "ref")["iteration_value"] == (
        "subselection"
    )
    allv = np.array(kept + second)
    assert row["rsd"] == pytest.approx(100 * allv.std(ddof=1) / allv.mean())
    rawv = np.array(OUTLIER_IT + second)
    assert row["rsd_raw"] == pytest.approx(100 * rawv.std(ddof=1) / rawv.mean())
    new = _row(cmp, "new")
    assert new["change"] == pytest.approx(new["center"] / row["center"] - 1)
    assert new["change_raw"] == pytest.approx(new["center_raw"] / row["center_raw"] - 1)


def test_rsd_and_flags_by_hand(tmp_path, make_system):
    rng = np.random.default_rng(4)
    data = {
        name: {("time", "s"): [list(100 + rng.normal(0, sd, 20)) for _ in range(3)]}
        for name, sd in (("calm", 2.0), ("noisy", 15.0), ("wild", 40.0))
    }
    rs = _write(tmp_path, make_system, data)
    cmp = Analysis(rs).compare("calm")
    for name, flag in (("calm", "ok"), ("noisy", "noisy"), ("wild", "very-noisy")):
        row = _row(cmp, name)
        x = _pooled(rs, name)
        assert row["rsd"] == pytest.approx(100 * x.std(ddof=1) / x.mean())
        assert row["rsd_flag"] == flag


def test_variance_components_by_hand(mixed):
    row = _row(Analysis(mixed).compare("base"), "fast")
    samples = mixed.samples.filter(
        (pl.col("system").cast(pl.String) == "fast") & (pl.col("metric").cast(pl.String) == "time")
    )
    its = [g["value"].to_numpy() for _, g in samples.group_by("iteration", maintain_order=True)]
    within = sum(((x - x.mean()) ** 2).sum() for x in its) / sum(len(x) - 1 for x in its)
    means = np.array([x.mean() for x in its])
    between = max(0.0, means.var(ddof=1) - within * np.mean([1 / len(x) for x in its]))
    assert row["var_within"] == pytest.approx(within)
    assert row["var_between"] == pytest.approx(between)


def _spread(tmp_path, make_system, between: float, within: float):
    rng = np.random.default_rng(9)

    def system(shift):
        return {
            ("time", "s"): [
                list(100 * (1 + shift) * (1 + rng.normal(0, between)) + rng.normal(0, within, 30))
                for _ in range(3)
            ]
        }

    rs = _write(tmp_path, make_system, {"a": system(0.0), "b": system(0.01)})
    return _row(Analysis(rs).compare("a"), "b")


def test_more_iterations_hint_when_the_spread_is_between_iterations(tmp_path, make_system):
    row = _spread(tmp_path, make_system, between=0.03, within=0.01)
    assert row["var_between"] > row["var_within"] / 30
    assert row["p_welch"] >= 0.05 and row["detectable_change"] > 0.01
    pct = float(f"{row['detectable_change'] * 100:.2g}")
    assert f"detect only changes of about {pct}% or more" in row["note"]
    assert "not more samples per iteration" in row["note"]
    assert "this change" not in row["note"]  # never a power for the change observed


def test_threshold_hint_names_the_iterations_for_the_threshold(tmp_path, make_system):
    rng = np.random.default_rng(9)

    def system(shift):
        its = [list(100 * (1 + shift) * (1 + rng.normal(0, 0.03)) + rng.normal(0, 1, 30))]
        return {("time", "s"): its + [list(x) for x in rng.normal(100, 3, (2, 30))]}

    rs = _write(tmp_path, make_system, {"a": system(0.0), "b": system(0.0)})
    row = _row(Analysis(rs).compare("a", AnalysisOptions(threshold=1.0)), "b")
    need = row["iterations_for_threshold"]
    assert need > 3 and row["p_welch"] >= 0.05
    assert f"about {need} iterations per system would detect a 1% change" in row["note"]


def test_no_hint_when_the_spread_is_within_iterations(tmp_path, make_system):
    row = _spread(tmp_path, make_system, between=0.0, within=8.0)
    assert row["var_between"] < row["var_within"] / 30
    assert "not samples per iteration" not in (row["note"] or "")


# -- sample-size advice ---------------------------------------------------------------------


def test_iterations_needed_matches_statsmodels():
    power = pytest.importorskip("statsmodels.stats.power")
    solver = power.TTestIndPower()
    rng = np.random.default_rng(2)
    d = np.r_[0.15, 0.3, 0.5, 0.8, 1.2, 2.0, rng.uniform(0.2, 2.5, 12)]
    for alpha in (0.05, 0.01):
        got = stats.iterations_needed(d, alpha)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = [math.ceil(solver.solve_power(x, alpha=alpha, power=0.8)) for x in d]
        assert got.tolist() == want
    assert np.isinf(stats.iterations_needed(np.array([0.0]), 0.05)[0])
    assert stats.iterations_needed(np.array([50.0]), 0.05)[0] == 2


def test_iterations_for_threshold_on_rows(mixed):
    power = pytest.importorskip("statsmodels.stats.power")
    a = Analysis(mixed)
    cmp = a.compare("base")
    ref, row = _row(cmp, "base"), _row(cmp, "same")
    x, y = np.array(row["iteration_values"]), np.array(ref["iteration_values"])
    sd = math.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = power.TTestIndPower().solve_power(
            abs(x.mean() - y.mean()) / sd, alpha=0.05, power=0.8
        )
        assert row["iterations_for_threshold"] is None  # no threshold: nothing to aim at
        # With a threshold: the iterations to detect a change of that size.
        row = _row(a.compare("base", AnalysisOptions(threshold=2.0)), "same")
        want = power.TTestIndPower().solve_power(0.02 * y.mean() / sd, alpha=0.05, power=0.8)
    assert row["iterations_for_threshold"] == math.ceil(want)


# -- per-system summary ---------------------------------------------------------------------


def test_summary_geomean_by_hand(tmp_path, make_system):
    data = {
        "ref": {
            ("time", "s"): [[10.0], [10.2], [9.8]],
            ("rate", "ops/s"): [[100.0], [101.0], [99.0]],
            ("mem", "B"): [[50.0], [51.0], [49.0]],
        },
        "new": {
            ("time", "s"): [[8.0], [8.1], [7.9]],  # faster: better
            ("rate", "ops/s"): [[90.0], [91.0], [89.0]],  # lower rate: worse
            ("extra", "s"): [[1.0], [1.1], [0.9]],  # the reference lacks it
        },
    }
    rs = _write(tmp_path, make_system, data)
    cmp = Analysis(rs).compare("ref")
    t, r = _row(cmp, "new"), _row(cmp, "new", "rate")
    logs = np.log([1 / t["ratio"], r["ratio"]])  # oriented: above 1 is better
    s = cmp.summary().row(0, named=True)
    assert s["system"] == "new" and s["metrics"] == 2
    assert s["left_out"] == 2  # mem (only the reference) and extra (only the system)
    assert s["left_out_reasons"]["only one side has it"] == 2
    assert s["geomean_ratio"] == pytest.approx(math.exp(logs.mean()))
    # The interval is Welch's on the runs' suite summaries (checked against scipy below).
    assert s["geomean_ci_low"] < s["geomean_ratio"] < s["geomean_ci_high"]
    assert (s["better"], s["worse"], s["same"]) == (1, 1, 0)
    table = system_summary_table(cmp)
    assert table.rows[0][:3] == ["new", 2, 2]


@pytest.fixture
def suite(tmp_path, make_system):
    """Two systems, 6 iterations of 3 samples: a time, an independent rate, a memory size,
    a rate computed from the time (a duplicate), and a constant."""
    rng = np.random.default_rng(21)
    data = {}
    for system, shift in (("ref", 0.0), ("new", -0.02)):
        time, rate, mem = [], [], []
        for _ in range(6):
            run = 1 + rng.normal(0, 0.01)  # one run moves every metric a little
            time.append(list(10 * (1 + shift) * run * (1 + rng.normal(0, 0.005, 3))))
            rate.append(list(500 * run * (1 + rng.normal(0, 0.01, 3))))
            mem.append(list(100 * (1 + rng.normal(0, 0.02, 3))))
        data[system] = {
            ("time", "s"): time,
            ("ops", "ops/s"): rate,
            ("mem", "B"): mem,
            ("speed", "ops/s"): [[1000 / v for v in it] for it in time],
            ("setup", "s"): [[1.0] * 3 for _ in range(6)],
        }
    return _write(tmp_path, make_system, data)


def _welch_by_hand(cmp, used: list[str]) -> tuple[float, float]:
    """scipy's Welch interval on the suite summaries of each side's runs, around the
    geometric mean: per iteration, the mean over the used metrics of what that run adds to
    the oriented log centre (its relative deviation from the centre, on the scale where the
    mean is arithmetic: reciprocals for harmonic means)."""
    g = {}
    for system in ("new", "ref"):
        parts = []
        for metric in used:
            r = _row(cmp, system, metric)
            v = np.array(r["iteration_values"])
            hmean = r["mean_kind"] == "hmean"
            y = 1 / v if hmean else v
            sign = (-1 if hmean else 1) * (1 if r["better"] == "higher" else -1)
            parts.append(sign * (y / y.mean() - 1))
        g[system] = np.mean(parts, axis=0)
    ci = sps.ttest_ind(g["new"], g["ref"], equal_var=False).confidence_interval(0.95)
    half = (ci.high - ci.low) / 2
    centre = math.log(cmp.summary().row(0, named=True)["geomean_ratio"])
    return math.exp(centre - half), math.exp(centre + half)


def test_summary_leaves_out_duplicates_and_constants_and_matches_scipy(suite):
    cmp = Analysis(suite).compare("ref")
    s = cmp.summary().row(0, named=True)
    # speed = 1000 / time in every iteration: a duplicate of the earlier metric of the pair
    # (natural order: speed before time); setup is constant.
    assert s["left_out_reasons"]["duplicate"] == 1 and s["left_out_reasons"]["constant"] == 1
    assert s["metrics"] == 3 and s["left_out"] == 2
    used = ["mem", "ops", "speed"]
    logs = []
    for metric in used:
        r = _row(cmp, "new", metric)
        logs.append(math.log(r["ratio"]) * (1 if r["better"] == "higher" else -1))
    assert s["geomean_ratio"] == pytest.approx(math.exp(np.mean(logs)), rel=1e-12)
    lo, hi = _welch_by_hand(cmp, used)
    assert s["geomean_ci_low"] == pytest.approx(lo, rel=1e-9)
    assert s["geomean_ci_high"] == pytest.approx(hi, rel=1e-9)
    assert s["geomean_ci_note"] is None
    # The table's note counts the column's reasons, each in words after its number.
    note = system_summary_table(cmp).notes[-1]
    assert note.endswith("The column counts: 1 duplicating another, 1 constant.")


def test_no_summary_interval_where_it_cannot_be_honest(tmp_path, make_system):
    """A metric with negative iteration values has no log; two iterations give an interval
    on one or two degrees of freedom; runs that are not every metric's: each says why."""
    rng = np.random.default_rng(5)
    drift = {
        "ref": [0.1013, -0.0627, 0.0841, -0.0519, 0.0733, -0.0388],
        "new": [0.0937, -0.0541, 0.0712, -0.0633, 0.0829, -0.0214],
    }

    def summary(its: int, drop_last_of_time: bool = False, with_drift: bool = True) -> dict:
        data = {}
        for system, shift in (("ref", 0.0), ("new", 0.03)):
            times = [list(10 * (1 + shift) * (1 + rng.normal(0, 0.01, 3))) for _ in range(its)]
            rate = [list(100 * (1 + rng.normal(0, 0.01, 3))) for _ in range(its)]
            data[system] = {("time", "s"): times, ("ops", "ops/s"): rate}
            if with_drift:
                data[system][("drift", "s")] = [
                    [v, v * 1.001, v * 0.999] for v in drift[system][:its]
                ]
            if drop_last_of_time:
                data[system][("time", "s")] = times[:-1]
        root = tmp_path / f"{its}-{drop_last_of_time}-{with_drift}"
        return Analysis(_write(root, make_system, data)).compare("ref").summary().row(0, named=True)

    for s, why in (
        (summary(6), "non-positive"),
        (summary(2, with_drift=False), "fewer than 3 iterations"),
        (summary(5, drop_last_of_time=True, with_drift=False), "not every metric"),
    ):
        assert s["geomean_ratio"] is not None and s["metrics"] >= 2, s
        assert s["geomean_ci_low"] is None and s["geomean_ci_high"] is None
        assert why in s["geomean_ci_note"]
    ok = summary(3, with_drift=False)
    assert ok["geomean_ci_low"] < ok["geomean_ratio"] < ok["geomean_ci_high"]
    assert ok["geomean_ci_note"] is None


def test_filters_hide_rows_but_never_change_the_summary(suite):
    cmp = Analysis(suite).compare("ref")
    whole = cmp.summary()
    for part in (
        cmp.filter(metric="time"),
        cmp.filter(only_significant=True),
        cmp.filter(benchmark="nothing*"),
    ):
        assert part.summary().equals(whole)


def test_summary_interval_covers_one_on_identical_systems(tmp_path, make_system):
    # A/A: both systems from one distribution, iterations that differ: the interval should
    # contain 1 (a t interval across metrics often did not).
    rng = np.random.default_rng(8)
    data = {}
    for system in ("a", "b"):
        its = {(f"m{k}", "s"): [] for k in range(30)}
        for _ in range(5):
            run = 1 + rng.normal(0, 0.02)
            for k, key in enumerate(its):
                its[key].append(list((k + 1) * run * (1 + rng.normal(0, 0.01, 4))))
        data[system] = its
    s = Analysis(_write(tmp_path, make_system, data)).compare("a").summary().row(0, named=True)
    assert s["geomean_ci_low"] < 1 < s["geomean_ci_high"]


# -- tables and the command line -------------------------------------------------------------


def test_tables_fit_and_hold_the_new_columns(mixed):
    from tuibench.output.export import render

    cmp = Analysis(mixed, AnalysisOptions(iteration_value="trimmed")).compare(
        "base", AnalysisOptions(fdr=True, threshold=2)
    )
    detail = detail_table(cmp, "b", "time")
    assert detail.columns[2:] == ["gain [95% CI]", "p (BH)", "verdict", "CIs"]
    assert detail.rows[1][2].count("%") == 3 and detail.rows[1][5] in ("overlap", "apart")
    noise = noise_table(cmp, "b", "time")
    assert noise.columns[-1] == "raw"
    for table in (detail, noise):
        body = render(table, "text").splitlines()[1:4]
        assert max(len(line) for line in body) <= 80


def test_report_json_with_the_new_options(mixed, capsys, tmp_path):
    root = tmp_path  # the `mixed` results
    code = main(
        ["report", str(root), "--format", "json", "--fdr", "--threshold", "2", "--trim-outliers"]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert doc["fdr"] is True and doc["threshold"] == 2.0 and doc["trim_outliers"] is True
    for row in doc["rows"]:
        assert list(row) == ROW_COLUMNS
        assert row["trimmed"] is True
        if row["is_reference"]:
            assert row["verdict"] == "reference"
            continue
        assert row["verdict"] in ("worse", "better", "equivalent", "inconclusive", "n/a")
        if row["p_adjusted"] is not None:
            assert row["significant"] == (row["p_adjusted"] < 0.05)
    keys = {
        "system",
        "metrics",
        "left_out",
        "left_out_reasons",
        "geomean_ratio",
        "geomean_ci_low",
        "geomean_ci_high",
        "geomean_ci_note",
        "better",
        "worse",
        "same",
        "undecided",
    }
    assert [s["system"] for s in doc["summary"]] == ["fast", "same"]
    assert all(set(s) == keys for s in doc["summary"])
    # Without the options: plain Welch verdicts, no trimming.
    main(["report", str(root), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["fdr"] is False and doc["threshold"] is None and doc["trim_outliers"] is False
    assert {r["verdict"] for r in doc["rows"]} <= {"reference", "better", "worse", "same", "n/a"}
    assert doc["iteration_value"] == "subselection" and doc["trust_single_iteration"] is False


def test_option_errors_and_the_explorer_takes_the_same_options(mixed, capsys, tmp_path):
    for bad in ("0", "150", "x"):
        with pytest.raises(SystemExit) as exc:
            main(["report", str(tmp_path), "--threshold", bad])
        assert exc.value.code == 2
    args = explorer_parser().parse_args(
        [str(tmp_path), "--fdr", "--threshold", "1.5", "--trim-outliers"]
    )
    options = analysis_options(args)
    assert options.fdr and options.threshold == 1.5 and options.iteration_value == "trimmed"
    main(["report", str(tmp_path)])
    out = capsys.readouterr().out
    assert "Systems against base" in out and "geomean" in out


# -- the sign convention and the marks in the text report -------------------------------------


def test_fmt_change_shows_the_gain_like_mmtests():
    from tuibench.present.tables import fmt_change

    # An 8 % slowdown of a time: mmtests prints -8.18 % (pndiff); so does tuibench's gain.
    assert fmt_change(0.0818, True, -0.0818, "lower") == "*  -8.18%*"
    assert fmt_change(0.0818, True, -0.0818, "lower", percent="change") == "*   8.18%*"
    assert fmt_change(0.05, False, 0.05, "higher") == "(   5.00%)"
    assert fmt_change(0.2, True, None, None) == "? +20.00%?"
    assert fmt_change(0.05, True, None, "higher", percent="change") == "*   5.00%*"
    assert fmt_change(0.2, False, None, None) == "(?+20.00%)"
    assert fmt_change(0.0818, True, -0.0818, "lower", single=True) == "~  -8.18%~"
    assert fmt_change(-0.0, False, 0.0, "lower") == "(   0.00%)"
    assert fmt_change(None, False) == "(    n/a)"


def test_report_gain_change_single_iteration_and_chance(tmp_path, make_system, capsys):
    rows = {"base": [], "new": []}
    rng = np.random.default_rng(1)
    for k in range(25):  # many metrics: the chance note
        for i in range(3):
            for system in rows:
                slower = 1.0 if k == 0 and system == "new" else 0.0
                value = round(10.0 + rng.normal(0, 0.05) + slower, 4)
                rows[system].append(("b", f"t{k:02d}", i, value, "s"))
    # One iteration on each side: significant on raw samples, but not counted.
    rows["base"] += [("b", "single", 0, v, "s") for v in (10.0, 10.1, 9.9, 10.05)]
    rows["new"] += [("b", "single", 0, v, "s") for v in (11.0, 11.1, 10.9, 11.05)]
    for system, r in rows.items():
        make_system(tmp_path, system, r)
    assert main(["report", str(tmp_path), "--fail-on-regression"]) == 1  # t00 is worse
    out = capsys.readouterr().out
    # 10.0083 -> 11.0083 (each the median of its four leave-one-out means: every subset of
    # 3 of 4 samples): slower, a negative gain as mmtests prints
    single = "~  -9.99%~"
    assert single in out and "not counted as better or worse" in out
    # the one-iteration test is said apart from those chance flags alpha of
    assert "25 comparisons at alpha 0.05: about 1.2 would be flagged by chance alone" in out
    assert "beside 1 from one iteration, not counted" in out
    doc_rows = {
        r["metric"]: r
        for r in _report_rows(main, capsys, tmp_path)
        if r["system"] == "new" and r["metric"] == "t00"
    }
    gain = doc_rows["t00"]["gain"]
    assert gain < 0 and f"*{gain * 100:7.2f}%*" in out
    main(["report", str(tmp_path), "--percent", "change", "--metric", "t00"])
    assert f"*{-gain * 100:7.2f}%*" in capsys.readouterr().out
    main(["report", str(tmp_path), "--format", "json", "--metric", "single"])
    doc = json.loads(capsys.readouterr().out)
    row = next(r for r in doc["rows"] if r["system"] == "new")
    assert row["single_iteration"] and row["verdict"] == "worse"
    assert row["gain"] == pytest.approx(-row["change"])
    # Only the single-iteration row: nothing counted, unless trusted.
    assert main(["report", str(tmp_path), "--metric", "single", "--fail-on-regression"]) == 0
    capsys.readouterr()
    code = main(
        ["report", str(tmp_path), "--metric", "single", "--fail-on-regression",
         "--trust-single-iteration"]
    )  # fmt: skip
    assert code == 1
    capsys.readouterr()


def _report_rows(main, capsys, root):
    capsys.readouterr()
    main(["report", str(root), "--format", "json"])
    return json.loads(capsys.readouterr().out)["rows"]


def test_stats_option_adds_mmtests_rows(mixed, capsys, tmp_path):
    main(["report", str(tmp_path), "--stats", "min,max,stddev,coeffvar,bmean95"])
    out = capsys.readouterr().out
    for label in ("Min ", "Max ", "Stddev ", "CoeffVar ", "BAmean.95 ", "HStddev ", "BHmean.95 "):
        assert label in out
    with pytest.raises(SystemExit):
        main(["report", str(tmp_path), "--stats", "min,mode"])
    assert "unknown statistic" in capsys.readouterr().err


def test_left_out_note_counts_each_system_apart():
    """The column holds one number per system: the note gives each system's reasons, which
    add up to its number (a sum over systems counted no metric)."""
    from pathlib import Path

    rs = load([Path(__file__).resolve().parents[2] / "sample_runs"])
    cmp = Analysis(rs).compare("linux-6.9")
    table = system_summary_table(cmp)
    said = table.notes[-1].split("The column counts: ")[1].rstrip(".")
    for part, row in zip(said.split("; "), table.rows, strict=True):
        system, reasons = part.split(": ")
        assert system == row[0]
        assert sum(int(r.split()[0]) for r in reasons.split(", ")) == row[2]


def test_cells_say_untested_and_equivalent_apart_from_not_significant():
    from tuibench.present.tables import fmt_change

    assert fmt_change(0.1, False, -0.1, "lower", state="untested") == "[ -10.00%]"
    assert fmt_change(0.1, False, None, None, state="untested") == "[?+10.00%]"
    assert fmt_change(-0.011, True, 0.011, "lower", state="equivalent") == "=   1.10%="
    assert fmt_change(None, False, state="untested") == "(    n/a)"


def test_the_text_report_marks_verdicts_under_a_threshold(tmp_path, make_system, capsys):
    """Under --threshold the star is a verdict beyond the margin: a significant 1 % change
    inside a 2 % margin is equivalent (=), not starred like the 10 % regression beside it;
    a metric with one sample a side cannot be tested: [..], not (..)."""
    rng = np.random.default_rng(4)
    rows: dict[str, list] = {"base": [], "new": []}
    for system, shifts in (("base", (1, 1)), ("new", (1.01, 1.10))):
        for i in range(6):
            for name, sh in zip(("one", "ten"), shifts, strict=True):
                level = rng.normal(1, 0.002)
                rows[system] += [
                    ("t", name, i, 100 * sh * level * v, "ms") for v in rng.normal(1, 0.002, 5)
                ]
        rows[system].append(("u", "once", 0, 2.4 if system == "base" else 2.64, "ms"))
        rows[system] += [("u", "single", 0, 50 + 0.01 * j, "ms") for j in range(5)]
    for system, r in rows.items():
        make_system(tmp_path, system, r)
    main(["report", str(tmp_path), "--threshold", "2"])
    out = capsys.readouterr().out
    cells = {line.split()[2]: line for line in out.splitlines() if line.startswith("Amean")}
    capsys.readouterr()
    main(["report", str(tmp_path), "--format", "json", "--threshold", "2"])
    doc = json.loads(capsys.readouterr().out)
    verdicts = {r["metric"]: r["verdict"] for r in doc["rows"] if r["system"] == "new"}
    assert verdicts == {"one": "equivalent", "ten": "worse", "once": "n/a", "single": "equivalent"}
    assert cells["single"].endswith("(   0.00%)")  # one process's samples: no "=" claimed
    assert re.search(r"=\s+-\d\.\d\d%=$", cells["one"])
    assert re.search(r"\*\s+-\d+\.\d\d%\*$", cells["ten"])
    assert cells["once"].endswith("[ -10.00%]")
    assert "=  x.xx%= one within it (equivalent)" in out and "[  x.xx%]: no test" in out


def test_the_systems_table_counts_inconclusive_apart_under_a_threshold(tmp_path, make_system):
    """Under --threshold a metric whose interval crosses the margin is undecided in the
    per-system summary, not `same` (which is equivalent: the interval within the margin)."""
    rng = np.random.default_rng(12)
    for system, shift in (("base", 1.0), ("new", 1.0)):
        rows = []
        for k in range(6):  # noisy runs: wide intervals, crossing a 0.5 % margin
            for i in range(3):
                level = rng.normal(1, 0.03)
                rows += [
                    ("b", f"m{k}", i, 10 * shift * level * v, "ms") for v in rng.normal(1, 0.01, 4)
                ]
        rows += [
            ("b", "tight", i, 10.0 + 0.0001 * (i % 2), "ms") for i in range(4) for _ in range(3)
        ]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path]), AnalysisOptions(threshold=0.5)).compare("base")
    verdicts = cmp.rows.filter(~pl.col("is_reference"))["verdict"].to_list()
    s = cmp.summary().row(0, named=True)
    assert s["same"] == verdicts.count("equivalent") >= 1
    assert s["undecided"] == verdicts.count("inconclusive") >= 1
    table = system_summary_table(cmp)
    assert table.columns[-1] == "undecided" and table.rows[0][-1] == s["undecided"]


def test_the_metric_table_marks_every_verdict_of_one_iteration(tmp_path, make_system):
    """One iteration a side: a `same` is one process's as much as a `worse`; both get ~."""
    for system, level in (("base", 50.0), ("new", 50.0), ("slow", 60.0)):
        rows = [("u", "single", 0, level + 0.01 * j, "ms") for j in range(5)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([tmp_path])).compare("base")
    table = detail_table(cmp, "u", "single")
    verdicts = {row[0].split()[0]: row[4] for row in table.rows}
    assert verdicts["new"] == "same~" and verdicts["slow"] == "worse~"
    assert verdicts["base"] == "reference"


def test_the_legend_says_when_a_star_comes_from_one_iterations_samples(
    tmp_path, make_system, capsys
):
    """Under --trust-single-iteration a one-iteration change is starred like the others:
    the legend says its test is on the samples, not across iterations."""
    for system, slower in (("base", 0.0), ("new", 1.0)):
        rows = [("b", "three", i, 10.0 + 0.01 * i + slower, "s") for i in range(3)]
        rows += [("b", "single", 0, v + slower, "s") for v in (10.0, 10.1, 9.9, 10.05)]
        make_system(tmp_path, system, rows)
    said = "Welch's t-test across iterations, or on the samples where a side has one iteration"
    main(["report", str(tmp_path), "--trust-single-iteration"])
    assert said in capsys.readouterr().out
    main(["report", str(tmp_path)])  # not starred then: the ~ legend says why
    assert said not in capsys.readouterr().out
