"""A cursor move redraws the two lines that change, not the pane: over SSH every redrawn
cell is bytes on the link (benchmarks/bench_keys_bytes.py measures them in a pty)."""

from __future__ import annotations

import pytest

from tuibench.tui.widgets.detail_pane import DetailPane


def record_dirty(app) -> list:
    """The screen regions the compositor repaints, per frame, from now on."""
    compositor = app.screen._compositor
    seen: list = []
    render = compositor.render_partial_update

    def spy():
        seen.append(sorted(compositor._dirty_regions))
        return render()

    compositor.render_partial_update = spy
    return seen


# the answer; the table of every metric; the answer again, after a metric
@pytest.mark.parametrize("first", [(), ("v",), ("enter", "escape")])
async def test_j_and_k_repaint_two_lines(make_app, loaded, first):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press(*first)
        await pilot.pause(0.2)
        target = app.main.query_one(DetailPane).cursor_target()
        before = target.cursor_line
        seen = record_dirty(app)
        await pilot.press("j")
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        assert target.cursor_line == before
        regions = [r for frame in seen for r in frame]
        assert regions and all(r.height == 1 for r in regions), regions
        assert len({r.y for r in regions}) == 2  # the line left, the line reached


async def test_a_move_in_the_tree_repaints_two_of_its_lines(make_app, loaded):
    from tuibench.tui.widgets.bench_tree import BenchTree

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("tab")  # the tree, its cursor on the root: every line below it
        tree = app.main.query_one(BenchTree)
        assert app.focused is tree and tree.cursor_line == 0
        await pilot.pause(0.2)
        seen = record_dirty(app)
        await pilot.press("j", "k")  # to the first group and back to the root
        await pilot.pause(0.2)
        assert tree.cursor_line == 0
        area = tree.region
        regions = [r for frame in seen for r in frame if r.overlaps(area)]
        assert regions and all(r.height == 1 for r in regions), regions
        assert len({r.y for r in regions}) == 2


async def test_a_key_that_changes_no_count_leaves_the_tree_as_drawn(make_app, loaded):
    """`v` changes only the pane: the tree's lines are not drawn again (on 20,000 metrics
    at 120x40 that was 10 ms of the key); `f` changes the counts: they are."""
    from tuibench.tui.widgets.bench_tree import BenchTree

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.pause(0.2)
        area = app.main.query_one(BenchTree).region
        seen = record_dirty(app)
        await pilot.press("v")
        await pilot.pause(0.2)
        assert seen and not [r for frame in seen for r in frame if r.overlaps(area)]
        seen.clear()
        await pilot.press("f")
        await pilot.pause(0.2)
        assert [r for frame in seen for r in frame if r.overlaps(area)]


async def test_the_groups_beside_the_tree_cursor_are_summarised_while_it_rests(
    make_app, loaded, monkeypatch
):
    """j or k onto a group finds its summary made: it was made while the cursor rested on
    the line beside it (a metric needs none)."""
    from tuibench.tui.widgets import detail_pane
    from tuibench.tui.widgets.bench_tree import BenchTree

    monkeypatch.setattr(detail_pane, "WARM_AFTER", 0.05)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("tab")
        tree = app.main.query_one(BenchTree)
        session = app.main.session
        asked: list = []
        summary = session.summary

        def spy(node, limit=None):
            asked.append(node)
            return summary(node, limit)

        monkeypatch.setattr(session, "summary", spy)
        await pilot.press("j")  # from the root onto its first group
        await pilot.pause(0.5)
        below, above = tree.beside_cursor(1), tree.beside_cursor(-1)
        assert above is not None and above.is_root
        groups = [n for n in (below, above) if n is not None and not n.is_metric]
        assert groups and all(n in asked for n in groups), (asked, below, above)
        asked.clear()
        await pilot.press("j")
        await pilot.pause(0.05)
        assert asked[:1] == [below]  # the pane asks for the one made while resting


def _painted(tree) -> list[list]:
    """The tree's lines on screen as a paint draws them (unfocused: through its cache)."""
    tree._paint_style = tree.rich_style
    try:
        return [list(tree.render_line(y)) for y in range(tree.size.height)]
    finally:
        tree._paint_style = None


async def test_the_unfocused_tree_draws_again_only_the_lines_that_change(make_app, loaded):
    """`n` and escape move the tree's cursor off the root and back, the pane focused.
    Tree keys each cached line by its ancestors' changes, the root's selection one of
    them: every line was drawn again each time (10 ms at 120x40 on 20,000 metrics). Now
    only the cursor's lines are, and every line is as Tree draws it without a cache."""
    from textual.widgets import Tree

    from tuibench.tui.widgets.bench_tree import BenchTree

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        await pilot.press("n", "escape")  # the groups `n` opens stay open
        await pilot.pause(0.2)
        assert not tree.has_focus and tree.cursor_line == 0
        drawn: list[int] = []
        original = Tree._render_line

        def counted(self, y, *args):
            drawn.append(y)
            return original(self, y, *args)

        Tree._render_line = counted
        try:
            for key in ("n", "escape"):
                drawn.clear()
                await pilot.press(key)
                await pilot.pause(0.2)
                assert 1 <= len(set(drawn)) <= 2, (key, drawn)  # the cursor's lines
        finally:
            Tree._render_line = original
        await pilot.press("n")
        await pilot.pause(0.2)
        cached = _painted(tree)
        tree._unfocused_lines.clear()
        tree._line_cache.clear()
        assert _painted(tree) == cached
        drawn.clear()
        Tree._render_line = counted
        try:
            tree.labels_changed()  # what every label shows changed: each line drawn anew
            assert _painted(tree) == cached
        finally:
            Tree._render_line = original
        assert len(drawn) == tree.size.height
