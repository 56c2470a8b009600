"""One glob dialect: fnmatch's, in tuibench.toml, --benchmark/--metric and the explorer."""

from __future__ import annotations

import json
from fnmatch import fnmatchcase

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.cli import main
from tuibench.util.globs import glob_expr, has_glob, matches

# Characters fnmatch treats specially, ones a regex would, and a few plain ones.
ALPHABET = "ab-z!^]\\[*?&|~.$()/\né"
NAMES = sorted(
    {"", "a", "b", "-", "!", "^", "]", "[", "\\", "*", "?", "\n", "é", ".", "ab", "a-", "[a]"}
    | {"pgbench/ro/c8", "pgbench/rw/c8", "pgbench/rx/c8", "PGBENCH/ro/c8"}
)


def _polars(pattern: str) -> list[bool]:
    frame = pl.DataFrame({"name": NAMES})
    return frame.select(glob_expr(pl.col("name"), pattern)).to_series().to_list()


@pytest.mark.parametrize(
    "pattern",
    [
        "pgbench/r[ow]/*",
        "pgbench/r[!o]/*",
        "*/c?",
        "[]]",
        "[!]]",
        "[a-]",
        "[-a]",
        "[z-a]",  # an empty range: matches nothing
        "[!z-a]",  # its negation: any one character
        "[g-c!!^]",  # fnmatch reads the `!` left first by the dropped range as a negation
        "[a-c-e]",
        "[",
        "[a",
        "a]",
        "[[]a]",
        "[*]",
        "[\\]",
        ".",
        "$",
        "(a)",
        "a\udcff",  # not UTF-8 (a byte from the command line): Python decides
    ],
)
def test_polars_matches_fnmatch_on_hard_patterns(pattern):
    assert _polars(pattern) == [fnmatchcase(n, pattern) for n in NAMES]


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=8))
def test_polars_matches_fnmatch(pattern):
    assert _polars(pattern) == [fnmatchcase(n, pattern) for n in NAMES]


def test_glob_semantics():
    assert matches("pgbench/ro/c8", "pgbench/r[ow]/*")
    assert not matches("pgbench/rx/c8", "pgbench/r[ow]/*")
    assert not matches("PGBENCH/ro/c8", "pgbench/*")  # case-sensitive
    assert not matches("xpgbench/ro", "pgbench/*")  # the whole name
    assert has_glob("a[b") and has_glob("a?") and has_glob("*") and not has_glob("a/b]")


@pytest.fixture
def pgbench(tmp_path, make_system):
    """Two systems, three pgbench benchmarks; tuibench.toml calls tps lower-is-better for the
    `r[ow]` ones (against what its name says), so what the glob matched shows."""
    for system, level in (("base", 10.0), ("patched", 11.0)):
        rows = [
            (f"pgbench/{b}/c8", "tps", i, level + 0.1 * i, "")
            for b in ("ro", "rw", "rx")
            for i in range(3)
        ]
        make_system(tmp_path, system, rows)
    (tmp_path / "tuibench.toml").write_text('[metrics."pgbench/r[ow]/*:tps"]\nbetter = "lower"\n')
    return tmp_path


def test_one_glob_in_tuibench_toml_report_and_explorer(pgbench, capsys):
    """`pgbench/r[ow]/*` picks the same benchmarks in tuibench.toml, --benchmark and the
    explorer's filter (it used to exit 2 in report: brackets were literal there)."""
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.tui.view.session import Session
    from tuibench.tui.view.state import ViewState

    want = {"pgbench/ro/c8", "pgbench/rw/c8"}
    rs = load([pgbench])
    lower = rs.metrics.filter(pl.col("better") == "lower")["benchmark"].to_list()
    assert set(lower) == want
    assert main(["report", str(pgbench), "--format", "json", "--benchmark", "pgbench/r[ow]/*"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["benchmark"] for r in rows} == want
    session = Session(rs, Analysis(rs), ViewState(reference="base"))
    session.state.filter_text = "pgbench/r[ow]/*"
    session.recompute()
    assert {b for b, _ in session.visible} == want
    session.state.filter_text = "pgbench/r[ow]/c8"  # a benchmark's whole name, as --benchmark
    session.recompute()
    assert {b for b, _ in session.visible} == want
    session.state.filter_text = "PGBENCH/R[OW]/*"  # a glob is case-sensitive
    session.recompute()
    assert session.visible == []
    session.state.filter_text = "PGBENCH/R"  # a substring is not
    session.recompute()
    assert {b for b, _ in session.visible} == {*want, "pgbench/rx/c8"}
