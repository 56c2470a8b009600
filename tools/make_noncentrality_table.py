"""Write the noncentrality tables that tuibench ships, one per alpha of SHIPPED_ALPHAS at
the default power (the smallest detectable change of a comparison; the tests check each
against a fresh solve).

    python tools/make_noncentrality_table.py
"""

import numpy as np

from tuibench.stats.power import (
    NONCENTRALITIES,
    POWER,
    SHIPPED_ALPHAS,
    shipped,
    solve_noncentrality_table,
)

for alpha in SHIPPED_ALPHAS:
    table, normal = solve_noncentrality_table(alpha, POWER)
    path = shipped(NONCENTRALITIES, alpha)
    np.save(path, np.r_[normal, table])
    print(f"wrote {path.name}: {len(table)} noncentralities, normal {normal:.6f}")
