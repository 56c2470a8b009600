"""`y` copies what the pane shows (the answer as shown on the first screen), and `escape`
after `n` goes back to where `n` was pressed from."""

from __future__ import annotations

from tuibench.output.answer_markdown import answer_markdown
from tuibench.present.answer import answer_lines
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane


def shown_text(app) -> list[str]:
    """The answer's lines as the screen has them (headings, counts, warnings, changes)."""
    view = app.main.query_one(AnswerView)
    return ["".join(t for t, _ in line.parts) or " ".join(line.cells or []) for line in view.lines]


async def test_y_on_the_answer_copies_the_answer_not_the_table(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert app.main.query_one(DetailPane).mode == "answer"
        await pilot.press("y")
        text = app.clipboard
        session = app.main.session
        answer = session.answer()
        assert text == answer_markdown(answer, session.ranking(), session.reference_note())
        assert text.startswith("**The answer** · 2 systems against base")
        # every change the screen lists, in its order, and nothing of the 56-row table
        listed = [c for a in answer.systems for c in a.changes]
        rows = [line for line in text.splitlines() if line.startswith("| ")]
        rows = [line for line in rows if "|---" not in line]
        changes = [r for r in rows if not r.startswith("| | ")]
        assert len(changes) == len(listed) == len(change_nodes(app))
        for row, c in zip(changes, listed, strict=True):
            assert row.endswith(f"| {c.benchmark} {c.metric} |")
            assert f"| {c.verdict}" in row
        # the counts and warnings the screen shows are in it, as the plain answer has them
        for line in answer_lines(answer):
            if " vs base: " in line:
                counts = line.split(" · geomean")[0]
                assert f"**{counts}**" in text
        heads = [h for h in shown_text(app) if "worse ·" in h]
        assert heads and all(h.strip().split(" · ")[0] in text for h in heads)
        said = app._notifications
        assert any("the answer as Markdown" in n.message for n in said)
        await pilot.press("v", "y")  # the table of every metric: what `v` shows
        table = app.clipboard
        assert "**The answer**" not in table
        assert sum(line.startswith("| ") for line in table.splitlines()) > len(rows)


async def test_y_elsewhere_copies_that_pane(make_app, loaded):
    from tuibench.output.rendering import render_shareable
    from tuibench.tui.view.export_files import shareable

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("enter", "y")  # the metric of the first change: its table
        node = app.main.current_node
        assert node.is_metric
        assert "**The answer**" not in app.clipboard
        cmp = app.main.session.comparison_under(node)
        table = app.main.session.current_table(node)
        share = shareable(
            node, cmp, table.title, app.main.run_facts(), app.main.session.whole_under(node)
        )
        assert app.clipboard == render_shareable(share, "markdown")


def change_nodes(app) -> list[Node]:
    return [line.node for line in app.main.query_one(AnswerView).lines if line.node is not None]


async def test_escape_after_n_returns_to_the_answer_at_80_columns(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        pane, view = app.main.query_one(DetailPane), app.main.query_one(AnswerView)
        await pilot.press("j")
        row = view.cursor
        await pilot.press("n", "n", "n")  # a run of n: one step back
        assert pane.mode == "metric"
        await pilot.press("escape")
        assert pane.mode == "answer" and app.main.current_node == Node()
        assert app.focused is pane and view.cursor == row  # the row n was pressed from
        await pilot.press("escape")  # nothing else to go back to: the tree
        assert app.focused is app.main.query_one(BenchTree)


async def test_escape_after_enter_then_n_goes_back_step_by_step(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        pane = app.main.query_one(DetailPane)
        await pilot.press("enter")
        opened = app.main.current_node
        await pilot.press("n")
        assert app.main.current_node != opened
        await pilot.press("escape")  # n was pressed on the opened metric
        assert app.main.current_node == opened and pane.mode == "metric"
        await pilot.press("escape")
        assert pane.mode == "answer"


async def test_a_copy_under_a_filter_names_the_filter(make_app, loaded):
    """Pasted, an answer copied under a filter read as the whole answer: it now says which
    filter made it and what it narrowed; a table's copy says the same."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("slash", "d", "b", "enter")
        await pilot.pause()
        await pilot.press("y")
        text = app.clipboard
        assert "> Filter 'db': the counts and changes are of the metrics it keeps" in text
        await pilot.press("v", "y")
        assert "Filter 'db': the tables list only the metrics it keeps." in app.clipboard
