"""Write the noncentrality table of the default alpha and power that tuibench ships (the
smallest detectable change of a comparison; solved with scipy's noncentral t; the tests
check it against a fresh solve).

    python tools/make_noncentrality_table.py
"""

import numpy as np

from tuibench.stats.power import (
    DEFAULT_ALPHA,
    POWER,
    SHIPPED_NC_TABLE,
    solve_noncentrality_table,
)

table, normal = solve_noncentrality_table(DEFAULT_ALPHA, POWER)
np.save(SHIPPED_NC_TABLE, np.r_[normal, table])
print(f"wrote {SHIPPED_NC_TABLE.name}: {len(table)} noncentralities, normal {normal:.6f}")
