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
