"""The command palette (ctrl+p): every action of the explorer, and one command per system."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from tuibench.tui.keys import APP_KEYS


class TuibenchCommands(Provider):
    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        app = self.app
        out: list[tuple[str, str, Callable[[], object]]] = []
        for key in APP_KEYS:
            if key.palette:
                out.append((key.help, key.description, partial(app.run_action, key.action)))
        session = getattr(app, "session", None)
        if session is not None:
            for info in session.rs.systems:
                out.append(
                    (
                        f"reference: {info.name}",
                        info.description or "compare every system against this one",
                        partial(app.set_reference, info.name),
                    )
                )
        return out

    async def discover(self) -> Hits:
        for title, help_text, command in self._commands():
            yield DiscoveryHit(Text(title), command, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_text)
