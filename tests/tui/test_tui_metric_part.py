"""A metric's tables come from its own rows, gathered by id: the same as filtering every row
of the comparison by name."""

from __future__ import annotations

import dataclasses

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.present import tables
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import Node, ViewState


@pytest.fixture
def session(tui_data):
    rs = load([str(tui_data / "results")])
    return Session(rs, Analysis(rs), ViewState(reference="base"))


@pytest.mark.parametrize("reference", ["base", "tuned"])
def test_each_metric_s_tables_are_those_of_its_rows(session, reference):
    session.state = dataclasses.replace(session.state, reference=reference)
    session.recompute()
    cmp = session.cmp.reference_first()  # the tables' order
    for bench, metric in session.metrics:
        node = Node.of_metric(bench, metric)
        rows = cmp.rows.filter((cmp.rows["benchmark"] == bench) & (cmp.rows["metric"] == metric))
        assert session.metric_rows(node) == list(rows.iter_rows(named=True))
        for made, whole in [
            (session.detail(node), tables.detail_table(cmp, bench, metric)),
            (session.noise(node), tables.noise_table(cmp, bench, metric)),
            (session.iterations(node), tables.iterations_table(cmp, bench, metric)),
        ]:
            assert (made.columns, made.rows, made.notes) == (whole.columns, whole.rows, whole.notes)
    assert session.metric_rows(Node.of_metric("no/such", "metric")) == []
