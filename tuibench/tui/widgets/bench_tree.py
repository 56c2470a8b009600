"""The benchmark tree: names split on `/`, metrics as leaves, verdict counts on every node."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from tuibench.tui.content.tree_lines import (
    GUIDE,
    ICON_NODE,
    ICON_NODE_EXPANDED,
    METRIC_ROOM,
    PlainShape,
    line_widths,
)
from tuibench.tui.format import shorten_middle
from tuibench.tui.keys import TREE_KEYS, bindings
from tuibench.tui.palette import Palette
from tuibench.tui.textual_adapter import StyledOnFocus, TreeHooks, expand_quietly
from tuibench.tui.view.state import Node
from tuibench.util.text import printable

if TYPE_CHECKING:
    import numpy as np

    from tuibench.tui.content.picture import Picture
    from tuibench.tui.view.decisions import MetricDecisions
    from tuibench.tui.view.node_index import TreeShape
    from tuibench.tui.view.session import Session

# Above this many nodes only the first level starts expanded, and only while that makes at
# most EXPAND_FIRST_UP_TO lines (a rebuild costs the lines that are expanded).
EXPAND_ALL_UP_TO = 300
EXPAND_FIRST_UP_TO = 300
EXPAND_FILTERED_UP_TO = 1000  # what a filter leaves is shown expanded, up to this many nodes
MIN_LABEL = 6  # cells a name keeps (with its icon) when the marks beside it want the room


class BenchTree(StyledOnFocus, TreeHooks, Tree[Node]):
    """Rebuilt when the set of shown metrics changes; otherwise only its labels change."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(TREE_KEYS)
    ICON_NODE = ICON_NODE
    ICON_NODE_EXPANDED = ICON_NODE_EXPANDED
    # The guides below the cursor's node look like every other guide: Textual highlights
    # them, and redraws the whole subtree on each move (the root's: every line, 5 KB and
    # more over SSH for a move of two lines).
    DEFAULT_CSS = """
    BenchTree > .tree--guides-selected { color: $surface-lighten-2; }
    BenchTree:focus > .tree--guides-selected { color: $surface-lighten-3; }
    """

    class Opened(Message):
        """Enter on a metric: the user wants its tables."""

        def __init__(self, node: Node) -> None:
            self.node = node
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("results"), data=Node(), id=id)
        self.guide_depth = GUIDE
        self.auto_expand = False
        self.shown: np.ndarray | None = None  # ids of the metrics shown, in their order
        self._shape: TreeShape | PlainShape | None = None
        self._by_key: dict[Node, TreeNode[Node]] = {}
        self._counts: Mapping[Node, tuple[int, int]] = {}
        self._marked: set[Node] = set()
        self._palette: Palette | None = None
        self._collapsed: set[Node] = set()  # collapsed by the user
        self._expanded: set[Node] = set()  # expanded by the user
        self._expand_all = False
        self._expand_first = True
        self._batch = False  # adding many nodes: one invalidation at the end
        self._series_marks: dict[tuple[str, str], str] = {}  # metric -> where it changed level
        self._versus = ""  # the reference, named on the root when there are several systems
        self._unseen: set[tuple[str, str]] = set()  # verdict changed by a reload (live.py)
        self._decided: MetricDecisions | None = None  # --decide / --follow: decided or not
        self._versus_room = 0
        self._labels: tuple | None = None  # what the lines were drawn with (relabel)
        self._width_key: tuple | None = None  # what _widest was computed for
        self._widest = 0  # the widest line the tree can show (the root's line reserves it)
        self._lines_ever = 0  # lines with every node expanded

    # -- building -----------------------------------------------------------------------
    def build(self, session: Session | Picture, palette: Palette, root_label: str) -> None:
        """Show the visible metrics of `session`, keeping the cursor where it was (or of a
        first open's picture, until its session comes).

        Only what is expanded exists as tree nodes: a node's children are added when it is
        first expanded, so a rebuild costs what is on screen, not the number of metrics.
        """
        current = self.current
        self._batch = True
        try:
            self.clear()
            self._by_key = {Node(): self.root}
            self.root.set_label(Text(printable(root_label)))
            self._shape = session.tree_shape()  # the sort orders the tree too
            self._keep_width(self._shape, root_label)
            filtered = bool(session.state.filter_text or session.state.significant_only)
            limit = EXPAND_FILTERED_UP_TO if filtered else EXPAND_ALL_UP_TO
            self._expand_all = self._shape.size(Node()) * 2 <= limit  # the metrics shown
            top = self._shape.children(Node())
            lines = len(top) + sum(self._shape.child_count(group) for group in top)
            self._expand_first = lines <= EXPAND_FIRST_UP_TO
            self._populate(self.root)
            self.root.expand()
        finally:
            self._batch = False
        self.invalidate_lines()
        self.shown = session.order_ids
        self._labels = None  # every line new: drawn whatever the labels
        self.relabel(session, palette)
        self.select(current)

    def _keep_width(self, shape: TreeShape | PlainShape, root_label: str) -> None:
        """The tree as wide as its widest line can ever be, whatever is expanded, shown
        (`f`, the filter) or in which order: a width that changed with a key laid out and
        painted the pane again in a frame of its own. The scroll bar's column is kept too
        where all the lines would not fit."""
        names = shape if isinstance(shape, PlainShape) else shape.index
        key = (names, root_label, bool(self._unseen), self._decided is not None)
        if self._width_key != key:
            self._width_key = key
            if isinstance(shape, PlainShape):
                widths, self._lines_ever = shape.widths, shape.node_count
            else:
                widths, self._lines_ever = line_widths(shape.index), len(shape.index.nodes)
            self._widest = widths.widest(len(printable(root_label)), self._live_room())
        self._keep_scroll_bar_room()

    def _keep_scroll_bar_room(self) -> None:
        room = "stable" if self._lines_ever > self.size.height else "auto"
        if self.styles.scrollbar_gutter != room:
            self.styles.scrollbar_gutter = room

    def on_resize(self) -> None:
        self._keep_scroll_bar_room()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The lines' width, and the kept scroll bar's column while the bar is hidden:
        Textual adds that column to an auto width only where overflow-x is auto (ours is
        hidden), so the tree widened by one the first time its bar showed (at the first
        `n`), and the whole screen was laid out and drawn again in a second frame."""
        width = super().get_content_width(container, viewport)
        styles = self.styles
        kept = styles.scrollbar_gutter == "stable" and not self.show_vertical_scrollbar
        if kept and styles.overflow_x != "auto":
            width += styles.scrollbar_size_vertical
        return width

    def _live_room(self) -> int:
        return (2 if self._unseen else 0) + (2 if self._decided is not None else 0)

    def shows(self, session: Session) -> bool:
        """Whether the tree holds the metrics of `session` in its order (no rebuild)."""
        return self.shown is not None and session.in_order(self.shown)

    def _starts_expanded(self, key: Node) -> bool:
        if key in self._collapsed:
            return False
        first = len(key.parts) == 1 and self._expand_first
        return self._expand_all or first or key in self._expanded

    def _populate(self, node: TreeNode[Node]) -> None:
        """Add the children of `node` once (and theirs, where they start expanded)."""
        key = node.data
        if key is None or key.is_metric or node.children or self._shape is None:
            return
        children = self._shape.children(key)
        if not children:
            return
        batch, self._batch = self._batch, True
        try:
            for child in children:
                if child.metric is None:
                    label = Text(printable(child.parts[-1]) or '""')
                    branch = node.add(label, data=child, allow_expand=True)
                    self._by_key[child] = branch
                    if self._starts_expanded(child):
                        self._populate(branch)
                        expand_quietly(branch)  # no event per node
                else:
                    label = Text(printable(child.metric))
                    self._by_key[child] = node.add_leaf(label, data=child)
        finally:
            self._batch = batch
        if not batch:
            self.invalidate_lines()

    def batching(self) -> bool:
        return getattr(self, "_batch", False)  # Tree invalidates before __init__ ends

    def before_toggle(self, node: TreeNode[Node]) -> None:
        self._populate(node)

    def relabel(self, session: Session | Picture, palette: Palette) -> None:
        """Show the counts (and marks) of the current state: a reference or alpha change.

        Labels are drawn from these when a line is painted, so this costs the same for ten
        metrics or ten thousand: only the visible lines are redrawn.
        """
        counts = session.counts
        several = len(session.systems) > 2
        self._versus = session.state.reference if several else ""
        names = [len(printable(name)) for name in session.systems]
        self._versus_room = 5 + max(names) if several else 0
        self._marked = {
            m.node for m in session.state.marks if m.reference == session.state.reference
        }
        self._unseen, self._decided = session.unseen, session.decisions()
        self._palette = palette
        # what the labels show besides the counts: unchanged (`v`, `s`, a move) and the same
        # counts, the lines need not be drawn again (every line, 10 ms and more at 120x40)
        labels = (
            self._versus,
            self._versus_room,
            frozenset(self._marked),
            frozenset(self._unseen),
            self._decided,  # kept here: compared as the same object
            palette,
        )
        same = self._labels == labels and _same_counts(self._counts, counts)
        self._counts, self._labels = counts, labels
        if same:
            return
        self.labels_changed()

    def _suffix(self, key: Node, versus: bool = True) -> Text:
        text = Text()
        palette = self._palette
        if palette is None:
            return text
        worse, better = self._counts.get(key, (0, 0))
        if key.is_metric:  # one metric: whether some system got worse / better
            if worse:
                text.append(" ▼", palette.worse_style)
            if better:
                text.append(" ▲", palette.better_style)
        else:
            if worse:
                text.append(f" ▼{worse}", palette.worse_style)
            if better:
                text.append(f" ▲{better}", palette.better_style)
        if key in self._marked:
            text.append(" ●", palette.accent_style)
        if key.metric is not None:
            self._live_marks(text, (key.benchmark, key.metric), palette)
        if key.metric is not None and (
            where := self._series_marks.get((key.benchmark, key.metric))
        ):
            text.append(_series_mark(where), palette.accent_style)
        # several systems: say what the counts are against (`versus` False: no room)
        if key.is_root and self._versus and versus:
            text.append(f"  vs {printable(self._versus)}", palette.muted)
        return text

    def _live_marks(self, text: Text, key: tuple[str, str], palette: Palette) -> None:
        """Δ: its verdict changed in a reload, not visited since; ✓ / …: decided or not."""
        if key in self._unseen:
            text.append(" Δ", palette.warning_style)
        if self._decided is not None and (mark := self._decided.mark(key)):
            text.append(f" {mark}", palette.muted)

    def mark_seen(self, key: Node) -> None:
        """The metric was visited: its Δ goes."""
        pair = (key.benchmark, key.metric or "")
        if pair in self._unseen:
            self._unseen.discard(pair)
            if (node := self._by_key.get(key)) is not None:
                node.refresh()  # a new key for its cached line: drawn again, without Δ

    def set_series_marks(self, marks: dict[tuple[str, str], str]) -> None:
        """Metrics with a change point along the series: the first system at each new level."""
        self._series_marks = marks
        self.invalidate_lines()  # the marked lines are wider now
        self.refresh()

    def shown_label(self, key: Node) -> str:
        """A node's label as drawn, in plain text."""
        label = self._by_key[key].label
        assert isinstance(label, Text)  # Textual keeps every label as Text
        return label.plain + self._suffix(key).plain

    def render_label(self, node: TreeNode[Node], base_style: Style, style: Style) -> Text:
        label = super().render_label(node, base_style, style)
        if node.data is None:
            return label
        suffix = self._suffix(node.data)
        # The marks stay in sight: where the line is wider than the pane (a long name at 80
        # columns), the root's "vs" goes first (the header names the reference), then the
        # name gives way, cut in the middle. Lines are cached by width.
        room = self.scrollable_content_region.width - self.guide_depth * node_depth(node)
        if node.data.is_root and label.cell_len + suffix.cell_len > room:
            suffix = self._suffix(node.data, versus=False)
        room = max(room - suffix.cell_len, MIN_LABEL)
        if label.cell_len > room:
            label = _narrowed(label, room, node._allow_expand)
        label.append_text(suffix)
        return label

    def get_label_width(self, node: TreeNode[Node]) -> int:
        """Room for the widest counts the node can ever show, so the width never jumps."""
        # As Tree.render_label draws it (the icon, then the label), without drawing it: this
        # runs for every line of the tree at each rebuild.
        icon = (
            (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE)
            if node.allow_expand
            else ""
        )
        label = node.label
        assert isinstance(label, Text)  # Textual keeps every label as Text
        width = len(icon) + label.cell_len
        key = node.data
        if key is None:
            return width
        if key.metric is not None:
            where = self._series_marks.get((key.benchmark, key.metric))
            live = self._live_room()
            return width + len(METRIC_ROOM) + live + (len(_series_mark(where)) if where else 0)
        n = len(str(self._shape.size(key) if self._shape is not None else 0))
        width += 2 * (2 + n) + 2
        if key.is_root:  # on the root's line (no guides) the room of the widest line
            return max(width + self._versus_room, self._widest)
        return width

    # -- cursor -------------------------------------------------------------------------
    @property
    def current(self) -> Node:
        node = self.cursor_node
        return node.data if node is not None and node.data is not None else Node()

    def beside_cursor(self, step: int) -> Node | None:
        """The node `step` lines below the cursor (above: negative), if there is one."""
        line = self.cursor_line + step
        node = self.get_node_at_line(line) if line >= 0 else None
        return None if node is None else node.data

    def landing(self, key: Node) -> Node:
        """Where `select(key)` puts the cursor: `key`, or its nearest ancestor that is shown."""
        self._reveal(key)
        target: Node | None = key
        while target is not None and target not in self._by_key:
            target = target.parent
        return target or Node()

    def select(self, key: Node) -> None:
        """Put the cursor on `key`, or on its nearest ancestor that is shown."""
        node = self._by_key.get(self.landing(key), self.root)
        parent = node.parent
        while parent is not None:
            if not parent.is_expanded:
                parent.expand()
            parent = parent.parent
        _ = self.last_line  # lay the lines out now: a new node has no line number before
        self.move_cursor(node, animate=False)

    def _reveal(self, key: Node) -> None:
        """Create the tree nodes on the way from the root to `key`."""
        chain = []
        node: Node | None = key.parent
        while node is not None:
            chain.append(node)
            node = node.parent
        for ancestor in reversed(chain):
            tree_node = self._by_key.get(ancestor)
            if tree_node is None:
                return
            self._populate(tree_node)

    # -- keys ---------------------------------------------------------------------------
    def action_collapse_or_parent(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded and node.children:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent, animate=False)

    def action_expand_or_child(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        self._populate(node)
        if not node.children:
            return
        if not node.is_expanded:
            self._populate(node)
            node.expand()
        else:
            self.move_cursor(node.children[0], animate=False)

    def action_open(self) -> None:
        node = self.cursor_node
        if node is None or node.data is None:
            return
        if node.data.is_metric:
            self.post_message(self.Opened(node.data))
        else:
            self._populate(node)
            if node.children:
                node.toggle()

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[Node]) -> None:
        self._populate(event.node)
        if event.node.data is not None:
            self._collapsed.discard(event.node.data)
            self._expanded.add(event.node.data)

    def _on_tree_node_collapsed(self, event: Tree.NodeCollapsed[Node]) -> None:
        if event.node.data is not None:
            self._expanded.discard(event.node.data)
            self._collapsed.add(event.node.data)


SERIES_MARK_WIDTH = 14  # cells of a change-point mark at most


def node_depth(node: TreeNode[Node]) -> int:
    """Levels above `node` (the root's is 0): each indents its line by one guide."""
    depth, parent = 0, node.parent
    while parent is not None:
        depth, parent = depth + 1, parent.parent
    return depth


def _narrowed(label: Text, width: int, has_icon: bool) -> Text:
    """`label` (the icon, then the name) in `width` cells: the name cut in the middle, its
    styles kept. Names are printable, one cell per character."""
    icon = len(BenchTree.ICON_NODE) if has_icon else 0
    name = label.plain[icon:]
    short = shorten_middle(name, max(width - icon, 1))
    head = short.index("…") if "…" in short else len(short)
    tail = len(short) - head - 1
    cut = icon + head
    out, mark = label[:cut], label[cut : cut + 1]  # the character at the cut, with its styles
    mark.plain = "…"
    out.append_text(mark)
    if tail > 0:
        out.append_text(label[len(label.plain) - tail :])
    return out


def _series_mark(where: str) -> str:
    """` ◆v10` (the first system at a new level), shortened to fit beside the name."""
    text = " ◆" + printable(where)
    return text if len(text) <= SERIES_MARK_WIDTH else text[: SERIES_MARK_WIDTH - 1] + "…"


def _same_counts(before: Mapping, now: Mapping) -> bool:
    same_as = getattr(now, "same_as", None)
    return before is now or (same_as is not None and same_as(before))
