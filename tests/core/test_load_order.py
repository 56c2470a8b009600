"""The runs' order while loading: one stable sort of a combined key, as np.lexsort."""

import numpy as np

from tuibench.util.sort_keys import lexsort_order


def lexsorted(cols):
    return np.lexsort([np.arange(len(cols[0])), *reversed(cols)])


def test_combined_key_orders_as_lexsort():
    rng = np.random.default_rng(2)
    n = 50_000
    cols = [
        rng.integers(0, 3, n).astype(np.uint32),  # system codes
        rng.integers(0, 400, n).astype(np.uint32),
        rng.integers(0, 12, n).astype(np.uint32),
        rng.integers(-5, 40, n),  # iterations, some negative
        rng.integers(0, 2, n) * 1_000_000,  # first samples, far apart
    ]
    np.testing.assert_array_equal(lexsort_order(cols), lexsorted(cols))


def test_ranges_beyond_62_bits_and_floats_sort_as_lexsort():
    rng = np.random.default_rng(3)
    n = 5000
    wide = [rng.integers(-(2**40), 2**40, n), rng.integers(0, 2**30, n)]
    np.testing.assert_array_equal(lexsort_order(wide), lexsorted(wide))
    floats = [rng.integers(0, 3, n), rng.normal(size=n)]
    np.testing.assert_array_equal(lexsort_order(floats), lexsorted(floats))
    assert len(lexsort_order([np.zeros(0, np.int64)])) == 0
