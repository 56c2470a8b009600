"""The command palette (ctrl+p): every action of the explorer, and one command per system."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.markup import escape
from textual.style import Style

from tuibench.tui.keys import APP_KEYS, GLOBAL_ACTIONS, words_match
from tuibench.tui.screens.main import MainScreen

if TYPE_CHECKING:
    pass

WORDS_SCORE = 0.1


def highlighted(matcher: Matcher, title: str, style: Style) -> Content:
    """`title` as plain text (system names may hold brackets), matched letters styled."""
    content = Content(title)
    _score, offsets = matcher.fuzzy_search.match(matcher.query, title)
    for offset in offsets:
        if not title[offset].isspace():
            content = content.stylize(style, offset, offset + 1)
    return content


class TuibenchCommands(Provider):
    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        app = self.app
        main = app.screen_stack[0]  # the main screen, whose keys most commands are
        assert isinstance(main, MainScreen)
        out: list[tuple[str, str, Callable[[], object]]] = []
        for key in APP_KEYS:
            if key.palette:  # the action's name (ranked on), its sentence and its key
                shown = key.key_display or key.key.split(",")[0]
                where = app if key.action in GLOBAL_ACTIONS else main
                run = partial(app.run_action, key.action, where)
                out.append((key.description, f"{key.help}  [{shown}]", run))
        session = main.session
        if session is not None:
            for info in session.rs.systems:
                out.append(
                    (
                        f"reference: {info.name}",
                        info.description or "compare every system against this one",
                        partial(main.set_reference, info.name),
                    )
                )
        return out

    async def discover(self) -> Hits:
        for title, help_text, command in self._commands():
            yield DiscoveryHit(Content(title), command, text=title, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._commands():
            score = matcher.match(title)
            if score <= 0 and words_match(query, title, help_text):
                score = WORDS_SCORE  # found by its description: below any title match
            if score > 0:
                yield Hit(
                    score,
                    highlighted(matcher, title, self.match_style or Style(reverse=True)),
                    command,
                    text=title,
                    help=escape(help_text),
                )
