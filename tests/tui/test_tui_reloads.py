"""The explorer's reload (`Session.reload`, through the `Reloads` it keeps) shows what a
fresh load and analysis show, number for number, whether it merged the new files or loaded
everything again; the view (reference, filter, sort, marks) is kept."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.spliced import GrownAnalysis
from tuibench.ingest.load import load
from tuibench.ingest.reuse import cache
from tuibench.model.options import DEFAULT_ANALYSIS, ViewOptions
from tuibench.output.export import report_json_parts
from tuibench.tui.view.reloads import Reloads
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import Node, ViewState

DATA = Path(__file__).resolve().parents[1] / "data"
NANOBENCH = DATA / "nanobench"


def parquet_iteration(root: Path, system: str, n: int, seed: int, benchmarks: int = 5) -> None:
    rng = np.random.default_rng([seed, n])
    b = np.repeat(np.arange(benchmarks), 10)
    m = np.tile(np.repeat(np.arange(2), 5), benchmarks)
    path = root / system / f"iter-{n}" / "r.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(
        {
            "benchmark": [f"b{i}" for i in b],
            "metric": np.array(["time", "ops"])[m],
            "value": (10 + b + 3 * m) * rng.normal(1 + 0.05 * (system == "new"), 0.02, len(b)),
            "unit": np.array(["ms", "ops/s"])[m],
        }
    ).write_parquet(path)


def nanobench_run(source: Path, to: Path, scale: float = 1.0) -> None:
    """A nanobench JSON file as the tool wrote it, its measured times times `scale`."""
    doc = json.loads(source.read_text())
    for result in doc["results"]:
        for m in result["measurements"]:
            m["elapsed"] *= scale
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_text(json.dumps(doc, indent=4))


@pytest.fixture(params=["parquet", "nanobench"])
def results(request, tmp_path: Path) -> Path:
    root = tmp_path / "results"
    if request.param == "parquet":
        for system, seed in (("base", 0), ("new", 1)):
            for n in range(3):
                parquet_iteration(root, system, n, seed)
    else:
        for n, run in enumerate(("run1", "run2")):
            nanobench_run(NANOBENCH / f"{run}.json", root / "base" / f"iter-{n}" / "r.json")
        for n, run in enumerate(("run3", "run1")):
            nanobench_run(NANOBENCH / f"{run}.json", root / "new" / f"iter-{n}" / "r.json", 1.1)
    return root


def new_iteration(root: Path) -> None:
    if (root / "base" / "iter-0" / "r.parquet").exists():
        parquet_iteration(root, "new", 3, 1)
    else:
        nanobench_run(NANOBENCH / "run2.json", root / "new" / "iter-2" / "r.json", 1.1)


def grow(path: Path) -> None:
    """The file with more samples of its iteration: as a benchmark still writing leaves it."""
    if path.suffix == ".parquet":
        rows = pl.read_parquet(path)
        pl.concat([rows, rows.with_columns(pl.col("value") * 1.01)]).write_parquet(path)
        return
    doc = json.loads(path.read_text())
    for result in doc["results"]:
        result["measurements"] += [
            dict(m, elapsed=m["elapsed"] * 1.01) for m in result["measurements"]
        ]
    path.write_text(json.dumps(doc, indent=4))


def first_session(root: Path) -> Session:
    reloads = Reloads([str(root)])
    rs = reloads.load()
    state = ViewState.first("base", DEFAULT_ANALYSIS, ViewOptions())
    session = Session(rs, reloads.analyse(rs, DEFAULT_ANALYSIS), state)
    session.reloads = reloads
    session.install(state, session.compute(state))
    return session


def afresh(root: Path, state: ViewState) -> Session:
    cache.turn_off()
    try:
        rs = load([str(root)])
    finally:
        cache._off = False
    session = Session(rs, Analysis(rs, state.options, keep_figures=True), state)
    session.install(state, session.compute(state))
    return session


def same_numbers(a: Session, b: Session) -> None:
    for cmp in (a.cmp, b.cmp):
        assert cmp.reference == a.state.reference
    assert_frame_equal(a.cmp.full_rows(), b.cmp.full_rows(), check_exact=True)
    assert_frame_equal(a.analysis.iterations, b.analysis.iterations, check_exact=True)
    assert_frame_equal(a.rs.samples, b.rs.samples, check_exact=True)
    doc = [b"".join(bytes(p) for p in report_json_parts(s.cmp, s.rs.problems)) for s in (a, b)]
    assert doc[0] == doc[1]
    assert a.rs.files == b.rs.files and a.rs.problems == b.rs.problems


CHANGES = ["new iteration", "new system", "grown file", "removed file", "rewritten file"]


@pytest.mark.parametrize("change", CHANGES)
def test_reload_shows_what_a_fresh_load_shows(results, change):
    session = first_session(results)
    metric = session.metrics[0]
    session.toggle_mark(Node.of_metric(*metric))
    state = dataclasses.replace(session.state, sort="worst", filter_text=metric[0][:1])
    session.install(state, session.compute(state))
    files = sorted(p for p in results.rglob("r.*"))
    if change == "new iteration":
        new_iteration(results)
    elif change == "new system":
        shutil.copytree(results / "new", results / "newer")
    elif change == "grown file":
        grow(files[-1])
    elif change == "removed file":
        os.remove(files[-1])
    else:
        shutil.copy(files[0], files[-1])
    reloaded = session.reload([str(results)], session.state)
    assert reloaded.reloads is session.reloads
    grew = reloaded.reloads.loader.growth is not None
    assert grew == (change == "new iteration")
    assert (reloaded.state.sort, reloaded.state.filter_text) == ("worst", metric[0][:1])
    assert reloaded.state.marks == session.state.marks and session.state.marks
    fresh = afresh(results, reloaded.state)
    same_numbers(reloaded, fresh)
    assert isinstance(reloaded.analysis, GrownAnalysis) == grew
    for system in fresh.rs.system_names:  # every other reference: ranked afresh, once
        got, want = (s.analysis.compare(system) for s in (reloaded, fresh))
        assert_frame_equal(got.full_rows(), want.full_rows(), check_exact=True)
    again = reloaded.reload([str(results)], reloaded.state)  # nothing new: the same analysis
    assert again.analysis is reloaded.analysis


def test_figures_not_kept_past_the_bound(results, monkeypatch):
    """Past `FIGURES_KEPT_UP_TO` samples the iterations' figures are not kept: a reload of
    grown results analyses everything again, with a fresh analysis's numbers."""
    from tuibench.tui.view import reloads

    monkeypatch.setattr(reloads, "FIGURES_KEPT_UP_TO", 0)
    session = first_session(results)
    assert "median" not in session.analysis.iterations.columns
    new_iteration(results)
    reloaded = session.reload([str(results)], session.state)
    assert reloaded.reloads.loader.growth is not None  # the files merged, not the analysis
    assert not isinstance(reloaded.analysis, GrownAnalysis)
    fresh = afresh(results, reloaded.state)
    assert_frame_equal(reloaded.cmp.full_rows(), fresh.cmp.full_rows(), check_exact=True)
    doc = [b"".join(map(bytes, report_json_parts(s.cmp, s.rs.problems))) for s in (reloaded, fresh)]
    assert doc[0] == doc[1]
