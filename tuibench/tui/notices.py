"""Notifications with text from data: shown as it is, control characters escaped.

`say` is Textual's toast. `NoticeRack` is a notice drawn in the frame of the key that says
it, where and as a toast is drawn: Textual's toast is mounted after the key's frame (the
app handles the notification on its next turn, the toast is composed and mounted on the
turns after), so `s` on 20,000 metrics wrote the tree's frame, then the toast's 20-50 ms
later, and the toast's removal two seconds on landed in a later key's time. The rack's
notice is mounted once, hidden, and shown by changing its text and its display: the
key's frame draws it. It looks like an information toast (same place, colours and
margins) and, like one, goes away after its time or on a click. A toast said meanwhile
takes its place (`say` hides it); while a toast shows, `say_now` says it as a toast.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ScreenStackError
from textual.containers import Container
from textual.content import Content
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Static

from tuibench.tui.textual_adapter import toasts_shown
from tuibench.util.text import printable

TOAST_LAYER = "_toastrack"  # Textual's toasts' layer, present while they are on


def say(app: App, message: str, **kwargs: Any) -> None:
    """A notification whose text is shown as it is (names from data hold brackets) and with
    control characters escaped (names are data)."""
    if "title" in kwargs:
        kwargs["title"] = printable(kwargs["title"])
    rack = _rack(app)
    if rack is not None:
        rack.hide()  # the toast takes its place
    app.notify(printable(message), markup=False, **kwargs)


def say_now(app: App, message: str, timeout: float) -> None:
    """An information notice drawn in the current key's frame (on a screen with a
    `NoticeRack`; elsewhere, or while a toast shows, a toast)."""
    rack = _rack(app)
    if rack is None or toasts_shown(app) or TOAST_LAYER not in app.screen.layers:
        say(app, message, timeout=timeout)  # (no such layer: notifications are off)
        return
    rack.show(message, timeout)


def _rack(app: App) -> NoticeRack | None:
    try:
        return app.screen.query_one(NoticeRack)
    except (NoMatches, ScreenStackError):  # not the main screen, or no screen yet
        return None


class Notice(Static):
    """The notice's box, styled as Textual's Toast (an information toast)."""

    DEFAULT_CSS = """
    Notice {
        width: 60;
        max-width: 50%;
        height: auto;
        margin-top: 1;
        visibility: visible;
        padding: 1 1;
        background: $panel-lighten-1;
        border-left: outer $success;
        &:ansi {
            background: $ansi-background;
        }
    }
    """

    def on_click(self, event: events.Click) -> None:
        event.stop()
        rack = self.parent
        if isinstance(rack, NoticeRack):
            rack.hide()


class NoticeRack(Container):
    """Where the notice shows: docked at the bottom right, over the panes, as Textual's
    ToastRack (which sits in the same place; only one of the two shows at a time)."""

    DEFAULT_CSS = """
    NoticeRack {
        display: none;
        layer: _toastrack;
        width: 1fr;
        height: auto;
        dock: bottom;
        align: right bottom;
        visibility: hidden;
        overflow-y: scroll;
        margin-bottom: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._timer: Timer | None = None
        self.text = ""  # what it says while shown ("" when hidden), for tests

    def compose(self):
        yield Notice()

    def show(self, message: str, timeout: float) -> None:
        """Say `message` (shown as it is, control characters escaped) for `timeout` s."""
        self.text = printable(message)
        self.query_one(Notice).update(Content(self.text))
        self.display = True
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(timeout, self.hide)

    def hide(self) -> None:
        if not self.display:
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.text = ""
        self.display = False
