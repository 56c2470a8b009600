"""Once the keys rest (after the first screen too), the tree makes the nodes on the way to
the metric `n` goes to next: at a million metrics adding a group's children was 25-30 ms of
the first `n` into it."""

from __future__ import annotations

from tests.tui.test_tui_one_frame import write_results
from tuibench.tui.screens.main.navigation import NEXT_AHEAD
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane


def tree_lines(tree: BenchTree) -> list[str]:
    return [str(line.path[-1].label) for line in tree._tree_lines]


async def test_the_next_metric_of_n_is_in_the_tree_before_n(make_app, loaded, tmp_path):
    app = make_app(paths=[str(write_results(tmp_path / "results"))])
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        for _ in range(3):  # from the answer, then from each metric `n` went to
            current = app.main.query_one(DetailPane).node or app.main.current_node
            target, _ = app.main._flagged_after(current, 1)
            await pilot.pause(NEXT_AHEAD)
            for _ in range(50):  # a busy machine delays the timer (once 0.2 s was too short)
                if target in tree._by_key:
                    break
                await pilot.pause(0.1)
            assert target in tree._by_key  # made while the keys rested ...
            lines = tree_lines(tree)
            await pilot.pause(0.2)
            assert tree_lines(tree) == lines  # ... and no line on screen changed for it
            made = len(tree._by_key)
            await pilot.press("n")
            assert app.main.query_one(DetailPane).node == target
            assert len(tree._by_key) == made  # `n` made no node


async def test_the_view_of_the_next_s_is_made_while_the_keys_rest(make_app, loaded, tmp_path):
    app = make_app(paths=[str(write_results(tmp_path / "results"))])
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        for _ in range(4):  # through every order, back to the first
            session = app.main.session
            after = app.main._next_sort(session.state)
            for _ in range(50):  # made once the keys rest (a busy machine delays the timer)
                await pilot.pause(0.1)
                if session._ahead is not None and session._ahead[0][2] == after:
                    break
            made = session._ahead[1]
            await pilot.press("s")
            assert session.state.sort == after
            assert session.order_ids is made.order  # installed as made, not made again
            assert app.main.query_one(BenchTree).shows(session)  # the tree in that order
