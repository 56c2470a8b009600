"""Every use of Textual's private API by the explorer, in one place; tests/tui/
test_textual_adapter.py fails when a Textual release changes one of them.

- `show_changes_only`: the app writes to the terminal only the cells an update changes
  (line_diff.py), by wrapping `App._display`, which receives the compositor's updates
  (`LayoutUpdate`: whole lines; `ChopsUpdate`: spans of lines) before they are rendered.
- `drop_pending_repaint`: forget the whole-widget repaint a widget has pending
  (`Widget._repaint_regions`; widgets/repaint.py).
- `prompt_input_selectors`: the selector class the Linux driver's input thread makes.
"""

from __future__ import annotations

import signal
import types
from collections.abc import Callable, Iterator

from rich.color import ColorSystem
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.drivers import linux_driver

from tuibench.tui import sgr
from tuibench.tui.line_diff import Piece, Run, TerminalCopy


class ChangedCells(CompositorUpdate):
    """An update that writes the runs of changed cells; the copy learns them when (and
    only if) Textual writes them."""

    def __init__(self, copy: TerminalCopy, runs: list[Run], rows: dict, cursor) -> None:
        self.copy, self.runs, self.rows, self.cursor = copy, runs, rows, cursor

    def render_segments(self, console) -> str:
        out = sgr.render(self.runs)
        self.copy.commit(self.rows, self.cursor)
        return out


def pieces(update: CompositorUpdate) -> Iterator[Piece]:
    """(x, y, segments) as Textual would write them, in its order."""
    if isinstance(update, LayoutUpdate):
        x = update.region.x
        for y, line in enumerate(update.strips, update.region.y):
            yield x, y, [segment for strip in line for segment in strip]
        return
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
    runs, rows = copy.changes(pieces(update), color_system(app.console))
    cursor = app.cursor_position
    if not runs and cursor == copy.cursor:
        return None
    return ChangedCells(copy, runs, rows, cursor)


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
        display(app, screen, changed_cells(app, copy, renderable))

    app._display = _display
    app._changes_only = copy


def forget_on_resize(forget: Callable[[], None]) -> None:
    """A resize may change any cell (terminals reflow or clear): chain `forget` before the
    SIGWINCH handler the driver installed."""
    before = signal.getsignal(signal.SIGWINCH)

    def on_resize(signum, frame) -> None:
        forget()
        if callable(before):
            before(signum, frame)

    signal.signal(signal.SIGWINCH, on_resize)


def drop_pending_repaint(widget) -> None:
    widget._repaint_regions.clear()


def driver_app(driver):
    return driver._app


def prompt_input_selectors(selector_class: type) -> None:
    """The Linux driver's input loop makes its selector from `selectors.SelectSelector`."""
    import selectors

    linux_driver.selectors = types.SimpleNamespace(
        SelectSelector=selector_class, EVENT_READ=selectors.EVENT_READ
    )
