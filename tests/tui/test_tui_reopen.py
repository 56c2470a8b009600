"""Reopening unchanged results: the first screen's data from the cache, never when stale."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from tests.tui.test_tui_copy_shown import shown_text
from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.stored import Restored
from tuibench.ingest.load import load
from tuibench.ingest.reuse import cache, load_cache
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.view import reopen as reopen_module
from tuibench.tui.view.reloads import Reloads
from tuibench.tui.view.reopen import Deferred, Reopen, ResultsChanged
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import ViewState

DATA = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"
OPTIONS = AnalysisOptions()


@pytest.fixture
def results(tmp_path: Path, monkeypatch) -> Path:
    """Three systems of real-looking results; every load worth storing, however small."""
    monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)
    root = tmp_path / "results"
    shutil.copytree(DATA, root)
    return root


def open_once(root: Path, options: AnalysisOptions = OPTIONS, every_reference: bool = True):
    """What the explorer's loading thread does: (reopen, rs, analysis, session)."""
    reopen = Reopen([root], options)
    restored = reopen.restored()
    reloads = Reloads([root])
    rs, analysis = restored or (reloads.load(found=reopen.found), None)
    analysis = analysis or reloads.analyse(rs, options)
    state = ViewState.first(rs.default_reference, options, ViewOptions())
    session = Session(rs, analysis, state)
    session.install(state, session.prepare(state, session.compute(state)))
    reopen.store_first(rs, analysis, session)
    if every_reference:
        reopen.store_all(rs, analysis, stop=lambda: False)
    return reopen, rs, analysis, session


def entries(folder: Path, kind: str = "screen") -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.tbc")) if folder.exists() else []


def assert_same_comparisons(analysis: Analysis, root: Path, options: AnalysisOptions) -> None:
    """Every reference's comparison (rows, private fields, summary) as computed afresh."""
    rs = load([root])
    fresh = Analysis(rs, options)
    for ref in rs.system_names:
        got, want = analysis.compare(ref, options), fresh.compare(ref, options)
        assert_frame_equal(got.rows, want.rows, check_exact=True)
        assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)
        assert_frame_equal(got.summary(), want.summary(), check_exact=True)
    assert_frame_equal(analysis.groups, fresh.groups, check_exact=True)


def test_reopen_restores_without_reading_a_sample(results, cache_folder):
    _, _, first, _ = open_once(results)
    assert not isinstance(first, Restored)
    assert len(entries(cache_folder)) == 1
    _, rs, again, session = open_once(results)
    assert isinstance(again, Restored) and isinstance(rs, Deferred)
    assert_same_comparisons(again, results, OPTIONS)
    assert rs._samples is None  # every reference compared, no sample read
    assert session.cmp.rows.height == first.compare(rs.default_reference).rows.height
    assert rs.samples.equals(load([results]).samples)  # read when asked for


def test_small_results_reopen_from_a_screen_entry_alone(tmp_path, cache_folder):
    """Below the load cache's thresholds the screen is still stored (reopening skips the
    analysis), the load is not (reading the files again costs less than its entry), and
    no read-ahead mark is written for so small an entry."""
    root = tmp_path / "results"
    shutil.copytree(DATA, root)
    reopen, rs, first, _ = open_once(root)
    assert not isinstance(first, Restored)
    assert not load_cache.worth_storing(rs, len(reopen.found.units))  # small
    assert len(entries(cache_folder)) == 1 and not entries(cache_folder, "load")
    assert 0 < reopen.size < 1 << 20
    _, rs, again, _ = open_once(root)
    assert isinstance(again, Restored) and isinstance(rs, Deferred)
    assert_same_comparisons(again, root, OPTIONS)
    assert rs.samples.equals(load([root]).samples)  # from the files, when asked for


def test_other_comparison_options_are_computed_from_the_entry(results):
    open_once(results)
    options = AnalysisOptions(alpha=0.01, fdr=True, threshold=2.0)
    _, rs, again, _ = open_once(results, options)
    assert isinstance(again, Restored)
    assert_same_comparisons(again, results, options)
    assert rs._samples is None


@pytest.mark.parametrize(
    "options",
    [
        AnalysisOptions(iteration_value="mean"),
        AnalysisOptions(subselections=50),
        AnalysisOptions(seed=3),
    ],
)
def test_an_option_of_the_analysis_is_another_entry(results, cache_folder, options):
    open_once(results)
    _, _, analysis, _ = open_once(results, options)
    assert not isinstance(analysis, Restored)
    assert len(entries(cache_folder)) == 2
    assert isinstance(open_once(results, options)[2], Restored)


def test_a_changed_file_is_never_read_from_the_entry(results):
    open_once(results)
    victim = next(results.rglob("*.csv"))
    text = victim.read_text()
    victim.write_text(text.replace(",", ",", 1) + "\n")  # one more byte, same numbers
    _, _, analysis, _ = open_once(results)
    assert not isinstance(analysis, Restored)
    (victim.parent / "extra.csv").write_text(text)  # a file added: another key again
    assert Reopen([results], OPTIONS).restored() is None


@pytest.mark.parametrize("damage", ["truncated", "flipped", "foreign", "empty"])
def test_a_bad_entry_is_ignored_and_rebuilt(results, cache_folder, damage):
    open_once(results)
    (entry,) = entries(cache_folder)
    data = bytearray(entry.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped":
        data[len(data) // 2] ^= 0x01
    elif damage == "foreign":  # written by other code: another version in the header
        data[8] ^= 0xFF
    else:
        data = bytearray()
    entry.write_bytes(bytes(data))
    assert Reopen([results], OPTIONS).restored() is None
    assert not entry.exists()  # removed, to be written again
    _, _, analysis, _ = open_once(results)
    assert not isinstance(analysis, Restored)
    assert entry.exists() and entry.read_bytes() != bytes(data)
    assert isinstance(open_once(results)[2], Restored)


def test_an_entry_that_cannot_be_decoded_is_ignored(results, monkeypatch):
    open_once(results)
    monkeypatch.setattr(reopen_module.Reopen, "_decode", lambda self, payload: 1 / 0)
    assert Reopen([results], OPTIONS).restored() is None


def test_no_cache_writes_nothing(results, cache_folder):
    cache.turn_off()
    try:
        open_once(results)
        assert Reopen([results], OPTIONS).key is None
    finally:
        cache._off = False
    assert not cache_folder.exists() or not any(cache_folder.iterdir())


def test_nothing_written_into_the_results(results, monkeypatch):
    before = sorted(results.rglob("*"))
    monkeypatch.setenv("TUIBENCH_CACHE_DIR", str(results / ".cache"))
    open_once(results)
    assert sorted(results.rglob("*")) == before


def test_the_bound_drops_the_entries_used_longest_ago(results, cache_folder, monkeypatch):
    open_once(results)
    (old,) = entries(cache_folder)
    os.utime(old, ns=(10**9, 10**9))  # used longest ago
    before = {p.name for p in cache_folder.iterdir()}
    size = sum(p.stat().st_size for p in cache_folder.iterdir())
    bound = size + old.stat().st_size // 2  # room for the next entry only without `old`
    monkeypatch.setattr(cache, "limit", lambda: bound)
    open_once(results, AnalysisOptions(seed=5))
    assert not old.exists()
    (new,) = entries(cache_folder)
    assert {p.name for p in cache_folder.iterdir()} == before - {old.name} | {new.name}
    assert sum(p.stat().st_size for p in cache_folder.iterdir()) <= bound


def test_a_reference_not_stored_is_computed_from_the_samples(results):
    open_once(results, every_reference=False)  # only the first reference's tests stored
    reopen, rs, again, _ = open_once(results, every_reference=False)
    assert isinstance(again, Restored) and again.needs_samples
    assert rs._samples is None
    assert_same_comparisons(again, results, OPTIONS)
    reopen.store_all(rs, again, stop=lambda: False)  # now complete, and stored so
    _, rs, third, _ = open_once(results)
    assert isinstance(third, Restored) and not third.needs_samples
    assert_same_comparisons(third, results, OPTIONS)
    assert rs._samples is None


def test_another_analysis_of_restored_results_reads_their_samples(results):
    open_once(results)
    _, rs, _, _ = open_once(results)
    options = AnalysisOptions(iteration_value="median")
    got = Analysis(rs, options).compare(rs.default_reference)
    want = Analysis(load([results]), options).compare(rs.default_reference)
    assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)


def test_samples_come_from_the_files_only_while_they_are_the_ones_shown(results, cache_folder):
    open_once(results)
    _, rs, _, _ = open_once(results)
    for entry in entries(cache_folder, "load"):
        entry.unlink()
    assert rs.samples.equals(load([results]).samples)  # read again: the same files
    _, rs, _, _ = open_once(results)
    for entry in entries(cache_folder, "load"):
        entry.unlink()
    victim = next(results.rglob("*.csv"))
    victim.write_text(victim.read_text() + "\n")
    with pytest.raises(ResultsChanged):
        rs.samples  # noqa: B018


def test_deferred_results_are_results(results):
    open_once(results)
    _, rs, _, _ = open_once(results)
    plain = load([results])
    for f in dataclasses.fields(plain):
        if f.name == "samples":
            continue
        got, want = getattr(rs, f.name), getattr(plain, f.name)
        if f.name in ("metrics", "notes"):
            assert_frame_equal(got, want, check_exact=True)
        else:
            assert got == want
    assert rs._samples is None
    assert not rs.empty and rs.system_names == plain.system_names


def test_read_ahead_only_when_marked_and_used_only_while_current(results, monkeypatch):
    from tuibench.tui.view import read_ahead

    read_ahead.start([results], OPTIONS)
    assert read_ahead.take([results], OPTIONS) is None  # never stored: nothing read ahead
    open_once(results)
    read_ahead.mark([results], OPTIONS, read_ahead.READ_AHEAD_FROM - 1)  # too small
    read_ahead.start([results], OPTIONS)
    assert read_ahead.take([results], OPTIONS) is None
    read_ahead.mark([results], OPTIONS, read_ahead.READ_AHEAD_FROM)
    read_ahead.start([str(results)], OPTIONS)
    early = read_ahead.take([results], OPTIONS)
    assert early is not None and early.result()[1] is not None
    with monkeypatch.context() as m:
        m.setattr(Reopen, "restored", lambda self: pytest.fail("read twice"))
        _, (rs, analysis) = Reopen.made([results], OPTIONS, None, early)
    assert isinstance(analysis, Restored) and isinstance(rs, Deferred)
    read_ahead.start([results], OPTIONS)
    early = read_ahead.take([results], OPTIONS)
    assert early is not None
    early.result()
    victim = next(results.rglob("*.csv"))
    victim.write_text(victim.read_text() + "\n")  # changed after the read ahead
    _, restored = Reopen.made([results], OPTIONS, None, early)
    assert restored is None
    assert read_ahead.take([results], OPTIONS) is None  # taken once


@pytest.mark.parametrize("ahead", [True, False])
async def test_the_explorer_reopens_from_the_cache(
    make_app, loaded, monkeypatch, cache_folder, ahead
):
    """Small results too (no load entry, nothing read ahead): the first screen the same."""
    from tuibench.tui.view import read_ahead

    if ahead:
        monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)
        monkeypatch.setattr(read_ahead, "READ_AHEAD_FROM", 0)  # marked for reading ahead
    shown = []
    for _ in range(2):
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await loaded(pilot)
            session = app.main.session
            shown.append((session.analysis, session.cmp.full_rows(), shown_text(app)))
            app.main.loader.join(20)  # every reference's tests stored
    (first, rows, text), (again, rows_again, text_again) = shown
    assert not isinstance(first, Restored) and isinstance(again, Restored)
    assert not again.needs_samples and again.rs._samples is None
    assert_frame_equal(rows_again, rows, check_exact=True)
    assert text_again == text and any(text)
    assert entries(cache_folder)
    assert bool(entries(cache_folder, "opened")) == ahead
    assert bool(entries(cache_folder, "load")) == ahead


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
async def test_files_changed_under_a_restored_screen_are_said_not_raised(
    make_app, loaded, monkeypatch, cache_folder, results
):
    with monkeypatch.context() as m:  # the first explorer stores the first reference only
        m.setattr(Reopen, "store_all", lambda *a, **k: None)
        app = make_app(paths=[str(results)])
        async with app.run_test(size=(100, 30)) as pilot:
            await loaded(pilot)
            app.main.loader.join(20)

    def changed(self):
        raise ResultsChanged("the files changed since they were shown: reload (R)")

    monkeypatch.setattr(Reopen, "_samples", changed)  # as if, once the screen was shown
    said = []
    app = make_app(paths=[str(results)])
    monkeypatch.setattr(type(app.main), "say", lambda self, text, **kw: said.append(text))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        assert isinstance(app.main.session.analysis, Restored)
        app.main.loader.join(20)  # its U tests against the others failed, quietly
        await pilot.press("]")
        await pilot.pause(0.5)
        assert any("changed since they were shown" in s for s in said)
        assert app.main.session.state.reference == app.main.session.systems[0]
