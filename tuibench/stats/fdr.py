"""False discovery rate: Benjamini-Hochberg adjusted p-values."""

from __future__ import annotations

import numpy as np


def bh_adjust(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values over the non-NaN entries (NaN stays NaN).

    Same as `scipy.stats.false_discovery_control(p, method='bh')` on those entries.
    """
    p = np.asarray(p, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = np.argsort(p[ok], kind="stable")
    scaled = p[ok][order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(scaled[::-1])[::-1]
    out[ok[order]] = np.minimum(adj, 1.0)
    return out
