"""Integer ids for every node of the benchmark tree, made in columns.

A million metrics make about two million nodes (each benchmark a group of its metrics, and
the groups above). Made one `Node` and one dict entry at a time, that was 14 s and 0.9 GB
before the first screen; here the names are split and the groups numbered by polars, one
pass per depth, and `Node` objects are made only for what is looked at (the lines the tree
shows, the counts it draws).

Ids: 0 the root, then the groups (by their name up to that depth, `suite/group`), then the
metrics (id = `leaf0 + i` for metric i of the catalogue).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.analysis.compare.columns import METRIC
from tuibench.tui.view.state import Node


def name_pairs(metrics: pl.DataFrame) -> list[tuple[str, str]]:
    """Every metric's (benchmark, metric), each distinct name one Python string: a string
    per cell was 150 MB at a million metrics (100,000 benchmarks), shared ones 65."""
    columns = []
    for c in METRIC:
        names = metrics[c].cast(pl.String)
        if names.null_count():  # never from the loader; as they are then
            columns.append(names.to_list())
            continue
        distinct = names.unique().sort().to_list()
        columns.append([distinct[i] for i in (names.rank("dense") - 1).to_list()])
    return list(zip(*columns, strict=True))


class NodeIndex:
    """Each node's id; for each metric the ids of its leaf and of every node above it
    (`chains`: metric x (leaf, deepest group, ..., root), -1 past the root), so counts below
    every node are one `bincount`; each node's parent id (`parent`)."""

    def __init__(self, metrics: list[tuple[str, str]]):
        n = len(metrics)
        self._metrics = metrics
        frame = pl.DataFrame({"b": [b for b, _ in metrics]}, schema={"b": pl.String})
        frame = frame.select(pl.col("b").str.split("/").alias("parts"))
        lengths = frame["parts"].list.len().cast(pl.Int64).to_numpy()
        depth = int(lengths.max()) if n else 0
        # the name of each metric's group at every depth (null above its own depth)
        parts = pl.col("parts")
        by_depth = [
            frame.select(
                pl.when(parts.list.len() >= d).then(parts.list.slice(0, d).list.join("/"))
            ).to_series()
            for d in range(1, depth + 1)
        ]
        names = (
            pl.concat(by_depth).drop_nulls().unique(maintain_order=True)
            if by_depth
            else pl.Series("p", [], dtype=pl.String)
        )
        self._group_names: list[str] = names.to_list()  # group id - 1 -> its name
        self._group_ids = dict(zip(self._group_names, range(1, len(names) + 1), strict=True))
        table = pl.DataFrame({"p": names.alias("p"), "id": np.arange(1, len(names) + 1)})
        groups = np.zeros((depth + 1, n), dtype=np.int64)  # row 0: the root
        for d, column in enumerate(by_depth, 1):
            named = pl.DataFrame({"p": column})
            found = named.join(table, on="p", how="left", maintain_order="left")
            groups[d] = found["id"].fill_null(-1).to_numpy()
        self.leaf0 = 1 + len(names)
        self.size = self.leaf0 + n
        self.chains = np.full((n, depth + 2), -1, dtype=np.int64)
        self.chains[:, 0] = self.leaf0 + np.arange(n)
        rows = np.arange(n)
        for k in range(1, depth + 2):
            at = lengths - (k - 1)  # the depth of the k-th node up the chain
            has = at >= 0
            self.chains[has, k] = groups[at[has], rows[has]]
        self.parent = np.full(self.size, -1, dtype=np.int64)
        for k in range(depth + 1):  # each column's parent is in the next one
            child, up = self.chains[:, k], self.chains[:, k + 1]
            linked = (child >= 0) & (up >= 0)
            self.parent[child[linked]] = up[linked]
        # metric -> id: by its benchmark's group, then among that group's few metrics
        self._leaf_group = groups[lengths, rows] if n else np.zeros(0, np.int64)
        self._by_group = np.argsort(self._leaf_group, kind="stable")
        self._sorted_groups = self._leaf_group[self._by_group]
        self.ids = _Ids(self)
        self.nodes = _Nodes(self)
        self.metric_id = _MetricIds(self)

    def metric_index(self, benchmark: str, metric: str | None) -> int | None:
        """The catalogue position of a metric (None: no such metric)."""
        g = self._group_ids.get(benchmark)
        if g is None or metric is None:
            return None
        lo, hi = np.searchsorted(self._sorted_groups, [g, g + 1])
        for i in self._by_group[lo:hi]:
            if self._metrics[i][1] == metric:
                return int(i)
        return None

    def node_id(self, node: Node) -> int | None:
        if node.is_metric:
            i = self.metric_index(node.benchmark, node.metric)
            return None if i is None else self.leaf0 + i
        if not node.parts:
            return 0
        return self._group_ids.get(node.benchmark)

    def node(self, i: int) -> Node:
        if i == 0:
            return Node()
        if i < self.leaf0:
            return Node(tuple(self._group_names[i - 1].split("/")))
        bench, metric = self._metrics[i - self.leaf0]
        return Node(tuple(bench.split("/")), metric)

    def shape(self, order: np.ndarray) -> TreeShape:
        return TreeShape(self, order)

    _widths: NameWidths | None = None

    def name_widths(self) -> NameWidths:
        """Each node's depth and name length (characters), and each group's metrics: what
        the widest line the tree can ever show is made of. Made once, in columns."""
        if self._widths is None:
            groups = pl.Series("g", self._group_names, dtype=pl.String)
            benches = pl.Series("b", [b for b, _ in self._metrics], dtype=pl.String)
            metrics = pl.Series("m", [m for _, m in self._metrics], dtype=pl.String)
            below = self.chains[:, 1:].ravel()
            sizes = np.bincount(below[below >= 0], minlength=self.leaf0)
            self._widths = NameWidths(
                group_depth=groups.str.count_matches("/").to_numpy() + 1,
                group_name=groups.str.split("/").list.last().str.len_chars().to_numpy(),
                group_size=sizes[1 : self.leaf0],
                metric_depth=benches.str.count_matches("/").to_numpy() + 2,
                metric_name=metrics.str.len_chars().to_numpy(),
                total=len(self._metrics),
            )
        return self._widths

    def below(self, node: Node, ids: np.ndarray) -> np.ndarray:
        """Which of the metrics `ids` lie below the group `node` (a mask)."""
        i = self.node_id(node)
        if i is None:
            return np.zeros(len(ids), dtype=bool)
        return (self.chains[ids] == i).any(axis=1)

    def counts(self, worse: np.ndarray, better: np.ndarray) -> NodeCounts:
        def count(mask: np.ndarray) -> np.ndarray:
            below = self.chains[mask].ravel()
            return np.bincount(below[below >= 0], minlength=self.size)

        return NodeCounts(self.ids, count(worse), count(better))


class _Ids:
    """Node -> id, as a read-only mapping whose nodes are made only when iterated."""

    def __init__(self, index: NodeIndex):
        self._index = index

    def get(self, node: Node, default: int | None = None) -> int | None:
        i = self._index.node_id(node)
        return default if i is None else i

    def __getitem__(self, node: Node) -> int:
        i = self._index.node_id(node)
        if i is None:
            raise KeyError(node)
        return i

    def __contains__(self, node: object) -> bool:
        return isinstance(node, Node) and self._index.node_id(node) is not None

    def __iter__(self) -> Iterator[Node]:
        return iter(self._index.nodes)

    def __len__(self) -> int:
        return self._index.size


class _Nodes(Sequence):
    """id -> Node, made when asked for."""

    def __init__(self, index: NodeIndex):
        self._index = index

    def __getitem__(self, i):  # an int (numpy's too); slices are not needed
        return self._index.node(int(i))

    def __len__(self) -> int:
        return self._index.size


class _MetricIds:
    """(benchmark, metric) -> catalogue position, as `dict.get` answers it."""

    def __init__(self, index: NodeIndex):
        self._index = index

    def get(self, key: tuple[str, str], default: int | None = None) -> int | None:
        i = self._index.metric_index(*key)
        return default if i is None else i


@dataclass(frozen=True)
class NameWidths:
    """Per group (depth from the root at 0, its own name's length, metrics below) and per
    metric (depth, name length), in arrays; `total`: every metric."""

    group_depth: np.ndarray
    group_name: np.ndarray
    group_size: np.ndarray
    metric_depth: np.ndarray
    metric_name: np.ndarray
    total: int


class TreeShape:
    """The tree of the shown metrics in their order: each group's children (groups and
    metrics, in the order of their first metric) and how many metrics lie below each
    node. Made with numpy from the metric ids; a group's children are listed when asked."""

    def __init__(self, index: NodeIndex, order: np.ndarray):
        self._index = index
        chains = index.chains[order]  # shown metrics x (leaf, groups up to the root)
        flat = chains.ravel()
        valid = flat >= 0
        self._sizes = np.bincount(flat[valid], minlength=len(index.nodes))
        # the first shown metric below each node: its place among its siblings (a
        # minimum per node by `minimum.at`: a sort of every chain cell took 0.5 s at 10^6)
        first = np.full(len(index.nodes), np.iinfo(np.int64).max)
        depth = chains.shape[1] if chains.ndim == 2 else 1
        np.minimum.at(first, flat[valid], np.flatnonzero(valid) // max(depth, 1))
        shown = np.flatnonzero(self._sizes)
        shown = shown[index.parent[shown] >= 0]  # the root is nobody's child
        by_parent = shown[np.lexsort((first[shown], index.parent[shown]))]
        self._children = by_parent
        self._parents = index.parent[by_parent]

    @property
    def index(self) -> NodeIndex:
        return self._index

    def size(self, node: Node) -> int:
        """Shown metrics below `node` (1 for a shown metric, 0 for anything not shown)."""
        i = self._index.ids.get(node)
        return 0 if i is None else int(self._sizes[i])

    def children(self, node: Node) -> list[Node]:
        lo, hi = self._span(node)
        nodes = self._index.nodes
        return [nodes[c] for c in self._children[lo:hi]]

    def child_count(self, node: Node) -> int:
        """len(children(node)), without making the nodes."""
        lo, hi = self._span(node)
        return int(hi - lo)

    def _span(self, node: Node) -> tuple[int, int]:
        i = self._index.ids.get(node)
        if i is None:
            return 0, 0
        lo, hi = np.searchsorted(self._parents, [i, i + 1])
        return int(lo), int(hi)


class NodeCounts(Mapping):
    """Node -> (metrics below it where some system is worse, where some is better)."""

    def __init__(self, ids: _Ids, worse: np.ndarray, better: np.ndarray):
        self._ids, self._worse, self._better = ids, worse, better

    def __getitem__(self, node: Node) -> tuple[int, int]:
        i = self._ids[node]
        return int(self._worse[i]), int(self._better[i])

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def same_as(self, other: object) -> bool:
        """The same counts of the same nodes (a new state that changed none of them)."""
        return (
            isinstance(other, NodeCounts)
            and other._ids is self._ids
            and np.array_equal(other._worse, self._worse)
            and np.array_equal(other._better, self._better)
        )
