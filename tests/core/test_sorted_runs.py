"""Sorting groups made of sorted runs (each iteration's samples sorted by the fences'
pass) gives exactly what sorting the raw samples gives."""

import numpy as np
import pytest
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
    fresh = stats.sort_within(values, g_starts, g_counts)
    # Both ways: runs as short as they are (sorted afresh), and claimed long (merged).
    for lengths in (counts, np.full(len(counts), stats.MERGE_RUNS_FROM)):
        merged = stats.sort_within(runs.copy(), g_starts, g_counts, runs=lengths)
        assert np.array_equal(merged, fresh)


@pytest.mark.parametrize("run", [3, 50, 255, 256, 700])
@pytest.mark.parametrize("iterations", [1, 2, 10])
def test_long_and_short_runs_sort_as_a_fresh_sort(run, iterations):
    """Either way (merged from MERGE_RUNS_FROM, afresh below), every group holds its values
    in np.sort's order, ties, infinities and NaN (last) included, with groups of two sizes
    and a group of one value."""
    rng = np.random.default_rng(run * 31 + iterations)
    counts = np.r_[np.full(7 * iterations, run), np.full(3 * iterations, run + 5), 1]
    starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
    values = rng.normal(0, 1, int(counts.sum())).round(1)  # many ties
    values[rng.integers(0, len(values), 20)] = rng.choice([np.inf, -np.inf, np.nan], 20)
    runs = np.concatenate([np.sort(values[s : s + n]) for s, n in zip(starts, counts, strict=True)])
    g_counts = np.r_[counts[:-1].reshape(-1, iterations).sum(axis=1), 1]
    g_starts = np.r_[0, np.cumsum(g_counts)[:-1]].astype(np.int64)
    merged = stats.sort_within(runs, g_starts, g_counts, runs=counts)
    assert merged is runs  # in place
    for s, n in zip(g_starts, g_counts, strict=True):
        np.testing.assert_array_equal(merged[s : s + n], np.sort(values[s : s + n]))
