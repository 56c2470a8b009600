"""Per-metric arrays behind the explorer's view: a comparison's verdicts per metric
(`PerMetric`), the tree's nodes by integer id (`NodeIndex`), the shape a given order
makes (`TreeShape`) and the counts below every node (`NodeCounts`). numpy over metric
ids: a filter or an order costs array operations, whatever the number of metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import numpy as np
import polars as pl

from tuibench.analysis.compare import METRIC, Comparison
from tuibench.present import tables
from tuibench.tui.view.state import Node


class PerMetric:
    """One comparison and, per metric (by id), whether some system is worse, better or
    significantly changed, and how bad its worst change is (for the orders)."""

    def __init__(self, cmp: Comparison, metric_ids: pl.DataFrame, n: int):
        self.cmp = cmp
        self._metric_ids = metric_ids
        self._n = n
        self._gains: dict[str, np.ndarray] = {}
        self._chance: str | None = None
        direction = pl.when(pl.col("better") == "higher").then(-1.0).otherwise(1.0)
        badness = pl.col("change") * direction  # > 0: worse than the reference
        # the size a change certainly has: its interval's bound nearest zero (0 across it)
        lo, hi = (pl.col("ratio_ci_low") - 1) * direction, (pl.col("ratio_ci_high") - 1) * direction
        sure_bad = pl.min_horizontal(lo, hi).clip(lower_bound=0).fill_null(0.0)
        sure_good = pl.min_horizontal(-lo, -hi).clip(lower_bound=0).fill_null(0.0)
        per = (
            cmp.rows.group_by(METRIC)
            .agg(
                ((pl.col("verdict") == "worse") & cmp.counted()).any().alias("worse"),
                ((pl.col("verdict") == "better") & cmp.counted()).any().alias("better"),
                pl.col("significant").any().alias("significant"),
                pl.col("verdict").is_in(["worse", "better"]).any().alias("changed"),
                badness.filter(pl.col("verdict") == "worse").max().alias("worst_sig"),
                (-badness).filter(pl.col("verdict") == "better").max().alias("best_sig"),
                badness.filter(~pl.col("is_reference")).max().alias("worst"),
                sure_bad.filter(pl.col("verdict") == "worse").max().alias("worst_sure"),
                sure_good.filter(pl.col("verdict") == "better").max().alias("best_sure"),
            )
            .join(metric_ids, on=METRIC, how="inner")
        )
        mid = per["_mid"].to_numpy()

        def column(name: str, fill: float | bool) -> np.ndarray:
            out = np.full(n, fill, dtype=type(fill) if isinstance(fill, bool) else float)
            out[mid] = per[name].fill_null(fill).to_numpy()
            return out

        self.worse, self.better = column("worse", False), column("better", False)
        self.significant = column("significant", False)
        self.changed = column("changed", False)  # some verdict worse or better, counted or not
        self.worst_sig, self.worst = column("worst_sig", np.nan), column("worst", np.nan)
        self.best_sig = column("best_sig", np.nan)
        self.worst_sure, self.best_sure = column("worst_sure", 0.0), column("best_sure", 0.0)
        self.compared = np.zeros(n, dtype=bool)
        self.compared[mid] = True
        self._row_ids: np.ndarray | None = None

    def row_ids(self) -> np.ndarray:
        """Each comparison row's metric id (`n` where a row's metric is not in the
        catalogue), made when first needed and kept."""
        if self._row_ids is None:
            ids = self.cmp.rows.select(METRIC).join(
                self._metric_ids, on=METRIC, how="left", maintain_order="left"
            )["_mid"]
            self._row_ids = ids.fill_null(self._n).cast(pl.Int64).to_numpy()
        return self._row_ids

    def chance(self) -> str:
        """See `Session.chance` (kept: the same for every filter, sort or toggle)."""
        if self._chance is None:
            self._chance = ""
            cmp = self.cmp
            if tables.chance_notes(cmp):
                n, alpha = cmp.comparisons, cmp.options.alpha
                flagged = int(cmp.rows["significant"].sum())
                p = cmp.rows["p_adjusted"].drop_nulls()
                if not cmp.options.fdr:
                    self._chance = f"{flagged} flagged, ≈{alpha * n:.0f} by chance (d: FDR)"
                elif p.len():
                    self._chance = f"FDR: none (smallest adjusted p {cast(float, p.min()):.2g})"
                else:
                    self._chance = "FDR: none"
        return self._chance

    def gains(self, system: str) -> np.ndarray:
        """Each metric's gain of `system` against the reference (NaN where it has none)."""
        if system not in self._gains:
            part = self.cmp.rows.filter(pl.col("system") == system).select(*METRIC, "gain")
            part = part.join(self._metric_ids, on=METRIC, how="inner")
            out = np.full(self._n, np.nan)
            out[part["_mid"].to_numpy()] = part["gain"].fill_null(np.nan).to_numpy()
            self._gains[system] = out
        return self._gains[system]


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

    def size(self, node: Node) -> int:
        """Shown metrics below `node` (1 for a shown metric, 0 for anything not shown)."""
        i = self._index.ids.get(node)
        return 0 if i is None else int(self._sizes[i])

    def children(self, node: Node) -> list[Node]:
        i = self._index.ids.get(node)
        if i is None:
            return []
        lo, hi = np.searchsorted(self._parents, [i, i + 1])
        nodes = self._index.nodes
        return [nodes[c] for c in self._children[lo:hi]]


class NodeIndex:
    """Integer ids for every node of the benchmark tree, and for each metric the ids of its
    leaf and of every node above it: counts below every node are one `bincount`."""

    def __init__(self, metrics: list[tuple[str, str]]):
        ids: dict[Node, int] = {Node(): 0}
        self.metric_id: dict[tuple[str, str], int] = {}
        chains = []
        for i, (bench, metric) in enumerate(metrics):
            self.metric_id[(bench, metric)] = i
            parts = tuple(bench.split("/"))
            chain = [Node(parts, metric)] + [Node(parts[:d]) for d in range(len(parts), -1, -1)]
            chains.append([ids.setdefault(node, len(ids)) for node in chain])
        depth = max((len(c) for c in chains), default=1)
        self.chains = np.full((len(chains), depth), -1, dtype=np.int64)
        for i, row in enumerate(chains):
            self.chains[i, : len(row)] = row
        self.ids = ids
        self.nodes = list(ids)  # by id (a dict keeps the order of insertion)
        self.parent = np.full(len(ids), -1, dtype=np.int64)
        for k in range(depth - 1):  # each column's parent is in the next one
            child, up = self.chains[:, k], self.chains[:, k + 1]
            has = (child >= 0) & (up >= 0)
            self.parent[child[has]] = up[has]

    def shape(self, order: np.ndarray) -> TreeShape:
        return TreeShape(self, order)

    def below(self, node: Node, ids: np.ndarray) -> np.ndarray:
        """Which of the metrics `ids` lie below the group `node` (a mask)."""
        i = self.ids.get(node)
        if i is None:
            return np.zeros(len(ids), dtype=bool)
        return (self.chains[ids] == i).any(axis=1)

    def counts(self, worse: np.ndarray, better: np.ndarray) -> NodeCounts:
        def count(mask: np.ndarray) -> np.ndarray:
            below = self.chains[mask].ravel()
            return np.bincount(below[below >= 0], minlength=len(self.ids))

        return NodeCounts(self.ids, count(worse), count(better))


class NodeCounts(Mapping):
    """Node -> (metrics below it where some system is worse, where some is better)."""

    def __init__(self, ids: dict[Node, int], worse: np.ndarray, better: np.ndarray):
        self._ids, self._worse, self._better = ids, worse, better

    def __getitem__(self, node: Node) -> tuple[int, int]:
        i = self._ids[node]
        return int(self._worse[i]), int(self._better[i])

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)
