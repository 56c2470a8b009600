"""Write the power tables that tuibench ships, one per alpha of SHIPPED_ALPHAS at the
default power (the effects per iteration count; the tests check each against a fresh
solve, and the default's against statsmodels).

    python tools/make_power_table.py
"""

import numpy as np

from tuibench.stats.power import EFFECTS, POWER, SHIPPED_ALPHAS, shipped, solve_effect_table

for alpha in SHIPPED_ALPHAS:
    table, nc = solve_effect_table(alpha, POWER)
    path = shipped(EFFECTS, alpha)
    np.save(path, np.r_[nc, table])
    print(f"wrote {path.name}: {len(table)} effect sizes and the noncentrality {nc:.6f}")
