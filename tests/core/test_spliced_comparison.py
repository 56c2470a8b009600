"""After a reload, a comparison the explorer still holds is spliced: only the rows whose
own or reference figures changed are compared again, the others are taken from it, and
everything over all rows (Benjamini-Hochberg, verdicts under --fdr, counts, the summary)
is computed again. Every column of every row is a fresh comparison's."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from test_incremental import fresh

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare import spliced as spliced_module
from tuibench.analysis.compare.spliced import GrownAnalysis
from tuibench.model.options import DEFAULT_ANALYSIS
from tuibench.tui.view.reloads import Reloads

SYSTEMS = ("base", "new", "other")
OPTIONS = {
    "default": DEFAULT_ANALYSIS,
    "fdr": dataclasses.replace(DEFAULT_ANALYSIS, fdr=True, alpha=0.2),
    "threshold": dataclasses.replace(DEFAULT_ANALYSIS, threshold=2.0, trust_single_iteration=True),
}


def iteration(root: Path, system: str, n: int, benchmarks: int = 6, shift: float = 0.0) -> Path:
    """One Parquet file of `system`'s iteration n: benchmarks x 3 metrics x 5 samples; each
    system a few percent apart on some benchmarks, so p-values spread over (0, 1)."""
    s = SYSTEMS.index(system) if system in SYSTEMS else 3
    rng = np.random.default_rng([s, n, benchmarks])
    b = np.repeat(np.arange(benchmarks), 15)
    m = np.tile(np.repeat(np.arange(3), 5), benchmarks)
    level = 1 + 0.01 * s * (b % 3) + shift
    path = root / system / f"iter-{n}" / "r.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(
        {
            "benchmark": [f"suite/b{i}" for i in b],
            "metric": np.array(["time", "rate", "size"])[m],
            "value": (10 + b + m) * level * rng.normal(1, 0.03, len(b)),
            "unit": np.array(["ms", "ops/s", "B"])[m],
        }
    ).write_parquet(path)
    return path


@pytest.fixture
def results(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    for system in SYSTEMS:
        for n in range(3):  # "other" lacks a benchmark: a new iteration may bring it
            iteration(root, system, n, benchmarks=5 if system == "other" else 6)
    return root


def grow_file(root: Path) -> None:
    path = root / "new" / "iter-1" / "r.parquet"
    rows = pl.read_parquet(path)
    pl.concat([rows, rows.with_columns(pl.col("value") * 1.02)]).write_parquet(path)


CHANGES = {  # name -> (change, whether the new files are merged and the analysis spliced)
    "new iteration": (lambda root: iteration(root, "new", 3, shift=0.04), True),
    "two new iterations": (
        lambda root: (iteration(root, "new", 3, shift=0.04), iteration(root, "other", 3, 5)),
        True,
    ),
    "new iteration of the reference": (lambda root: iteration(root, "base", 3, shift=-0.03), True),
    "new metric of a system": (lambda root: iteration(root, "other", 3, benchmarks=6), True),
    "grown file": (grow_file, False),
    "removed file": (lambda root: os.remove(root / "other" / "iter-2" / "r.parquet"), False),
    "new system": (lambda root: shutil.copytree(root / "new", root / "newer"), False),
    "new benchmark": (lambda root: iteration(root, "new", 3, benchmarks=7), False),
}


def compared_rows(monkeypatch) -> list[int]:
    """How many rows each comparison computed (`Analysis.undecided`), from now on."""
    counts: list[int] = []
    undecided = Analysis.undecided

    def counting(self, reference, options, only=None):
        rows = undecided(self, reference, options, only)
        counts.append(rows.height)
        return rows

    monkeypatch.setattr(Analysis, "undecided", counting)
    return counts


def same_comparison(got, want) -> None:
    assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)
    assert_frame_equal(got.summary(), want.summary(), check_exact=True)
    assert (got.tests(), got.regressions) == (want.tests(), want.regressions)
    assert got.systems == want.systems


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("change", CHANGES)
def test_spliced_comparison_is_a_fresh_one(results, change, options, monkeypatch):
    reloads = Reloads([results])
    rs = reloads.load()
    analysis = reloads.analyse(rs, DEFAULT_ANALYSIS)
    # What the explorer's session holds: the shown reference and another one.
    held = [analysis.compare(reference, options) for reference in ("base", "new")]
    before = {c.reference: c.full_rows() for c in held}
    make, merged = CHANGES[change]
    make(results)
    rs = reloads.load()
    grown = reloads.analyse(rs, DEFAULT_ANALYSIS)
    assert isinstance(grown, GrownAnalysis) == merged
    want_rs = fresh(results)
    want = Analysis(want_rs, DEFAULT_ANALYSIS)
    computed = compared_rows(monkeypatch)
    for reference in ("base", "new", "other"):  # "other": compared for the first time
        got = grown.compare(reference, options)
        same_comparison(got, want.compare(reference, options))
        if not merged:
            continue
        nrow = got.rows.height
        if reference == "other":
            assert computed[-2:] == [nrow, nrow]  # none held: compared whole (and fresh)
            continue
        # Only the changed rows (and their references) were compared again...
        changed = _changed(before[reference], got.full_rows())
        if len(changed) <= spliced_module.SPLICE_SHARE * nrow:
            assert computed[-2] < nrow
        # ...and the rows over which p_adjusted is computed are the new ones: where an
        # untouched row's adjusted p moved, it is the new value, never the held one.
        assert_frame_equal(
            got.full_rows().select("p_adjusted"),
            want.compare(reference, options).full_rows().select("p_adjusted"),
            check_exact=True,
        )
    del held


def _changed(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """The rows whose p-value (Welch's) is not what it was (or that are new)."""
    keys = ["system", "benchmark", "metric"]
    joined = after.join(before, on=keys, how="left", suffix="_before", nulls_equal=True)
    return joined.filter(~pl.col("p_welch").eq_missing(pl.col("p_welch_before")))


def test_untouched_rows_are_taken_and_adjusted_values_recomputed(results, monkeypatch):
    """A new iteration of one system: the other system's rows keep every figure of their
    own (the same values, not recomputed), while their Benjamini-Hochberg adjusted
    p-values, which span every row, move, and under --fdr so may their verdicts."""
    options = OPTIONS["fdr"]
    reloads = Reloads([results])
    rs = reloads.load()
    held = reloads.analyse(rs, DEFAULT_ANALYSIS).compare("base", options)
    iteration(results, "new", 3, shift=0.08)
    rs = reloads.load()
    computed = compared_rows(monkeypatch)
    got = reloads.analyse(rs, DEFAULT_ANALYSIS).compare("base", options)
    other = pl.col("system") == "other"
    a, b = held.full_rows().filter(other), got.full_rows().filter(other)
    kept = [c for c in a.columns if c not in ("p_adjusted", "significant", "verdict", "note")]
    kept.remove("robust")
    assert_frame_equal(a.select(kept), b.select(kept), check_exact=True)
    assert not a["p_adjusted"].equals(b["p_adjusted"])  # a stale adjustment would fail here
    # Compared again: "new"'s 18 rows and the 18 reference rows they need.
    assert computed == [36]
    want = Analysis(fresh(results), DEFAULT_ANALYSIS).compare("base", options)
    same_comparison(got, want)


def test_a_comparison_no_one_holds_is_made_whole(results, monkeypatch):
    """The previous comparisons are kept weakly: once dropped, nothing is spliced."""
    reloads = Reloads([results])
    rs = reloads.load()
    reloads.analyse(rs, DEFAULT_ANALYSIS).compare("base")  # dropped at once
    iteration(results, "new", 3)
    rs = reloads.load()
    computed = compared_rows(monkeypatch)
    got = reloads.analyse(rs, DEFAULT_ANALYSIS).compare("base")
    assert computed == [got.rows.height]
    same_comparison(got, Analysis(fresh(results), DEFAULT_ANALYSIS).compare("base"))


def test_comparisons_held_at_the_reload_are_spliced_when_asked_for_later(results, monkeypatch):
    """The session that held them is gone once the reload is shown; a switch to one of
    their references afterwards still splices it."""
    import gc

    reloads = Reloads([results])
    rs = reloads.load()
    analysis = reloads.analyse(rs, DEFAULT_ANALYSIS)
    held = [analysis.compare(reference) for reference in ("base", "other")]
    iteration(results, "new", 3)
    rs = reloads.load()
    grown = reloads.analyse(rs, DEFAULT_ANALYSIS)
    del held, analysis
    gc.collect()
    computed = compared_rows(monkeypatch)
    got = grown.compare("other")
    assert computed[0] < got.rows.height
    same_comparison(got, Analysis(fresh(results), DEFAULT_ANALYSIS).compare("other"))


@pytest.mark.parametrize("split", [0, 10**9])
def test_changed_pairs_in_one_thread_or_two(results, monkeypatch, split):
    """The U tests and shifts of the changed pairs, in halves or whole; the iterations
    taken as slices or gathered: the same."""
    monkeypatch.setattr(spliced_module, "SPLIT_PAIRS", split)
    monkeypatch.setattr(spliced_module, "SLICED_RUNS", split)
    reloads = Reloads([results])
    rs = reloads.load()
    analysis = reloads.analyse(rs, DEFAULT_ANALYSIS)
    held = [analysis.compare(reference) for reference in ("base", "new")]
    iteration(results, "new", 3)
    iteration(results, "other", 3, benchmarks=6)
    rs = reloads.load()
    grown = reloads.analyse(rs, DEFAULT_ANALYSIS)
    want = Analysis(fresh(results), DEFAULT_ANALYSIS)
    for reference in ("new", "base"):
        same_comparison(grown.compare(reference), want.compare(reference))
    assert_frame_equal(grown.iterations, Analysis(fresh(results), keep_figures=True).iterations)
    del held


def test_reloads_in_a_row_splice_from_spliced_comparisons(results):
    reloads = Reloads([results])
    rs = reloads.load()
    held = reloads.analyse(rs, DEFAULT_ANALYSIS).compare("new")
    for n, system in enumerate(("new", "other", "new", "base")):
        iteration(results, system, 3 + n, benchmarks=6)
        rs = reloads.load()
        assert reloads.loader.growth is not None
        held = reloads.analyse(rs, DEFAULT_ANALYSIS).compare("new")
        same_comparison(held, Analysis(fresh(results), DEFAULT_ANALYSIS).compare("new"))


def test_t_distribution_values_do_not_depend_on_the_rest_of_the_array():
    """What splicing needs of the statistics: a row's figures are the same computed alone
    or among others (the continued fraction keeps each value from the step it converged)."""
    from tuibench import stats
    from tuibench.stats.special import stdtr

    rng = np.random.default_rng(3)
    df = np.r_[rng.uniform(1, 40, 500), rng.uniform(0.5, 3000, 500)]
    t = rng.normal(0, 3, 1000)
    whole = (stdtr(df, t), stats.t_quantile(0.975, df))
    for i in range(0, 1000, 9):
        alone = (stdtr(df[i : i + 1], t[i : i + 1]), stats.t_quantile(0.975, df[i : i + 1]))
        assert [a[i] for a in whole] == [b[0] for b in alone]


def test_row_samples_spliced_from_pieces():
    """Rows kept where they were, in another order, with the arrays no row uses let go."""
    from tuibench.analysis.row_samples import RowSamples

    a = RowSamples.whole(np.arange(10.0), np.array([0, 3, 7]), np.array([3, 4, 3]))
    b = RowSamples.whole(np.arange(100.0, 105.0), np.array([0, 2]), np.array([2, 3]))
    c = RowSamples.whole(np.arange(200.0, 201.0), np.array([0]), np.array([1]))
    got = RowSamples.spliced([a, b, c], np.array([3, 0, 4, 2]))  # c's row left out
    assert len(got.arrays) == 2
    rows = [[100, 101], [0, 1, 2], [102, 103, 104], [7, 8, 9]]
    np.testing.assert_array_equal(got.joined(), np.concatenate(rows))
    values, first = got.of(np.array([2, 0, 2]), np.array([3, 1, 2]))
    np.testing.assert_array_equal(values, [102, 103, 104, 100, 102, 103])
    np.testing.assert_array_equal(first, [0, 3, 4])
    assert not got.too_scattered()
    assert RowSamples.spliced([a, b], np.array([3])).too_scattered()  # 15 held for 3
