"""Comparison rows against scipy and hand computations, and every degenerate case."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from tuibench.core.compare import ROW_COLUMNS, Analysis
from tuibench.core.load import load


def _rows(samples: dict[str, list[list[float]]], bench="b", metric="time", unit="s"):
    """samples[system] = iterations of samples -> rows for make_system."""
    return {
        system: [(bench, metric, i, v, unit) for i, it in enumerate(its) for v in it]
        for system, its in samples.items()
    }


def _load(tmp_path, make_system, per_system: dict[str, list[tuple]]):
    for system, rows in per_system.items():
        make_system(tmp_path, system, rows)
    return load([tmp_path])


def _row(cmp, system, metric="time"):
    df = cmp.rows.filter((pl.col("system") == system) & (pl.col("metric") == metric))
    assert df.height == 1
    return df.row(0, named=True)


@pytest.fixture
def three(tmp_path, make_system):
    rng = np.random.default_rng(11)
    data = {}
    for s, shift in (("sys-1", 0.0), ("sys-2", 0.04), ("sys-10", -0.002)):
        its = [
            list(
                np.round(
                    100 * (1 + shift) * (1 + rng.normal(0, 0.01)) * (1 + rng.normal(0, 0.02, 10)), 4
                )
            )
            for _ in range(6)
        ]
        data[s] = its
    per = _rows(data)
    for s in per:  # a rate metric too
        per[s] += [("b", "rate", r[2], round(1e4 / r[3], 4), "ops/s") for r in per[s]]
    return _load(tmp_path, make_system, per)


def test_rows_have_the_documented_columns_and_order(three):
    cmp = Analysis(three).compare("sys-2")
    assert cmp.rows.columns == ROW_COLUMNS
    assert three.system_names == ["sys-1", "sys-2", "sys-10"]  # natural sort
    assert cmp.rows.filter(pl.col("metric") == "time")["system"].to_list() == [
        "sys-2",
        "sys-1",
        "sys-10",
    ]  # reference first


def test_welch_on_reported_iteration_values_matches_scipy(three):
    cmp = Analysis(three).compare("sys-1")
    ref = _row(cmp, "sys-1")
    row = _row(cmp, "sys-2")
    want = sps.ttest_ind(row["iteration_values"], ref["iteration_values"], equal_var=False)
    assert row["p_welch"] == pytest.approx(want.pvalue, rel=1e-9)
    assert row["significant"] and row["verdict"] == "worse"  # a slower time
    assert row["change"] == pytest.approx((row["center"] - ref["center"]) / ref["center"])
    assert ref["p_welch"] is None and ref["verdict"] == "reference" and ref["change"] == 0.0


def test_interval_by_hand(three):
    row = _row(Analysis(three).compare("sys-1"), "sys-2")
    v = np.array(row["iteration_values"])
    half = sps.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    assert row["center"] == pytest.approx(v.mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((v.mean() - half, v.mean() + half))


def test_hmean_metric_uses_reciprocals(three):
    cmp = Analysis(three).compare("sys-1")
    ref, row = _row(cmp, "sys-1", "rate"), _row(cmp, "sys-2", "rate")
    assert row["mean_kind"] == "hmean" and row["better"] == "higher"
    v = np.array(row["iteration_values"])
    assert row["center"] == pytest.approx(sps.hmean(v))
    r = 1 / v
    half = sps.t.ppf(0.975, len(r) - 1) * r.std(ddof=1) / np.sqrt(len(r))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        (1 / (r.mean() + half), 1 / (r.mean() - half))
    )
    want = sps.ttest_ind(1 / v, 1 / np.array(ref["iteration_values"]), equal_var=False)
    assert row["p_welch"] == pytest.approx(want.pvalue, rel=1e-9)
    assert row["verdict"] == "worse"  # a lower rate


def test_iteration_values_within_trimmed_means(three):
    a = Analysis(three)
    it = a.iterations
    samples = three.samples
    for r in it.head(20).iter_rows(named=True):
        x = np.sort(
            samples.filter(
                (pl.col("system") == r["system"])
                & (pl.col("metric") == r["metric"])
                & (pl.col("iteration") == r["iteration"])
            )["value"].to_numpy()
        )
        m = int(0.8 * len(x))
        if r["metric"] == "rate":
            lo, hi = sps.hmean(x[:m]), sps.hmean(x[-m:])
        else:
            lo, hi = x[:m].mean(), x[-m:].mean()
        assert lo - 1e-9 <= r["value"] <= hi + 1e-9


def test_deterministic_across_runs_and_subsets_of_systems(three, tmp_path):
    a = Analysis(three).compare("sys-1").rows
    b = Analysis(load([tmp_path])).compare("sys-1").rows
    assert a.equals(b)
    pair = load([tmp_path / "sys-1", tmp_path / "sys-2"])
    c = Analysis(pair).compare("sys-1").rows
    keep = a.filter(pl.col("system").is_in(["sys-1", "sys-2"]))
    # p_adjusted depends on the family of rows (every system loaded), by definition.
    family = ["note", "p_adjusted"]
    assert keep.drop(family, strict=False).equals(c.drop(family, strict=False))
    other_seed = Analysis(three, seed=5).compare("sys-1").rows
    assert not other_seed["center"].equals(a["center"])


def test_single_iteration_one_sample(tmp_path, make_system):
    rs = _load(tmp_path, make_system, _rows({"a": [[1.0]], "b": [[2.0, 2.1, 1.9]]}))
    cmp = Analysis(rs).compare("a")
    ref, row = _row(cmp, "a"), _row(cmp, "b")
    assert ref["ci_low"] is None and "one iteration with one sample" in ref["note"]
    assert row["p_welch"] is None and "too few values" in row["note"]
    # No test could run: no verdict, rather than a "same" the data cannot support.
    assert row["verdict"] == "n/a" and row["single_iteration"]


def test_single_iteration_interval_from_samples_and_raw_sample_test(tmp_path, make_system):
    a_s, b_s = [10.0, 10.2, 9.9, 10.1, 10.05], [11.0, 11.2, 10.9, 11.1, 11.05, 11.0]
    rs = _load(tmp_path, make_system, _rows({"a": [a_s], "b": [b_s, b_s]}))
    cmp = Analysis(rs).compare("a")
    ref, row = _row(cmp, "a"), _row(cmp, "b")
    assert "interval from its samples" in ref["note"]
    x = np.array(a_s)
    half = sps.t.ppf(0.975, 4) * x.std(ddof=1) / np.sqrt(5)
    assert ref["ci_high"] - ref["ci_low"] == pytest.approx(2 * half)
    assert "one iteration on a side" in row["note"] and "single process" in row["note"]
    assert row["single_iteration"] and ref["single_iteration"]
    want = sps.ttest_ind(b_s + b_s, a_s, equal_var=False).pvalue
    assert row["p_welch"] == pytest.approx(want, rel=1e-9)


def test_zero_variance_both_sides(tmp_path, make_system):
    rs = _load(
        tmp_path,
        make_system,
        {
            "a": [("b", "allocs", i, 3, "allocs/op") for i in range(3) for _ in range(4)]
            + [("b", "bytes", i, 64, "B/op") for i in range(3) for _ in range(4)],
            "b": [("b", "allocs", i, 3, "allocs/op") for i in range(3) for _ in range(4)]
            + [("b", "bytes", i, 80, "B/op") for i in range(3) for _ in range(4)],
        },
    )
    cmp = Analysis(rs).compare("a")
    same, diff = _row(cmp, "b", "allocs"), _row(cmp, "b", "bytes")
    assert same["p_welch"] == 1.0 and same["verdict"] == "same"
    assert "identical constant" in same["note"]
    assert diff["p_welch"] == 0.0 and diff["verdict"] == "worse"
    assert "exact" in diff["note"]


def test_non_positive_values_under_hmean(tmp_path, make_system):
    rs = _load(
        tmp_path,
        make_system,
        {
            "a": [("b", "tput", i, v, "ops/s") for i in range(3) for v in (10, 11, 0)],
            "b": [("b", "tput", i, v, "ops/s") for i in range(3) for v in (10, 11, 12)],
        },
    )
    cmp = Analysis(rs).compare("b")
    row = _row(cmp, "a", "tput")
    assert row["center"] is None and row["change"] is None
    assert "harmonic mean is undefined" in row["note"]


def test_reference_without_the_metric(tmp_path, make_system):
    rs = _load(
        tmp_path,
        make_system,
        {
            "a": [("b", "time", i, 1 + i / 10, "s") for i in range(3)],
            "b": [("b", "time", i, 1 + i / 10, "s") for i in range(3)]
            + [("b", "extra", i, 5 + i / 10, "s") for i in range(3)],
        },
    )
    row = _row(Analysis(rs).compare("a"), "b", "extra")
    assert row["change"] is None and row["p_welch"] is None
    assert "has no results for this metric" in row["note"]


def test_unknown_reference_is_an_error(three):
    with pytest.raises(ValueError, match="unknown reference"):
        Analysis(three).compare("nope")


def test_filters(three):
    cmp = Analysis(three).compare("sys-1")
    assert set(cmp.filter(metric="ra*").rows["metric"]) == {"rate"}
    assert cmp.filter(benchmark="zzz").rows.height == 0
    sig = cmp.filter(only_significant=True).rows
    assert (
        sig.height > 0
        and sig.group_by("metric").agg(pl.col("significant").any())["significant"].all()
    )
