"""The shipped power table is the one the solver gives (and is what the defaults use)."""

from __future__ import annotations

import numpy as np

from tuibench.stats import power


def test_shipped_table_is_the_solved_one():
    shipped = np.load(power.SHIPPED_TABLE)
    table, nc = power.solve_effect_table(power.DEFAULT_ALPHA, power.POWER)
    np.testing.assert_allclose(shipped[1:], table, rtol=1e-12)
    assert abs(shipped[0] - nc) < 1e-12
    used, used_nc = power._effect_table(power.DEFAULT_ALPHA, power.POWER)
    np.testing.assert_array_equal(used, shipped[1:])
    assert used_nc == shipped[0] and len(used) == power.POWER_TABLE_MAX - 1


def test_other_alphas_are_solved():
    table, _ = power._effect_table(0.01, power.POWER)
    assert np.all(np.diff(table) < 0)  # decreasing in n
    assert table[0] > power._effect_table(power.DEFAULT_ALPHA, power.POWER)[0][0]
