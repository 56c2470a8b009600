"""`escape` back to the answer draws the pane first and moves the tree's cursor a frame later:
the screen it ends on must be the one `n` or `enter` was pressed from, and keys typed before
the tree has followed must act on the tree where it goes."""

from __future__ import annotations

from textual import events

from tuibench.tui.screens.main.navigation import FOLLOW_AFTER
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
    await pilot.pause(FOLLOW_AFTER + 0.1)
    await pilot.pause()


async def escape_back(make_app, loaded, deferred: bool) -> list:
    """Where `escape` after `n`, then after `enter`, ends, and the screen then: with the
    tree following the pane a frame later, or moved with it (as before that)."""
    app = make_app()
    seen = []
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        if not deferred:
            go_to = app.main.go_to
            app.main.go_to = lambda node, tree_after=False: go_to(node)
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
            seen.append((after[1:], app.export_screenshot()))
    return seen


async def test_escape_after_n_or_enter_ends_as_when_the_tree_moved_with_the_pane(make_app, loaded):
    assert await escape_back(make_app, loaded, True) == await escape_back(make_app, loaded, False)


async def test_keys_right_after_escape_act_on_the_tree_where_it_goes(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("n")
        await settle(pilot)
        tree = app.main.query_one(BenchTree)
        assert tree.current.is_metric and tree.cursor_line > 1
        # typed at once: the tree has not followed the pane yet when tab and j arrive
        for key in ("escape", "tab", "j"):  # queued together, as pasted
            app.post_message(events.Key(key, "j" if key == "j" else None))
        await pilot.pause()
        assert app.focused is tree and tree.cursor_line == 1
        await settle(pilot)
        assert tree.cursor_line == 1 and tree.current == tree.beside_cursor(0)
        assert tree.current.parent == Node()
