"""The Textual-free parts of the explorer: view state, filter, names of exported files."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from tuibench.analysis.compare import METRIC, Analysis
from tuibench.ingest.load import load
from tuibench.present.tables import detail_table
from tuibench.tui.view.export_files import (
    default_path,
    refusal,
    resolve,
    safe_name,
    suggest_name,
    with_extension,
)
from tuibench.tui.view.session import Session
from tuibench.tui.view.state import Node, ViewState, name_matcher
from tuibench.tui.widgets.iteration_plot import axis_labels


@pytest.fixture
def session():
    rs = load([str(Path(__file__).resolve().parents[1] / "data" / "tui" / "results")])
    return Session(rs, Analysis(rs), ViewState(reference="base"))


def test_node_names_round_trip():
    node = Node.of_metric("web/[bold]render[/]", "latency")
    assert node.parts == ("web", "[bold]render[", "]")  # names split on every `/`
    assert node.benchmark == "web/[bold]render[/]"
    assert node.parent == Node(("web", "[bold]render[", "]"))
    assert Node(("db",)).covers("db/read") and not Node(("db",)).covers("dbx/read")
    assert Node().covers("anything") and Node().is_root


@pytest.mark.parametrize(
    ("pattern", "name", "hit"),
    [
        ("read", "db/read/tps", True),
        ("READ", "db/read/tps", True),
        ("db/*/tps", "db/read/tps", True),
        ("d?/read", "db/read/tps", True),  # a glob matches a benchmark's whole name
        ("d?/rea", "db/read/tps", False),  # or the whole benchmark/metric, nothing less
        ("DB/*", "db/read/tps", False),  # case-sensitive, as --benchmark
        ("[bold]", "web/[bold]render[/]/latency", False),  # a set of one character
        ("*[[]bold]*", "web/[bold]render[/]/latency", True),  # `[[]`: a literal `[`
        ("db/r[ew]ad/*", "db/read/tps", True),
        ("bold]", "web/[bold]render[/]/latency", True),  # no `[`: a substring
        ("[bo", "web/render/latency", False),
        ("*tps", "db/read/latency", False),
        ("", "x/y", True),
    ],
)
def test_name_matcher(pattern, name, hit):
    bench, metric = name.rsplit("/", 1)
    assert name_matcher(pattern)(bench, metric) is hit


NAMES = [
    ("db/read", "tps"),
    ("db/read", "latency"),
    ("web/[bold]render[/]", "latency"),
    ("a b/c.d-e", "x_y"),
    ("Ünï/cödé", "µs"),
    ("deep/er/still/name", "m"),
]


@pytest.mark.parametrize(
    "pattern",
    [
        "read",
        "READ",
        "db/*/tps",
        "d?/read",
        "[bold]",
        "[bo",
        "a b",
        "c.d-e",
        "x_y",
        "ünï",
        "*",
        "?",
        "e/s",
        "\\",
        "(",
        "$",
        "^db",
        "|",
        "db/r[ew]ad/*",
        "*[[]bold]*",
        "[!d]*",
        "*/?",
    ],
)
def test_polars_filter_is_the_python_matcher(pattern):
    """The explorer filters all names at once with polars; one name at a time with Python's
    `re` and fnmatch must give the same answer."""

    from tuibench.tui.view.session import name_mask

    full = pl.Series([f"{b}/{m}" for b, m in NAMES])
    benchmarks = pl.Series([b for b, _ in NAMES])
    expected = [name_matcher(pattern)(b, m) for b, m in NAMES]
    assert name_mask(pattern, benchmarks, full).tolist() == expected


def _tree_by_loop(ordered):
    """Children of every group in the order of their first metric, and metrics below each
    node, with plain loops (what TreeShape computes with numpy)."""
    children, sizes = {}, {}
    for bench, metric in ordered:
        parts = tuple(bench.split("/"))
        chain = [Node(parts[:d]) for d in range(len(parts) + 1)] + [Node(parts, metric)]
        for parent, child in itertools.pairwise(chain):
            siblings = children.setdefault(parent, [])
            if child not in siblings:
                siblings.append(child)
        for node in chain:
            sizes[node] = sizes.get(node, 0) + 1
    return children, sizes


@pytest.mark.parametrize("sort", ["natural", "worst", "name", "system:tuned"])
@pytest.mark.parametrize(("filter_text", "significant"), [("", False), ("db", False), ("", True)])
def test_tree_shape_is_the_plain_one(session, sort, filter_text, significant):
    s = session.state
    s.sort, s.filter_text, s.significant_only = sort, filter_text, significant
    session.recompute()
    children, sizes = _tree_by_loop(session.ordered)
    shape = session.tree_shape()
    for node, kids in children.items():
        assert shape.children(node) == kids
        assert shape.child_count(node) == len(kids)
    for node, n in sizes.items():
        assert shape.size(node) == n
    assert shape.children(Node(("nothing",))) == [] and shape.size(Node(("nothing",))) == 0
    assert shape.child_count(Node(("nothing",))) == 0


def test_toggles_and_orders_reuse_the_comparison(session, monkeypatch):
    """f, s and the filter change what is shown, not the comparison: no new one is made;
    a new reference is compared once, and stepping back to the old one is not."""
    calls = []
    compare = session.analysis.compare
    monkeypatch.setattr(
        session.analysis, "compare", lambda *a, **k: calls.append(a) or compare(*a, **k)
    )
    s = session.state
    for change in [("significant_only", True), ("sort", "worst"), ("filter_text", "db")]:
        setattr(s, *change)
        session.recompute()
    assert calls == []
    s.reference = "patched"
    session.recompute()
    s.reference = "base"
    session.recompute()
    assert [a[0] for a in calls] == ["patched"]
    assert session.visible == [("db/read", "latency"), ("db/read", "tps")]


def test_each_reference_s_rows_have_their_metric_ids_and_gains(session):
    """The rows' metric ids come from their groups (found once per analysis) and the gains
    are put by them: both as a join on the names and a row-by-row reading give them."""
    ids = {pair: i for i, pair in enumerate(session.metrics)}
    for reference in session.systems:
        session.state = dataclasses.replace(session.state, reference=reference)
        session.recompute()
        per, rows = session._current, session.cmp.rows
        names = list(zip(rows["benchmark"], rows["metric"], strict=True))
        assert per.row_ids().tolist() == [ids[pair] for pair in names]
        for system in session.systems:
            want = np.full(len(session.metrics), np.nan)
            for (b, m, sy), gain in zip(
                rows.select(*METRIC, "system").rows(), rows["gain"], strict=True
            ):
                if sy == system and gain is not None:
                    want[ids[(b, m)]] = gain
            np.testing.assert_array_equal(per.gains(system), want)


def test_counts_follow_the_reference(session):
    session.state.reference = "base"
    session.recompute()
    assert session.counts[Node()] == (1, 3)  # web latency worse; db read x2, startup better
    session.state.reference = "patched"
    session.recompute()
    assert session.counts[Node()] == (2, 2)  # db read x2 worse; web, startup better
    assert session.counts[Node(("db", "read"))] == (2, 0)
    assert session.counts[Node(("startup",))] == (0, 1)
    assert all(type(n) is int for c in session.counts.values() for n in c)
    session.state.reference = "base"
    session.recompute()


def test_filter_significant_and_sort(session):
    s = session.state
    s.filter_text, s.significant_only, s.sort = "db", True, "natural"
    session.recompute()
    assert session.visible == [("db/read", "latency"), ("db/read", "tps")]
    s.filter_text, s.significant_only, s.sort = "", False, "worst"
    session.recompute()
    assert session.ordered[0] == ("web/[bold]render[/]", "latency")  # the only regression
    assert set(session.ordered) == set(session.metrics)
    s.sort = "natural"
    session.recompute()
    assert session.ordered == session.metrics


def test_detail_is_the_cores_table(session):
    node = Node.of_metric("db/read", "tps")
    expected = detail_table(session.analysis.compare("base"), "db/read", "tps")
    assert session.detail(node) == expected


def test_best_system_is_the_cores(session):
    from tuibench.analysis.best import best_systems

    core = best_systems(session.cmp)
    assert core[("db/read", "tps")] == "patched"  # +6 %, apart from base and tuned
    assert ("db/write", "tps") not in core  # nothing significant
    for bench, metric in [("db/read", "tps"), ("db/write", "tps"), ("startup", "time")]:
        assert session.detail(Node.of_metric(bench, metric)).best == core.get((bench, metric))


def test_marks_toggle(session):
    node = Node.of_metric("db/read", "tps")
    assert session.toggle_mark(node)[0] == "marked"
    assert session.is_marked(node)
    assert session.toggle_mark(node)[0] == "unmarked"
    assert session.state.marks == []


def test_file_names():
    assert safe_name("pgbench/ro/clients:8") == "pgbench_ro_clients_8"
    assert safe_name("../[bold]") == "bold"
    assert safe_name("///") == "table"
    node = Node.of_metric("web/[bold]render[/]", "latency")
    assert suggest_name(node, "linux-6.9", "csv") == "web_bold_render-latency-vs-linux-6.9.csv"
    assert suggest_name(Node(), "a b", "markdown") == "summary-vs-a_b.md"
    assert suggest_name(Node(("db",)), "x", "latex") == "db-summary-vs-x.tex"
    assert with_extension("out/t.csv", "json") == "out/t.json"
    assert with_extension("t.data", "csv") == "t.data.csv"
    assert default_path(".", "t.csv") == "t.csv"
    assert default_path("out", "t.csv") == "out/t.csv"


def test_refusal(tmp_path):
    results = tmp_path / "results"
    (results / "sys").mkdir(parents=True)
    given = [str(results)]
    why = refusal(resolve(str(results / "sys" / "t.csv")), given)
    assert why and "inside the results folder" in why
    assert refusal(resolve(str(tmp_path / "t.csv")), given) is None
    assert "is a folder" in refusal(resolve(str(tmp_path)), given)
    data = tmp_path / "all.csv"
    data.write_text("x")
    assert "result file" in refusal(resolve(str(data)), [str(data)])
    assert refusal(resolve(str(tmp_path / "t.csv")), [str(data)]) is None


def test_tick_labels():
    # The prefix goes into the axis unit, in the scale of present/numbers.py.
    assert axis_labels([1.9e10, 1.95e10, 2e10], "B/s") == (["19.0", "19.5", "20.0"], "GB/s")
    assert axis_labels([2.1e-5, 2.15e-5, 2.2e-5], "s") == (["21.0", "21.5", "22.0"], "µs")
    assert axis_labels([9800, 9850, 9900], None) == (["9.80", "9.85", "9.90"], "k")
    assert axis_labels([0.19, 0.2, 0.21], "") == (["0.190", "0.200", "0.210"], "")


def test_the_explorer_starts_before_the_core_is_imported():
    """Polars, numpy and scipy load in the loading worker, after the first frame."""
    code = (
        "import sys, tuibench.tui.app\n"
        "heavy = [m for m in ('polars', 'numpy', 'scipy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_report_and_view_state_stay_headless(tmp_path):
    """The report, the core and the explorer's state module never import Textual."""
    results = Path(__file__).resolve().parents[1] / "data" / "tui" / "results"
    code = (
        "import sys, tuibench.tui.view.session, tuibench.tui.view.state\n"
        "import tuibench.tui.view.export_files\n"
        "from tuibench.cli import main\n"
        f"rc = main(['report', {str(results)!r}, '--format', 'json'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _sure(lo: float | None, hi: float | None) -> float:
    """How far from zero an interval certainly lies (0 when it holds zero)."""
    if lo is None or hi is None or lo * hi <= 0:
        return 0.0
    return min(abs(lo), abs(hi))


def _severity_by_hand(session: Session) -> list[tuple[str, str]]:
    """`n`'s order from the comparison's rows, one metric at a time: regressions first by
    the size their worst one certainly has (the interval's bound nearest zero), then by its
    size; then improvements likewise; ties in catalogue order."""
    worst: dict[tuple[str, str], float | None] = {}
    best: dict[tuple[str, str], float | None] = {}
    worst_sure: dict[tuple[str, str], float] = {}
    best_sure: dict[tuple[str, str], float] = {}
    for r in session.cmp.rows.iter_rows(named=True):
        if r["verdict"] not in ("worse", "better"):
            continue
        key = (r["benchmark"], r["metric"])
        sign = -1 if r["better"] == "higher" else 1
        bad = None if r["change"] is None else r["change"] * sign
        lo, hi = r["ratio_ci_low"], r["ratio_ci_high"]
        sure = _sure(None if lo is None else lo - 1, None if hi is None else hi - 1)
        worst.setdefault(key, None)
        best.setdefault(key, None)
        if r["verdict"] == "worse" and bad is not None:
            worst[key] = bad if worst[key] is None else max(worst[key], bad)
            worst_sure[key] = max(worst_sure.get(key, 0.0), sure)
        if r["verdict"] == "better" and bad is not None:
            best[key] = -bad if best[key] is None else max(best[key], -bad)
            best_sure[key] = max(best_sure.get(key, 0.0), sure)
    shown = [k for k in session.visible if k in worst]
    return sorted(
        shown,
        key=lambda k: (
            worst[k] is None,
            -worst_sure.get(k, 0.0),
            -(worst[k] or 0.0),
            best[k] is None,
            -best_sure.get(k, 0.0),
            -(best[k] or 0.0),
        ),
    )


@pytest.mark.parametrize("fixture", ["results", "eight"])
def test_severity_order_matches_a_metric_by_metric_count(fixture):
    rs = load([str(Path(__file__).resolve().parents[1] / "data" / "tui" / fixture)])
    session = Session(rs, Analysis(rs), ViewState(reference=rs.system_names[0]))
    seen_some = False
    for reference, sort, significant, text in itertools.product(
        rs.system_names[:3], ["natural", "worst", "name"], [False, True], ["", "a"]
    ):
        state = ViewState(
            reference=reference, sort=sort, significant_only=significant, filter_text=text
        )
        if sort == "worst":  # as a key installs it: made ahead, with the view
            session.install(state, session.prepare(state, session.compute(state)))
            assert session._severity is not None and session._severity[0] == session.view_key()
        else:  # asked for by `n`
            session.state = state
            session.recompute()
        order = [session.metrics[i] for i in session.severity_order()]
        assert order == _severity_by_hand(session)
        for position, key in enumerate(order):
            assert session.severity_position(key) == position
        seen_some |= len(order) > 1
    assert seen_some  # the fixtures have changes to order


def test_restricting_a_comparison_keeps_the_rows_of_those_metrics_in_their_order(session):
    """The gather over kept row ids gives exactly the rows of each listed metric, metric
    after metric in the order listed, each metric's rows in their own order."""
    import numpy as np

    rng = np.random.default_rng(3)
    rows = session.cmp.rows
    n = len(session.metrics)
    for ids in [
        session.order_ids,
        session.order_ids[::-1],
        np.array([], dtype=np.int64),
        rng.permutation(n)[: n // 2],
        rng.permutation(n),
    ]:
        got = session._restricted(session.cmp, ids, session._current).rows
        parts = [
            rows.filter((pl.col("benchmark") == b) & (pl.col("metric") == m))
            for b, m in (session.metrics[i] for i in ids)
        ]
        want = pl.concat(parts) if parts else rows.clear()
        assert got.equals(want)
        assert got.height > 0 or not len(ids)


@pytest.mark.parametrize("significant", [False, True])
def test_the_systems_summary_of_a_group_takes_its_rows_whatever_their_order(session, significant):
    from tuibench.present.systems_table import system_summary_table

    session.state.significant_only = significant
    session.state.sort = "worst"
    session.recompute()
    for node in [Node(), Node(("db",)), Node(("web",))]:
        expected = system_summary_table(session.comparison_under(node))
        got = session.systems_summary(node)
        assert got is not None and got.rows == expected.rows
