"""Every key with what it does, as currently bound (a keymap may have changed them)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.visual import Visual
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
from tuibench.tui.textual_adapter import keymap
from tuibench.tui.widgets.still_input import StillInput

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.style import Style as RichStyle
    from textual.css.styles import RulesMap
    from textual.style import Style
    from textual.visual import RenderOptions


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
    (
        "#1 #2 …",
        "rank of a system by its geometric mean (the reference at 1.000); a system without "
        "one (nothing compared) is not ranked",
    ),
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
    (
        "Δ",
        "tree: the metric's verdict, or with --decide its ✓/◌, changed in the last reload; "
        "gone once it is visited",
    ),
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


# -- kept lines ---------------------------------------------------------------------------
# Textual renders a Rich renderable in a `Static` whole, once to measure its height and
# again to paint it, for every new widget: the help's tables took 25-30 ms each time, three
# times per `?` (its scroll bar appearing changes the width). Here the lines are rendered
# once per width and content (`key`), possibly ahead in a worker (`prepare_help`), and the
# same lines drawn as Textual draws them: the widget's style under every segment's.

KEPT = 12  # help texts (place x width) kept
Lines = tuple[tuple[list[Segment], ...], int]  # the lines, and the height Textual gives them

_kept: OrderedDict[tuple, Lines] = OrderedDict()
_lock = threading.Lock()


def _render_lines(
    console: Console, options: ConsoleOptions, renderable: RenderableType, width: int
) -> Lines:
    """`renderable`'s lines at `width`, as Textual's RichVisual cuts them, and its height as
    Textual measures it (the line ends rendered)."""
    segments = list(console.render(renderable, options.update(highlight=False, width=width)))
    height = sum(text.count("\n") for text, _, _ in segments)
    lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
    return tuple(lines), height


def kept_lines(
    key: Hashable, width: int, console: Console, options: ConsoleOptions, make: Callable
) -> Lines:
    """The lines of `make()` at `width`, rendered unless kept."""
    with _lock:
        found = _kept.get((key, width))
        if found is not None:
            _kept.move_to_end((key, width))
            return found
    found = _render_lines(console, options, make(), width)
    with _lock:
        _kept[(key, width)] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return found


def is_kept(key: Hashable, width: int) -> bool:
    with _lock:
        return (key, width) in _kept


class KeptLines(Visual):
    """`make()`'s renderable, its lines kept by `key` (what the renderable is made of)."""

    def __init__(self, console: Console, options: ConsoleOptions, key: Hashable, make) -> None:
        self.console, self.options, self.key, self.make = console, options, key, make

    def _lines(self, width: int) -> Lines:
        return kept_lines(self.key, width, self.console, self.options, self.make)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        base: RichStyle = style.rich_style
        add = base.__add__ if base else None
        shown = self._lines(width)[0][:height]
        if add is None:
            return [Strip(line) for line in shown]
        # as Textual styles a Rich renderable: the widget's style under each segment's
        return [Strip([Segment(text, add(s), None) for text, s, _ in line]) for line in shown]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        options = self.options.update_width(container_width)
        measured = Measurement.get(self.console, options, self.make())
        return min(measured.maximum, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self._lines(width)[1]

    def __rich_console__(self, console: Console, options: ConsoleOptions):
        yield self.make()  # printed as what it shows (a Static's `content`)


def help_key(app, place: str | None, applies: Callable[[str], bool] = _always) -> tuple:
    """What the help of `place` is made of: the keys that apply there, the keymap."""
    here = tuple(k for k in FOCUS_KEYS.get(place or "", []) if applies(k))
    return ("help", place, here, tuple(sorted(keymap(app).items())))


def help_text(app, place: str | None, applies: Callable[[str], bool] = _always) -> KeptLines:
    """The help of `place`, its lines rendered once per width and kept (`prepare_help`)."""
    key = help_key(app, place, applies)
    here = set(key[2])
    return KeptLines(
        app.console,
        app.console_options,
        key,
        lambda: help_renderable(app, place, applies=here.__contains__),
    )


def help_widths(app) -> tuple[int, int]:
    """The help text's width in the dialog (`.dialog.wide`: 100 columns at most, less its
    border and padding): at its first layout, and with the scroll bar it then gets."""
    dialog = min(100, app.size.width) - 4
    return dialog, dialog - 2


def help_ready(app, place: str | None, applies: Callable[[str], bool] = _always) -> bool:
    key = help_key(app, place, applies)
    return all(is_kept(key, width) for width in help_widths(app))


def prepare_help(app, place: str | None, applies: Callable[[str], bool] = _always) -> None:
    """Render the help of `place` ahead (in a worker: `?` then draws kept lines)."""
    text = help_text(app, place, applies)
    for width in help_widths(app):
        text.get_height({}, width)  # renders the lines at that width and keeps them


class HelpScreen(ModalScreen[None]):
    """`place`: where the focus was (a key of FOCUS_KEYS); its keys come first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="tuibench.dialog.close"),
        Binding("slash", "search", "Search", id="tuibench.help.search"),
    ]
    # the list has the focus from the start (focused on mount, after the search field had
    # it: one more frame)
    AUTO_FOCUS = "#help-body"
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
                yield Static(help_text(self.app, self.place, self.applies), id="help-text")
            yield Static(Text("/: search   escape: close", style="dim"), classes="dialog-hint")

    def show_place(self, place: str | None, applies: Callable[[str], bool] = _always) -> None:
        """Open again, for `place`: the screen is kept between `?` presses (a new one took
        two layouts and a compose, 60 ms and more), so it starts as a new one would."""
        self.place, self.applies = place, applies
        if not self.is_mounted:
            return
        text = self.query_one("#help-text", Static)
        new = help_text(self.app, place, applies)
        shown = text.visual
        if not isinstance(shown, KeptLines) or shown.key != new.key:
            text.update(new)
        field = self.query_one("#help-search", StillInput)
        field.value = ""
        field.remove_class("shown")
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_home(animate=False, immediate=True)
        self.set_focus(body)

    def action_search(self) -> None:
        field = self.query_one("#help-search", StillInput)
        field.add_class("shown")
        field.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    @on(StillInput.Changed, "#help-search")
    def _search(self, event: StillInput.Changed) -> None:
        query = event.value.strip()
        self.query_one("#help-text", Static).update(
            help_renderable(self.app, self.place, query, self.applies)
            if query
            else help_text(self.app, self.place, self.applies)
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
