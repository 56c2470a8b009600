"""tuibench.stats against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from tuibench import stats


def _naive_iteration_value(x: np.ndarray, b: int, seed: int, hmean: bool, shift: int) -> float:
    """The method written plainly, one subset at a time, with the same subsets."""
    n = len(x)
    if n == 1:
        return float(x[0])
    sel = stats.selection_matrix(n, b, seed)
    rotated = np.roll(x, -shift)
    means = []
    for row in sel:
        chosen = rotated[row.astype(bool)]
        means.append(len(chosen) / np.sum(1 / chosen) if hmean else np.mean(chosen))
    return float(np.median(means))


def test_selection_matrix_rows_are_80_percent_subsets_without_replacement():
    for n in (2, 3, 5, 10, 11, 12, 50, 1000):
        sel = stats.selection_matrix(n, 100, 7)
        m = max(1, int(0.8 * n + 1e-9))
        # Every subset once where they are at most B (C(10, 8) = 45; C(11, 8) = 165).
        assert sel.shape == ((math.comb(n, m) if n <= 10 else 100), n)
        assert set(np.unique(sel)) <= {0.0, 1.0}
        assert (sel.sum(axis=1) == m).all()
        if n <= 10:
            assert len({tuple(r) for r in sel}) == math.comb(n, m)
            assert np.array_equal(sel, stats.selection_matrix(n, 100, 8))  # whatever the seed
    # Rows differ: these are random subsets, not one subset repeated.
    assert len({tuple(r) for r in stats.selection_matrix(12, 100, 7)}) > 50


def test_iterations_of_two_samples_take_their_mean_whatever_the_seed():
    """Each subset of one of two samples is one sample: the median of B random draws was
    one sample or the other by the seed; the median of the two subsets is their mean."""
    values = np.array([10.0, 20.0, 11.0, 19.0, 14.0, 16.0])
    starts, counts = np.array([0, 2, 4]), np.array([2, 2, 2])
    for seed in range(6):
        got = stats.iteration_values(values, starts, counts, np.zeros(3, bool), 100, seed)
        np.testing.assert_array_equal(got, [15.0, 15.0, 15.0])


def test_vectorised_values_equal_the_plain_method():
    rng = np.random.default_rng(1)
    sizes = [1, 2, 3, 5, 12, 12, 12, 7, 30]
    values = np.concatenate([rng.lognormal(3, 0.3, n) for n in sizes])
    counts = np.array(sizes)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    for hm in (False, True):
        hmean = np.full(len(sizes), hm)
        got = stats.iteration_values(values, starts, counts, hmean, b=100, seed=3)
        shifts = stats.group_shift(values, starts, counts, 3)
        for g, (s, n) in enumerate(zip(starts, counts, strict=True)):
            want = _naive_iteration_value(values[s : s + n], 100, 3, hm, shifts[g])
            assert got[g] == pytest.approx(want, rel=1e-12)


def test_group_shift_hashes_every_group_whole_across_pieces():
    """The hashes are summed a piece of HASH_CHUNK samples at a time: a group cut by a
    piece's end gets the same shift as from one sum over its samples."""
    from tuibench.stats.samples import subselection

    rng = np.random.default_rng(4)
    chunk = subselection.HASH_CHUNK
    for sizes in ([1], [chunk], [chunk + 1], [3, chunk - 2, 5, 2 * chunk + 7, 1], [2] * 9):
        counts = np.array(sizes)
        starts = np.r_[0, np.cumsum(counts)[:-1]]
        values = rng.standard_normal(int(counts.sum()))
        for seed in (0, 11, -1):
            salt = subselection._mix(np.array([seed & (2**64 - 1)], dtype=np.uint64))[0]
            h = subselection._mix(values.view(np.uint64) ^ salt)
            want = [
                int(subselection._mix(np.array([h[s : s + n].sum()], dtype=np.uint64))[0]) % int(n)
                for s, n in zip(starts, counts, strict=True)
            ]
            assert stats.group_shift(values, starts, counts, seed).tolist() == want


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0.01, 1e6, allow_nan=False), min_size=1, max_size=40),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_iteration_value_lies_between_means_of_lowest_and_highest_80_percent(xs, hm, seed):
    x = np.array(xs)
    v = stats.iteration_values(x, np.array([0]), np.array([len(x)]), np.array([hm]), 50, seed)[0]
    m = int(stats.subset_size(len(x)))
    srt = np.sort(x)
    low, high = srt[:m], srt[-m:]
    if hm:
        lo, hi = m / np.sum(1 / low), m / np.sum(1 / high)
    else:
        lo, hi = low.mean(), high.mean()
    assert lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)


def test_values_depend_only_on_the_group_and_the_seed():
    rng = np.random.default_rng(2)
    a = rng.normal(100, 5, 12)
    other = rng.normal(50, 5, 40)
    alone = stats.iteration_values(a, np.array([0]), np.array([12]), np.array([False]), 100, 0)
    with_others = stats.iteration_values(
        np.r_[other, a], np.array([0, 40]), np.array([40, 12]), np.array([False, False]), 100, 0
    )
    assert alone[0] == with_others[1]
    reseeded = stats.iteration_values(a, np.array([0]), np.array([12]), np.array([False]), 100, 1)
    assert reseeded[0] != alone[0]


def test_single_sample_and_constant_iterations():
    x = np.array([5.0, 3.0, 3.0, 3.0, 3.0])
    v = stats.iteration_values(x, np.array([0, 1]), np.array([1, 4]), np.array([False, True]))
    assert v.tolist() == [5.0, 3.0]


def test_hmean_with_non_positive_sample_is_nan():
    x = np.array([1.0, 2.0, 0.0, 4.0])
    v = stats.iteration_values(x, np.array([0]), np.array([4]), np.array([True]))
    assert np.isnan(v[0])


def test_welch_matches_scipy():
    rng = np.random.default_rng(4)
    for _ in range(50):
        a = rng.normal(10, rng.uniform(0.1, 3), rng.integers(2, 15))
        b = rng.normal(10.5, rng.uniform(0.1, 3), rng.integers(2, 15))
        p, _ = stats.welch(
            np.array([a.mean()]),
            np.array([a.var(ddof=1)]),
            np.array([len(a)]),
            np.array([b.mean()]),
            np.array([b.var(ddof=1)]),
            np.array([len(b)]),
        )
        want = sps.ttest_ind(a, b, equal_var=False).pvalue
        assert p[0] == pytest.approx(want, rel=1e-9)


def test_welch_degenerate_cases():
    p, _ = stats.welch(
        np.array([1.0, 1.0, 1.0]),
        np.array([0.0, 0.0, np.nan]),
        np.array([3.0, 3.0, 1.0]),
        np.array([1.0, 2.0, 1.0]),
        np.array([0.0, 0.0, 0.0]),
        np.array([3.0, 3.0, 3.0]),
    )
    assert p[0] == 1.0  # identical constants
    assert p[1] == 0.0  # exact, noiseless difference
    assert np.isnan(p[2])  # one value on a side: no test


def test_t_interval_by_hand():
    v = np.array([10.0, 11.0, 9.5, 10.4, 10.1])
    lo, hi = stats.t_interval(np.array([v.mean()]), np.array([v.var(ddof=1)]), np.array([5.0]))
    half = 2.7764451051977987 * v.std(ddof=1) / np.sqrt(5)  # t(0.975, 4)
    assert lo[0] == pytest.approx(v.mean() - half)
    assert hi[0] == pytest.approx(v.mean() + half)


def test_group_moments():
    x = np.array([1.0, 2.0, 3.0, 10.0, 5.0])
    g = np.array([0, 0, 0, 1, 2])
    n, mean, var = stats.group_moments(x, g, 3)
    assert n.tolist() == [3, 1, 1]
    assert mean.tolist() == [2.0, 10.0, 5.0]
    assert var[0] == pytest.approx(1.0)
    assert np.isnan(var[1])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=0, max_size=9),
        min_size=1,
        max_size=8,
    )
)
def test_segment_sums_moments_and_min_against_plain_loops(segments):
    """Segments that tile the array (empty ones included), against one loop per segment."""
    counts = np.array([len(s) for s in segments], dtype=np.int64)
    starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
    x = np.array([v for s in segments for v in s], dtype=np.float64)
    sums = stats.segment_sums(x, starts, counts)
    n, mean, var = stats.segment_moments(x, starts, counts)
    low = stats.segment_min(x, starts, counts)
    for i, s in enumerate(segments):
        assert sums[i] == pytest.approx(math.fsum(s), rel=1e-9, abs=1e-6)
        assert n[i] == len(s)
        if s:
            assert mean[i] == pytest.approx(np.mean(s), rel=1e-9, abs=1e-6)
            assert low[i] == min(s)
        else:
            assert np.isnan(mean[i]) and np.isnan(low[i])
        if len(s) > 1:
            assert var[i] == pytest.approx(np.var(s, ddof=1), rel=1e-7, abs=1e-3)
        else:
            assert np.isnan(var[i])


@pytest.mark.parametrize("piece", [1, 3, 16, 1 << 18])
def test_segment_moments_piece_by_piece_equal_whole_arrays_bit_for_bit(monkeypatch, piece):
    """Sums and moments are computed a piece of segments at a time, with reciprocals taken
    there: the same numbers as from whole arrays of every sample (empty segments, gaps,
    segments longer than a piece, non-positive samples on the reciprocal scale)."""
    from tuibench.stats import moments

    monkeypatch.setattr(moments, "PIECE", piece)
    rng = np.random.default_rng(6)
    counts = rng.choice([0, 1, 2, 5, 40], size=300)
    starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
    x = rng.lognormal(0, 2, int(counts.sum()))
    x[rng.integers(0, len(x), 6)] = [0.0, -1.0, np.nan, 1e-300, 1e300, -0.0]
    rec = rng.random(len(counts)) < 0.5
    with np.errstate(all="ignore"):  # 1e300 squared overflows, as in both ways
        y = np.where(np.repeat(rec, counts), 1.0 / x, x)  # the whole array on its scale
        n, mean, var = stats.segment_moments(x, starts, counts, reciprocal=rec)
        n0, mean0, var0 = stats.segment_moments(y, starts, counts)
    assert np.array_equal(n, n0)
    assert np.array_equal(mean, mean0, equal_nan=True)
    assert np.array_equal(var, var0, equal_nan=True)
    # Sums over every other segment, with the gaps between them.
    pick = slice(None, None, 2)
    got = stats.segment_sums(x, starts[pick], counts[pick], reciprocal=rec[pick])
    want = stats.segment_sums(y, starts[pick], counts[pick])
    assert np.array_equal(got, want, equal_nan=True)


def test_segment_sums_with_gaps_and_a_nan_minimum():
    x = np.arange(10.0)
    assert stats.segment_sums(x, np.array([1, 5]), np.array([2, 3])).tolist() == [3.0, 18.0]
    y = np.array([3.0, np.nan, 1.0, 2.0])
    low = stats.segment_min(y, np.array([0, 2]), np.array([2, 2]))
    assert np.isnan(low[0]) and low[1] == 1.0


def test_tukey_and_medians_against_numpy():
    rng = np.random.default_rng(9)
    its = [rng.normal(10, 2, n) for n in (1, 2, 3, 7, 7, 50)]
    its[-1][:3] = [100.0, -80.0, 45.0]  # outliers
    values = np.concatenate(its)
    counts = np.array([len(x) for x in its])
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    low, high, n_low, n_high, n_ext, median = stats.tukey_and_medians(values, starts, counts)
    for i, x in enumerate(its):
        q1, q3 = np.percentile(x, [25, 75])
        assert low[i] == pytest.approx(q1 - 1.5 * (q3 - q1))
        assert high[i] == pytest.approx(q3 + 1.5 * (q3 - q1))
        assert n_low[i] == (x < low[i]).sum() and n_high[i] == (x > high[i]).sum()
        ext = (x < q1 - 3 * (q3 - q1)) | (x > q3 + 3 * (q3 - q1))
        assert n_ext[i] == ext.sum()
        assert median[i] == np.median(x)
    assert stats.tukey(values, starts, counts)[2].tolist() == n_low.tolist()


def test_iteration_means_of_an_hmean_iteration_with_a_non_positive_sample_is_undefined():
    values = np.array([2.0, 0.0, 4.0, 1.0, 3.0, -1.0, 5.0])
    starts, counts = np.array([0, 3, 5]), np.array([3, 2, 2])
    got = stats.iteration_means(values, starts, counts, np.array([True, True, False]))
    assert np.isnan(got[0])
    assert got[1] == pytest.approx(sps.hmean([1.0, 3.0]))
    assert got[2] == pytest.approx(2.0)


# -- per-iteration values, mmtests' spread, the U test's shift -------------------------------------


def test_iteration_means_and_medians_against_numpy_and_scipy():
    rng = np.random.default_rng(5)
    its = [rng.uniform(1, 10, n) for n in (1, 2, 5, 5, 8)]
    values = np.concatenate(its)
    counts = np.array([len(x) for x in its])
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    hmean = np.array([False, True, False, True, False])
    means = stats.iteration_means(values, starts, counts, hmean)
    want = [sps.hmean(x) if h else x.mean() for x, h in zip(its, hmean, strict=True)]
    assert means == pytest.approx(want, rel=1e-12)
    assert stats.iteration_medians(values, starts, counts) == pytest.approx(
        [np.median(x) for x in its], rel=1e-12
    )


def test_the_subselection_median_carries_an_outlier_the_median_does_not():
    # The example: [100, 100, 100, 100, 300] -> 150 by subselection, mean 140.
    x = np.array([100.0, 100, 100, 100, 300])
    one = (np.array([0]), np.array([5]), np.array([False]))
    sub = stats.iteration_values(x, one[0], one[1], one[2], 100, 0)[0]
    assert sub == pytest.approx(150.0)
    assert stats.iteration_means(x, *one)[0] == pytest.approx(140.0)
    assert stats.iteration_medians(x, one[0], one[1])[0] == 100.0


def _harmonic_sd(x):
    """Stat.pm's harmonic SD, written as a plain loop."""
    hm = len(x) / sum(1 / v for v in x)
    diff = sum((1 / v - 1 / hm) ** 2 for v in x)
    return math.sqrt(diff * hm**4 / len(x))


def test_pooled_spread_as_stat_pm_computes_it():
    rng = np.random.default_rng(2)
    groups = [rng.uniform(5, 9, n) for n in (7, 20, 1, 40)]
    hmean = np.array([False, True, False, True])
    higher = np.array([False, True, False, True])
    counts = np.array([len(g) for g in groups])
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    got = stats.pooled_spread(
        np.concatenate([np.sort(g) for g in groups]), starts, counts, hmean, higher
    )
    for i, g in enumerate(groups):
        best = sorted(g, reverse=bool(higher[i]))
        keep = best[: max(1, int(len(g) * 95 / 100))]
        if hmean[i]:
            mean, sd, bmean = sps.hmean(g), _harmonic_sd(g), sps.hmean(keep)
        else:
            mean, sd, bmean = (
                np.mean(g),
                (np.std(g, ddof=1) if len(g) > 1 else np.nan),
                np.mean(keep),
            )
        assert got["mean"][i] == pytest.approx(mean, rel=1e-12)
        assert got["min"][i] == min(g) and got["max"][i] == max(g)
        assert got["bmean95"][i] == pytest.approx(bmean, rel=1e-12)
        if len(g) > 1:
            assert got["sd"][i] == pytest.approx(sd, rel=1e-10)
            assert got["coeffvar"][i] == pytest.approx(100 * sd / mean, rel=1e-10)
        else:
            assert np.isnan(got["sd"][i])


def test_cidiff_by_hand():
    z = sps.norm.ppf(0.975)
    got = stats.cidiff(np.array([12.0]), np.array([0.5]), np.array([10.0]), np.array([0.25]))
    assert got[0] == pytest.approx((10 - 12) / (z * 0.25 + z * 0.5))
    # Both spreads zero: the plain difference (Compare.pm's rule).
    assert stats.cidiff(np.array([3.0]), np.array([0.0]), np.array([1.0]), np.array([0.0]))[0] == -2


def test_hodges_lehmann_against_all_pairwise_differences():
    rng = np.random.default_rng(9)
    xs = [np.sort(rng.normal(10, 1, n)) for n in (3, 8, 40, 150)]
    ys = [np.sort(rng.normal(9, 1, n)) for n in (4, 8, 60, 150)]
    flat = np.concatenate(xs + ys)
    n = np.array([len(a) for a in xs + ys])
    start = np.r_[0, np.cumsum(n)[:-1]]
    shift, exact = stats.hodges_lehmann(flat, start[:4], n[:4], start[4:], n[4:], max_pairs=5000)
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if len(x) * len(y) <= 5000:
            assert exact[i]
            assert shift[i] == pytest.approx(np.median(np.subtract.outer(x, y)), rel=1e-12)
        else:  # too many pairs: the difference of the medians
            assert not exact[i]
            assert shift[i] == pytest.approx(np.median(x) - np.median(y), rel=1e-12)


@pytest.mark.parametrize("k", [1, 2, 9, 225, 224])
def test_row_medians_are_numpys_to_the_bit(k):
    """The partition in place gives np.median's numbers, signed zeros and ties included;
    a row of non-finite differences goes through np.median itself."""
    from tuibench.stats.samples.shift import _row_medians

    rng = np.random.default_rng(k)
    d = rng.choice([-0.0, 0.0, 1.5, -2.25, 3.0], size=(300, k))
    d[:100] = rng.normal(0, 1, (100, k))
    want = np.median(d, axis=1)
    got = _row_medians(d.copy(), finite=True)
    np.testing.assert_array_equal(got, want)
    assert (np.signbit(got) == np.signbit(want)).all()
    d[5, 0], d[7, -1] = np.nan, np.inf
    np.testing.assert_array_equal(_row_medians(d.copy(), finite=False), np.median(d, axis=1))


@pytest.mark.parametrize("n", [260, 300, 1024])
def test_tukey_counts_of_long_rows_by_bisection_equal_the_comparisons(monkeypatch, n):
    """Rows from BISECT_FROM samples are counted by bisection of the sorted row: the
    comparisons' counts, with ties at the fences, infinities, NaN samples (NaN fences) and
    the sorted samples written out alike."""
    from tuibench.stats.samples import tukey

    rng = np.random.default_rng(n)
    rows = [rng.normal(10, 2, n) for _ in range(6)]
    rows[1] = np.round(rows[1])  # ties, some on the fences
    rows[2][:5] = [np.inf, -np.inf, 1e9, -1e9, 50.0]
    rows[3][7] = np.nan
    rows[4][:] = 3.0
    rows[5][: n // 2] = np.inf
    values = np.concatenate(rows)
    starts, counts = np.arange(6) * n, np.full(6, n)
    out, out2 = np.empty(len(values)), np.empty(len(values))
    with np.errstate(invalid="ignore"):  # inf - inf in row 5's quartiles
        got = stats.tukey_and_medians(values, starts, counts, sorted_out=out)
        monkeypatch.setattr(tukey, "BISECT_FROM", 10**9)
        want = stats.tukey_and_medians(values, starts, counts, sorted_out=out2)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(out, out2)
    assert got[4][2] == 5 and np.isnan(got[0][5])  # row 2: 5 extreme; row 5: NaN fences
