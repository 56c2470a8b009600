"""Layout ids of duplicate_metrics (`_layouts`): metrics measured in the same (system,
iteration) sequence share an id, told apart from others by np.unique over the rows, also
when every metric of a count has one layout (no sort then)."""

import numpy as np
import pytest

from tuibench.analysis.compare.duplicates import _layouts


def by_unique(s, i, start, n):
    out = np.zeros(len(start), dtype=np.int64)
    base = 0
    for k in np.unique(n):
        rows = np.flatnonzero(n == k)
        at = start[rows, None] + np.arange(k)
        keys = np.concatenate([s[at], i[at]], axis=1)
        _, ids = np.unique(keys, axis=0, return_inverse=True)
        out[rows] = base + ids.ravel()
        base += int(ids.max()) + 1
    return out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kinds", [1, 2, 5])
def test_layout_ids_as_unique_rows(seed, kinds):
    rng = np.random.default_rng(seed)
    n = rng.choice([1, 3, 10], size=40)
    start = np.r_[0, np.cumsum(n)[:-1]]
    # Each metric one of `kinds` sequences of its length (1: all metrics of a count alike).
    seqs = {k: rng.integers(0, 3, size=(kinds, 2, k)) for k in (1, 3, 10)}
    pick = rng.integers(0, kinds, size=len(n))
    s = np.concatenate([seqs[k][p][0] for k, p in zip(n, pick, strict=True)])
    i = np.concatenate([seqs[k][p][1] for k, p in zip(n, pick, strict=True)])
    np.testing.assert_array_equal(_layouts(s, i, start, n), by_unique(s, i, start, n))
