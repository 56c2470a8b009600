"""Welch's p and Fieller's interval computed only `where` asked: the same bits there as
computing every element (and as scipy), NaN elsewhere."""

import numpy as np
from scipy import stats as sps

from tuibench import stats


def _moments(n: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    m1, m2 = rng.normal(100, 5, n), rng.normal(100, 5, n)
    v1, v2 = rng.gamma(2, 3, n), rng.gamma(2, 3, n)
    n1, n2 = rng.integers(1, 12, n).astype(float), rng.integers(1, 12, n).astype(float)
    # ties, zero variances, NaN and infinite moments among the rest
    m2[::11], v1[::11], v2[::11] = m1[::11], 0.0, 0.0
    v1[::13], m1[::17], m2[::19], v2[::23] = np.nan, np.inf, -np.inf, np.inf
    m1[5:40:9] = m2[5:40:9]
    return m1, v1, n1, m2, v2, n2


def test_welch_where_is_every_element_where_asked():
    args = _moments(3000, 1)
    where = np.random.default_rng(2).random(3000) < 0.5
    p_all, df_all = stats.welch(*args)
    p, df = stats.welch(*args, where=where)
    np.testing.assert_array_equal(p[where], p_all[where])
    assert np.isnan(p[~where]).all()
    np.testing.assert_array_equal(df, df_all)
    assert np.isfinite(p[where]).sum() > 1000  # most are real tests


def test_welch_where_matches_scipy():
    rng = np.random.default_rng(3)
    a, b = rng.normal(10, 1, (200, 6)), rng.normal(10.5, 2, (200, 4))
    args = (a.mean(1), a.var(1, ddof=1), np.full(200, 6.0))
    args += (b.mean(1), b.var(1, ddof=1), np.full(200, 4.0))
    where = np.arange(200) % 3 != 0
    p, _ = stats.welch(*args, where=where)
    want = sps.ttest_ind(a, b, axis=1, equal_var=False).pvalue
    np.testing.assert_allclose(p[where], want[where], rtol=1e-10)


def test_fieller_where_is_every_element_where_asked():
    m1, v1, n1, m2, v2, n2 = _moments(3000, 4)
    _, df = stats.welch(m1, v1, n1, m2, v2, n2)
    df[::29] = 0.5  # below 1: no quantile
    num, den = m1, np.where(np.arange(3000) % 31 == 0, 0.0, m2)  # some unbounded
    vnum, vden = v1 / n1, v2 / n2
    where = np.random.default_rng(5).random(3000) < 0.4
    lo_all, hi_all, unb_all = stats.fieller(num, vnum, den, vden, df)
    lo, hi, unb = stats.fieller(num, vnum, den, vden, df, where=where)
    np.testing.assert_array_equal(lo[where], lo_all[where])
    np.testing.assert_array_equal(hi[where], hi_all[where])
    np.testing.assert_array_equal(unb[where], unb_all[where])
    assert np.isnan(lo[~where]).all() and np.isnan(hi[~where]).all()
    assert not unb[~where].any()
    assert unb[where].any() and np.isfinite(lo[where]).sum() > 500
