"""The sequential guarantees of `tuibench decide`, on a seeded subset of
benchmarks/calibrate_decide.py, and its boundary against an independent computation.

Margins are three binomial standard errors at the bound: an A/A rate fails above
5 % + 3 * sqrt(0.05 * 0.95 / 1500) = 6.7 %; a detection rate fails below
90 % - 3 * sqrt(0.9 * 0.1 / 600) = 86.3 %.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from tuibench.stats.sequential import half_width, log_mixture, more_iterations

ALPHA = 0.05
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "calibrate_decide.py"


@pytest.fixture(scope="module")
def calib():
    spec = importlib.util.spec_from_file_location("calibrate_decide", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _margin(rate: float, n: int) -> float:
    return 3 * np.sqrt(rate * (1 - rate) / n)


@pytest.mark.parametrize("regime", ["gaussian", "bursts", "bimodal", "shared"])
def test_asked_after_every_iteration_false_alarms_stay_below_alpha(calib, regime):
    rng = np.random.default_rng(11)
    ref, new = calib.simulate(rng, regime, 1500, 0.0)
    v = calib.verdicts_by_iteration(ref, new)
    ever = np.isin(v, ("worse", "better")).any(axis=1).mean()
    assert ever <= ALPHA + _margin(ALPHA, 1500)
    # With the fixed-sample last look at 30 (--max-iterations): at most 2 alpha.
    undecided = v[:, -1] == "undecided"
    last = undecided & (stats.ttest_rel(new, ref, axis=1).pvalue < ALPHA)
    ever_or_last = (np.isin(v, ("worse", "better")).any(axis=1) | last).mean()
    assert ever_or_last <= 2 * ALPHA + _margin(2 * ALPHA, 1500)
    # The check can fail: a paired t test asked after every iteration breaks this bound.
    assert calib.repeated_ever(ref, new, paired=True) > ALPHA + _margin(ALPHA, 1500)


@pytest.mark.parametrize("regime", ["gaussian", "bursts", "bimodal", "shared"])
def test_five_percent_with_one_percent_noise_is_decided_within_15(calib, regime):
    rng = np.random.default_rng(12)
    ref, new = calib.simulate(rng, regime, 600, 0.05)
    v = calib.verdicts_by_iteration(ref, new)
    stop, first = calib.stopping(v), calib.first_verdict(v)
    assert ((first == "worse") & (stop <= 15)).mean() >= 0.9 - _margin(0.9, 600)
    assert not np.isin(first, ("better", "same")).any()


def test_run_prints_every_regime(calib):
    lines = calib.run(seed=3, quick=True)
    assert all(any(line.startswith(r) for line in lines) for r in calib.REGIMES)


def _mixture_by_integration(d: np.ndarray, mu: float, c: float = 0.5) -> float:
    """M_n(mu) from its definition: the scale-invariant likelihood ratio, mu/sigma mixed
    over N(0, 1/c), both sides integrated over sigma with the measure d(sigma)/sigma
    (= d log sigma), by Simpson's rule on a grid."""
    y = d - mu
    t = np.linspace(-7, 4, 1001)  # log sigma
    delta = np.linspace(-12, 12, 801)
    sigma = np.exp(t)[:, None, None]
    loglik = stats.norm.logpdf(y[None, None, :], delta[None, :, None] * sigma, sigma).sum(-1)
    logprior = stats.norm.logpdf(delta, scale=1 / np.sqrt(c))
    null = stats.norm.logpdf(y[None, :], 0, np.exp(t)[:, None]).sum(-1)
    shift = null.max()  # the same scale on both sides
    inner = integrate.simpson(np.exp(loglik + logprior[None, :] - shift), x=delta, axis=1)
    return integrate.simpson(inner, x=t) / integrate.simpson(np.exp(null - shift), x=t)


def test_boundary_against_numerical_integration():
    d = np.array([0.8, -0.3, 1.1, 0.4, 0.9, -0.1, 0.6])
    n, mean = len(d), d.mean()
    hw = half_width(n, d.var(), ALPHA)  # d.var(): divided by n
    for mu in (mean - hw, mean + hw):  # the bounds: where M_n reaches 1/alpha
        assert _mixture_by_integration(d, mu) == pytest.approx(1 / ALPHA, rel=1e-4)
    assert _mixture_by_integration(d, mean) < 1 / ALPHA
    # The closed form and root finding on the definition agree too.
    root = optimize.brentq(lambda m: log_mixture(d, m) - np.log(1 / ALPHA), mean, mean + 50)
    assert root == pytest.approx(mean + hw, rel=1e-9)


def test_boundary_values_by_hand():
    # n = 2 and the first n where a < 1 is still > 1 (unbounded) at c = 0.5: nothing excluded.
    assert np.isinf(half_width(np.array([1, 2, 3]), np.ones(3), ALPHA)).all()
    # n = 10, var 1: q = (0.0025 * 0.5 / 10.5)^(1/10), a = (1 - q) 10.5 / 10.
    q = (0.0025 * 0.5 / 10.5) ** 0.1
    a = (1 - q) * 1.05
    assert half_width(10, 1.0, ALPHA) == pytest.approx(np.sqrt(a / (1 - a)), rel=1e-12)
    # Wider than the fixed-sample t interval: the price of asking at every n.
    assert half_width(10, 0.9, ALPHA) > stats.t.ppf(0.975, 9) * 1 / np.sqrt(10)


def test_more_iterations_is_the_first_n_that_settles():
    n, mean, sd = np.array([5.0]), np.array([0.05]), np.array([0.02])
    more = int(more_iterations(n, mean, sd, ALPHA, np.log(0.98), np.log(1.02))[0])
    m = np.arange(6, 200)
    settled = half_width(m, sd[0] ** 2 * (m - 1) / m, ALPHA) < mean[0]
    assert more == m[np.argmax(settled)] - 5
    # Fewer than two pairs: no estimate.
    assert more_iterations(np.array([1.0]), mean, sd, ALPHA, None, None)[0] == -1
