"""Segments of one small width tiling the samples are reduced by strided passes: the same
bits as numpy's `reduceat` over every cut (the general path), signed zeros included."""

import numpy as np
import pytest

from tuibench import stats


def spans(width, n):
    return np.arange(0, n * width, width), np.full(n, width)


def by_cuts(ufunc, x, starts, counts):
    """The general path: one `reduceat` over every segment's cuts."""
    return ufunc.reduceat(x, starts)


@pytest.mark.parametrize("width", range(1, 10))
def test_sums_and_minima_as_reduceat(width):
    rng = np.random.default_rng(width)
    n = 20_000
    x = rng.choice([0.0, -0.0, 1.0, -1.0, 1e-300, 2.5, 1e16], size=n * width)
    x = x * rng.normal(1, 1e-3, n * width)  # digits to round away in the sums
    x[::97] = np.where(x[::97] > 0, -0.0, 0.0)
    starts, counts = spans(width, n)
    got = stats.segment_sums(x, starts, counts)
    want = by_cuts(np.add, x, starts, counts)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    x[::89] = np.nan
    got = stats.segment_min(x, starts, counts)
    np.testing.assert_array_equal(got, by_cuts(np.minimum, x, starts, counts))


def test_moments_of_even_segments_as_of_uneven_ones():
    rng = np.random.default_rng(7)
    x = rng.lognormal(0, 1, 30_000)
    starts, counts = spans(3, 10_000)
    _, mean, var = stats.segment_moments(x, starts, counts)
    # The same segments with one empty segment added at the end: the general path.
    _, mean2, var2 = stats.segment_moments(x, np.r_[starts, 30_000], np.r_[counts, 0])
    np.testing.assert_array_equal(mean, mean2[:-1])
    np.testing.assert_array_equal(var, var2[:-1])


def test_uneven_or_gapped_segments_take_the_general_path():
    rng = np.random.default_rng(6)
    x = rng.normal(0, 1, 3000)
    starts, counts = np.array([0, 3, 7]), np.array([3, 3, 3])
    np.testing.assert_array_equal(
        stats.segment_min(x, starts, counts), [np.min(x[s : s + 3]) for s in starts]
    )
    cuts = [0, 3, 3, 6, 7, 10]  # each segment's start and end: every other sum is one
    np.testing.assert_array_equal(
        stats.segment_sums(x, starts, counts), np.add.reduceat(x, cuts)[::2]
    )


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf: NaN, as it should
@pytest.mark.parametrize("width", [1, 2, 3, 5, 8])
def test_reciprocal_sums_and_moments_of_even_segments_as_the_general_path(width, monkeypatch):
    """Harmonic segments among even ones: strided passes give the bits of the general path
    (reciprocals of each piece, `reduceat`, deviations of every sample), signed zeros, zeros
    (infinite reciprocals), infinities and NaN included."""
    from tuibench.stats import moments

    rng = np.random.default_rng(40 + width)
    n = 9_000
    x = rng.choice([0.0, -0.0, 1.0, -3.0, 1e-300, 2.5, 1e16, np.inf], size=n * width)
    x = x * rng.normal(1, 1e-3, n * width)
    x[::101] = np.nan
    starts, counts = spans(width, n)
    rec = rng.random(n) < 0.3
    got_sums = stats.segment_sums(x, starts, counts, reciprocal=rec)
    got = stats.segment_moments(x, starts, counts, reciprocal=rec)
    monkeypatch.setattr(moments, "_even_width", lambda *a: None)  # the general path
    want_sums = stats.segment_sums(x, starts, counts, reciprocal=rec)
    want = stats.segment_moments(x, starts, counts, reciprocal=rec)
    for g, w in zip((got_sums, *got), (want_sums, *want), strict=True):
        np.testing.assert_array_equal(g, w)  # NaN where NaN (its sign bit says nothing)
        np.testing.assert_array_equal(np.signbit(g[g == g]), np.signbit(w[w == w]))
    assert width == 1 or np.isfinite(got[2]).sum() > n // 10  # real variances among them
