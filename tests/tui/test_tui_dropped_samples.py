"""Large results' samples freed once analysed (reopen.drop_samples) and read again, from the
same files only, when a reload or another option of the analysis needs them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.view import reloads as reloads_module
from tuibench.tui.view import reopen as reopen_module
from tuibench.tui.view.reloads import Reloads
from tuibench.tui.view.reopen import (
    Deferred,
    Reopen,
    ResultsChanged,
    drop_samples,
    forget_samples,
)
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import ViewState

DATA = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"
OPTIONS = AnalysisOptions()


@pytest.fixture(params=["cache", "no-cache"])
def results(request, tmp_path: Path, monkeypatch, cache_folder) -> Path:
    """Real-looking results, counted as large (every load's samples are dropped)."""
    if request.param == "no-cache":
        monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    monkeypatch.setattr(reopen_module, "DROPPED_PAST", 0)
    root = tmp_path / "results"
    shutil.copytree(DATA, root)
    return root


def opened(root: Path):
    """What the explorer's loading thread does, up to its first screen: (rs, analysis,
    session, reloads), the samples dropped where they may be."""
    reopen = Reopen([root], OPTIONS)
    reloads = Reloads([root])
    rs = reloads.load(found=reopen.found, later=True)
    analysis = reloads.analyse(rs, OPTIONS)
    kept = analysis.keeps_figures
    if not drop_samples(rs, reopen, bool(reloads.loader.unwritten), kept):
        reloads.loader.write_unwritten()  # with the cache on: the load's entry first
        assert drop_samples(rs, reopen, bool(reloads.loader.unwritten), kept)
    state = ViewState.first(rs.default_reference, OPTIONS, ViewOptions())
    session = Session(rs, analysis, state)
    session.install(state, session.prepare(state, session.compute(state)))
    return rs, analysis, session, reloads


def test_dropped_samples_are_freed_and_read_again_the_same(results):
    rs, analysis, session, _ = opened(results)
    assert isinstance(rs, Deferred) and rs._samples is None  # freed
    assert analysis.rs is rs and session.rs is rs  # the same object everywhere
    plain = load([results])
    assert not rs.empty and rs.system_names == plain.system_names
    fresh = Analysis(plain, OPTIONS)
    for ref in rs.system_names:  # every comparison made without a sample
        got, want = analysis.compare(ref, OPTIONS), fresh.compare(ref, OPTIONS)
        assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)
    assert rs._samples is None
    assert_frame_equal(rs.samples, plain.samples, check_exact=True)  # read when asked for


def test_another_option_of_the_analysis_reads_the_samples_again(results):
    rs, _, _, reloads = opened(results)
    options = AnalysisOptions(iteration_value="median")
    got = reloads.analyse(rs, options).compare(rs.default_reference)
    want = Analysis(load([results]), options).compare(rs.default_reference)
    assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)


def test_a_reload_after_a_drop_sees_the_files_as_they_are(results):
    _, _, session, _ = opened(results)
    victim = next(results.rglob("*.csv"))
    victim.write_text(victim.read_text() + "\n")  # same numbers, another file
    new = session.reload([str(results)])
    want = Analysis(load([results]), OPTIONS).compare(new.state.reference)
    assert_frame_equal(new.cmp.full_rows(), want.full_rows(), check_exact=True)


def test_dropped_samples_are_never_read_from_changed_files(results, cache_folder):
    rs, _, _, _ = opened(results)
    for entry in cache_folder.rglob("load-*.tbc"):
        entry.unlink()
    victim = next(results.rglob("*.csv"))
    victim.write_text(victim.read_text() + "\n")
    with pytest.raises(ResultsChanged):
        rs.samples  # noqa: B018


def test_small_results_keep_their_samples(tmp_path, monkeypatch):
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    reopen, reloads = Reopen([DATA], OPTIONS), Reloads([DATA])
    rs = reloads.load(found=reopen.found)
    assert not drop_samples(rs, reopen, False, True) and not isinstance(rs, Deferred)


def test_many_iterations_drop_their_figures_and_samples(tmp_path, monkeypatch):
    """Below DROPPED_PAST samples, results of more than ITERATIONS_KEPT_UP_TO iterations keep
    no iterations' figures (a reload analyses everything again), so their samples go too:
    a million metrics of 3 iterations of 2 samples held 0.8 GB of both."""
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    reopen, reloads = Reopen([DATA], OPTIONS), Reloads([DATA])
    rs = reloads.load(found=reopen.found)
    iterations = Analysis(rs, OPTIONS).iterations.height
    assert rs.samples.height <= reopen_module.DROPPED_PAST and iterations > 1
    monkeypatch.setattr(reloads_module, "ITERATIONS_KEPT_UP_TO", iterations)
    assert reloads.analyse(rs, OPTIONS).keeps_figures  # as many as kept: kept
    reloads.analysis = None
    monkeypatch.setattr(reloads_module, "ITERATIONS_KEPT_UP_TO", iterations - 1)
    told: list[bool] = []
    analysis = reloads.analyse(rs, OPTIONS, told.append)
    assert told == [False] and not analysis.keeps_figures
    assert "median" not in analysis.iterations.columns  # the figures let go of
    assert drop_samples(rs, reopen, False, analysis.keeps_figures) and isinstance(rs, Deferred)
    want = Analysis(load([DATA]), OPTIONS).compare(rs.default_reference)
    got = analysis.compare(rs.default_reference)
    assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)


def test_samples_read_again_for_an_analysis_are_freed_once_read(results):
    rs, _, _, _ = opened(results)
    options = AnalysisOptions(iteration_value="mean")
    got = Analysis(rs, options, samples_read=lambda _: forget_samples(rs))
    assert rs._samples is None  # read for the analysis, then freed again
    want = Analysis(load([results]), options)
    ref = rs.default_reference
    assert_frame_equal(
        got.compare(ref).full_rows(), want.compare(ref).full_rows(), check_exact=True
    )


async def test_the_explorer_frees_the_samples_of_large_results(make_app, loaded, monkeypatch):
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    monkeypatch.setattr(reopen_module, "DROPPED_PAST", 0)  # every set counts as large
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        while app.main.loader is not None and app.main.loader.is_alive():
            await pilot.pause(0.05)
        session = app.main.session
        rs = session.rs
        assert isinstance(rs, Deferred) and rs._samples is None
        await pilot.press("i")  # another iteration value: the samples read again, then freed
        await app.workers.wait_for_complete()
        await pilot.pause()
        session = app.main.session
        assert session.analysis.options.iteration_value == "mean"
        assert session.rs is rs and rs._samples is None
        options = session.state.options
        want = Analysis(load(["results"]), options).compare(session.state.reference, options)
        assert_frame_equal(session.cmp.full_rows(), want.full_rows(), check_exact=True)


async def test_with_the_cache_on_the_samples_are_freed_before_the_first_screen(
    make_app, loaded, monkeypatch, cache_folder
):
    """The load's entry is written from the samples before the analysis, so they are freed
    as the analysis reads them, not after the first screen (the explorer's peak)."""
    monkeypatch.setattr(reopen_module, "DROPPED_PAST", 0)  # every set counts as large
    freed = []

    def spy(rs, reopen, unwritten, figures_kept):
        freed.append(drop_samples(rs, reopen, unwritten, figures_kept))
        return freed[-1]

    monkeypatch.setattr(reopen_module, "drop_samples", spy)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        assert freed[:1] == [True]  # the first drop is the analysis's, and it freed them
        while app.main.loader is not None and app.main.loader.is_alive():
            await pilot.pause(0.05)
        rs = app.main.session.rs
        assert isinstance(rs, Deferred) and rs._samples is None
        assert_frame_equal(rs.samples, load(["results"]).samples, check_exact=True)
