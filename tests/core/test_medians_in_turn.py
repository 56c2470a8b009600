"""The medians' test of a comparison (against.median_values_job) beside the other tests or,
from MEDIANS_IN_TURN_FROM rows, in turn: the same numbers either way."""

from __future__ import annotations

from pathlib import Path

from polars.testing import assert_frame_equal

from tuibench.analysis.compare import Analysis, against
from tuibench.ingest.load import load

DATA = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"


def test_the_medians_test_in_turn_gives_the_same_rows(monkeypatch):
    rs = load([DATA])
    ref = rs.default_reference or rs.system_names[0]
    beside = Analysis(rs).compare(ref).full_rows()
    calls = []
    monkeypatch.setattr(against, "MEDIANS_IN_TURN_FROM", 0)
    monkeypatch.setattr(against, "in_worker", lambda *a: calls.append(a))  # never used
    in_turn = Analysis(rs).compare(ref).full_rows()
    assert not calls
    assert_frame_equal(in_turn, beside, check_exact=True)
