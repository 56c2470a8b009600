"""The moderated variances of stats.variance_prior against scipy and simulation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, special

from tuibench import stats
from tuibench.stats.special.polygamma import digamma, tetragamma, trigamma, trigamma_inverse


def test_polygamma_equals_scipy():
    x = np.r_[np.logspace(-3, 5, 400), 0.5, 1.0, 1.4616321449683622, 9.99, 10.0]
    assert np.allclose(digamma(x), special.digamma(x), rtol=1e-12, atol=1e-13)
    assert np.allclose(trigamma(x), special.polygamma(1, x), rtol=1e-12)
    assert np.allclose(tetragamma(x), special.polygamma(2, x), rtol=1e-12)
    y = np.logspace(-5, 6, 200)
    assert np.allclose(special.polygamma(1, trigamma_inverse(y)), y, rtol=1e-7)
    assert np.isnan(digamma(0.0)) and np.isnan(trigamma(-1.0))


def _limma_fit(s2, df):
    """limma's fitFDist, written with scipy."""
    e = np.log(s2) - special.digamma(df / 2) + np.log(df / 2)
    excess = e.var(ddof=1) - special.polygamma(1, df / 2).mean()
    if excess <= 0:
        return np.exp(e.mean()), np.inf
    half = optimize.brentq(lambda x: special.polygamma(1, x) - excess, 1e-8, 1e8)
    d0 = 2 * half
    return np.exp(e.mean() + special.digamma(d0 / 2) - np.log(d0 / 2)), d0


@pytest.mark.parametrize("d0", [2.0, 8.0, 40.0])
def test_fit_equals_limma_and_recovers_the_prior(d0):
    rng = np.random.default_rng(int(d0))
    df = rng.integers(2, 10, 5000).astype(float)
    true = 3.0 * d0 / rng.chisquare(d0, 5000)
    s2 = true * rng.chisquare(df) / df
    s0, fitted = stats.fit_prior(s2[:, None], df[:, None])
    want_s0, want_d0 = _limma_fit(s2, df)
    assert s0[0] == pytest.approx(want_s0, rel=1e-6)
    assert fitted[0] == pytest.approx(want_d0, rel=1e-5)
    assert d0 / 2 < fitted[0] < d0 * 2  # a large d0 is hard to pin down: the tails decide
    assert s0[0] == pytest.approx(3.0, rel=0.1)


def test_alike_variances_lend_up_to_the_cap_and_too_few_lend_nothing():
    rng = np.random.default_rng(1)
    s2 = rng.chisquare(3, (400, 2)) / 3  # every metric the same variance
    s0, d0 = stats.fit_prior(s2, 3.0)
    assert (d0 > 20).all() and np.allclose(s0, 1.0, atol=0.15)  # chance scatter: large
    s0, d0 = stats.fit_prior(s2[:19], 3.0)
    assert np.isnan(s0).all() and (d0 == 0).all()
    s2[:, 1] = np.nan  # columns are fitted apart; NaN is no estimate
    s0, d0 = stats.fit_prior(s2, 3.0)
    assert np.isfinite(s0[0]) and d0[1] == 0


def test_moderate_by_hand():
    post, df = stats.moderate(np.array([4.0, 4.0]), np.array([3.0, 3.0]), 1.0, np.array([6, 0]))
    assert post.tolist() == [(6 * 1.0 + 3 * 4.0) / 9, 4.0]
    assert df.tolist() == [9.0, 3.0]
