"""A key's effect is drawn in one frame, and the tree's column keeps its width.

Each frame the app hands to the terminal is cut to the cells it changes (as the driver
does); a key whose effect came in two frames settled later over SSH."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual._compositor import LayoutUpdate

from tuibench.tui import textual_adapter
from tuibench.tui.line_diff import TerminalCopy
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.key_footer import KeyFooter

QUIET = 0.15  # seconds without a frame: the key's effect is drawn


def write_results(root: Path, benchmarks: int = 200) -> Path:
    """Two systems, `benchmarks` in 10 suites, every 20th slower; one long name that is not
    significant. 200 start with the suites expanded (too many lines to expand all), 400
    with the suites alone: lines that fit, the tree's scroll bar hidden until `n`."""
    names = [(f"suite{i % 10}/bench{i}", "time") for i in range(benchmarks)]
    names.append(("suite0/long", "a_rather_long_metric_name"))
    for system, slower in (("base", 1.0), ("new", 1.5)):
        lines = ["benchmark,metric,iteration,sample,value,unit"]
        for i, (bench, metric) in enumerate(names):
            centre = 10.0 * (slower if i % 20 == 0 else 1.0)
            for it in range(3):
                lines += [f"{bench},{metric},{it},{s},{centre + 0.01 * s},ms" for s in range(3)]
        (root / system).mkdir(parents=True)
        (root / system / "results.csv").write_text("\n".join(lines) + "\n")
    return root


def shown(copy: TerminalCopy) -> str:
    """The text the terminal shows, as far as the frames wrote it."""
    rows = copy._rows
    return "\n".join("".join(str(cell[0]) for cell in rows[y]) for y in sorted(rows))


class Frames:
    """The frames the app hands to the terminal: each one's changed cells, and whether
    Textual painted the whole screen for it."""

    def __init__(self, app) -> None:
        self.copy = TerminalCopy()
        self.changed: list[int] = []
        self.whole: list[bool] = []
        self.at: list[float] = []  # when each frame came (monotonic seconds)
        self.pressed = time.monotonic()  # when the last key of `after` was pressed
        display = app._display

        def spy(screen, update) -> None:
            display(screen, update)
            if update is None:
                return
            cells = textual_adapter.changed_cells(app, self.copy, update)
            if cells is not None:
                cells.render_segments(app.console)  # the copy learns what was written
            self.changed.append(0 if cells is None else len(cells.runs))
            self.whole.append(isinstance(update, LayoutUpdate))
            self.at.append(time.monotonic())

        app._display = spy

    async def after(self, pilot, key: str) -> list[int]:
        """The frames that changed cells after `key` (their runs of changed cells)."""
        await self.quiet(pilot)
        self.changed.clear()
        self.whole.clear()
        self.at.clear()
        self.pressed = time.monotonic()
        await pilot.press(key)
        await self.quiet(pilot)
        return [n for n in self.changed if n]

    def said(self) -> str:
        """The frames since the last key, for a failure's message: when each came after
        the key, how many runs of cells it changed, and whether it was a whole layout."""
        return ", ".join(
            f"+{1e3 * (t - self.pressed):.0f} ms: {n} runs{' (layout)' if w else ''}"
            for t, n, w in zip(self.at, self.changed, self.whole, strict=True)
        )

    async def quiet(self, pilot) -> None:
        while True:
            seen = len(self.changed)
            await asyncio.sleep(QUIET)
            await pilot.pause()
            if len(self.changed) == seen:
                return


async def test_a_change_of_focus_is_drawn_in_one_frame(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        frames = Frames(app)
        tree, pane = app.main.query_one(BenchTree), app.main.query_one(DetailPane)
        footer = app.main.query_one(KeyFooter)
        await frames.quiet(pilot)
        on_answer = footer.plain
        assert app.focused is pane and pane.styles.background_tint.a > 0
        assert len(await frames.after(pilot, "tab")) == 1, frames.said()  # tint, footer: one frame
        assert app.focused is tree and tree.has_focus and not pane.has_focus
        # the focus tint moved with the focus; the footer names the tree's keys
        assert tree.styles.background_tint.a > 0 and pane.styles.background_tint.a == 0
        assert footer.plain != on_answer
        assert not any(frames.whole)  # only the two panes and the footer were painted
        assert len(await frames.after(pilot, "tab")) == 1, frames.said()
        assert app.focused is pane and pane.styles.background_tint.a > 0
        assert tree.styles.background_tint.a == 0 and footer.plain == on_answer
        assert not any(frames.whole)


@pytest.mark.parametrize("size", [(120, 30), (80, 24)])  # narrow: the tree hides, comes back
async def test_enter_and_escape_on_a_tree_metric_draw_one_frame_each(make_app, loaded, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await loaded(pilot)
        frames = Frames(app)
        tree = app.main.query_one(BenchTree)
        await pilot.press("tab")
        while not tree.current.is_metric:
            await pilot.press("j")
        assert len(await frames.after(pilot, "enter")) == 1, frames.said()
        assert isinstance(app.focused, DetailPane)
        assert len(await frames.after(pilot, "escape")) == 1, frames.said()
        assert app.focused is tree


@pytest.mark.parametrize("benchmarks", [200, 400])
async def test_n_and_escape_each_draw_one_frame(
    make_app, loaded, tmp_path, monkeypatch, benchmarks
):
    write_results(tmp_path / "results", benchmarks)
    monkeypatch.chdir(tmp_path)
    app = make_app(paths=["results"])
    # the pane scrolls for the answer and the metric alike (its scroll bar that comes or
    # goes is a layout more: not measured); the tree's does come with the groups n opens
    async with app.run_test(size=(120, 16)) as pilot:
        await loaded(pilot)
        frames = Frames(app)
        # the first time too: the tables' scroll bars are decided before the frame
        for _ in range(3):  # from the answer; then back with escape, also in one frame
            assert len(await frames.after(pilot, "n")) == 1, frames.said()
            assert app.main.query_one(DetailPane).mode == "metric"
            assert len(await frames.after(pilot, "escape")) == 1, frames.said()
            assert app.main.query_one(DetailPane).mode == "answer"


@pytest.mark.parametrize("benchmarks", [200, 400])
async def test_the_trees_width_stays_put_whatever_it_shows(
    make_app, loaded, tmp_path, monkeypatch, benchmarks
):
    write_results(tmp_path / "results", benchmarks)
    monkeypatch.chdir(tmp_path)  # a short root label: the lines, not it, make the width
    app = make_app(paths=["results"])
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        left = app.main.query_one("#left")
        # with 400, the suites' lines fit: the scroll bar's column is kept all the same
        assert tree.show_vertical_scrollbar == (benchmarks == 200)
        widths = {(tree.outer_size.width, left.outer_size.width)}
        # `f` leaves the significant metrics only, `s` orders them, `n` opens groups
        for key in ("f", "s", "n", "escape", "s", "f", "tab", "left", "left", "left"):
            await pilot.press(key)
            await pilot.pause(0.05)
            widths.add((tree.outer_size.width, left.outer_size.width))
        assert len(widths) == 1, widths
        lines = tree.last_line + 1
        await pilot.press("f")
        await pilot.pause(0.05)
        assert tree.last_line + 1 != lines  # the lines shown did change
        assert {(tree.outer_size.width, left.outer_size.width)} == widths


async def test_two_changes_of_focus_before_their_events_end_styled_as_the_focus_is(
    make_app, loaded
):
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        tree, pane = app.main.query_one(BenchTree), app.main.query_one(DetailPane)
        for first, second in ((tree, pane), (pane, tree), (tree, pane)):
            app.main.focus_now(first)  # both before the Focus and Blur events are handled
            app.main.focus_now(second)
            await pilot.pause()
            await pilot.pause()
            assert app.focused is second and second.has_focus and not first.has_focus
            assert second.styles.background_tint.a > 0 and first.styles.background_tint.a == 0


async def test_s_draws_its_notice_in_the_frame_of_the_tree(make_app, loaded, tmp_path):
    """The notice is set by `s`'s action itself, so the frame that draws the tree draws it
    (a toast was mounted on later turns of the loop, and drawn in a frame of its own)."""
    from tuibench.tui.notices import Notice, NoticeRack
    from tuibench.tui.view.state import sort_label

    app = make_app(paths=[str(write_results(tmp_path / "results"))])
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await loaded(pilot)
        frames = Frames(app)
        rack = app.main.query_one(NoticeRack)
        for _ in range(2):  # also while the notice of the last `s` still shows
            await frames.quiet(pilot)
            await app.run_action("cycle_sort", app.main)  # as the key runs it
            said = f"Tree and tables: {sort_label(app.main.wanted.sort)}"
            assert rack.display and rack.text == said  # before the loop turns again
            assert len(await frames.after(pilot, "s")) == 1, frames.said()  # pressed: one frame
            said = f"Tree and tables: {sort_label(app.main.wanted.sort)}"
            assert rack.text == said and said in shown(frames.copy)  # drawn
        assert not app._notifications  # no toast besides
        await pilot.click(rack.query_one(Notice))  # gone on a click, as a toast goes
        assert not rack.display and not rack.text


async def test_the_notice_and_a_toast_never_show_together(make_app, loaded):
    from tuibench.tui.notices import NoticeRack, say, say_now

    app = make_app()
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await loaded(pilot)
        rack = app.main.query_one(NoticeRack)
        say_now(app, "first", timeout=5)
        assert rack.text == "first"
        say(app, "a toast")  # takes the notice's place
        await pilot.pause()
        assert not rack.display and [n.message for n in app._notifications] == ["a toast"]
        say_now(app, "second", timeout=5)  # a toast shows: said as a toast too
        await pilot.pause()
        assert not rack.display
        assert [n.message for n in app._notifications] == ["a toast", "second"]


async def test_keys_leave_no_drawn_lines_in_reference_cycles(make_app, loaded):
    """A line drawn and replaced is freed at once, not by a full collection later (which
    a key arriving meanwhile waits for)."""
    import gc

    from textual.strip import Strip

    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("n", "escape", "s")
        await pilot.pause(0.1)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collection finds is kept, to look at
        try:
            for key in ("n", "escape", "s", "tab", "j", "k", "tab"):
                await pilot.press(key)
                await pilot.pause(0.05)
            gc.collect()
            strips = sum(isinstance(o, Strip) for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        # without the mend: 806; left: the lines of a line cache cleared (Textual's LRU
        # cache keeps them in a ring of lists), 47
        assert strips < 100
