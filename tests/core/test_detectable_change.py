"""The smallest change a comparison detects, against scipy's noncentral t solved by hand."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize
from scipy import stats as sps

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.stats import power


def _power(nc: float, df: float, alpha: float) -> float:
    c = sps.t.ppf(1 - alpha / 2, df)
    # scipy's lower tail is NaN where it underflows: count it as 0.
    return sps.nct.sf(c, df, nc) + np.nan_to_num(sps.nct.cdf(-c, df, nc))


def _nc(df: float, alpha: float = 0.05, target: float = 0.8) -> float:
    return optimize.brentq(lambda nc: _power(nc, df, alpha) - target, 0, 40, xtol=1e-13)


@pytest.mark.parametrize("df", [1.0, 1.37, 2.0, 4.0, 8.5, 30.0, 999.0, 2e4, 1e6])
def test_noncentrality_against_scipy(df):
    got = power.detectable_noncentrality(np.array([df]), 0.05)[0]
    assert got == pytest.approx(_nc(df), rel=2e-5)


@pytest.mark.parametrize("df", [2.0, 5.5, 40.0])
def test_noncentrality_of_another_alpha(df):
    got = power.detectable_noncentrality(np.array([df]), 0.01)[0]
    assert got == pytest.approx(_nc(df, 0.01), rel=2e-5)


def test_noncentrality_of_large_df_is_the_z_test():
    # Hand value: the z test has power 0.8 at 1.96 + 0.8416 (the far tail adds 3e-6).
    got = power.detectable_noncentrality(np.array([np.inf]), 0.05)[0]
    assert got == pytest.approx(1.959964 + 0.841621, abs=1e-4)
    assert np.isnan(power.detectable_noncentrality(np.array([0.5, np.nan]), 0.05)).all()


@settings(max_examples=40, deadline=None)
@given(st.floats(min_value=1.0, max_value=5e4))
def test_the_power_at_the_noncentrality_is_0_8(df):
    nc = power.detectable_noncentrality(np.array([df]), 0.05)[0]
    assert _power(nc, df, 0.05) == pytest.approx(0.8, abs=2e-5)


@pytest.mark.parametrize("alpha", power.SHIPPED_ALPHAS)
def test_shipped_table_is_the_solved_one(alpha):
    shipped = np.load(power.shipped(power.NONCENTRALITIES, alpha))
    table, normal = power.solve_noncentrality_table(alpha, power.POWER)
    np.testing.assert_allclose(shipped[1:], table, rtol=1e-12)
    assert shipped[0] == pytest.approx(normal, rel=1e-12)


# -- on comparison rows ---------------------------------------------------------------------


def _write(tmp_path, values: dict[str, list[list[float]]], unit="s", metric="time"):
    lines = ["system,benchmark,metric,iteration,value,unit"]
    for system, its in values.items():
        for i, it in enumerate(its):
            lines += [f"{system},b,{metric},{i},{v!r},{unit}" for v in it]
    path = tmp_path / "all.csv"
    path.write_text("\n".join(lines) + "\n")
    return load([path])


def _row(cmp, system):
    return cmp.rows.filter(pl.col("system") == system).row(0, named=True)


def _by_hand(x: np.ndarray, y: np.ndarray, alpha=0.05) -> float:
    """Welch's standard error and df of iteration values x (system) and y (reference)."""
    a, b = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    df = (a + b) ** 2 / (a * a / (len(x) - 1) + b * b / (len(y) - 1))
    return _nc(df, alpha) * math.sqrt(a + b)


@pytest.mark.parametrize(("k", "rk"), [(2, 2), (3, 5), (10, 4)])
def test_detectable_change_of_a_time(tmp_path, k, rk):
    rng = np.random.default_rng(k * 10 + rk)
    base = (100 + rng.normal(0, 2, (rk, 1)) + rng.normal(0, 1, (rk, 6))).tolist()
    new = (103 + rng.normal(0, 4, (k, 1)) + rng.normal(0, 1, (k, 6))).tolist()
    rs = _write(tmp_path, {"base": base, "new": new})
    row = _row(Analysis(rs, AnalysisOptions(iteration_value="mean")).compare("base"), "new")
    x, y = np.mean(new, axis=1), np.mean(base, axis=1)
    assert row["detectable_change"] == pytest.approx(_by_hand(x, y) / y.mean(), rel=1e-4)
    assert row["iterations_for_threshold"] is None


def test_detectable_change_of_a_rate_is_on_the_reciprocal_scale(tmp_path):
    rng = np.random.default_rng(5)
    base = (1000 + rng.normal(0, 30, (4, 8))).tolist()
    new = (1000 + rng.normal(0, 30, (3, 8))).tolist()
    rs = _write(tmp_path, {"base": base, "new": new}, unit="ops/s", metric="rate")
    row = _row(Analysis(rs, AnalysisOptions(iteration_value="mean")).compare("base"), "new")
    assert row["mean_kind"] == "hmean"
    # Hmean iterations: the mean of reciprocals; a change t of the rate is a change
    # t / (1 + t) of the reciprocal, so delta = ry t / (1 + t) and t = delta / (ry - delta).
    x, y = np.mean(1 / np.array(new), axis=1), np.mean(1 / np.array(base), axis=1)
    delta, ry = _by_hand(x, y), y.mean()
    assert row["detectable_change"] == pytest.approx(delta / (ry - delta), rel=1e-4)


def test_detectable_change_never_depends_on_the_change_observed(tmp_path):
    rng = np.random.default_rng(7)
    base = (100 + rng.normal(0, 1, (3, 5))).tolist()
    noise = rng.normal(0, 1, (3, 5))
    got = []
    for shift in (0.0, 0.5, 5.0, 50.0):
        rs = _write(tmp_path, {"base": base, "new": (100 + shift + noise).tolist()})
        got.append(
            _row(Analysis(rs, AnalysisOptions(iteration_value="mean")).compare("base"), "new")
        )
    assert {r["verdict"] for r in got} >= {"same", "worse"}
    assert [r["detectable_change"] for r in got] == pytest.approx([got[0]["detectable_change"]] * 4)


def test_no_detectable_change_with_one_iteration(tmp_path):
    rs = _write(tmp_path, {"base": [[1.0, 1.1, 0.9]], "new": [[1.0, 1.2], [1.1, 1.0]]})
    assert _row(Analysis(rs).compare("base"), "new")["detectable_change"] is None
