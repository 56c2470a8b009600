"""Numbers a statistic cannot bound lose their cell, never the comparison; the explorer's
background work never keeps a quitting process alive."""

from __future__ import annotations

import json
import threading

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.frames import whole_numbers
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.stats.power import MAX_ITERATIONS

# The same timings written in us by one system and in ms by the other: once converted the
# values differ by float rounding alone (about 1e-16 relative).
TIMINGS = [[1.001344, 1.008474, 1.007638], [1.002551, 1.004954, 1.003001], [1.0061, 1.0022]]


def _same_timings_two_units(root):
    for system, unit, factor in (("a", "us", 1000.0), ("b", "ms", 1.0)):
        for it, values in enumerate(TIMINGS):
            folder = root / system / f"iter-{it}"
            folder.mkdir(parents=True)
            lines = [f"x,t,{round(v * factor, 9)!r},{unit}" for v in values]
            (folder / "r.csv").write_text("benchmark,metric,value,unit\n" + "\n".join(lines))
    return root


def test_iterations_needed_beyond_any_run_is_infinite():
    d = np.array([1e-13, 1e-4, 0.5, 0.0, np.nan])
    got = stats.iterations_needed(d, 0.05)
    # 2 (2.80 / 1e-4)^2 is about 1.6e9: beyond the cap, like 1e-13 (about 1.6e27).
    assert np.isinf(got[0]) and np.isinf(got[1]) and np.isinf(got[3]) and np.isnan(got[4])
    assert got[2] == 64  # statsmodels' TTestIndPower: 63.77, rounded up
    assert stats.iterations_needed(np.array([3e-4]), 0.05)[0] <= MAX_ITERATIONS


def test_whole_numbers_null_what_does_not_fit():
    got = whole_numbers("n", np.array([3.0, np.nan, np.inf, -np.inf, 1.3e26, -(2.0**63), 2.0**62]))
    assert got.dtype == pl.Int64
    assert got.to_list() == [3, None, None, None, None, None, 2**62]


def test_units_differing_by_rounding_still_compare(tmp_path, capsys):
    root = _same_timings_two_units(tmp_path / "results")
    assert main(["report", str(root), "--format", "json", "--iteration-value", "mean"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    other = next(r for r in rows if r["system"] == "b")
    assert other["verdict"] == "same" and other["iterations_for_threshold"] is None
    assert abs(other["change"]) < 1e-12
    for reference in ("a", "b"):  # `]` in the explorer: against the other reference
        cmp = Analysis(load([str(root)]), AnalysisOptions(iteration_value="mean")).compare(
            reference
        )
        assert cmp.rows["iterations_for_threshold"].null_count() == 2


def test_preparing_references_stops_when_asked(tmp_path, make_system):
    root = tmp_path / "results"
    for i in range(6):
        make_system(root, f"s{i}", [("b", "m", it, 10 + it + i, "s") for it in range(3)])
    analysis = Analysis(load([str(root)]))
    calls = []
    analysis.prepare_references(stop=lambda: len(calls) >= 2 or calls.append(1) or False)
    assert len(analysis._utest_p) == 2
    analysis.prepare_references()
    assert len(analysis._utest_p) == 6


def test_the_worker_pool_never_waits_for_its_work():
    from tuibench.tui.worker_pool import WorkerPool

    release = threading.Event()
    pool = WorkerPool()
    running = pool.submit(release.wait)
    queued = [pool.submit(release.wait) for _ in range(64)]  # beyond the pool's threads
    pool.shutdown(wait=True)  # what asyncio.run asks when the explorer quits
    assert not running.done()  # it returned while its work was still blocked
    release.set()
    assert running.result(timeout=10) is True
    assert any(f.cancelled() for f in queued)  # what had not started never runs
