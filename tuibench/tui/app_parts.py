"""The base the app's mixins (Quitting, Navigation, TypeAhead, SeriesActions) have for the
type checker: the Textual App and what else of TuibenchApp they use. At run time they are
plain classes mixed into TuibenchApp, which defines everything declared here (mypy checks
that its definitions match these)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.widget import Widget

    from tuibench.tui.palette import Palette
    from tuibench.tui.session import Session
    from tuibench.tui.state import Node

    class AppParts(App[int]):
        session: Session | None
        loaded: bool

        @property
        def palette(self) -> Palette: ...
        @property
        def main(self) -> Screen[Any]: ...
        @property
        def current_node(self) -> Node: ...
        def say(self, message: str, **kwargs: Any) -> None: ...
        def update_footer(self) -> None: ...
        def action_switch_pane(self) -> None: ...
        def focus_now(self, widget: Widget) -> None: ...
        def ensure_series(self, asked: bool = False) -> None: ...

else:
    AppParts = object
