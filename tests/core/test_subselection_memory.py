"""Large iterations: the subsets a block at a time, same numbers, bounded memory; B capped."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from tuibench import stats
from tuibench.cli import arguments, main
from tuibench.model.options import AnalysisOptions
from tuibench.stats.samples import subselection


def _plain(x: np.ndarray, b: int, seed: int, hmean: bool, shift: int) -> float:
    """One subset at a time: the rows of the selection matrix applied to the rotated group."""
    sel = stats.selection_matrix(len(x), b, seed)
    rotated = np.roll(x, -shift)
    means = []
    for row in sel:
        chosen = rotated[row.astype(bool)]
        means.append(len(chosen) / np.sum(1 / chosen) if hmean else np.mean(chosen))
    return float(np.median(means))


@pytest.fixture
def blocked(monkeypatch):
    """Every size through the blocked path, in blocks of a few rows and a few groups."""
    monkeypatch.setattr(subselection, "CACHED_MAX", 0)
    monkeypatch.setattr(subselection, "CHUNK", 1000)


@pytest.mark.parametrize(("n", "b"), [(2, 5), (7, 100), (50, 3), (333, 40), (2500, 7)])
def test_blocks_are_the_rows_of_the_selection_matrix(blocked, n, b):
    whole = stats.selection_matrix(n, b, 11)
    rows = [block for _, block in subselection.selection_blocks(n, b, 11)]
    assert sum(len(r) for r in rows) == subselection.subset_count(n, b)
    np.testing.assert_array_equal(np.vstack(rows), whole)


def test_blocked_values_equal_the_plain_method(blocked):
    rng = np.random.default_rng(8)
    sizes = [3, 40, 40, 40, 40, 40, 700, 1, 2]
    values = np.concatenate([rng.lognormal(3, 0.4, n) for n in sizes])
    counts = np.array(sizes)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    for hm in (False, True):
        hmean = np.full(len(sizes), hm)
        got = stats.iteration_values(values, starts, counts, hmean, b=30, seed=5)
        shifts = stats.group_shift(values, starts, counts, 5)
        for g, (s, n) in enumerate(zip(starts, counts, strict=True)):
            x = values[s : s + n]
            want = float(x[0]) if n == 1 else _plain(x, 30, 5, hm, shifts[g])
            assert got[g] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("hm", [False, True])
def test_rotated_groups_kept_or_rotated_again_give_the_same_bits(blocked, monkeypatch, hm):
    """Large groups rotated once and kept between blocks of subsets, or rotated again for
    every block (past KEPT_ROTATED): the same numbers to the bit, over several blocks of
    groups and of subsets."""
    rng = np.random.default_rng(3)
    counts = np.array([120] * 25 + [300] * 7)
    values = rng.lognormal(3, 0.4, counts.sum())
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    hmean = np.arange(len(counts)) % 3 == 0 if hm else np.zeros(len(counts), bool)
    kept = stats.iteration_values(values, starts, counts, hmean, b=40, seed=2)
    monkeypatch.setattr(subselection, "KEPT_ROTATED", 0)
    again = stats.iteration_values(values, starts, counts, hmean, b=40, seed=2)
    np.testing.assert_array_equal(kept, again)


def test_smallest_is_the_first_m_of_a_sort():
    rng = np.random.default_rng(0)
    for n in (2, 5, 99, 1000, 54321):
        m = int(stats.subset_size(n))
        keys = rng.random(n)
        want = np.zeros(n, bool)
        want[np.argsort(keys)[:m]] = True
        np.testing.assert_array_equal(subselection._smallest(keys, m), want)
    tied = np.repeat(rng.random(50), 40)  # ties everywhere: the exact fallback
    got = subselection._smallest(tied, 1600)
    assert got.sum() == 1600 and tied[got].max() <= tied[~got].min()


def test_one_large_iteration_takes_memory_of_order_n_not_b_times_n():
    n, b = 400_000, 100
    x = np.random.default_rng(1).lognormal(3, 0.3, n)
    tracemalloc.start()
    v = stats.iteration_values(x, np.array([0]), np.array([n]), np.array([False]), b)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # The selection matrix alone would be b * n * 8 = 320 MB; blocks are CHUNK doubles.
    assert peak < 8 * (subselection.CHUNK + 6 * n), f"{peak / 1e6:.0f} MB"
    assert stats.subset_size(n) / n == pytest.approx(0.8)
    srt = np.sort(x)
    m = int(stats.subset_size(n))
    assert srt[:m].mean() <= v[0] <= srt[-m:].mean()


def test_subselections_are_capped(tmp_path, make_system, capsys):
    assert arguments.MAX_SUBSELECTIONS == stats.MAX_SUBSELECTIONS
    make_system(tmp_path, "a", [("b", "time", 0, 1.0, "s")])
    with pytest.raises(SystemExit) as exc:
        main(["report", str(tmp_path), "--subselections", "10001"])
    assert exc.value.code == 2
    assert "--subselections: at most 10,000" in capsys.readouterr().err
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load

    with pytest.raises(ValueError, match="between 1 and 10000"):
        Analysis(load([tmp_path]), AnalysisOptions(subselections=10_001))
