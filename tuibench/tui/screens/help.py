"""Every key with what it does, as currently bound (a keymap may have changed them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tuibench.tui.keys import (
    APP_KEYS,
    BUILTIN_KEYS,
    FOCUS_KEYS,
    FOCUS_NAMES,
    GROUPS,
    TREE_KEYS,
    key_by_id,
    key_label,
    words_match,
)
from tuibench.tui.widgets.still_input import StillInput


def help_rows(app) -> dict[str, list[tuple[str, str]]]:
    """Group -> (keys, what they do), every key of the explorer as currently bound."""
    rows: dict[str, list[tuple[str, str]]] = {g: [] for g in GROUPS}
    seen: set[str] = set()
    for key in [*TREE_KEYS, *APP_KEYS]:
        if key.id in seen:  # the same action bound in the tree and in the app
            continue
        seen.add(key.id)
        rows.setdefault(key.group, []).append((key_label(app, key), key.help))
    for keys, what, group in BUILTIN_KEYS:
        rows.setdefault(group, []).append((keys, what))
    return rows


GLYPHS = [
    (
        "▼n  ▲n",
        "tree: metrics below a node where some system is significantly worse (red) or "
        "better (green) than the reference; `vs base` on the root names that reference; "
        "on a metric, ▼ / ▲ alone",
    ),
    (
        "◆6.10",
        "tree: a change point along the series of systems, and the first system at the new "
        "level (without the prefix every system shares); ⋮ in the series plot",
    ),
    (
        "▼ ▲ ? ~",
        "answer: a significant regression, improvement, change of unknown direction, or a "
        "change seen on one iteration's samples (not counted unless trusted)",
    ),
    ("#1 #2 …", "rank of a system by its geometric mean (the reference at 1.000)"),
    (
        "★ best",
        "the metric's best system (three systems or more): first by centre, told apart from "
        "the runner-up, and significantly better than the reference (or the reference, all "
        "others significantly worse); in the title, its table row and its mmtests cell",
    ),
    ("*  -1.08%*", "table cell: significant change (p < alpha); (  -1.08%) is not significant"),
    ("~ ~  ? ?", "significant, but a side has one iteration (~) or the direction is unknown (?)"),
    ("-9.5%*", "narrow screen: compact cell, the star marks significance"),
    ("→ 5 more", "columns off screen to the right: ←/→ (h/l) scroll by whole columns"),
    ("●", "a node whose table is marked for export"),
    (
        "✓ ◌",
        "tree, with --decide or --follow: every system of the metric is decided (as `tuibench "
        "decide` says, valid however often it is asked), or one still needs iterations",
    ),
    ("Δ", "tree: the metric's verdict changed in the last reload; gone once it is visited"),
    ("red / green", "worse / better than the reference; dim bold: the reference"),
]


def _always(_key_id: str) -> bool:
    return True


def place_rows(app, place: str, applies: Callable[[str], bool] = _always) -> list[tuple[str, str]]:
    """The keys of the place that had the focus that apply there, most useful first."""
    keys = [key_by_id(key_id, place) for key_id in FOCUS_KEYS.get(place, []) if applies(key_id)]
    return [(key_label(app, key), key.help) for key in keys]


def help_renderable(
    app, place: str | None = None, query: str = "", applies: Callable[[str], bool] = _always
) -> Group:
    """The keys of `place` (where the focus was) first, then every key, then the legend;
    with a `query`, only the keys and glyphs whose words hold every word of it."""
    parts: list = []
    rows = help_rows(app)
    if place in FOCUS_KEYS and not query:
        rows = {f"Here, in {FOCUS_NAMES[place]}": place_rows(app, place, applies), **rows}
    width = max(len(k) for entries in rows.values() for k, _ in entries)
    glyph_rows = GLYPHS
    if query:
        rows = {g: [e for e in entries if words_match(query, *e)] for g, entries in rows.items()}
        glyph_rows = [g for g in GLYPHS if words_match(query, *g)]
        if not any(rows.values()) and not glyph_rows:
            return Group(Text(f"No key or glyph has every word of {query!r}.", style="dim"))
    for group, entries in rows.items():
        if not entries:
            continue
        table = RichTable.grid(padding=(0, 2), pad_edge=True)
        table.add_column(no_wrap=True, style="bold")
        table.add_column(ratio=1)
        for keys, what in entries:
            table.add_row(Text(keys.ljust(width)), Text(what))
        parts += [Text(group, style="bold underline"), table, Text("")]
    if glyph_rows:
        parts.append(Text("Glyphs and colours", style="bold underline"))
        glyphs = RichTable.grid(padding=(0, 2), pad_edge=True)
        glyphs.add_column(no_wrap=True, style="bold")
        glyphs.add_column(ratio=1)
        for glyph, meaning in glyph_rows:
            glyphs.add_row(Text(glyph.ljust(width)), Text(meaning))
        parts += [glyphs, Text("")]
    legend = Text(style="dim")
    legend.append(
        "Keys can be remapped with a Textual keymap by their binding ids "
        "(tuibench.reference, tuibench.export, ...)."
    )
    parts.append(legend)
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """`place`: where the focus was (a key of FOCUS_KEYS); its keys come first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="tuibench.dialog.close"),
        Binding("slash", "search", "Search", id="tuibench.help.search"),
    ]
    DEFAULT_CSS = """
    HelpScreen #help-search { display: none; }
    HelpScreen #help-search.shown { display: block; }
    """

    def __init__(self, place: str | None = None, applies: Callable[[str], bool] = _always) -> None:
        super().__init__()
        self.place = place
        self.applies = applies  # whether a key of the place has a use there now

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="help-dialog"):
            yield Static("tuibench keys", classes="dialog-title")
            yield StillInput(
                placeholder="search: any words of a key's description", id="help-search"
            )
            with VerticalScroll(id="help-body"):
                yield Static(
                    help_renderable(self.app, self.place, applies=self.applies), id="help-text"
                )
            yield Static(Text("/: search   escape: close", style="dim"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_search(self) -> None:
        field = self.query_one("#help-search", StillInput)
        field.add_class("shown")
        field.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    @on(StillInput.Changed, "#help-search")
    def _search(self, event: StillInput.Changed) -> None:
        self.query_one("#help-text", Static).update(
            help_renderable(self.app, self.place, event.value.strip(), self.applies)
        )
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)

    def on_key(self, event) -> None:
        """Escape in the search field: clear it and go back to the list (again: close)."""
        field = self.query_one("#help-search", StillInput)
        if event.key == "escape" and field.has_focus:
            event.stop()
            event.prevent_default()
            field.value = ""
            field.remove_class("shown")
            self.query_one("#help-body").focus()
