"""The benchmark tree's geometry and a plain copy of its shape, made without Textual.

The tree keeps the width of the widest line it can ever show (widgets/bench_tree.py); that
width comes from every name's length, in columns (`line_widths`). `PlainShape` is the
tree's shape (each group's children, the metrics below each node) as dicts: what a first
open's picture draws the tree from (picture.py), where the explorer has no numpy yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tuibench.tui.view.state import Node

if TYPE_CHECKING:
    from tuibench.tui.view.node_index import NodeIndex, TreeShape

ICON_NODE = "▸ "
ICON_NODE_EXPANDED = "▾ "
GUIDE = 2  # cells of indent per depth (the tree's guide_depth)
METRIC_ROOM = " ▼ ▲ ●"  # beside a metric's name: worse, better, marked


@dataclass(frozen=True)
class LineWidths:
    """What the widest line is made of: the widest group's line, the widest metric's (without
    the live marks) and the number of metrics (the root's counts have its digits)."""

    groups: int
    metrics: int
    total: int

    def widest(self, root: int, live: int) -> int:
        """The widest line with a root label of `root` cells and `live` cells of marks."""
        root_line = len(ICON_NODE) + root + 2 * (2 + len(str(self.total))) + 2
        return max(root_line, self.groups, self.metrics + live)


def line_widths(index: NodeIndex) -> LineWidths:
    """The widths of the tree with every node shown and expanded, from the names' lengths in
    characters (a name of wide or escaped characters may be wider: then that line widens the
    tree when it is shown, as before)."""
    import numpy as np  # (loaded by then; not before the first screen)

    widths = index.name_widths()
    digits = np.ceil(np.log10(widths.group_size.astype(np.float64) + 1)).astype(np.int64)
    groups = (
        GUIDE * widths.group_depth.astype(np.int64)
        + len(ICON_NODE)
        + widths.group_name.astype(np.int64)
        + 2 * (2 + digits)
        + 2
    )
    metrics = (
        GUIDE * widths.metric_depth.astype(np.int64)
        + widths.metric_name.astype(np.int64)
        + len(METRIC_ROOM)
    )
    return LineWidths(int(groups.max(initial=0)), int(metrics.max(initial=0)), widths.total)


class PlainShape:
    """A TreeShape's every group's children and every node's size, as dicts."""

    def __init__(self, shape: TreeShape) -> None:
        self.widths = line_widths(shape.index)
        self.node_count = len(shape.index.nodes)
        self._children: dict[Node, list[Node]] = {}
        self._sizes: dict[Node, int] = {}
        todo = [Node()]
        while todo:
            node = todo.pop()
            self._sizes[node] = shape.size(node)
            if not node.is_metric:
                self._children[node] = children = shape.children(node)
                todo += children

    def nodes(self) -> list[Node]:
        """Every node of the tree, the root first."""
        return list(self._sizes)

    def size(self, node: Node) -> int:
        return self._sizes.get(node, 0)

    def children(self, node: Node) -> list[Node]:
        return list(self._children.get(node, ()))

    def child_count(self, node: Node) -> int:
        return len(self._children.get(node, ()))
