"""`escape` back to the answer ends on the screen `n` or `enter` was pressed from, and keys
typed right after it act on the tree where it went."""

from __future__ import annotations

from textual import events

from tuibench.tui.view.state import Node
from tuibench.tui.widgets.answer_view import AnswerView
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane

SIZE = (120, 16)  # the tree beside the pane, both scrolling


def place(app) -> tuple:
    """Where the focus, the cursors and the scrolling are."""
    tree, pane = app.main.query_one(BenchTree), app.main.query_one(DetailPane)
    view = app.main.query_one(AnswerView)
    return (
        app.focused,
        pane.node,
        pane.mode,
        view.cursor,
        pane.scroll_y,
        tree.current,
        tree.cursor_line,
        tree.scroll_y,
    )


async def settle(pilot) -> None:
    await pilot.pause(0.1)
    await pilot.pause()


async def test_escape_after_n_or_enter_ends_where_the_key_was_pressed(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press(*"jjjjjj")  # a change further down: the pane has scrolled
        await settle(pilot)
        before = place(app)
        assert before[3] is not None and before[4] > 0
        for key in ("n", "enter"):
            await pilot.press(key)
            await settle(pilot)
            assert app.main.current_node.is_metric
            await pilot.press("escape")
            await settle(pilot)
            after = place(app)
            # back where the key was pressed (the pane scrolled just enough to show the row)
            assert after[:4] == before[:4] and after[5:] == before[5:]


async def test_keys_right_after_escape_act_on_the_tree_where_it_goes(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("n")
        await settle(pilot)
        tree = app.main.query_one(BenchTree)
        assert tree.current.is_metric and tree.cursor_line > 1
        for key in ("escape", "tab", "j"):  # queued together, as pasted
            app.post_message(events.Key(key, "j" if key == "j" else None))
        await pilot.pause()
        assert app.focused is tree and tree.cursor_line == 1
        await settle(pilot)
        assert tree.cursor_line == 1 and tree.current == tree.beside_cursor(0)
        assert tree.current.parent == Node()
