"""Sorting groups made of sorted runs (each iteration's samples sorted by the fences'
pass) gives exactly what sorting the raw samples gives."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench import stats


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 9), min_size=1, max_size=12),  # samples per iteration
    st.integers(1, 4),  # iterations per group
    st.integers(0, 2**32 - 1),
)
def test_merged_runs_equal_a_fresh_sort(per_iteration, iterations, seed):
    rng = np.random.default_rng(seed)
    counts = np.repeat(np.asarray(per_iteration, dtype=np.int64), iterations)
    starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
    # Ties and signed zeros too (equal values; a -0.0 may trade places with a 0.0).
    values = rng.choice(np.array([-1.5, -0.0, 0.0, 2.0, 3.25, 1e-300]), int(counts.sum()))
    values = values + rng.integers(0, 3, len(values)) * (rng.random(len(values)) < 0.5)
    runs = np.empty(len(values))
    fences = stats.tukey_and_medians(values, starts, counts, sorted_out=runs)
    np.testing.assert_array_equal(fences[5], stats.tukey_and_medians(values, starts, counts)[5])
    for s, n in zip(starts, counts, strict=True):
        assert np.array_equal(runs[s : s + n], np.sort(values[s : s + n]))
    g_counts = counts.reshape(-1, iterations).sum(axis=1)
    g_starts = np.r_[0, np.cumsum(g_counts)[:-1]].astype(np.int64)
    merged = stats.sort_within(runs, g_starts, g_counts, runs=True)
    fresh = stats.sort_within(values, g_starts, g_counts)
    assert np.array_equal(merged, fresh)
