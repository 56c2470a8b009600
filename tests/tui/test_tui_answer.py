"""The first screen (the answer), drilling down from a row and back, n / N, keys typed
ahead or while loading, and the layout after resizes."""

from __future__ import annotations

import asyncio
import threading

from textual.widgets import Input

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.present.answer import build_answer
from tuibench.tui.view.state import Node, sort_keys
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.table_view import TableView


def core_answer(reference: str = "base"):
    rs = load(["results"])
    return build_answer(Analysis(rs).compare(reference), limit=200)


def change_lines(app) -> list:
    view = app.main.query_one(AnswerView)
    return [line for line in view.lines if line.node is not None]


async def test_first_screen_is_the_cores_answer(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        pane = app.main.query_one(DetailPane)
        assert pane.mode == "answer" and app.focused is pane
        expected = core_answer()
        lines = change_lines(app)
        want = [
            (Node.of_metric(c.benchmark, c.metric), c.verdict)
            for a in expected.systems
            for c in a.changes
        ]
        assert [(line.node, line.verdict) for line in lines] == want
        # systems best first, by the per-system geomean
        view = app.main.query_one(AnswerView)
        headings = ["".join(t for t, _ in line.parts) for line in view.lines if line.parts]
        firsts = [h for h in headings if h.startswith("#")]
        assert [h.split()[1] for h in firsts] == [a.system for a in expected.systems]
        assert len(firsts) == 2


async def test_enter_opens_the_row_and_escape_comes_back_to_it(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        lines = change_lines(app)
        view = app.main.query_one(AnswerView)
        await pilot.press("j")
        second = view.cursor
        assert view.cursor_node == lines[1].node
        await pilot.press("enter")
        assert app.main.current_node == lines[1].node
        pane = app.main.query_one(DetailPane)
        assert pane.mode == "metric" and pane.node == lines[1].node
        await pilot.press("escape")
        assert pane.mode == "answer" and app.main.current_node == Node()
        assert view.cursor == second  # the same row
        await pilot.press("escape")  # nothing to go back to: the tree
        assert app.focused is app.main.query_one(BenchTree)


async def test_group_table_rows_open_their_metric(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("v")  # the table of every metric
        table = app.main.query_one("#summary", TableView)
        keys = app.main.session.metrics_under(Node())
        await pilot.press("j", "j")
        assert table.cursor == 2
        await pilot.press("enter")
        assert app.main.current_node == Node.of_metric(*keys[2])
        await pilot.press("escape")
        assert app.main.query_one(DetailPane).mode == "summary"
        assert table.cursor == 2
        # a click on a row opens it too
        await pilot.click(table, offset=(5, 2))
        await pilot.pause()
        assert app.main.current_node == Node.of_metric(*keys[1])


async def test_n_and_shift_n_follow_the_severity_order(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        rows = app.main.session.cmp.rows
        # worst regression first: the largest bad change among "worse" rows
        worst = {}
        for r in rows.iter_rows(named=True):
            if r["verdict"] == "worse":
                bad = r["change"] * (-1 if r["better"] == "higher" else 1)
                key = (r["benchmark"], r["metric"])
                worst[key] = max(worst.get(key, -1e9), bad)
        order = sorted(worst, key=lambda k: -worst[k])
        severity = [app.main.session.metrics[i] for i in app.main.session.severity_order()]
        assert severity[: len(order)] == order
        await pilot.press("n")
        assert app.main.current_node == Node.of_metric(*order[0])
        await pilot.press("n")
        assert app.main.current_node == Node.of_metric(*severity[1])
        await pilot.press("N")
        assert app.main.current_node == Node.of_metric(*order[0])
        await pilot.press("N")  # wraps around to the last
        assert app.main.current_node == Node.of_metric(*severity[-1])


async def test_keys_typed_while_loading_are_kept(make_app, loaded, monkeypatch):
    from tuibench.tui.view.reloads import Reloads

    gate = threading.Event()
    real = Reloads.load

    def slow_load(*args, **kwargs):
        gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(Reloads, "load", slow_load)  # the explorer's loads go through it
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("j", "j", "enter")  # while loading
        assert not app.main.loaded
        gate.set()
        await loaded(pilot)
        for _ in range(40):
            await pilot.pause(0.05)
            if app.main.query_one(DetailPane).mode == "metric":
                break
        third = change_lines(app)[2].node
        assert app.main.current_node == third


async def test_keys_typed_right_after_tab_reach_the_new_focus(make_app, loaded):
    from textual import events

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        for key in ("tab", "j", "j"):  # in one burst, as pasted
            app._driver.send_message(events.Key(key, None))
        for _ in range(40):
            await pilot.pause(0.05)
            if app.main.current_node == Node(("db", "read")):
                break
        assert app.focused is app.main.query_one(BenchTree)
        assert app.main.current_node == Node(("db", "read"))


async def test_layout_follows_every_resize(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        left = app.main.query_one("#left")
        await pilot.press("tab")  # the tree has the focus: it shows at any width
        assert left.display
        await pilot.press("tab")  # the tables have it
        for width, shown in [(80, False), (140, True), (90, False), (100, True)]:
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            assert app.size.width == width
            assert left.display is shown, width


async def test_ctrl_c_quits(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("ctrl+c")
        await asyncio.sleep(0)
    assert app.return_code in (0, None)
    assert not app.is_running


def test_a_missing_path_fails_before_the_screen_is_taken(tmp_path, capsys):
    from tuibench.cli import main

    assert main([str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder" in err and "nope" in err


async def test_narrow_tables_are_compact_and_scroll_by_whole_columns(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(48, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("v")
        table = app.main.query_one("#summary", TableView)
        assert table.compact  # no Amean column, no (0.00%) for the reference
        assert table._header[0] == "metric"
        assert all("(" not in cell for cell in (row[1] for row in table._rows))
        assert all(
            row[2].split()[-1].endswith("%") or row[2].endswith(("*", "~", "?"))
            for row in table._rows
        )
        header = "".join(seg.text for seg in table.render_line(0))
        edges = table._edges()
        for _ in range(len(edges)):
            await pilot.press("l")
            assert round(table.scroll_x) in edges  # never between two columns
            line = "".join(seg.text for seg in table.render_line(1))
            for cell in table._rows[0][table.fixed_columns :]:
                # a number is shown whole or not at all
                for part in cell.split():
                    assert part in line or part[-4:] not in line
        assert "more" in header or "→" in header  # columns off screen are announced
        await pilot.press("l")
        assert round(table.scroll_x) == table.max_scroll_x
        last = "".join(seg.text for seg in table.render_line(0))
        assert table._header[-1] in last  # the last system can be reached


async def test_a_large_reference_switch_runs_in_a_worker(make_app, loaded, monkeypatch):
    import tuibench.tui.screens.main.view as app_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)  # every switch counts as large
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("right_square_bracket", "right_square_bracket")  # base -> tuned
        await pilot.press("f")  # a key during the comparison still acts
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.main.session.state.reference == "tuned"
        assert app.main.session.state.significant_only
        assert app.main.session.cmp.reference == "tuned"
        expected = core_answer("tuned")
        assert [a.system for a in app.main.session.answer().systems] == [
            a.system for a in expected.systems
        ]


async def settled(app, pilot, timeout: float = 20.0) -> None:
    """Wait until nothing asked for is pending. One wait_for_complete() is not enough: a
    worker that finishes while keys were queued starts another (once more) after it."""
    deadline = asyncio.get_running_loop().time() + timeout
    while app.main._asked or app.main._computing:
        assert asyncio.get_running_loop().time() < deadline, "the comparison never settled"
        await app.workers.wait_for_complete()
        await pilot.pause(0.01)
    await pilot.pause()


async def test_on_a_large_set_view_keys_run_in_a_worker_and_each_press_counts(
    make_app, loaded, monkeypatch
):
    import tuibench.tui.screens.main.view as app_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)  # every set counts as large
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        sorts = sort_keys(app.main.session.systems, app.main.session.state.reference)
        start = sorts.index(app.main.session.state.sort)
        gate = threading.Event()  # holds every comparison until the keys are pressed
        compute = app.main.session.compute
        monkeypatch.setattr(app.main.session, "compute", lambda s: gate.wait(10) and compute(s))
        await pilot.press("s", "f", "f", "s", "percent_sign")
        assert app.main.session.state.sort == sorts[start]  # nothing shown yet: in a worker
        await pilot.press("j")  # the keys still move the cursor meanwhile
        gate.set()
        await settled(app, pilot)
        state = app.main.session.state
        assert state.sort == sorts[(start + 2) % len(sorts)]  # two presses, two steps
        assert not state.significant_only  # on, then off again
        assert state.percent == "change"
        assert not app.main._asked  # everything asked for is shown
        tree = app.main.query_one(BenchTree)
        assert [app.main.session.metrics[i] for i in tree.shown] == app.main.session.ordered
        await pilot.press("n")
        first = app.main.session.metrics[app.main.session.severity_order()[0]]
        assert app.main.current_node == Node.of_metric(*first)


async def test_a_large_filter_waits_for_a_pause_and_runs_in_a_worker(make_app, loaded, monkeypatch):
    import tuibench.tui.screens.main.view as app_module

    monkeypatch.setattr(app_module, "BACKGROUND_FROM", 0)  # every set counts as large
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("tab", "slash", "d", "x", "backspace", "b")  # typed as one word
        filter_box = app.main.query_one("#filter", Input)
        assert filter_box.value == "db"  # every key reached the field, in order
        for _ in range(100):
            await pilot.pause(0.02)
            if app.main.session.state.filter_text == "db" and not app.workers:
                break
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.main.session.state.filter_text == "db"
        assert app.main.session.visible == [
            ("db/read", "latency"),
            ("db/read", "tps"),
            ("db/write", "tps"),
        ]
        tree = app.main.query_one(BenchTree)
        assert [app.main.session.metrics[i] for i in tree.shown] == app.main.session.ordered
        await pilot.press("enter", "right_square_bracket")  # a switch keeps the filter
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.main.session.state.reference == "patched"
        assert app.main.session.state.filter_text == "db"
        assert len(app.main.session.visible) == 3


async def test_a_click_on_a_header_sorts_by_that_system(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(160, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("v")
        table = app.main.query_one("#summary", TableView)
        x = next(
            x
            for x in range(table.size.width)
            if table._column_at(x) is not None and table._header[table._column_at(x)] == "patched"
        )
        await pilot.click(table, offset=(x, 0))
        await pilot.pause()
        assert app.main.session.state.sort == "system:patched"
        assert "patched ↓" in table._header
        gains = {
            (r["benchmark"], r["metric"]): r["gain"]
            for r in app.main.session.cmp.rows.iter_rows(named=True)
            if r["system"] == "patched"
        }
        order = app.main.session.ordered
        assert [gains[k] for k in order] == sorted(gains[k] for k in order)  # worst first


async def test_a_groups_systems_table_says_it_is_over_every_metric(make_app, loaded):
    """The per-system summary is over every metric of the comparison (the same under every
    group): where the table lists fewer (a group, `f`), its heading says so; for the whole
    comparison it need not."""
    from textual.widgets import Static

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        heading = app.main.query_one("#systems-heading", Static)
        await pilot.press("v")  # the root's table of every metric
        await pilot.pause()
        assert "over every metric" not in str(heading.render())
        await pilot.press("tab", "j")  # the first group
        await pilot.pause()
        assert not app.main.current_node.is_root and not app.main.current_node.is_metric
        text = str(heading.render())
        assert text.startswith("Systems against ")
        assert text.endswith(" · over every metric, not only those listed here")
        await pilot.press("k", "tab", "f")  # the root again, significant changes only
        await pilot.pause(0.3)
        assert app.main.current_node.is_root and app.main.session.state.significant_only
        assert str(heading.render()).endswith(" · over every metric, not only those listed here")
