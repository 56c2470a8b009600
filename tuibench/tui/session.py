"""What the explorer shows, computed from the loaded results and the view state.

Everything the user can change lives in `ViewState` (state.py); `Session.recompute()` is the
one path from that state to what is on screen: the comparison, the metrics that pass the
filter, the counts in the tree and the order of the summaries. A new option is one field in
`ViewState` (passed on by `compare_options()` when the core takes it) and one key in keys.py.

No Textual here: this module is tested and timed on its own.
"""

from __future__ import annotations

import dataclasses

import polars as pl

from tuibench.core import tables
from tuibench.core.answer import Answer, build_answer
from tuibench.core.compare import Analysis, Comparison
from tuibench.core.model import ResultSet
from tuibench.core.tables import Table
from tuibench.tui.state import Mark, Node, ViewState, name_matcher

METRIC = ["benchmark", "metric"]

SUMMARIES_KEPT = 16  # summaries kept, for stepping back to a reference at once
ANSWER_LIMIT = 200  # changes listed per system on the first screen (the rest are counted)


class Session:
    """The loaded results, their analysis, the view state, and what follows from them."""

    def __init__(self, rs: ResultSet, analysis: Analysis, state: ViewState):
        self.rs = rs
        self.analysis = analysis
        self.state = state
        self.metrics: list[tuple[str, str]] = list(rs.metrics.select(METRIC).iter_rows())
        # Every metric's leaf and the nodes above it, up to the root: counted on each switch.
        self._ancestors: dict[tuple[str, str], list[Node]] = {}
        for bench, metric in self.metrics:
            parts = tuple(bench.split("/"))
            chain = [Node(parts, metric)] + [Node(parts[:i]) for i in range(len(parts), -1, -1)]
            self._ancestors[(bench, metric)] = chain
        self._summaries: dict[tuple, Table | None] = {}  # recent summaries, by state and node
        self._answer: tuple[tuple, Answer] | None = None
        self._severity: tuple[tuple, list[tuple[str, str]], dict] | None = None
        self.cmp: Comparison
        self.visible: list[tuple[str, str]] = []  # catalogue order
        self.ordered: list[tuple[str, str]] = []  # in the summary order of `state.sort`
        self.flags: dict[tuple[str, str], tuple[bool, bool]] = {}  # (any worse, any better)
        self.counts: dict[Node, tuple[int, int]] = {}
        self.recompute()

    def set_analysis(self, analysis: Analysis) -> None:
        """A new analysis of the same results (another option of `Analysis`)."""
        self.analysis = analysis
        self._summaries.clear()

    @property
    def systems(self) -> list[str]:
        return self.rs.system_names

    def recompute(self) -> None:
        """State -> comparison, visible metrics, counts and order. The only update path."""
        s = self.state
        self.cmp = self.analysis.compare(s.reference, **s.compare_options())
        rows = self.cmp.rows
        direction = pl.when(pl.col("better") == "higher").then(-1.0).otherwise(1.0)
        badness = pl.col("change") * direction  # > 0: worse than the reference
        per = rows.group_by(METRIC, maintain_order=True).agg(
            (pl.col("verdict") == "worse").any().alias("worse"),
            (pl.col("verdict") == "better").any().alias("better"),
            pl.col("significant").any().alias("significant"),
            badness.filter(pl.col("verdict") == "worse").max().alias("worst_sig"),
            badness.filter(~pl.col("is_reference")).max().alias("worst"),
        )
        match = name_matcher(s.filter_text)
        self.flags = {}
        keys = []
        for bench, metric, worse, better, sig, worst_sig, worst in per.iter_rows():
            self.flags[(bench, metric)] = (bool(worse), bool(better))
            if (sig or not s.significant_only) and match(bench, metric):
                keys.append(((bench, metric), worst_sig, worst))
        self.visible = [k for k, _, _ in keys]
        if s.sort == "worst":

            def key(item: tuple) -> tuple:
                _, worst_sig, worst = item
                return (
                    worst_sig is None,
                    -(worst_sig or 0.0),
                    worst is None,
                    -(worst or 0.0),
                )

            self.ordered = [k for k, _, _ in sorted(keys, key=key)]  # stable: natural ties
        else:
            self.ordered = list(self.visible)
        self.counts = self._counts()

    def _counts(self) -> dict[Node, tuple[int, int]]:
        counts: dict[Node, list[int]] = {Node(): [0, 0]}
        for key in self.visible:
            worse, better = self.flags[key]
            for node in self._ancestors[key]:
                c = counts.get(node)
                if c is None:
                    counts[node] = [int(worse), int(better)]
                else:
                    c[0] += worse
                    c[1] += better
        return {n: (c[0], c[1]) for n, c in counts.items()}

    # -- tables -------------------------------------------------------------------------
    def metrics_under(self, node: Node) -> list[tuple[str, str]]:
        """Visible metrics below `node`, in the summary order."""
        if node.is_metric:
            key = (node.benchmark, node.metric)
            return [key] if key in self.flags else []
        return [k for k in self.ordered if node.covers(k[0])]

    def comparison_under(self, node: Node) -> Comparison:
        """The comparison restricted to the visible metrics below `node`, in summary order."""
        keys = self.metrics_under(node)
        order = pl.DataFrame(
            {"benchmark": [k[0] for k in keys], "metric": [k[1] for k in keys]},
            schema={"benchmark": pl.String, "metric": pl.String},
        ).with_row_index("_order")
        rows = (
            self.cmp.rows.join(order, on=METRIC, how="inner", maintain_order="left")
            .sort("_order", maintain_order=True)
            .drop("_order")
        )
        return dataclasses.replace(self.cmp, rows=rows)

    def view_key(self) -> tuple:
        """Everything in the state that changes what the tables show (not the cursor)."""
        s = self.state
        key = (s.reference, tuple(sorted(s.compare_options().items())), s.sort)
        key += tuple(sorted(s.analysis_options().items()))
        return (*key, s.filter_text, s.significant_only, id(self.analysis))

    def answer(self) -> Answer:
        """The first screen: per system the counts and the significant changes, worst first.

        Over every metric, or over those the filter shows when a name filter is set.
        """
        key = self.view_key()
        if self._answer is None or self._answer[0] != key:
            cmp = self.comparison_under(Node()) if self.state.filter_text else self.cmp
            self._answer = (key, build_answer(cmp, limit=ANSWER_LIMIT))
        return self._answer[1]

    def severity_order(self) -> list[tuple[str, str]]:
        """Shown metrics where some system changed significantly: those with a regression
        first, worst first; then those with only improvements, largest first."""
        key = self.view_key()
        if self._severity is None or self._severity[0] != key:
            order = self._severity_order()
            self._severity = (key, order, {k: i for i, k in enumerate(order)})
        return self._severity[1]

    def severity_position(self, key: tuple[str, str] | None) -> int | None:
        self.severity_order()
        return None if key is None or self._severity is None else self._severity[2].get(key)

    def _severity_order(self) -> list[tuple[str, str]]:
        rows = self.cmp.rows.filter(pl.col("verdict").is_in(["worse", "better"]))
        direction = pl.when(pl.col("better") == "higher").then(-1.0).otherwise(1.0)
        badness = pl.col("change") * direction  # > 0: worse than the reference
        per = rows.group_by(METRIC, maintain_order=True).agg(
            badness.filter(pl.col("verdict") == "worse").max().alias("worst"),
            (-badness).filter(pl.col("verdict") == "better").max().alias("best"),
        )
        per = per.with_columns(pl.col("worst").is_null().alias("_only_better")).sort(
            ["_only_better", "worst", "best"],
            descending=[False, True, True],
            nulls_last=True,
            maintain_order=True,
        )
        shown = self.flags if not self._filtered() else set(self.visible)
        return [k for k in per.select(METRIC).iter_rows() if k in shown]

    def _filtered(self) -> bool:
        return bool(self.state.filter_text)

    def summary(self, node: Node) -> Table | None:
        """The mmtests-style summary of the metrics below a group; None when none is shown.

        The last few are kept: stepping back to a reference shows its summary at once.
        """
        key = (node, *self.view_key())
        table = self._summaries.pop(key) if key in self._summaries else self._summary(node)
        self._summaries[key] = table
        while len(self._summaries) > SUMMARIES_KEPT:
            del self._summaries[next(iter(self._summaries))]
        return table

    def _summary(self, node: Node) -> Table | None:
        cmp = self.comparison_under(node)
        if cmp.rows.height == 0:
            return None
        title = "" if node.is_root else f"{node.benchmark}: comparison against {cmp.reference}"
        return tables.summary_table(cmp, title)

    def detail(self, node: Node) -> Table:
        return tables.detail_table(self.cmp, node.benchmark, node.metric or "")

    def noise(self, node: Node) -> Table:
        return tables.noise_table(self.cmp, node.benchmark, node.metric or "")

    def systems_summary(self, node: Node) -> Table | None:
        """Per system over the metrics below `node`: geometric mean of ratios and counts."""
        cmp = self.comparison_under(node)
        if cmp.rows.height == 0 or len(self.systems) < 2:
            return None
        return tables.system_summary_table(cmp)

    def iterations(self, node: Node) -> Table:
        return tables.iterations_table(self.cmp, node.benchmark, node.metric or "")

    def current_table(self, node: Node) -> Table | None:
        """The table that `mark`, `export` and `copy` act on for `node`."""
        if node.is_metric:
            return self.detail(node) if (node.benchmark, node.metric) in self.flags else None
        return self.summary(node)

    def metric_rows(self, node: Node) -> list[dict]:
        """The comparison rows of one metric (reference first), as dictionaries."""
        part = self.cmp.rows.filter(
            (pl.col("benchmark") == node.benchmark) & (pl.col("metric") == node.metric)
        )
        return list(part.iter_rows(named=True))

    def metric_info(self, node: Node) -> dict | None:
        """Unit, direction and mean kind of a metric."""
        part = self.rs.metrics.filter(
            (pl.col("benchmark") == node.benchmark) & (pl.col("metric") == node.metric)
        )
        return part.row(0, named=True) if part.height else None

    # -- marks --------------------------------------------------------------------------
    def toggle_mark(self, node: Node) -> tuple[str, Mark] | None:
        """Mark the current table of `node`, or unmark it when it is marked as it is now.

        Returns ("marked" | "updated" | "unmarked", mark), or None when there is no table.
        """
        table = self.current_table(node)
        if table is None:
            return None
        s = self.state
        new = Mark(node, s.reference, s.alpha, table, self.comparison_under(node))
        for i, old in enumerate(s.marks):
            if old == new:
                if old.table.rows == table.rows and old.table.columns == table.columns:
                    del s.marks[i]
                    return "unmarked", old
                s.marks[i] = new
                return "updated", new
        s.marks.append(new)
        return "marked", new

    def is_marked(self, node: Node) -> bool:
        s = self.state
        return any(m.node == node and m.reference == s.reference for m in s.marks)
