"""The benchmark tree: names split on `/`, metrics as leaves, verdict counts on every node."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from tuibench.core.text import printable
from tuibench.tui.keys import TREE_KEYS, bindings
from tuibench.tui.palette import Palette
from tuibench.tui.state import Node

if TYPE_CHECKING:
    from tuibench.tui.session import Session

# Above this many nodes only the first level starts expanded.
EXPAND_ALL_UP_TO = 300


class BenchTree(Tree[Node]):
    """Rebuilt when the set of shown metrics changes; otherwise only its labels change."""

    BINDINGS = bindings(TREE_KEYS)
    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "

    class Opened(Message):
        """Enter on a metric: the user wants its tables."""

        def __init__(self, node: Node) -> None:
            self.node = node
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("results"), data=Node(), id=id)
        self.guide_depth = 2
        self.auto_expand = False
        self.shown: list[tuple[str, str]] | None = None
        self._by_key: dict[Node, TreeNode[Node]] = {}
        self._counts: dict[Node, tuple[int, int]] = {}
        self._marked: set[Node] = set()
        self._sizes: dict[Node, int] = {}  # visible metrics below each node
        self._palette: Palette | None = None
        self._collapsed: set[Node] = set()  # collapsed by the user
        self._expanded: set[Node] = set()  # expanded by the user

    # -- building -----------------------------------------------------------------------
    def build(self, session: Session, palette: Palette, root_label: str) -> None:
        """Show the visible metrics of `session`, keeping the cursor where it was."""
        current = self.current
        self.clear()
        self._by_key = {Node(): self.root}
        self.root.set_label(Text(printable(root_label)))
        self._sizes = {}
        filtered = bool(session.state.filter_text or session.state.significant_only)
        expand_all = filtered or len(session.visible) * 2 <= EXPAND_ALL_UP_TO
        for bench, metric in session.ordered:  # the sort orders the tree too
            parts = tuple(bench.split("/"))
            parent = self.root
            for depth in range(1, len(parts) + 1):
                key = Node(parts[:depth])
                node = self._by_key.get(key)
                if node is None:
                    node = parent.add(Text(printable(parts[depth - 1]) or '""'), data=key)
                    self._by_key[key] = node
                    if key not in self._collapsed and (
                        expand_all or depth == 1 or key in self._expanded
                    ):
                        node.expand()
                parent = node
                self._sizes[key] = self._sizes.get(key, 0) + 1
            self._sizes[Node()] = self._sizes.get(Node(), 0) + 1
            leaf_key = Node(parts, metric)
            self._by_key[leaf_key] = parent.add_leaf(Text(printable(metric)), data=leaf_key)
        self.root.expand()
        self.shown = list(session.ordered)
        self.relabel(session, palette)
        self.select(current)

    def relabel(self, session: Session, palette: Palette) -> None:
        """Show the counts (and marks) of the current state: a reference or alpha change.

        Labels are drawn from these when a line is painted, so this costs the same for ten
        metrics or ten thousand: only the visible lines are redrawn.
        """
        self._counts = session.counts
        self._marked = {
            m.node for m in session.state.marks if m.reference == session.state.reference
        }
        self._palette = palette
        self.root.refresh()  # the root is on every line's path: every line is drawn again
        self.refresh()

    def _suffix(self, key: Node) -> Text:
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
        return text

    def shown_label(self, key: Node) -> str:
        """A node's label as drawn, in plain text."""
        node = self._by_key[key]
        return node.label.plain + self._suffix(key).plain

    def render_label(self, node: TreeNode[Node], base_style: Style, style: Style) -> Text:
        label = super().render_label(node, base_style, style)
        if node.data is not None:
            label.append_text(self._suffix(node.data))
        return label

    def get_label_width(self, node: TreeNode[Node]) -> int:
        """Room for the widest counts the node can ever show, so the width never jumps."""
        width = super().render_label(node, Style(), Style()).cell_len
        key = node.data
        if key is None:
            return width
        if key.is_metric:
            return width + len(" ▼ ▲ ●")
        n = len(str(self._sizes.get(key, 0)))
        return width + 2 * (2 + n) + 2

    # -- cursor -------------------------------------------------------------------------
    @property
    def current(self) -> Node:
        node = self.cursor_node
        return node.data if node is not None and node.data is not None else Node()

    def select(self, key: Node) -> None:
        """Put the cursor on `key`, or on its nearest ancestor that is shown."""
        target: Node | None = key
        while target is not None and target not in self._by_key:
            target = target.parent
        node = self._by_key.get(target or Node(), self.root)
        parent = node.parent
        while parent is not None:
            if not parent.is_expanded:
                parent.expand()
            parent = parent.parent
        _ = self.last_line  # lay the lines out now: a new node has no line number before
        self.move_cursor(node, animate=False)

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
        if node is None or not node.children:
            return
        if not node.is_expanded:
            node.expand()
        else:
            self.move_cursor(node.children[0], animate=False)

    def action_open(self) -> None:
        node = self.cursor_node
        if node is None or node.data is None:
            return
        if node.data.is_metric:
            self.post_message(self.Opened(node.data))
        elif node.children:
            node.toggle()

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[Node]) -> None:
        if event.node.data is not None:
            self._collapsed.discard(event.node.data)
            self._expanded.add(event.node.data)

    def _on_tree_node_collapsed(self, event: Tree.NodeCollapsed[Node]) -> None:
        if event.node.data is not None:
            self._expanded.discard(event.node.data)
            self._collapsed.add(event.node.data)
