"""Every key of the explorer, in one list: the bindings, the help screen and the palette.

Each binding has an `id`, so users can remap it with a Textual keymap
(`App.set_keymap({"tuibench.export": "x"})`).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType

from tuibench.tui.textual_adapter import keymap


@dataclass(frozen=True)
class Key:
    id: str
    key: str  # Textual key names, comma-separated
    action: str
    description: str  # short: the footer
    help: str  # one line: the help screen and the command palette
    show: bool = False  # in the footer
    key_display: str | None = None
    group: str = "Comparison"
    palette: bool = True


APP_KEYS: list[Key] = [
    Key(
        "tuibench.switch_pane",
        "tab,shift+tab",
        "switch_pane",
        "Pane",
        "Move between the tree and the tables",
        key_display="tab",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.zoom",
        "z",
        "zoom",
        "Zoom",
        "Hide or show the tree: the tables take the whole width",
        group="Navigation",
    ),
    Key(
        "tuibench.reference",
        "r",
        "pick_reference",
        "Ref",
        "Choose the reference system from a list",
        show=True,
    ),
    Key(
        "tuibench.reference.previous",
        "left_square_bracket",
        "step_reference(-1)",
        "Prev ref",
        "Make the previous system the reference",
        key_display="[",
    ),
    Key(
        "tuibench.reference.next",
        "right_square_bracket",
        "step_reference(1)",
        "Next ref",
        "Make the next system the reference",
        key_display="]",
    ),
    Key(
        "tuibench.alpha",
        "a",
        "set_alpha",
        "Alpha",
        "Set the significance level alpha (0 < alpha < 1)",
    ),
    Key(
        "tuibench.fdr",
        "d",
        "toggle_fdr",
        "FDR",
        "Judge significance on FDR-adjusted p-values (Benjamini-Hochberg), or raw ones",
    ),
    Key(
        "tuibench.threshold",
        "t",
        "set_threshold",
        "Threshold",
        "Set a practical threshold in percent (worse/better/equivalent/inconclusive)",
    ),
    Key(
        "tuibench.trim_outliers",
        "o",
        "toggle_trim",
        "Trim",
        "Drop outlying samples (Tukey fences per iteration) and recompute, or keep them",
    ),
    Key(
        "tuibench.iteration_value",
        "i",
        "cycle_iteration_value",
        "Iteration value",
        "Cycle what stands for an iteration: subselection, mean, median, trimmed mean",
    ),
    Key(
        "tuibench.percent",
        "percent_sign",
        "toggle_percent",
        "Gain/change",
        "Show sizes as the gain (positive = better) or the signed change (positive = bigger)",
        key_display="%",
    ),
    Key(
        "tuibench.answer",
        "v",
        "toggle_answer",
        "Answer/table",
        "At the top: the answer (counts, worst changes) or the table of every metric",
        show=True,
        group="View",
    ),
    Key(
        "tuibench.next_flagged",
        "n",
        "next_flagged(1)",
        "Next change",
        "Go to the next metric significantly worse or better, regressions first, worst first",
        show=True,
        group="Navigation",
    ),
    Key(
        "tuibench.previous_flagged",
        "N",
        "next_flagged(-1)",
        "Previous change",
        "Go to the previous significantly changed metric in that order",
        group="Navigation",
    ),
    Key(
        "tuibench.filter",
        "slash",
        "filter",
        "Filter",
        "Filter the tree by name: a substring (any case), or with * ? [ a glob (whole name)",
        show=True,
        key_display="/",
        group="View",
    ),
    Key(
        "tuibench.significant_only",
        "f",
        "toggle_significant",
        "Signif",
        "Show only metrics where some system changed significantly",
        show=True,
        group="View",
    ),
    Key(
        "tuibench.sort",
        "s",
        "cycle_sort",
        "Sort",
        "Order the tree and the tables: natural, worst regression first, by name, by each "
        "system's gain (a click on a table's header sorts by that column)",
        show=True,
        group="View",
    ),
    Key(
        "tuibench.mark",
        "space",
        "mark",
        "Mark",
        "Mark or unmark the current table for export",
        group="Tables",
    ),
    Key(
        "tuibench.marked",
        "m",
        "show_marked",
        "Marked",
        "List the marked tables (unmark them there)",
        group="Tables",
    ),
    Key(
        "tuibench.export",
        "e",
        "export",
        "Export",
        "Export the current table or the marked tables to a file: CSV, TSV, Markdown, "
        "LaTeX, JSON, HTML report or text",
        show=True,
        group="Tables",
    ),
    Key(
        "tuibench.copy",
        "y",
        "copy",
        "Copy",
        "Copy what the pane shows (the answer, or the current table) as Markdown to the "
        "clipboard (OSC 52)",
        group="Tables",
    ),
    Key(
        "tuibench.copy.more",
        "Y",
        "copy_menu",
        "Copy as",
        "Copy as TSV for a spreadsheet, or only the current row in words",
        key_display="Y",
        group="Tables",
    ),
    Key(
        "tuibench.series",
        "c",
        "show_series",
        "Series",
        "The systems as a series: a metric's centre along it with its change points, or a "
        "group's change points, largest first",
        group="View",
    ),
    Key(
        "tuibench.scaling",
        "g",
        "show_scaling",
        "Scaling",
        "The metric against the number in its benchmark's name (clients:8, BM_x/64), "
        "one line per system",
        group="View",
    ),
    Key(
        "tuibench.reload",
        "R",
        "reload",
        "Reload",
        "Reload the results: read the files added, grown or removed since (the reference, "
        "place, filter, sort, marks and options stay; --follow reloads by itself)",
        key_display="R",
        group="Other",
    ),
    Key(
        "tuibench.problems",
        "p",
        "show_problems",
        "Problems",
        "List what could not be read while loading",
        group="Other",
    ),
    Key(
        "tuibench.help",
        "question_mark",
        "help",
        "Help",
        "Show every key",
        show=True,
        key_display="?",
        group="Other",
    ),
    Key(
        "tuibench.quit",
        "q,ctrl+c",
        "quit",
        "Quit",
        "Quit tuibench",
        show=True,
        key_display="q",
        group="Other",
    ),
]

# The keys that work on every screen, also while loading or under a dialog: the app binds
# them; the main screen binds the others (MainScreen), which act only where it is in front.
GLOBAL_ACTIONS = ("show_problems", "help", "quit")
GLOBAL_KEYS = [k for k in APP_KEYS if k.action in GLOBAL_ACTIONS]
MAIN_KEYS = [k for k in APP_KEYS if k.action not in GLOBAL_ACTIONS]

TREE_KEYS: list[Key] = [
    Key(
        "tuibench.tree.down",
        "j",
        "cursor_down",
        "Down",
        "Tree: next line (also down arrow)",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.tree.up",
        "k",
        "cursor_up",
        "Up",
        "Tree: previous line (also up arrow)",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.tree.collapse",
        "h,left",
        "collapse_or_parent",
        "Collapse",
        "Tree: collapse the node, or go to its parent",
        key_display="h",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.tree.expand",
        "l,right",
        "expand_or_child",
        "Expand",
        "Tree: expand the node, or go to its first child",
        key_display="l",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.tree.open",
        "enter",
        "open",
        "Open",
        "Tree: expand or collapse a group; on a metric, move to its tables",
        group="Navigation",
        palette=False,
    ),
    # Tab is the screen's "next widget"; in the tree and the tables it switches panes.
    Key(
        "tuibench.switch_pane",
        "tab,shift+tab",
        "screen.switch_pane",
        "Pane",
        "Move between the tree and the tables",
        key_display="tab",
        group="Navigation",
        palette=False,
    ),
    # The tree's own space key (expand) gives way to marking, with the same id as the app's.
    Key(
        "tuibench.mark",
        "space",
        "screen.mark",
        "Mark",
        "Mark or unmark the current table for export",
        group="Tables",
        palette=False,
    ),
]

# The keys of the right pane (the answer, a group's table, a metric's tables).
PANE_KEYS: list[Key] = [
    Key(
        "tuibench.pane.down",
        "j,down",
        "cursor(1)",
        "Down",
        "Next row (also down)",
        key_display="j",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.pane.up",
        "k,up",
        "cursor(-1)",
        "Up",
        "Previous row (also up)",
        key_display="k",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.pane.open",
        "enter",
        "open_row",
        "Open",
        "Open the metric of the row under the cursor",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.pane.back",
        "escape",
        "screen.back",
        "Back",
        "Back to the row the metric was opened from, else to the tree",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.switch_pane",
        "tab,shift+tab",
        "screen.switch_pane",
        "Tree",
        "Move to the tree",
        key_display="tab",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.pane.left",
        "h,left",
        "scroll_tables(-1)",
        "Scroll",
        "Scroll wide tables left by a whole column",
        key_display="h",
        group="Navigation",
        palette=False,
    ),
    Key(
        "tuibench.pane.right",
        "l,right",
        "scroll_tables(1)",
        "Scroll",
        "Scroll wide tables right by a whole column",
        key_display="l",
        group="Navigation",
        palette=False,
    ),
]

# The filter field's own keys.
FILTER_KEYS: list[Key] = [
    Key(
        "tuibench.filter.keep",
        "enter",
        "",
        "Keep",
        "Keep the filter and go back to the tree",
        palette=False,
    ),
    Key(
        "tuibench.filter.clear",
        "escape",
        "clear_filter",
        "Clear",
        "Clear the filter and go back to the tree",
        palette=False,
    ),
]

# What each place offers, most useful first: the footer shows as many as fit, the help
# screen starts with them. Places: the tree, the answer, a group's table (summary), a
# metric's tables (metric), the filter field.
# The keys of each place, most useful first. `c`, `g` and `d` are listed only where they
# apply (App.key_applies): three systems or more, a parameter in the name, two metrics or more.
FOCUS_KEYS: dict[str, list[str]] = {
    "tree": [
        "tuibench.reference.next",
        "tuibench.copy",
        "tuibench.tree.open",
        "tuibench.next_flagged",
        "tuibench.filter",
        "tuibench.export",
        "tuibench.mark",
        "tuibench.switch_pane",
        "tuibench.series",
        "tuibench.scaling",
        "tuibench.reference",
        "tuibench.fdr",
    ],
    "answer": [
        "tuibench.reference.next",
        "tuibench.copy",
        "tuibench.pane.open",
        "tuibench.next_flagged",
        "tuibench.answer",
        "tuibench.export",
        "tuibench.switch_pane",
        "tuibench.series",
        "tuibench.scaling",
        "tuibench.reference",
        "tuibench.fdr",
    ],
    "summary": [
        "tuibench.reference.next",
        "tuibench.copy",
        "tuibench.pane.open",
        "tuibench.pane.back",
        "tuibench.next_flagged",
        "tuibench.export",
        "tuibench.mark",
        "tuibench.pane.right",
        "tuibench.series",
        "tuibench.scaling",
        "tuibench.reference",
        "tuibench.fdr",
    ],
    "metric": [
        "tuibench.reference.next",
        "tuibench.copy",
        "tuibench.pane.back",
        "tuibench.next_flagged",
        "tuibench.export",
        "tuibench.mark",
        "tuibench.pane.right",
        "tuibench.series",
        "tuibench.scaling",
        "tuibench.reference",
        "tuibench.fdr",
    ],
    "filter": ["tuibench.filter.keep", "tuibench.filter.clear"],
}
FOCUS_NAMES = {
    "tree": "the tree",
    "answer": "the answer",
    "summary": "a group's table",
    "metric": "a metric's tables",
    "filter": "the filter",
}


def words_match(query: str, *texts: str) -> bool:
    """Whether every word of `query` is in `texts` (any case): `change point` finds the
    series key by its description, `html` the export."""
    haystack = " ".join(texts).casefold()
    words = query.casefold().split()
    return bool(words) and all(w in haystack for w in words)


def key_by_id(key_id: str, place: str) -> Key:
    """The key with this id as `place` has it (tab means "to the tables" in the tree)."""
    own = {"filter": FILTER_KEYS, "tree": TREE_KEYS}.get(place, PANE_KEYS)
    for key in [*own, *APP_KEYS]:
        if key.id == key_id:
            return key
    raise KeyError(key_id)


# Keys Textual provides, listed on the help screen only.
BUILTIN_KEYS: list[tuple[str, str, str]] = [
    ("up/down/pgup/pgdn", "In the tables: move the row cursor (also j/k), or scroll", "Navigation"),
    ("enter / click", "In the answer or a group's table: open the row's metric", "Navigation"),
    ("left/right", "In the tables: scroll wide tables sideways (also h/l)", "Navigation"),
    ("ctrl+p", "Command palette: every action, and 'reference: <system>'", "Other"),
    (
        "escape",
        "Close a dialog; in the filter, clear it; in the tables, back to the row a metric "
        "was opened from, else to the tree",
        "Other",
    ),
]

GROUPS = ["Navigation", "Comparison", "View", "Tables", "Other"]


def key_label(app, key: Key) -> str:
    """The keys of `key` as the user must type them now, e.g. `h / left`."""
    keys = keymap(app).get(key.id, key.key)
    shown = []
    for name in keys.split(","):
        name = name.strip()
        display = key.key_display if (name == key.key.split(",")[0] and key.key_display) else None
        shown.append(app.get_key_display(Binding(name, "", key_display=display)))
    return " / ".join(dict.fromkeys(shown))


def bindings(keys: list[Key]) -> list[BindingType]:
    return [
        Binding(
            k.key,
            k.action,
            k.description,
            show=k.show,
            key_display=k.key_display,
            id=k.id,
            tooltip=k.help,
        )
        for k in keys
    ]
