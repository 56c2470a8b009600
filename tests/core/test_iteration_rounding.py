"""The rounding of printed values per iteration: exact where duplicate detection can tell
it apart, and a true bound below its floor (computed without every sample's digits)."""

import numpy as np

from tuibench import stats

FINEST = 1e-6


def exact(values, starts, counts):
    """The figure from every iteration's first three samples' digits, as defined."""
    q = np.full(len(starts), np.inf)
    for k in range(3):
        has = counts > k
        q[has] = np.fmin(q[has], stats.printed_quantum(values[starts[has] + k]))
    low = np.abs(stats.segment_min(np.abs(values), starts, counts))
    with np.errstate(divide="ignore", invalid="ignore"):
        return 0.5 * q / low


def spans(counts):
    counts = np.asarray(counts, dtype=np.int64)
    return np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64), counts


def check(values, counts):
    starts, counts = spans(counts)
    got = stats.iteration_rounding(values, starts, counts, FINEST)
    want = exact(values, starts, counts)
    floor_got, floor_want = np.fmax(got, FINEST), np.fmax(want, FINEST)
    np.testing.assert_array_equal(floor_got, floor_want)  # what duplicates read
    fine = ~(want < FINEST / 2) | ~(got < FINEST / 2)
    np.testing.assert_array_equal(got[fine], want[fine])  # exact where it counts
    assert (got[~fine] >= want[~fine]).all()  # elsewhere a bound
    return got, want


def test_full_precision_values_get_a_bound_below_the_floor():
    rng = np.random.default_rng(3)
    values = 100 * (1 + rng.normal(0, 0.02, 30_000))
    got, want = check(values, [3] * 10_000)
    assert (got != want).mean() > 0.9  # the bound is what most got: the test can fail
    assert (got < FINEST / 2).all()


def test_printed_values_stay_exact():
    rng = np.random.default_rng(4)
    go_ns = np.round(rng.uniform(100, 5000, 3000))  # whole nanoseconds
    mb_s = np.round(rng.uniform(1, 900, 3000), 2)  # two decimals
    values = np.concatenate([go_ns, mb_s])
    got, want = check(values, [5] * 1200)
    np.testing.assert_array_equal(got, want)


def test_wide_spread_zero_nan_infinity_and_empty_iterations():
    rng = np.random.default_rng(5)
    values = 100 * (1 + rng.normal(0, 0.02, 40))
    values[3] = 1e-9  # a tiny smallest sample: no bound can stand under the floor
    values[7] = 0.0
    values[11] = np.nan
    values[15] = np.inf
    values[20] = -values[20]
    counts = [4, 4, 4, 4, 0, 6, 1, 2, 5, 10]
    got, _ = check(values, counts)
    assert np.isnan(got[4])  # an empty iteration has no figure


def per_sample_rounding(values, starts, counts, finest):
    """The figure as computed before the three samples were taken in one call: a call per
    sample position, bound included (the same numbers, bit for bit)."""
    from tuibench.stats.samples import digits

    q = np.full(len(starts), np.inf)
    low = np.abs(stats.segment_min(np.abs(values), starts, counts))
    first = np.flatnonzero(counts > 0)
    x0 = np.abs(values[starts[first]])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bound = 0.5 * 10.0**-digits.SKIP * x0 / low[first]
        more = digits._more_digits_than(x0, np.floor(np.log10(x0)), digits.SKIP)
        coarse = more & (bound < 0.5 * finest)
    keep = np.ones(len(starts), dtype=bool)
    keep[first[coarse]] = False
    for k in range(3):
        has = keep & (counts > k)
        q[has] = np.fmin(q[has], stats.printed_quantum(values[starts[has] + k]))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 0.5 * q / low
    out[first[coarse]] = bound[coarse]
    return out


def test_one_call_for_three_samples_gives_the_same_bits():
    rng = np.random.default_rng(11)
    counts = rng.integers(0, 6, 3000)
    n = int(counts.sum())
    full = rng.uniform(-1e3, 1e3, n)
    printed = np.array(
        [float(f"{x:.{d}g}") for x, d in zip(full, rng.integers(1, 9, n), strict=True)]
    )
    values = np.where(rng.random(n) < 0.5, full, printed)
    values[rng.random(n) < 0.02] = 0.0
    values[rng.random(n) < 0.01] = np.nan
    values[rng.random(n) < 0.01] = np.inf
    starts, counts = spans(counts)
    for finest in (1e-6, 1e-9, 1e-15):
        got = stats.iteration_rounding(values, starts, counts, finest)
        want = per_sample_rounding(values, starts, counts, finest)
        np.testing.assert_array_equal(got, want)
