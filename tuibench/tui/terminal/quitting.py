"""Quitting wins over everything queued after it: `q` and then `e`, pasted or typed fast over
SSH, must not open the export dialog on an app that is closing (its fields are never
composed, and a dialog's first step then fails). Once `exit` was called (by `q`, ctrl+c or
a signal) no key or click is handled, no action runs and no screen is pushed."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widget import AwaitMount

# What a person sends; everything else (resize, focus, the loop's own messages) still runs.
INPUT = (events.Key, events.MouseEvent, events.Paste)


class Quitting(App[int]):
    """A part of the app, before every other that handles events."""

    quitting = False  # set once, never cleared: the app is on its way out

    def exit(self, *args, **kwargs) -> None:
        self.quitting = True
        super().exit(*args, **kwargs)

    async def on_event(self, event: events.Event) -> None:
        if self.quitting and isinstance(event, INPUT):
            return
        await super().on_event(event)

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        if self.quitting:  # a binding of a key queued before the quit, a palette command
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def push_screen(self, screen, callback=None, wait_for_dismiss=False, *, mode=None):
        if self.quitting:  # nothing is mounted: nothing to wait for
            return AwaitMount(self.screen, [])
        return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)
