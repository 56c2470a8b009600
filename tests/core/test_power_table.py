"""The shipped power table is the one the solver gives (and is what the defaults use)."""

from __future__ import annotations

import numpy as np
import pytest

from tuibench.stats import power


@pytest.mark.parametrize("alpha", power.SHIPPED_ALPHAS)
def test_shipped_table_is_the_solved_one(alpha):
    shipped = np.load(power.shipped(power.EFFECTS, alpha))
    table, nc = power.solve_effect_table(alpha, power.POWER)
    np.testing.assert_allclose(shipped[1:], table, rtol=1e-12)
    assert abs(shipped[0] - nc) < 1e-12
    used, used_nc = power._effect_table(alpha, power.POWER)
    np.testing.assert_array_equal(used, shipped[1:])
    assert used_nc == shipped[0] and len(used) == power.POWER_TABLE_MAX - 1
    assert power.solved(alpha, effects=True)


def test_other_alphas_are_solved_once_and_then_at_hand(monkeypatch):
    monkeypatch.setattr(power, "_TABLES", {})
    assert not power.solved(0.02)
    power.detectable_noncentrality(np.array([3.0]), 0.02)
    assert power.solved(0.02) and not power.solved(0.02, effects=True)
    power.iterations_needed(np.array([0.5]), 0.02)
    assert power.solved(0.02, effects=True)


def test_other_alphas_are_solved():
    table, _ = power._effect_table(0.01, power.POWER)
    assert np.all(np.diff(table) < 0)  # decreasing in n
    assert table[0] > power._effect_table(power.DEFAULT_ALPHA, power.POWER)[0][0]


# At two degrees of freedom S^2 is an exponential over 2, so the power has a closed form:
# P(|T| > c) = 1 - E exp(-(Z + nc)^2 / c^2) = 1 - exp(-a nc^2 / (1 + 2a)) / sqrt(1 + 2a),
# a = 1 / c^2, and so does the t quantile: c = (2p - 1) / sqrt(2 p (1 - p)), p = 1 - alpha/2
# as a double (as the product computes it: at alpha 1e-12 that moves c by 4e-5).
def _crit_df2(alpha: float) -> float:
    p = 1 - alpha / 2
    return (2 * p - 1) / np.sqrt(2 * p * (1 - p))


def _power_df2(nc: np.ndarray, alpha: float) -> np.ndarray:
    a = 1 / _crit_df2(alpha) ** 2
    return 1 - np.exp(-a * nc**2 / (1 + 2 * a)) / np.sqrt(1 + 2 * a)


def _nc_df2(alpha: float, target: float = power.POWER) -> float:
    a = 1 / _crit_df2(alpha) ** 2
    return float(np.sqrt(-(1 + 2 * a) / a * np.log((1 - target) * np.sqrt(1 + 2 * a))))


@pytest.mark.parametrize("alpha", [0.05, 1e-3, 1e-6, 1e-12])
def test_the_power_against_its_closed_form_at_two_degrees_of_freedom(alpha):
    """Both ways of computing it: scipy's noncentral t (critical values below 30, alpha
    above about 2e-3 here) and the integral over the normal part (beyond)."""
    c = _crit_df2(alpha)
    nc = np.concatenate([[0.0, 1.0, 5.0], c * np.array([0.5, 1.0, 1.27, 2.0, 4.0])])
    got = power.t_test_power(nc, np.full(len(nc), 2.0), alpha)
    np.testing.assert_allclose(got, _power_df2(nc, alpha), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("alpha", [0.05, 1e-3, 1e-6, 1e-12])
def test_the_effect_table_at_tiny_alphas(alpha):
    """d*(2), solved at each alpha, against the closed form: scipy's noncentral t had put
    it at 130,615 for alpha 1e-12, where it is 1.27 million."""
    table, _ = power.solve_effect_table(alpha, power.POWER)
    assert table[0] == pytest.approx(_nc_df2(alpha), rel=1e-9)  # n = 2: nc / sqrt(n / 2)
    assert np.all(np.diff(table) < 0)


@pytest.mark.parametrize("alpha", [1e-3, 1e-12])
def test_the_detectable_noncentrality_at_tiny_alphas(alpha):
    """The table over Welch's degrees of freedom: solving it at alpha 1e-12 took three
    minutes with scipy's noncentral t alone. df = 2 lies between two of its points."""
    got = power.detectable_noncentrality(np.array([2.0]), alpha)[0]
    assert got == pytest.approx(_nc_df2(alpha), rel=1e-4)
