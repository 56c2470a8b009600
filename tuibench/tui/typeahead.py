"""No key is lost: keys typed while loading wait for the screen; a new focus takes effect at
once, so keys typed right after `tab` or `enter` (pasted, or fast over SSH) reach it; keys
typed right after the key that opens a dialog (`e`, `a`, `t`) reach the dialog's field
(screens/typed_ahead.py)."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Input

from tuibench.tui.screens.main import MainScreen
from tuibench.tui.screens.typed_ahead import TypedAhead
from tuibench.tui.textual_adapter import post_updates_now

# Keys that act at once while loading; every other key waits until the results are shown.
WHILE_LOADING = {"q", "ctrl+c", "ctrl+q", "question_mark", "p", "ctrl+p"}
PENDING_KEPT = 64


class TypeAhead(App[int]):
    """The app's part that keeps keys typed ahead (the app is a TypeAhead)."""

    main: MainScreen
    _pending: list[str]

    inputs_seen = 0  # keys, mouse and the terminal's focus: what changes the first screen

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent | events.AppFocus | events.AppBlur):
            self.inputs_seen += 1
        # The screen a key was typed on: the app hands every queued key to the focus of that
        # moment, so keys typed right after one that opens a dialog still go to the old one.
        if isinstance(event, events.Key) and not event.is_forwarded and self.screen_stack:
            event.typed_on = self.screen  # type: ignore[attr-defined]  # our own tag
        await super().on_event(event)

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        done = await super().run_action(action, default_namespace, namespaces)
        if self.screen_stack:  # what the key changed, drawn in one frame
            post_updates_now(self.screen)
        return done

    def on_key(self, event: events.Key) -> None:
        if not self.screen_stack:  # quitting: its screens are gone, a key still queued
            return
        main = self.main
        if main.session is None and not main.loaded and len(self.screen_stack) == 1:
            if event.key not in WHILE_LOADING and len(self._pending) < PENDING_KEPT:
                self._pending.append(event.key)
                event.stop()
                event.prevent_default()
            return
        screen = self.screen
        typed_on = getattr(event, "typed_on", None)
        if isinstance(screen, TypedAhead) and typed_on is not None and typed_on is not screen:
            event.stop()
            event.prevent_default()
            screen.take_typed(event)  # typed before the dialog opened: it belongs there
            return
        # Keys typed right after `/` went to the tree before the filter had the focus and
        # come back up here: they belong to the filter.
        focused = self.focused
        typed = event.character if event.is_printable else None
        if isinstance(focused, Input) and focused.id == "filter" and typed:
            event.stop()
            event.prevent_default()  # a letter in the filter is not also a key of the app
            focused.insert_text_at_cursor(typed)

    def _replay_pending_keys(self) -> None:
        """The keys typed while loading, in order, now that there is something to act on."""
        pending, self._pending = self._pending, []
        for key in pending:  # through the app's queue, in order, like typed keys
            self.simulate_key(key)
