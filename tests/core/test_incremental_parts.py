"""The parts a reload computes for the groups new files touch give what computing them
afresh gives (compare/spliced.py)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from tuibench import stats
from tuibench.analysis.compare import spliced
from tuibench.ingest import appending


def _runs_blocks(rng, blocks: int, runs: int, most: int = 8):
    """Blocks of `runs` sorted runs of up to `most` values each (one run per label), with
    ties inside and across runs (samples are finite: readers set the others aside)."""
    values, labels, starts, counts = [], [], [], []
    for b in range(blocks):
        block, tags = [], []
        for label in range(runs):
            n = int(rng.integers(0, most + 1))
            side = rng.integers(0, 6, n).astype(float) if b % 2 else rng.normal(0, 1, n)
            block.append(np.sort(side))
            tags.append(np.full(n, label))
        starts.append(len(values))
        counts.append(sum(len(x) for x in block))
        values += list(np.concatenate(block))
        labels += list(np.concatenate(tags))
    return np.array(values), np.array(labels), np.array(starts), np.array(counts)


@pytest.mark.parametrize("most", [8, 2 * stats.utest.MERGE_FROM])
@pytest.mark.parametrize("runs", [2, 3])
def test_ranking_of_sorted_runs_is_the_ranking_of_shuffled_values(runs, most):
    """`runs=True` (a stable sort merging the runs, in blocks of MERGE_FROM values or
    more) gives every U statistic and tie sum that sorting afresh gives, though tied
    values' labels may come in another order."""
    rng = np.random.default_rng(5)
    values, labels, starts, counts = _runs_blocks(rng, 80, runs, most)
    merged = stats.RankedBlocks.build(values, labels, starts, counts, runs, runs=True)
    shuffled = values.copy(), labels.copy()
    for s, n in zip(starts, counts, strict=True):
        p = rng.permutation(n)
        shuffled[0][s : s + n], shuffled[1][s : s + n] = values[s : s + n][p], labels[s : s + n][p]
    afresh = stats.RankedBlocks.build(*shuffled, starts, counts, runs)
    np.testing.assert_array_equal(merged.n, afresh.n)
    for c in range(runs):
        for got, want in zip(merged.against(c), afresh.against(c), strict=True):
            np.testing.assert_array_equal(got, want)


def test_slices_of_many_chunks_are_few_chunks():
    """A part of merged rows has few chunks even when it is one slice of many."""
    frame = pl.concat([pl.DataFrame({"v": np.arange(10.0) + 10 * k}) for k in range(30)])
    assert frame.n_chunks() == 30
    part = spliced._slices(frame, np.array([5, 20, 30]), np.array([15, 10, 200]))
    assert part.n_chunks() == 1
    np.testing.assert_array_equal(part["v"].to_numpy(), np.r_[5:20, 20:30, 30:230].astype(float))


@pytest.mark.parametrize("slice_rows", [0, 3, 12, 40, 10**9])
def test_merged_rows_are_long_runs_sliced_and_short_ones_gathered(monkeypatch, slice_rows):
    """Whichever runs are long enough to be slices, the rows are the same; with none,
    one gather (one chunk)."""
    monkeypatch.setattr(appending, "SLICE_ROWS", slice_rows)
    rng = np.random.default_rng(3)
    count = rng.integers(1, 12, 80)
    first = np.cumsum(count) - count
    order = np.arange(80)
    for k in rng.choice(79, 15, replace=False):  # some iterations swapped: shorter runs
        order[[k, k + 1]] = order[[k + 1, k]]
    frame = pl.concat([pl.DataFrame({"v": np.arange(a, a + 100.0)}) for a in range(0, 500, 100)])
    frame = frame.head(int(count.sum()))
    got = appending._pieces(frame, first[order], count[order])
    want = np.concatenate([np.arange(first[k], first[k] + count[k]) for k in order])
    np.testing.assert_array_equal(got["v"].to_numpy(), want.astype(float))
    if slice_rows > count.sum():
        assert got.n_chunks() == 1
