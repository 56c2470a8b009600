"""The private parts of Textual that tuibench/tui/textual_adapter.py relies on are still
there, take the same arguments and are still called where the adapter's hooks need them.
A failure here means Textual changed: fix textual_adapter.py."""

from __future__ import annotations

import inspect
import os
import selectors
import signal

import pyte
from textual import events
from textual.app import App, ComposeResult
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver
from textual.widget import Widget
from textual.widgets import Input, Static, Tree
from textual.widgets.tree import TreeNode

from tuibench.tui import textual_adapter
from tuibench.tui.line_diff import TerminalCopy


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def _calls(owner, name: str) -> bool:
    """Whether Textual's own code of `owner` calls `name` (not only defines it)."""
    return f"{name}(" in inspect.getsource(owner).replace(f"def {name}(", "")


def test_forward_event_marks_the_event_and_posts_it():
    assert _parameters(Widget._forward_event) == ["self", "event"]
    posted = []
    widget = Widget()
    widget.post_message = posted.append
    key = events.Key("a", "a")
    textual_adapter.forward_event(widget, key)
    assert posted == [key] and key.is_forwarded


def test_keymap_is_what_set_keymap_made():
    app = App()
    assert textual_adapter.keymap(app) == {}
    app.set_keymap({"tuibench.export": "x"})
    assert textual_adapter.keymap(app) == {"tuibench.export": "x"}
    app.update_keymap({"tuibench.quit": "?"})
    assert textual_adapter.keymap(app)["tuibench.quit"] == "question_mark"  # normalised


def test_a_widgets_bound_action_is_found_by_key():
    field = Input()
    assert textual_adapter.bound_action(field, "backspace") == "delete_left"
    assert textual_adapter.bound_action(field, "enter") == "submit"
    assert textual_adapter.bound_action(field, "x") is None


def test_exit_output_can_be_dropped():
    app = App()
    assert isinstance(app._exit_renderables, list)
    app._exit_renderables.append("traceback")
    textual_adapter.drop_exit_output(app)
    assert app._exit_renderables == []


def test_crash_hook_runs_after_textual_handled_the_exception():
    assert _parameters(App._handle_exception) == ["self", "error"]
    assert _calls(App, "_handle_exception")
    assert "self._fatal_error()" in inspect.getsource(App._handle_exception)
    assert "self._exit_renderables" in inspect.getsource(App._fatal_error)  # the traceback


def test_a_whole_repaint_can_be_taken_back():
    widget = Widget()
    assert isinstance(widget._repaint_regions, set)
    assert "_repaint_regions" in inspect.getsource(Widget._exchange_repaint_regions)
    textual_adapter.drop_pending_repaint(widget)
    assert widget._repaint_regions == set()


def test_a_node_expands_quietly():
    tree = Tree("root")
    node = tree.root.add("child", allow_expand=True)
    assert not node.is_expanded
    textual_adapter.expand_quietly(node)
    assert node.is_expanded
    assert "self._expanded" in inspect.getsource(TreeNode.is_expanded.fget)


def test_tree_hooks_override_steps_tree_still_takes():
    for name, parameters in (
        ("_invalidate", ["self"]),
        ("_toggle_node", ["self", "node"]),
        ("_refresh_node", ["self", "node"]),
        ("_render_line", ["self", "y", "x1", "x2", "base_style"]),
    ):
        assert _parameters(getattr(Tree, name)) == parameters, name
        assert _calls(Tree, name), name  # Tree's own code still goes through it
    # render_line as TreeHooks repeats it: the style, the scroll offset, the width
    line = inspect.getsource(Tree.render_line)
    assert "self.rich_style" in line and "y + scroll_y" in line and "scroll_x + width" in line
    assert "_tree._invalidate()" in inspect.getsource(TreeNode)  # adding a node invalidates
    # TreeHooks._unfocused_line keys a line by what Tree's own cache key holds, less the
    # ancestors' changes: a new part of Tree's key may be a look it does not know of
    source = inspect.getsource(Tree._render_line)
    key = source[source.index("cache_key = (") : source.index(")\n", source.index("cache_key = ("))]
    assert [part.strip() for part in key.splitlines()[1:] if part.strip()] == [
        "y,",
        "is_hover,",
        "width,",
        "self._updates,",
        "self._pseudo_class_state,",
        "tuple(node._updates for node in line.path),",
    ]
    assert "selected = line.path[0]._selected and self.has_focus" in source
    assert _parameters(TreeNode.line.fget) == ["self"]


def test_tree_hooks_are_called():
    class Hooked(textual_adapter.TreeHooks, Tree):
        batch = True

        def __init__(self, label: str) -> None:
            self.toggled = []
            super().__init__(label)

        def batching(self) -> bool:
            return self.batch

        def before_toggle(self, node) -> None:
            self.toggled.append(node)

    tree = Hooked("root")
    invalidated = []
    original = Tree._invalidate
    Tree._invalidate = lambda self: invalidated.append(self)
    try:
        tree.root.add("a")
        assert invalidated == []  # batching: no rebuild per node
        tree.batch = False
        tree.invalidate_lines()
        assert invalidated == [tree]
    finally:
        Tree._invalidate = original
    node = tree.root.add("b", allow_expand=True)
    tree._toggle_node(node)  # what Tree's keys and clicks call
    assert tree.toggled == [node] and node.is_expanded


class _FocusTree(App):
    class Hooked(textual_adapter.TreeHooks, Tree):
        pass

    def compose(self) -> ComposeResult:
        tree = self.Hooked("root")
        tree.root.expand()
        for name in "abc":
            tree.root.add_leaf(name)
        yield tree
        yield Static("other", id="other")


async def test_a_change_of_focus_redraws_the_tree_without_a_layout():
    """Tree lays the screen out on every change of style (its notify_style_update
    invalidates with layout=True); TreeHooks only draws the lines again, in the new style."""
    assert "_invalidate()" in inspect.getsource(Tree.notify_style_update)
    app = _FocusTree()
    async with app.run_test(size=(20, 6)) as pilot:
        tree = app.query_one(_FocusTree.Hooked)
        other = app.query_one("#other", Static)
        other.can_focus = True
        tree.focus()
        await pilot.pause()
        styles_focused = _styles(app, 0)
        laid_out = []
        original = Widget.refresh

        def refresh(self, *regions, layout=False, **kw):
            if layout and self is tree:
                laid_out.append(self)
            return original(self, *regions, layout=layout, **kw)

        Widget.refresh = refresh  # type: ignore[method-assign]
        try:
            other.focus()
            await pilot.pause()
        finally:
            Widget.refresh = original  # type: ignore[method-assign]
        assert laid_out == []
        # drawn again in the style without focus: the cursor's line is no longer lit
        assert _styles(app, 0) != styles_focused


def _styles(app: App, y: int) -> list:
    """The styles of the screen's line `y`, as the compositor draws it."""
    return [segment.style for segment in app.screen._compositor.render_strips()[y]]


def test_the_input_selector_can_be_replaced(monkeypatch):
    assert linux_driver.selectors is selectors  # the module the input thread reads
    source = inspect.getsource(LinuxDriver.run_input_thread)
    assert "selectors.SelectSelector()" in source and "selectors.EVENT_READ" in source
    monkeypatch.setattr(linux_driver, "selectors", selectors)  # restored afterwards

    class Prompt(selectors.SelectSelector):
        pass

    textual_adapter.use_input_selector(Prompt)
    assert linux_driver.selectors.SelectSelector is Prompt
    assert linux_driver.selectors.EVENT_READ == selectors.EVENT_READ


class Recording(App):
    """Records what Textual hands its display (headless, it would write nothing)."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: list = []

    def compose(self) -> ComposeResult:
        yield Static("hello", id="a")
        yield Static("world " * 5, id="b")

    def _display(self, screen, renderable) -> None:
        self.handed.append(renderable)


def terminal_after(app: Recording, screen: pyte.Screen, stream: pyte.ByteStream) -> list[str]:
    """Writes what the display was handed, as Textual would; the screen's text."""
    for update in app.handed:
        if update is not None:
            stream.feed(update.render_segments(app.console).encode())
    app.handed.clear()
    return screen.display


async def test_the_display_gets_only_the_changed_cells():
    app = Recording()
    copy = TerminalCopy()
    async with app.run_test(size=(40, 6)) as pilot:
        textual_adapter.show_changes_only(app, copy)
        screen = pyte.Screen(40, 6)
        stream = pyte.ByteStream(screen)
        app.screen.refresh()  # a whole-screen update (LayoutUpdate), all of it new
        await pilot.pause()
        assert any(isinstance(u, textual_adapter.ChangedCells) for u in app.handed)
        expected = [strip.text for strip in app.screen._compositor.render_strips()]
        assert terminal_after(app, screen, stream) == expected

        app.query_one("#a", Static).update("hullo")  # a partial update (ChopsUpdate)
        await pilot.pause()
        runs = [run for u in app.handed if u is not None for run in u.runs]
        assert [(x, y, "".join(t for t, _ in p)) for x, y, p in runs] == [(1, 0, "u")]
        expected = [strip.text for strip in app.screen._compositor.render_strips()]
        assert terminal_after(app, screen, stream) == expected

        app.screen.refresh()  # everything again, nothing changed: nothing to write
        await pilot.pause()
        assert app.handed and all(u is None for u in app.handed)


def test_a_resize_forgets_before_the_drivers_own_handler(monkeypatch):
    calls = []
    before = signal.signal(signal.SIGWINCH, lambda *_: calls.append("driver"))
    try:
        textual_adapter.forget_on_resize(lambda: calls.append("forget"))
        os.kill(os.getpid(), signal.SIGWINCH)
        assert calls == ["forget", "driver"]
    finally:
        signal.signal(signal.SIGWINCH, before)


async def test_a_driver_knows_its_app():
    app = Recording()
    assert textual_adapter.driver_app(linux_driver.LinuxDriver(app)) is app


async def test_the_app_appends_the_cursor_move_the_driver_drops(monkeypatch):
    """Textual moves the cursor outright after each update's segments; the update left
    it there already, so the driver drops that move (only that, only then)."""
    from rich.control import Control

    from tuibench.tui.terminal.driver import PromptEscapeDriver

    assert "renderable.render_segments(console)" in inspect.getsource(App._display)
    assert "Control.move_to(" in inspect.getsource(App._display)
    written: list[str] = []
    driver = PromptEscapeDriver(Recording())
    driver.shown = TerminalCopy()
    monkeypatch.setattr(linux_driver.LinuxDriver, "write", lambda _, data: written.append(data))
    driver.shown.tail = Control.move_to(4, 2).segment.text
    driver.write("ab\x1b[C" + "\x1b[3;5H")
    driver.write("\x1b[3;5H")  # the tail is for one write only
    driver.shown.tail = "\x1b[3;5H"
    driver.write("\x1b[?2026l")  # not the update: kept whole, the tail dropped
    driver.write("\x1b[3;5H")
    assert written == ["ab\x1b[C", "\x1b[3;5H", "\x1b[?2026l", "\x1b[3;5H"]


def test_a_widget_sized_by_a_layout_is_not_laid_out_again():
    from textual.geometry import Size
    from textual.widget import Widget

    size_updated = Widget._size_updated
    Widget._size_updated = getattr(size_updated, "textual", size_updated)  # type: ignore[method-assign]
    try:
        before = Widget()
        assert before._size_updated(Size(10, 1), Size(10, 5), Size(10, 1))
        assert before._layout_required  # Textual's own: a layout again
        textual_adapter.lay_out_once()
        textual_adapter.lay_out_once()  # once is enough: the second does nothing
        after = Widget()
        assert after._size_updated(Size(10, 1), Size(10, 5), Size(10, 1))
        assert after.virtual_size == Size(10, 5)
        assert not after._layout_required
    finally:
        Widget._size_updated = size_updated  # type: ignore[method-assign]


def test_strips_that_an_operation_returns_unchanged_make_no_reference_cycle():
    from rich.segment import Segment
    from textual.strip import Strip

    def made() -> Strip:
        return Strip([Segment("abc"), Segment("de")], 5)

    if not getattr(Strip.divide, "_acyclic", False):  # Textual's own keeps the strip
        plain = made()  # in its own cache: what the adapter mends (drop it once fixed)
        assert plain.divide([5]) == [plain] and plain._divide_cache.get((5,)) == [plain]
        assert plain.crop_extend(0, 5, None) is plain
        assert plain._crop_extend_cache.get((0, 5, None)) is plain
    textual_adapter.drawn_lines_freed_at_once()
    textual_adapter.drawn_lines_freed_at_once()  # once only
    strip = made()
    assert strip.divide([5]) == [strip] and strip.divide(iter([5, 7])) == [strip]
    assert strip.crop_extend(0, 5, None) is strip
    assert not strip._divide_cache and not strip._crop_extend_cache  # nothing kept
    # the other cuts and crops as Textual makes them
    assert [s.text for s in strip.divide([2, 5])] == ["ab", "cde"]
    assert strip.crop_extend(1, 7, None).text == "bcde  "
    assert strip.crop_extend(0, 3, None).text == "abc"


async def test_a_replayed_frame_holds_the_first_screen_until_released():
    """A stored frame (terminal/first_frame.py) is written whole and learnt by the copy;
    the first screen's updates are held back until the release, which draws the screen
    again whole: only the cells that differ from the frame are written."""
    app = Recording()
    copy = TerminalCopy()
    async with app.run_test(size=(40, 6)) as pilot:
        textual_adapter.show_changes_only(app, copy)
        lines = textual_adapter.screen_lines(app.screen)
        assert len(lines) == 6 and all(sum(len(t) for t, _ in line) == 40 for line in lines)
        assert "".join(t for t, _ in lines[0]).startswith("hello")
        screen = pyte.Screen(40, 6)
        stream = pyte.ByteStream(screen)
        lines[0] = [("hullo", lines[0][0][1]), *lines[0][1:]]  # the frame differs in one cell
        stream.feed(textual_adapter.replay(app, copy, lines).encode())
        assert screen.display[0].startswith("hullo") and copy.held
        app.handed.clear()
        app.screen.refresh()
        await pilot.pause()
        assert app.handed == []  # held back
        textual_adapter.release(app, copy)
        await pilot.pause()
        assert not copy.held
        runs = [run for u in app.handed if u is not None for run in u.runs]
        assert [(x, y, "".join(t for t, _ in p)) for x, y, p in runs] == [(1, 0, "e")]
        expected = [strip.text for strip in app.screen._compositor.render_strips()]
        assert terminal_after(app, screen, stream) == expected


async def test_a_held_frame_gives_way_to_a_dialog_and_to_a_resize():
    from textual.screen import ModalScreen

    class Dialog(ModalScreen):
        def compose(self) -> ComposeResult:
            yield Static("dialog")

    app = Recording()
    copy = TerminalCopy()
    async with app.run_test(size=(40, 6)) as pilot:
        textual_adapter.show_changes_only(app, copy)
        lines = textual_adapter.screen_lines(app.screen)
        textual_adapter.replay(app, copy, lines)
        app.push_screen(Dialog())
        await pilot.pause()
        assert not copy.held and app.handed  # a dialog's screen is never held back
        textual_adapter.replay(app, copy, lines)
        copy.forget()  # a resize: the frame is lost with the rest
        assert not copy.held


async def test_the_app_driver_keeps_a_terminal_copy_or_none():
    app = Recording()
    async with app.run_test(size=(40, 6)):
        assert textual_adapter.terminal_copy(app) is None  # headless: no copy
