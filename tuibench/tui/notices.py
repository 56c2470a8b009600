"""Notifications with text from data: shown as it is, control characters escaped."""

from __future__ import annotations

from typing import Any

from textual.app import App

from tuibench.util.text import printable


def say(app: App, message: str, **kwargs: Any) -> None:
    """A notification whose text is shown as it is (names from data hold brackets) and with
    control characters escaped (names are data)."""
    if "title" in kwargs:
        kwargs["title"] = printable(kwargs["title"])
    app.notify(printable(message), markup=False, **kwargs)
