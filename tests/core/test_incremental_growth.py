"""A reload that merges only the new files gives what a fresh full load gives, and falls
back to loading everything when files changed, went, or bring something new."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from test_incremental import fresh, same

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.growing import Known
from tuibench.analysis.compare.spliced import GrownAnalysis, spliced
from tuibench.ingest import appending
from tuibench.ingest.appending import Iterations
from tuibench.ingest.incremental import Loader
from tuibench.model.options import DEFAULT_ANALYSIS
from tuibench.output.export import report_json_parts


def iteration(
    root: Path, system: str, n: int, seed: int, benchmarks: int = 6, name: str = "r"
) -> Path:
    """One Parquet file of `system`'s iteration n: 6 benchmarks x 3 metrics x 7 samples."""
    rng = np.random.default_rng([seed, n])
    b = np.repeat(np.arange(benchmarks), 21)
    m = np.tile(np.repeat(np.arange(3), 7), benchmarks)
    names = np.array(["time", "rate", "size"])
    units = np.array(["ms", "ops/s", "B"])
    path = root / system / f"iter-{n}" / f"{name}.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(
        {
            "benchmark": [f"suite/b{i}" for i in b],
            "metric": names[m],
            "value": (10 + b + m) * rng.normal(1, 0.05, len(b)),
            "unit": units[m],
        }
    ).write_parquet(path)
    return path


@pytest.fixture
def parquet(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    for s, system in enumerate(("base", "new", "other")):
        for n in range(3):
            iteration(root, system, n, s)
    return root


def test_new_iteration_of_one_system_is_merged(parquet):
    loader = Loader([parquet])
    loader.load()
    iteration(parquet, "new", 3, 1)
    after = loader.load()
    assert loader.growth is not None and loader.read_count <= 1
    same(after, fresh(parquet))
    iteration(parquet, "base", 3, 0)  # and again, from the merged results
    iteration(parquet, "other", 7, 2)
    after = loader.load()
    assert loader.growth is not None
    same(after, fresh(parquet))


def test_nothing_new_is_the_same_results(parquet):
    loader = Loader([parquet])
    first = loader.load()
    assert loader.load() is first and loader.growth is None


@pytest.mark.parametrize(
    "change",
    ["new system", "grown file", "removed file", "rewritten file", "new benchmark", "copy"],
)
def test_other_changes_load_everything(parquet, change):
    loader = Loader([parquet])
    loader.load()
    if change == "new system":
        iteration(parquet, "fourth", 0, 3)
    elif change == "grown file":
        path = parquet / "new" / "iter-1" / "r.parquet"
        old = pl.read_parquet(path)
        pl.concat([old, old.with_columns(pl.col("value") * 1.5)]).write_parquet(path)
    elif change == "removed file":
        os.remove(parquet / "other" / "iter-2" / "r.parquet")
    elif change == "rewritten file":
        iteration(parquet, "new", 1, 9)
    elif change == "new benchmark":
        iteration(parquet, "new", 3, 1, benchmarks=7)
    else:  # a byte copy of a loaded file in a new iteration: a full load says so
        (parquet / "new" / "iter-3").mkdir()
        shutil.copy(parquet / "new" / "iter-0" / "r.parquet", parquet / "new" / "iter-3")
    after = loader.load()
    assert loader.growth is None
    same(after, fresh(parquet))


def test_the_same_iteration_twice_loads_everything(parquet):
    """A second file in a loaded iteration: a full load leaves its samples out."""
    loader = Loader([parquet])
    loader.load()
    iteration(parquet, "new", 1, 5, name="s")
    after = loader.load()
    assert loader.growth is None
    # another run's values numbered as a loaded iteration: not "the same results"
    [twice] = [p for p in after.problems if "the same system, benchmark" in p.reason]
    assert "with different values" in twice.reason and "the same results" not in twice.reason
    same(after, fresh(parquet))


def report(rs, analysis) -> tuple[bytes, pl.DataFrame, pl.DataFrame]:
    """The whole `report --format json` document and every figure behind it."""
    cmp = analysis.compare(rs.default_reference)
    doc = b"".join(bytes(p) for p in report_json_parts(cmp, rs.problems))
    return doc, cmp.full_rows(), analysis.iterations


def analysed_afresh(root: Path, options=DEFAULT_ANALYSIS):
    rs = fresh(root)
    return report(rs, Analysis(rs, options))


@pytest.mark.parametrize("kind", ["subselection", "mean", "median", "trimmed"])
def test_analysis_of_a_new_iteration_reuses_the_kept_ones(parquet, kind):
    options = dataclasses.replace(DEFAULT_ANALYSIS, iteration_value=kind)
    loader = Loader([parquet])
    rs = loader.load()
    before = Analysis(rs, options, keep_figures=True)
    iteration(parquet, "new", 3, 1)
    iteration(parquet, "base", 5, 7)
    rs = loader.load()
    assert loader.growth is not None
    known = Known(before.iterations, loader.growth.source, before.options)
    assert (loader.growth.source < 0).sum() == 2 * 6 * 3  # two iterations of 18 metrics
    got = report(rs, Analysis(rs, options, known))
    want = analysed_afresh(parquet, options)
    assert got[0] == want[0]
    for a, b in zip(got[1:], want[1:], strict=True):
        assert_frame_equal(a, b, check_exact=True)


@pytest.mark.parametrize("kind", ["subselection", "median", "trimmed"])
@pytest.mark.parametrize("asked", [(), ("base",), ("base", "new", "other")])
def test_spliced_analysis_is_a_fresh_one(parquet, kind, asked):
    """Only the groups new files touch are analysed; the tests against references the
    previous analysis had asked for are patched, others ranked afresh."""
    options = dataclasses.replace(DEFAULT_ANALYSIS, iteration_value=kind)
    loader = Loader([parquet])
    rs = loader.load()
    before = Analysis(rs, options, keep_figures=True)
    for reference in asked:
        before.compare(reference)
    iteration(parquet, "new", 3, 1)
    iteration(parquet, "other", 4, 2)
    rs = loader.load()
    g = loader.growth
    assert g is not None
    got = spliced(before, rs, g.iterations.keys, g.iterations.start, g.iterations.count,
                  g.source, options)  # fmt: skip
    if kind == "trimmed":  # the fences move every figure: analysed afresh
        assert got is None
        return
    assert isinstance(got, GrownAnalysis)
    want = Analysis(fresh(parquet), options)
    assert report(rs, got)[0] == report(rs, want)[0]
    for reference in ("new", "base", "other"):
        a, b = got.compare(reference), want.compare(reference)
        assert_frame_equal(a.full_rows(), b.full_rows(), check_exact=True)
    assert_frame_equal(got.groups, want.groups, check_exact=True)
    assert_frame_equal(got.duplicates, want.duplicates, check_exact=True)


def test_iterations_from_an_analysis_are_those_of_the_samples(parquet):
    rs = fresh(parquet)
    a, b = (
        Iterations.of(rs.samples),
        Iterations.of_table(Analysis(rs, keep_figures=True).iterations),
    )
    for x, y in ((a.keys, b.keys), (a.start, b.start), (a.count, b.count)):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("slice_rows", [0, 10**9])
def test_rows_are_copied_as_slices_or_gathered_alike(monkeypatch, slice_rows):
    """Runs of iterations copied as slices, or every row gathered: the same rows."""
    monkeypatch.setattr(appending, "SLICE_ROWS", slice_rows)
    frame = pl.DataFrame({"v": np.arange(100.0)})
    start, count = np.array([40, 45, 0, 10, 90, 50]), np.array([5, 5, 10, 30, 10, 40])
    got = appending._pieces(frame, start, count)["v"].to_numpy()
    want = np.concatenate([np.arange(a, a + n) for a, n in zip(start, count, strict=True)])
    np.testing.assert_array_equal(got, want.astype(float))


def test_while_watching_only_complete_files_are_merged(parquet):
    """`complete` (watch.py): a new file not known complete yet is not read; once it is,
    it is merged, and the results are a fresh load's."""

    def complete() -> dict[str, int]:
        return {os.path.abspath(p): p.stat().st_size for p in parquet.rglob("*.parquet")}

    loader = Loader([parquet])
    first = loader.load(complete=complete())
    known = complete()
    iteration(parquet, "new", 3, 1)
    assert loader.load(complete=known) is first
    after = loader.load(complete=complete())
    assert loader.growth is not None
    same(after, fresh(parquet))


@pytest.mark.parametrize("high", [3, 1000, 2**40])
def test_new_iterations_find_their_places_as_a_sort_puts_them(high):
    """The merge's order (a binary search where the keys pack into one integer, else a
    sort) is the sort's, also for keys too wide to pack and unsorted input."""
    rng = np.random.default_rng(high)
    for trial in range(50):
        a, b = (rng.integers(-5, high, (int(n), 4)) for n in rng.integers(0, 40, 2))
        a, b = a[np.lexsort(a.T[::-1])], b[np.lexsort(b.T[::-1])]
        if trial % 5 == 0:
            b = b[::-1].copy()
        both = np.concatenate([a, b])
        got = both[appending._merged_order(a, b)]
        np.testing.assert_array_equal(got, both[np.lexsort(both.T[::-1])])
