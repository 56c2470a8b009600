"""Iterations of 2 or 3 samples: their subselection medians are read from the n distinct
subset sums and their counts; the B x n product of the selection matrix gives the same
numbers, bit for bit (harmonic groups, odd and even B, NaN, infinities, zeros)."""

from __future__ import annotations

import numpy as np
import pytest

from tuibench.stats.samples import subselection as sub


@pytest.mark.parametrize("gap", [0, 1])  # groups one after another (views), or not
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("b", [1, 2, 7, 100, 101])
def test_few_samples_equal_the_matrix_product(n, b, gap):
    rng = np.random.default_rng(n * 1000 + b)
    groups = 5000
    x = rng.normal(50, 20, groups * (n + gap))
    x[rng.random(len(x)) < 0.01] = np.nan
    x[rng.random(len(x)) < 0.01] = np.inf
    x[rng.random(len(x)) < 0.02] = 0.0
    x[: 300 * n] = np.round(x[: 300 * n] / 40)  # ties, zeros and negatives
    starts = np.arange(groups) * (n + gap)
    harmonic = rng.random(groups) < 0.5
    shift = sub.group_shift(x, starts, np.full(groups, n), seed=3)
    with np.errstate(all="ignore"):  # NaN and infinities in the product
        few, done = sub._few_samples(x, starts, shift, harmonic, n, b, 3)
        whole = sub._by_matrix(x, starts, shift, harmonic, n, b, 3)
        mixed = sub.iteration_values(x, starts, np.full(groups, n), harmonic, b, 3)
        if gap:  # the same groups, one after another
            tiled = x.reshape(groups, n + gap)[:, :n].ravel()
            assert np.array_equal(
                sub._few_samples(tiled, starts // (n + gap) * n, shift, harmonic, n, b, 3)[0],
                few,
                equal_nan=True,
            )
    assert done.mean() > 0.8 and not done.all()
    assert np.array_equal(few[done], whole[done])
    assert np.array_equal(np.signbit(few[done]), np.signbit(whole[done]))
    assert np.array_equal(mixed, whole, equal_nan=True)


def test_whether_every_subset_is_taken_is_known_without_counting_them(monkeypatch):
    """C(n, m) >= n from 2 samples on: past B samples the subsets are not counted (at a
    million samples in one iteration, math.comb took seconds per call)."""
    import math

    assert [n for n in range(1, 40) if sub.every_subset(n, 100)] == list(range(1, 11))
    calls: list[int] = []
    comb = math.comb
    monkeypatch.setattr(sub.math, "comb", lambda n, k: calls.append(n) or comb(n, k))
    assert not sub.every_subset(1_000_000, 100)
    assert sub.subset_count(1_000_000, 100) == 100
    assert calls == []
