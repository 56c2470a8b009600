"""What the session keeps of comparisons: at a million metrics only the one shown (each
holds about 0.7 GB), so stepping back to a reference compares again, and the summaries
kept of a comparison let go of with it."""

from __future__ import annotations

import dataclasses
import gc
import weakref

import polars as pl

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.present import summary_window
from tuibench.tui.view import session as session_module
from tuibench.tui.view.node_index import name_pairs
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import VIEW_ROWS, Node, ViewState


def _session(tui_data, monkeypatch, rows_kept: int) -> tuple[Session, list[str]]:
    monkeypatch.setattr(session_module, "COMPARISON_ROWS_KEPT", rows_kept)
    monkeypatch.setattr(summary_window, "WINDOW_FROM", 1)  # as at a million: rows read late
    rs = load([str(tui_data / "results")])
    analysis = Analysis(rs)
    compared: list[str] = []
    compare = analysis.compare

    def counted(reference, options=None):
        compared.append(reference)
        return compare(reference, options)

    monkeypatch.setattr(analysis, "compare", counted)
    return Session(rs, analysis, ViewState(reference="base")), compared


def _switch(session: Session, reference: str) -> None:
    state = dataclasses.replace(session.state, reference=reference)
    session.install(state, session.prepare(state, session.compute(state)))
    session.summary(Node(), VIEW_ROWS)  # as the pane keeps the root's table


def test_only_the_shown_comparison_is_kept_at_this_size(tui_data, monkeypatch):
    session, compared = _session(tui_data, monkeypatch, rows_kept=1)
    assert session.comparisons_kept == 1
    session.summary(Node(), VIEW_ROWS)
    first = weakref.ref(session.cmp.source)  # the rows of the whole comparison
    _switch(session, "tuned")
    gc.collect()
    assert first() is None  # neither kept by the session nor by a kept summary
    _switch(session, "base")  # back: compared again
    assert compared == ["base", "tuned", "base"]


def test_a_smaller_set_keeps_the_references_it_saw(tui_data, monkeypatch):
    session, compared = _session(tui_data, monkeypatch, rows_kept=10**9)
    assert session.comparisons_kept > 1
    _switch(session, "tuned")
    _switch(session, "base")  # back: at once, from what was kept
    assert compared == ["base", "tuned"]


def test_metric_names_are_the_catalogue_s_each_name_one_string():
    metrics = pl.DataFrame(
        {"benchmark": ["b/2", "b/10", "b/2", "a", "b/10"], "metric": ["x", "x", "y", "x", "y"]},
        schema={"benchmark": pl.Enum(["b/2", "b/10", "a"]), "metric": pl.String},
    )
    pairs = name_pairs(metrics)
    assert pairs == list(metrics.select(pl.all().cast(pl.String)).iter_rows())
    assert pairs[0][0] is pairs[2][0] and pairs[0][1] is pairs[1][1]


def test_going_back_before_a_switch_landed_compares_nothing_again(tui_data, monkeypatch):
    session, compared = _session(tui_data, monkeypatch, rows_kept=1)
    session.compute(dataclasses.replace(session.state, reference="tuned"))  # a worker's
    session.compute(session.state)  # `[` before it was shown: the one shown, as it is
    assert compared == ["base", "tuned"]


def test_a_view_made_ahead_is_the_one_installed_and_the_same_as_made_then(tui_data, monkeypatch):
    session, _ = _session(tui_data, monkeypatch, rows_kept=10**9)
    group = Node((session.metrics[0][0].split("/")[0],))
    worst = dataclasses.replace(session.state, sort="worst")
    session.ahead(worst, group)
    made = session._ahead[1]
    assert (group, VIEW_ROWS, *session.view_key(worst)) in session._summaries  # its table
    session.state = worst
    session.recompute()
    assert session.cmp is made.cmp and session.order_ids is made.order
    fresh = session.compute(worst)  # made now: the same metrics in the same order
    assert fresh.order.tolist() == made.order.tolist() and fresh.ids.tolist() == made.ids.tolist()
    assert session._ahead is None  # used once


def test_a_view_made_ahead_for_another_state_is_not_installed(tui_data, monkeypatch):
    session, _ = _session(tui_data, monkeypatch, rows_kept=10**9)
    session.ahead(dataclasses.replace(session.state, sort="worst"), Node())
    made = session._ahead[1]
    session.state = dataclasses.replace(session.state, sort="name")
    session.recompute()
    assert session.order_ids is not made.order and session._ahead is None
    names = [session.metrics[i] for i in session.order_ids]
    assert names == sorted(names)
