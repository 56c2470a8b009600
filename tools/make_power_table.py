"""Write the power table of the default alpha and power that tuibench ships (solved with
scipy's noncentral t; tests check it against a fresh solve and against statsmodels).

    python tools/make_power_table.py
"""

import numpy as np

from tuibench.stats.power import DEFAULT_ALPHA, POWER, SHIPPED_TABLE, solve_effect_table

table, nc = solve_effect_table(DEFAULT_ALPHA, POWER)
np.save(SHIPPED_TABLE, np.r_[nc, table])
print(f"wrote {SHIPPED_TABLE.name}: {len(table)} effect sizes and the noncentrality {nc:.6f}")
