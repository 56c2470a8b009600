"""Every private part of Textual the explorer relies on, in one place.

Textual offers no public way to do any of these (each says why it is needed).
tests/tui/test_textual_adapter.py fails when Textual renames one, removes it, changes its
signature or stops calling it where these rely on it: fix it here, nowhere else.

The largest: `show_changes_only` has the app write to the terminal only the cells an update
changes (line_diff.py), by wrapping `App._display`, which receives the compositor's updates
(`LayoutUpdate`: whole lines; `ChopsUpdate`: spans of lines) before they are rendered.
"""

from __future__ import annotations

import selectors
import signal
import types
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rich.color import ColorSystem
from rich.control import Control
from textual import events
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.cache import LRUCache
from textual.drivers import linux_driver
from textual.geometry import Region
from textual.widget import Widget

from tuibench.tui import sgr
from tuibench.tui.line_diff import Piece, Run, TerminalCopy

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.widgets.tree import TreeNode


def forward_event(target: MessagePump, event: events.Event) -> None:
    """Send `event` on to `target` as Textual hands a typed key to the focus: marked as
    forwarded (`event.is_forwarded`), so the app does not take it for a key typed anew.
    `post_message` alone does not mark it, and the mark has no public setter."""
    target._forward_event(event)  # type: ignore[attr-defined]  # private: see above


def keymap(app: App) -> dict[str, str]:
    """The keymap in force (what `set_keymap` and `update_keymap` made of it, normalised):
    Textual keeps it but offers no getter."""
    return getattr(app, "_keymap", None) or {}


def bound_action(widget: Widget, key: str) -> str | None:
    """The action of `widget`'s own binding of `key` (the keymap applied), or None: Textual
    keeps a widget's bindings by key but offers no lookup."""
    bound = widget._bindings.key_to_bindings.get(key)
    return bound[0].action if bound else None


def drop_exit_output(app: App) -> None:
    """Forget what Textual would print when the app exits (a traceback after a crash): the
    explorer prints one line instead. There is no public switch."""
    app._exit_renderables.clear()


def drop_pending_repaint(widget: Widget) -> None:
    """Forget the whole-widget repaint Textual still holds for `widget` (see
    `widgets/repaint.py`): there is no public way to take back a `refresh()`."""
    widget._repaint_regions.clear()


def expand_quietly(node: TreeNode) -> None:
    """Mark a tree node expanded without the event and the re-layout `expand()` costs per
    node (thousands when a large tree opens); the caller invalidates the tree once."""
    node._expanded = True


def use_input_selector(selector: Callable[[], selectors.BaseSelector]) -> None:
    """Make the Linux driver's input thread wait with what `selector()` makes: the thread
    builds its selector from the `selectors` module it imported, and takes no other."""

    linux_driver.selectors = types.SimpleNamespace(  # type: ignore[assignment]  # a stand-in
        SelectSelector=selector, EVENT_READ=selectors.EVENT_READ
    )


def lay_out_once() -> None:
    """One layout per change, not two. Textual hands each widget its new size and virtual
    size after a layout, and sets the virtual size as a reactive that asks for a layout
    and a whole repaint again: every reflow was followed by a second frame that laid out
    and painted the same screen (the detail pane whole, 10-30 ms at 120x40). Here the
    virtual size is set as Textual sets it after a scroll, without asking again: what
    does depend on it (a scroll bar shown or hidden) still asks for its own layout."""
    size_updated = Widget._size_updated
    if getattr(size_updated, "_once", False):
        return

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        return size_updated(self, size, virtual_size, container_size, layout=False)

    _size_updated._once = True  # type: ignore[attr-defined]
    _size_updated.textual = size_updated  # type: ignore[attr-defined]  # (for the tests)
    Widget._size_updated = _size_updated  # type: ignore[method-assign]


class CrashHook:
    """Mixed into an App (before App): `crashed(error)` is called when Textual has handled
    an exception of the app (it exits the app, a traceback ready to print). Textual has no
    public hook."""

    def crashed(self, error: Exception) -> None:
        """Override: called with the exception, once Textual has handled it."""

    def _handle_exception(self, error: Exception) -> None:
        # A mixin: the App it is mixed into has this method, the checker's `object` not.
        super()._handle_exception(error)  # type: ignore[misc]
        self.crashed(error)


def post_updates_now(screen: Widget) -> None:
    """Every widget of `screen` asked to repaint or lay out tells the screen now. Textual
    has each widget tell it on its own turn of the loop, after the key: the widgets whose
    turn came after the screen's next frame (the footer, the pane's tables after a change
    of focus) were drawn in a frame of their own 20-40 ms later."""
    for widget in screen.walk_children(with_self=False):
        if widget._repaint_required or widget._layout_required:  # type: ignore[attr-defined]
            widget._check_refresh()  # type: ignore[attr-defined]


if TYPE_CHECKING:
    from textual.widget import Widget as _Focusable  # the base it is mixed in before
else:
    _Focusable = object


class StyledOnFocus(_Focusable):
    """Mixed into a focusable widget (before the widget's class): `style_focus(focused)`
    applies the style of having the focus or not at once, where Textual applies it when
    the Focus or Blur event comes, after the key's frame: the footer, the tint of the two
    panes and the rest of the key came in two frames, 30-60 ms apart. The event that
    follows then neither restyles nor repaints the widget again; it still tells the
    parents (DescendantFocus / DescendantBlur), as Textual's own handler does."""

    _styled: bool | None = None  # the focus already styled, until its event comes

    def style_focus(self, focused: bool) -> None:
        self._styled = focused
        self.has_focus = focused  # its watcher restyles

    def _on_focus(self, event: events.Focus) -> None:
        self._after_styled(event, True)

    def _on_blur(self, event: events.Blur) -> None:
        self._after_styled(event, False)

    def _after_styled(self, event: events.Focus | events.Blur, focused: bool) -> None:
        # Styled since: the style is that of the last change. (Two changes before their
        # events: the second event goes to Textual's handler, which styles as it says.)
        if self._styled is None:
            return  # Textual's handler (next in the MRO) restyles and repaints
        self._styled = None
        event.prevent_default()
        parent = self.parent
        if parent is not None:
            told = events.DescendantFocus if focused else events.DescendantBlur
            parent.post_message(told(self))


class TreeHooks:
    """Mixed into a Tree (before Tree): three of Tree's private steps as public hooks.

    - `batching()`: while True, the tree's line cache is not rebuilt (Tree rebuilds it for
      every node added); call `invalidate_lines()` once after.
    - `before_toggle(node)`: called before a node opens or closes, by any key or click (to
      add its children only then).
    - Moving the cursor repaints the old and new node's own line only, not their subtrees:
      the guides beside the subtree do not change with the cursor.
    - A paint takes the tree's style once, not once a line (Tree.render_line asks for it
      at each line, and its background walks every ancestor: a third of a whole tree's
      paint).
    - Unfocused, a line is drawn again only when it changes (`_unfocused_line`). Tree keys
      its cached lines by every ancestor's count of changes, and selecting a node counts
      as one: moving the cursor to or from the root drew every line again (10 ms at
      120x40), though the look of a line under the cursor changes only with the focus.
      `labels_changed()` draws every line again, for what all labels show.
    - A change of style (the focus's) draws the lines again, without the layout Tree asks
      for (`notify_style_update`).
    """

    _paint_style: Any = None  # the tree's style during a paint
    _labels_version = 0
    _unfocused_lines: Any = None  # LRUCache: key -> the strip of a line, unfocused

    def render_lines(self, crop: Region) -> Any:
        self._paint_style = self.rich_style  # type: ignore[attr-defined]
        try:
            return super().render_lines(crop)  # type: ignore[misc]
        finally:
            self._paint_style = None

    def render_line(self, y: int) -> Any:
        style = self._paint_style
        if style is None:
            return super().render_line(y)  # type: ignore[misc]
        # as Tree.render_line, with the style of this paint
        scroll_x, scroll_y = self.scroll_offset  # type: ignore[attr-defined]
        width = self.size.width  # type: ignore[attr-defined]
        if not self.has_focus:  # type: ignore[attr-defined]
            return self._unfocused_line(y + scroll_y, scroll_x, width, style)
        return self._render_line(y + scroll_y, scroll_x, scroll_x + width, style)  # type: ignore[attr-defined]

    def _unfocused_line(self, y: int, x: int, width: int, style: Any) -> Any:
        """Line `y` drawn, or as drawn before with the same look. Without the focus, the
        look of a line depends on its own node, the cursor or mouse on it or above it,
        the tree's shape and style, and what `labels_changed` says: not on which node
        is selected (Tree's guides under the cursor take its colour only when focused)."""
        lines = self._tree_lines  # type: ignore[attr-defined]
        if y >= len(lines):
            return self._render_line(y, x, x + width, style)  # type: ignore[attr-defined]
        line = lines[y]
        hover = self.hover_line  # type: ignore[attr-defined]
        key = (
            y,
            x,
            width,
            self._updates,  # type: ignore[attr-defined]
            self._pseudo_class_state,  # type: ignore[attr-defined]
            self._labels_version,
            line.node._updates,
            y == self.cursor_line,  # type: ignore[attr-defined]
            y == hover,
            hover >= 0 and any(node._hover for node in line.path),
            style,
        )
        cache = self._unfocused_lines
        if cache is None:
            cache = self._unfocused_lines = LRUCache(1024)
        strip = cache.get(key)
        if strip is None:
            strip = cache[key] = self._render_line(y, x, x + width, style)  # type: ignore[attr-defined]
        return strip

    def labels_changed(self) -> None:
        """Every line's label shows something new: all are drawn again."""
        self._labels_version += 1
        self.root.refresh()  # type: ignore[attr-defined]  # Tree's own cache, when focused
        self.refresh()  # type: ignore[attr-defined]

    def batching(self) -> bool:
        return False

    def before_toggle(self, node: TreeNode[Any]) -> None:
        """Override: called before `node` is expanded or collapsed."""

    def invalidate_lines(self) -> None:
        """Rebuild the tree's lines (unless batching): after a batch, or when labels change
        width."""
        self._invalidate()

    def notify_style_update(self) -> None:
        # Tree rebuilds its lines and lays the screen out again on every change of style,
        # the focus's too (a whole layout at each tab or escape). Styles do not change the
        # lines nor their widths, and a style that changes a size asks for the layout
        # itself: the lines are drawn again, and only that.
        Widget.notify_style_update(self)  # type: ignore[arg-type]  # Tree's is skipped
        self._line_cache.clear()  # type: ignore[attr-defined]
        self._updates += 1  # type: ignore[attr-defined]
        if self._unfocused_lines is not None:
            self._unfocused_lines.clear()
        self.refresh()  # type: ignore[attr-defined]

    # A mixin before Tree: the checker sees `object` above it, where Tree has these.
    def _invalidate(self) -> None:
        if not self.batching():
            super()._invalidate()  # type: ignore[misc]
            if self._unfocused_lines is not None:
                self._unfocused_lines.clear()

    def _build(self) -> None:
        super()._build()  # type: ignore[misc]
        # The scroll bar shown or hidden with the lines that need it, now: Textual decides
        # it only after the next layout, which the bar then lays out again (a frame more).
        if self.is_mounted:  # type: ignore[attr-defined]
            self._refresh_scrollbars()  # type: ignore[attr-defined]

    def _toggle_node(self, node: TreeNode[Any]) -> None:
        self.before_toggle(node)
        super()._toggle_node(node)  # type: ignore[misc]

    def _refresh_node(self, node: TreeNode[Any]) -> None:
        # (the Tree's scroll offset and size, which the checker's `object` lacks)
        if node.line >= 0:  # as Tree repaints one line (ScrollView's is wider)
            y = node.line - self.scroll_offset.y  # type: ignore[attr-defined]
            self.refresh(Region(0, y, self.size.width, 1))  # type: ignore[attr-defined]


# -- the terminal's copy: only changed cells are written (line_diff.py) ----------------
class ChangedCells(CompositorUpdate):
    """An update that writes the runs of changed cells; the copy learns them when (and
    only if) Textual writes them."""

    def __init__(self, copy: TerminalCopy, runs: list[Run], rows: dict, cursor, width) -> None:
        self.copy, self.runs, self.rows, self.cursor = copy, runs, rows, cursor
        self.width = width

    def render_segments(self, console) -> str:
        """The changed cells, the cursor left where the app puts it after them (with the
        absolute move it appends: `copy.tail`, which the driver drops)."""
        x, y = self.cursor
        terminal = self.copy.terminal((x, y))
        out, look = sgr.render(self.runs, self.copy.sgr_look(), self.width, terminal)
        self.copy.commit(self.rows, self.cursor, look)
        self.copy.tail = Control.move_to(x, y).segment.text
        return out


def pieces(update: CompositorUpdate) -> Iterator[Piece]:
    """(x, y, segments) as Textual would write them, in its order."""
    if isinstance(update, LayoutUpdate):
        x = update.region.x
        for y, line in enumerate(update.strips, update.region.y):
            yield x, y, [segment for strip in line for segment in strip]
        return
    assert isinstance(update, ChopsUpdate)  # the only other kind Textual sends
    chops, chop_ends = update.chops, update.chop_ends
    for y, x1, x2 in update.spans:  # as ChopsUpdate.render_segments reads them
        for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
            if strip is None or x > x2 or end <= x1:
                continue
            if not (x2 > x >= x1 and end <= x2):
                strip = strip.crop(0, min(end, x2) - x)
            yield x, y, list(strip)


def changed_cells(app, copy: TerminalCopy, update):
    """`update` as the cells it changes: None when it changes nothing."""
    if update is None:
        return None
    if not isinstance(update, LayoutUpdate | ChopsUpdate) or app.is_inline:
        copy.forget()  # written whole, by Textual: what it leaves is unknown here
        return update
    if isinstance(update, LayoutUpdate) and copy.size != update.region.size:
        copy.forget()  # a resize the signal did not tell
        copy.size = update.region.size
    width = copy.size.width if copy.size is not None else None  # type: ignore[attr-defined]
    runs, rows = copy.changes(pieces(update), color_system(app.console), width)
    cursor = tuple(app.screen.outer_size.clamp_offset(app.cursor_position))  # as _display
    if not runs and cursor == copy.cursor:
        return None
    return ChangedCells(copy, runs, rows, cursor, width)


def color_system(console) -> ColorSystem:
    """The colour system Textual renders in (as `Strip.render` picks it)."""
    return console._color_system or ColorSystem.TRUECOLOR


def show_changes_only(app, copy: TerminalCopy) -> None:
    """From now on `app` writes only changed cells; `copy.forget()` when the terminal's
    content is lost."""
    display = type(app)._display
    if getattr(app, "_changes_only", None) is copy:
        return

    def _display(screen, renderable) -> None:
        if copy.held:  # the replayed first frame stands for the first screen
            first = app.screen_stack[0] if app.screen_stack else None
            if screen is first:
                return
            copy.held = False  # Textual believes the held updates drawn: draw all it shows
            renderable = screen._compositor.render_update(
                full=True, screen_stack=app._background_screens
            )
        display(app, screen, changed_cells(app, copy, renderable))

    app._display = _display
    app._changes_only = copy


def replay(app, copy: TerminalCopy, lines: list) -> str:
    """What writes `lines` ((text, style) pairs per line of the screen) over the whole
    terminal, its cells learnt by `copy`; Textual's updates of the first screen are held
    back from now until `release` (or another screen, or `copy.forget`). Before the app's
    first frame."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    styles: dict[str, Style | None] = {}
    strips: list[Strip] = []
    for line in lines:
        segments = []
        for text, name in line:
            if name not in styles:
                styles[name] = Style.parse(name) if name else None
            segments.append(Segment(text, styles[name]))
        strips.append(Strip(segments))
    width = max((strip.cell_length for strip in strips), default=0)
    update = LayoutUpdate([[strip] for strip in strips], Region(0, 0, width, len(strips)))
    runs, rows = copy.changes(pieces(update), color_system(app.console), width)
    out = ChangedCells(copy, runs, rows, (0, 0), width).render_segments(app.console)
    copy.tail = None  # written as it is: the app appends no move to it
    copy.size = update.region.size  # the app's first whole update is compared with it
    copy.held = True
    return out


def release(app, copy: TerminalCopy | None) -> None:
    """Draw what the app shows over a replayed frame in its next frame, laid out first
    (one whole update: only the cells that differ are written)."""
    if copy is not None and copy.held:
        copy.held = False
        if app.screen_stack:
            app.screen.refresh(layout=True)


def screen_lines(screen) -> list[list[tuple[str, str]]]:
    """What `screen` shows, as (text, style) pairs per line (replay's input)."""
    lines = []
    for strip in screen._compositor.render_strips():
        lines.append([(seg.text, str(seg.style) if seg.style else "") for seg in strip])
    return lines


def forget_on_resize(forget: Callable[[], None]) -> None:
    """A resize may change any cell (terminals reflow or clear): chain `forget` before the
    SIGWINCH handler the driver installed."""
    before = signal.getsignal(signal.SIGWINCH)

    def on_resize(signum, frame) -> None:
        forget()
        if callable(before):
            before(signum, frame)

    signal.signal(signal.SIGWINCH, on_resize)


def driver_app(driver):
    return driver._app


def terminal_copy(app: App) -> TerminalCopy | None:
    """The copy of the terminal's cells the app's driver keeps (terminal/driver.py); None
    for another driver (headless, tests)."""
    return getattr(app._driver, "shown", None)


def toasts_shown(app: App) -> bool:
    """Whether Textual shows (or is about to show) a toast: the app keeps its notifications
    with no public getter."""
    return bool(app._notifications)


def drawn_lines_freed_at_once() -> None:
    """Lines drawn and replaced are freed by reference counting, not left in reference
    cycles for a full collection: a strip that one of its own operations returns
    unchanged is not kept in that operation's cache. Textual's `Strip.divide` caches
    `[self]` when the cut is its whole width, and `crop_extend` caches `self` when the
    crop is the whole strip: every line the compositor renders for a widget of one chop
    became a reference cycle (the strip, its seven caches and its segments), freed only by
    a full collection: about 240,000 objects in 40 s of keys on 20,000 metrics, 15-160 ms
    a collection on a busy machine, that a key arriving meanwhile waited for. Answered
    without the cache, as Textual's own code answers them, they are freed as soon as they
    are no longer shown. (Textual's LRUCache leaves its ring of links as one cycle when
    cleared; emptying the links first made a test of keys typed in one burst fail now and
    then: left as it is.)"""
    from textual.strip import Strip

    divide, crop_extend = Strip.divide, Strip.crop_extend
    if getattr(divide, "_acyclic", False):
        return

    def _divide(self, cuts):
        cuts = list(cuts)
        length = self.cell_length
        if [cut for cut in cuts if cut <= length] == [length]:
            return [self]
        return divide(self, cuts)

    def _crop_extend(self, start, end, style):
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    _divide._acyclic = True  # type: ignore[attr-defined]
    Strip.divide = _divide  # type: ignore[method-assign]
    Strip.crop_extend = _crop_extend  # type: ignore[method-assign]
