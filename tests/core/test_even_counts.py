"""Fast paths when every group has as many values: the distinct sizes without a sort, and
Tukey's counts in bytes; each against the plain computation (ties, NaN, infinities)."""

import numpy as np
import pytest

from tuibench import stats
from tuibench.stats.samples import tukey
from tuibench.stats.samples.blocks import groups_in_order, sizes


@pytest.mark.parametrize(
    "counts",
    [
        [],
        [3] * 10,
        [0] * 4,
        [1] * 5,
        [3, 1, 3, 0, 7, 3],
        [2, 2, 2, 5],
        [0, 2, 2],
    ],
)
@pytest.mark.parametrize("above", [0, 1])
def test_sizes_are_numpy_unique(counts, above):
    c = np.array(counts, dtype=np.int64)
    got = sizes(c, above)
    want = np.unique(c[c > above])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _direct(x: np.ndarray) -> tuple[np.ndarray, ...]:
    """Tukey's counts of every row by numpy's own percentile, row by row."""
    out = []
    for row in x:
        q1, q3 = np.percentile(row, [25, 75])
        iqr = q3 - q1
        lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
        ext = (row < q1 - 3 * iqr) | (row > q3 + 3 * iqr)
        out.append(((row < lo).sum(), (row > hi).sum(), ext.sum(), np.median(row)))
    return tuple(np.array(v) for v in zip(*out, strict=True))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf in an infinite row's IQR
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9])
def test_tukey_counts_of_short_even_rows_are_the_direct_ones(n):
    rng = np.random.default_rng(n)
    rows = 400
    x = rng.normal(10, 1, (rows, n))
    x[::5] = np.round(x[::5])  # ties
    if n >= 4:
        x[1::7, 0] = 1e6  # far outliers, some rows
        x[2::7, -1] = -1e6
        x[3::11, 1] = np.inf
    values = x.ravel()
    starts = np.arange(0, rows * n, n)
    counts = np.full(rows, n)
    _, _, n_low, n_high, n_ext, median = stats.tukey_and_medians(values, starts, counts)
    d_low, d_high, d_ext, d_median = _direct(x)
    assert n_low.dtype == n_high.dtype == n_ext.dtype == np.int64
    np.testing.assert_array_equal(n_low, d_low)
    np.testing.assert_array_equal(n_high, d_high)
    np.testing.assert_array_equal(n_ext, d_ext)
    np.testing.assert_array_equal(median, d_median)
    if n >= 4:
        assert n_ext.sum() > 0 and n_low.sum() > 0 and n_high.sum() > 0


@pytest.mark.parametrize("n", [1, 3, 8])
def test_byte_counters_equal_the_sums_of_comparisons(n):
    """`_beyond`'s short rows (byte counters, column by column) against the plain sums of
    the comparisons, with NaN samples and NaN or infinite fences."""
    rng = np.random.default_rng(100 + n)
    x = np.sort(rng.normal(0, 1, (3000, n)), axis=1)
    x[::17, -1] = np.nan
    x[::23, 0] = -np.inf
    fences = [rng.normal(c, 0.5, 3000) for c in (-0.7, 0.7, -1.5, 1.5)]
    for f in fences:
        f[::29] = np.nan
        f[::31] = np.inf
    low, high, ext_low, ext_high = fences
    got = tukey._beyond(x, low, high, ext_low, ext_high)
    want = (
        (x < low[:, None]).sum(axis=1),
        (x > high[:, None]).sum(axis=1),
        ((x < ext_low[:, None]) | (x > ext_high[:, None])).sum(axis=1),
    )
    for g, w in zip(got, want, strict=True):
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g, w)
    assert all(w.sum() > 0 for w in want)


def _by_index(x, first, new_starts, counts):
    """The plain way: an index of every sample."""
    return x[np.repeat(first - new_starts, counts) + np.arange(int(counts.sum()))]


@pytest.mark.parametrize("k", [1, 3, 15])
def test_groups_in_order_by_rows_as_by_an_index_of_every_sample(k):
    rng = np.random.default_rng(k)
    ng = 500
    x = rng.normal(0, 1, ng * k)
    x[::7] = np.nan
    x[1::11] = -0.0
    g = rng.permutation(ng)
    counts = np.full(ng, k)
    first = g * k
    new_starts = np.arange(ng) * k
    got = groups_in_order(x, first, new_starts, counts, g)
    want = _by_index(x, first, new_starts, counts)
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))  # every bit


def test_groups_in_order_of_uneven_or_gapped_groups():
    rng = np.random.default_rng(3)
    sizes_ = np.array([3, 1, 4, 3, 2])
    x = rng.normal(0, 1, sizes_.sum() + 2)  # two samples of no group at the end
    starts = np.r_[0, np.cumsum(sizes_)[:-1]]
    g = np.array([4, 0, 3, 1, 2])
    counts, first = sizes_[g], starts[g]
    new_starts = np.r_[0, np.cumsum(counts)[:-1]]
    got = groups_in_order(x, first, new_starts, counts, g)
    np.testing.assert_array_equal(got, _by_index(x, first, new_starts, counts))
    even = np.full(4, 3)  # one size, but not tiling x: by the index
    got = groups_in_order(x[:14], np.array([3, 0, 9, 6]), np.arange(4) * 3, even, np.arange(4))
    want = _by_index(x[:14], np.array([3, 0, 9, 6]), np.arange(4) * 3, even)
    np.testing.assert_array_equal(got, want)
