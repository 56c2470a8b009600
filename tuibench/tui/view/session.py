"""What the explorer shows, computed from the loaded results and the view state.

Everything the user can change lives in `ViewState` (state.py); `compute(state)` turns it
into what is on screen (the comparison, the metrics that pass the filter, the counts in the
tree and the order of the summaries) and `install` shows it: at once (`recompute()`), or
from a worker on a large set. An option of the numbers is a field of `AnalysisOptions`, one
of the view a field of `ViewState`, and either one key in keys.py.

No Textual here: this module is tested and timed on its own.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from tuibench.analysis.compare import Analysis, Comparison
from tuibench.analysis.compare.columns import METRIC
from tuibench.model.results import ResultSet
from tuibench.present import summary_window, systems_table, tables
from tuibench.present.answer import Answer, build_answer
from tuibench.present.tables import Table
from tuibench.tui.view.decisions import MetricDecisions, changed_verdicts
from tuibench.tui.view.node_index import NodeCounts, NodeIndex, TreeShape, name_pairs
from tuibench.tui.view.per_metric import PerMetric, metric_ids_of
from tuibench.tui.view.state import (
    VIEW_ROWS,
    Mark,
    Node,
    ViewState,
    filter_glob,
    name_regex,
    sort_keys,
)
from tuibench.util.globs import glob_expr

if TYPE_CHECKING:
    from tuibench.model.options import AnalysisOptions, ViewOptions
    from tuibench.tui.view.reloads import Reloads

SUMMARIES_KEPT = 16  # summaries kept, for stepping back to a reference at once
COMPARISONS_KEPT = 8  # comparisons kept (references, options), at most ...
COMPARISON_ROWS_KEPT = 4_000_000  # ... and at most about this many rows in all: from there
# only the one shown (each is 0.7 GB or more at a million metrics of two systems, which keep
# both; stepping back from a larger set compares again)
ANSWER_LIMIT = 200  # changes listed per system on the first screen (the rest are counted)
ANSWERS_KEPT = 4


def name_mask(text: str, benchmarks: pl.Series, full_names: pl.Series) -> np.ndarray:
    """Which metrics the filter `text` lets through, given their benchmarks and
    `benchmark/metric` names: `state.name_matcher` over all names at once."""
    if (glob := filter_glob(text)) is not None:
        hit = glob_expr(pl.col("b"), glob) | glob_expr(pl.col("n"), glob)
        names = pl.DataFrame({"b": benchmarks, "n": full_names})
        return names.select(hit).to_series().to_numpy()
    regex = name_regex(text)
    if regex is None:
        return np.ones(len(full_names), dtype=bool)
    return full_names.str.contains(regex).to_numpy()


@dataclass
class Shown:
    """What a view state shows (`Session.compute`), installed all at once (`install`)."""

    cmp: Comparison  # the comparison, sizes as the state reads them
    compared: np.ndarray  # per metric id: compared against the reference at all
    per: PerMetric  # the comparison's verdicts per metric
    ids: np.ndarray  # the metrics shown, in catalogue order
    order: np.ndarray  # the same, in the state's order
    counts: NodeCounts  # worse / better below every node
    shape: TreeShape | None = None  # the tree's shape (`prepare`), else made when asked
    severity: tuple[tuple, np.ndarray, np.ndarray] | None = None  # `n`'s order (`prepare`)


class Session:
    """The loaded results, their analysis, the view state, and what follows from them."""

    def __init__(self, rs: ResultSet, analysis: Analysis, state: ViewState):
        self.rs = rs
        self.analysis = analysis
        self.state = state
        self.metrics: list[tuple[str, str]] = name_pairs(rs.metrics)
        names = rs.metrics.select(pl.col(c).cast(pl.String) for c in METRIC)
        self._metric_ids = names.with_row_index("_mid")
        self._nodes = NodeIndex(self.metrics)
        self._match: tuple[str, np.ndarray] | None = None  # the last filter and its matches
        self._comparisons: dict[tuple, PerMetric] = {}  # recent comparisons, newest last
        self._group_ids: np.ndarray | None = None  # each group's metric id (`_row_ids_of`)
        self._shown_key: tuple = ()  # the key (`_key`) of the comparison shown
        self._lock = threading.Lock()
        # Each kept comparison holds every row: keep all references at a moderate size.
        rows = len(self.metrics) * len(rs.system_names)
        self.comparisons_kept = max(1, min(COMPARISONS_KEPT, COMPARISON_ROWS_KEPT // max(rows, 1)))
        self._full_names: pl.Series | None = None
        self._names: np.ndarray | None = None
        self._summaries: dict[tuple, Table | None] = {}  # recent summaries, by state and node
        self._answers: dict[tuple, Answer] = {}  # the last few, newest last
        self._system_summary: tuple[tuple, pl.DataFrame] | None = None
        self._severity: tuple[tuple, np.ndarray, np.ndarray] | None = None
        self.cmp: Comparison
        self.visible_ids: np.ndarray  # ids of the shown metrics, catalogue order
        self.order_ids: np.ndarray  # the same in the summary order of `state.sort`
        self._visible: list[tuple[str, str]] | None = None
        self._shape: TreeShape | None = None
        self._ordered: list[tuple[str, str]] | None = None
        self.counts: NodeCounts
        self._current: PerMetric  # these two as `compute` gives them (`install`)
        self._compared: np.ndarray
        self.reference_requested = False  # --reference: the reference was chosen
        self.decide = False  # --decide / --follow: `tuibench decide`'s verdicts per metric
        self._decisions: tuple[tuple, MetricDecisions] | None = None
        self.unseen: set[tuple[str, str]] = set()  # verdict changed by a reload, not visited
        self.reloads: Reloads | None = None  # what the last load keeps for the next
        self._ahead: tuple[tuple, Shown] | None = None  # a view made ahead (`ahead`)
        self.recompute()

    @classmethod
    def first(
        cls, rs: ResultSet, analysis: Analysis, options: AnalysisOptions, view: ViewOptions
    ) -> Session:
        """The session of the first screen, as the command line asks for it, with what it
        draws first (the tree's shape, the answer and its per-system summary) made."""
        reference = view.reference or rs.default_reference
        if reference not in rs.system_names:  # the explorer says so
            reference = rs.system_names[0]
        state = ViewState.first(reference, options, view)
        session = cls(rs, analysis, state)
        session.reference_requested = view.reference is not None
        session.decide = view.decide or view.follow
        session.install(state, session.prepare(state, session.compute(state)))
        return session

    def reload(
        self,
        paths: list[str],
        state: ViewState | None = None,
        complete: Mapping[str, int] | None = None,
    ) -> Session:
        """The same view (`state`: reference, filter, sort, marks, options) over the files as
        they are now, with the metrics whose verdict changed added to `unseen`. The one way
        a reload goes (tui/live.py), in a worker thread, through `reloads` (kept from load to
        load: only new or changed files are read, and what they leave as it was is not
        computed again; the numbers are a fresh load's). `complete`: the files
        known complete, to read (core/watch.py). Raises ValueError when nothing can be
        loaded any more."""
        from tuibench.tui.view.reloads import Reloads

        state = dataclasses.replace(state or self.state)
        state.marks = list(state.marks)
        if self.reloads is None or self.reloads.paths != list(paths):
            self.reloads = Reloads(paths)
        rs = self.reloads.load(complete=complete)
        if rs.empty:
            raise ValueError(f"nothing could be loaded ({len(rs.problems)} problems)")
        analysis = self.reloads.analyse(rs, state.options)
        if state.reference not in rs.system_names:
            state.reference = rs.default_reference
            if state.reference not in rs.system_names:
                state.reference = rs.system_names[0]
        if state.sort.startswith("system:") and state.sort not in sort_keys(
            rs.system_names, state.reference
        ):
            state.sort = "natural"
        new = Session(rs, analysis, state)
        new.reference_requested, new.decide = self.reference_requested, self.decide
        new.reloads = self.reloads
        new.install(state, new.prepare(state, new.compute(state)))
        old_d, new_d = self.decisions(), new.decisions()
        changed = changed_verdicts(
            self.cmp.rows,
            new.cmp.rows,
            None if old_d is None else old_d.signature(),
            None if new_d is None else new_d.signature(),
        )
        new.unseen = {k for k in self.unseen | changed if new._nodes.metric_id.get(k) is not None}
        return new

    def decisions(self) -> MetricDecisions | None:
        """`tuibench decide` against the reference, at alpha and the threshold (kept)."""
        if not self.decide:
            return None
        s = self.state
        key = (id(self.analysis), s.reference, s.options.alpha, s.options.threshold)
        if self._decisions is None or self._decisions[0] != key:
            decisions = MetricDecisions(
                self.analysis, s.reference, s.options.alpha, s.options.threshold
            )
            self._decisions = (key, decisions)
        return self._decisions[1]

    def set_analysis(self, analysis: Analysis) -> None:
        """A new analysis of the same results (another option of `Analysis`)."""
        self.analysis = analysis
        self._group_ids = self._ahead = None
        self._summaries.clear()
        self._comparisons.clear()

    @property
    def systems(self) -> list[str]:
        return self.rs.system_names

    def recompute(self) -> None:
        """State -> comparison, visible metrics, counts and order, shown at once (what
        `ahead` made for this state, if it did)."""
        kept, self._ahead = self._ahead, None
        if kept is not None and kept[0] == self.view_key():
            self.install(self.state, kept[1])
        else:
            self.install(self.state, self.compute(self.state))

    def ahead(self, state: ViewState, node: Node) -> None:
        """Make what `state` shows now (`compute`, `prepare`, and the table of the group
        `node` the pane shows), for the next `recompute` to it: the first press of `s` into
        an order was 80-105 ms at 20,000 metrics, later ones 35-65."""
        key = self.view_key(state)
        if self._ahead is None or self._ahead[0] != key:
            self._ahead = (key, self.prepare(state, self.compute(state)))
        if not node.is_root and not node.is_metric:
            self._table_ahead(state, self._ahead[1], node)

    def install(self, state: ViewState, shown: Shown) -> None:
        """Show what `compute(state)` gave (on the UI thread, all at once)."""
        self.state = state
        self.cmp, self._compared, self._current = shown.cmp, shown.compared, shown.per
        before, self._shown_key = self._shown_key, self._key(state)
        if before != self._shown_key:  # the summaries of the one shown before: let go of
            with self._lock:
                self._forget_summaries()
        self.visible_ids, self.order_ids, self.counts = shown.ids, shown.order, shown.counts
        self._visible = self._ordered = None
        self._shape = shown.shape
        self._severity = shown.severity

    def compute(self, s: ViewState) -> Shown:
        """What `s` shows, changing nothing: safe to run in a worker thread.

        Vectorised over the metrics (integer ids, numpy): the comparison and what follows
        from it per metric are kept (`_per_metric`), so a filter, sort or toggle costs a few
        array operations, whatever the number of metrics."""
        per = self._per_metric(s)
        cmp = dataclasses.replace(per.cmp, percent=s.percent)
        shown = per.compared & self._matches(s.filter_text)
        if s.significant_only:
            shown &= per.significant
        ids = np.flatnonzero(shown)
        if s.sort == "worst":
            worst_sig, worst = per.worst_sig[ids], per.worst[ids]
            keys = (
                -np.nan_to_num(worst, nan=0.0),
                np.isnan(worst),
                -np.nan_to_num(worst_sig, nan=0.0),
                np.isnan(worst_sig),
            )
            order = ids[np.lexsort(keys)]  # stable: natural order between ties
        elif s.sort == "name":
            order = ids[np.argsort(self._name_rank()[ids], kind="stable")]
        elif s.sort.startswith("system:"):
            gain = per.gains(s.sort[len("system:") :])[ids]
            order = ids[np.lexsort((np.nan_to_num(gain, nan=0.0), np.isnan(gain)))]
        else:
            order = ids
        counts = self._nodes.counts(shown & per.worse, shown & per.better)
        return Shown(cmp, per.compared, per, ids, order, counts)

    @property
    def visible(self) -> list[tuple[str, str]]:
        """The shown metrics in catalogue order (made when first asked for)."""
        if self._visible is None:
            self._visible = [self.metrics[i] for i in self.visible_ids]
        return self._visible

    @property
    def ordered(self) -> list[tuple[str, str]]:
        """The shown metrics in the summary order of `state.sort`."""
        if self._ordered is None:
            self._ordered = [self.metrics[i] for i in self.order_ids]
        return self._ordered

    def in_order(self, ids: np.ndarray) -> bool:
        """Whether `ids` are the shown metrics in the current order."""
        return np.array_equal(ids, self.order_ids)

    def tree_shape(self) -> TreeShape:
        """The groups and metrics of the tree in the current order (what the tree shows)."""
        if self._shape is None:
            self._shape = self._nodes.shape(self.order_ids)
        return self._shape

    def _per_metric(self, s: ViewState) -> PerMetric:
        """The comparison of `s` and its verdicts per metric, kept for the last few
        references and options: stepping back or toggling costs no new comparison. The one
        shown is never made again; before a new one is made, the kept ones beyond room for
        it are let go of (at a million metrics: only the one shown stays beside it)."""
        key = self._key(s)
        with self._lock:
            per = self._comparisons.pop(key, None)
            if per is None and key == self._shown_key:
                per = self._current
            if per is None:  # room for the new one first
                self._keep_at_most(self.comparisons_kept - 1)
        if per is None:
            cmp = self.analysis.compare(s.reference, s.options)
            per = PerMetric(cmp, self._metric_ids, len(self.metrics), self._row_ids_of(cmp))
        with self._lock:  # a worker may be preparing another reference meanwhile
            self._comparisons[key] = per  # the newest last
            self._keep_at_most(self.comparisons_kept)
        return per

    def _row_ids_of(self, cmp: Comparison) -> np.ndarray | None:
        """Each row's metric id, through its row in the analysis's groups (`_row`): the
        groups' ids are found once per analysis, then every comparison gathers them (a join
        on the names per comparison held 0.4 GB for a moment at a million distinct names).
        None for rows built by hand (without `_row`)."""
        private = cmp.private
        if private is None or "_row" not in private.columns or private.height != cmp.rows.height:
            return None
        if self._group_ids is None:
            groups = self.analysis.groups
            self._group_ids = metric_ids_of(groups, self._metric_ids, len(self.metrics))
        return self._group_ids[private["_row"].to_numpy()]

    def _keep_at_most(self, n: int) -> None:
        """The oldest kept comparisons let go of down to `n`, their summaries with them
        (under the lock)."""
        if len(self._comparisons) <= n:
            return
        while len(self._comparisons) > n:
            del self._comparisons[next(iter(self._comparisons))]
        self._forget_summaries()

    def _key(self, s: ViewState) -> tuple:
        """What a comparison is kept by: its reference, options and analysis."""
        return (s.reference, s.options.comparison_key(), id(self.analysis))

    def _forget_summaries(self) -> None:
        """Let go of the kept summaries of comparisons no longer kept: each holds its whole
        comparison (the rows' private columns and the summary's source)."""
        kept = {k[:2] for k in self._comparisons}  # (reference, comparison options)
        kept.add(self._shown_key[:2])
        for key in [k for k in self._summaries if k[2:4] not in kept]:
            del self._summaries[key]

    def prepare_comparisons(self, stop: Callable[[], bool] | None = None) -> None:
        """Compare against every other reference ahead (in a worker, after loading), so the
        first `]` or `[` to each is as quick as the next ones; only while all of them can
        be kept. Ends early once `stop()` is true."""
        if len(self.systems) > self.comparisons_kept:
            return
        state = dataclasses.replace(self.state)  # as it is now: the options of the screen
        for name in self.systems:
            if stop is not None and stop():
                return
            per = self._per_metric(dataclasses.replace(state, reference=name))
            per.cmp.summary()  # kept by the analysis: the answer's ranking against `name`
            per.chance()

    def chance(self) -> str:
        """The header's word on chance: how many flags alpha alone would give, or why the
        false discovery rate left nothing."""
        return self._current.chance()

    def _name_rank(self) -> np.ndarray:
        """Each metric's place in the order of names (benchmark, then metric)."""
        if self._names is None:
            order = sorted(range(len(self.metrics)), key=self.metrics.__getitem__)
            self._names = np.empty(len(order), dtype=np.int64)
            self._names[order] = np.arange(len(order))
        return self._names

    def _matches(self, text: str) -> np.ndarray:
        """Which metrics the name filter lets through (the last answer is kept)."""
        if self._match is None or self._match[0] != text:
            if name_regex(text) is None and filter_glob(text) is None:
                mask = np.ones(len(self.metrics), dtype=bool)
            else:
                if self._full_names is None:
                    self._full_names = pl.Series(
                        [f"{b}/{m}" for b, m in self.metrics], dtype=pl.String
                    )
                mask = name_mask(text, self._metric_ids["benchmark"], self._full_names)
            self._match = (text, mask)
        return self._match[1]

    def is_compared(self, key: tuple[str, str]) -> bool:
        """Whether a metric has rows in the comparison."""
        i = self._nodes.metric_id.get(key)
        return i is not None and bool(self._compared[i])

    # -- tables -------------------------------------------------------------------------
    def metrics_under(self, node: Node, limit: int | None = None) -> list[tuple[str, str]]:
        """Visible metrics below `node`, in the summary order (the first `limit`)."""
        return [self.metrics[i] for i in self._ids_under(node)[:limit]]

    def count_under(self, node: Node) -> int:
        """How many visible metrics lie below `node`."""
        return len(self._ids_under(node))

    def _ids_under(self, node: Node) -> np.ndarray:
        if node.metric is not None:
            i = self._nodes.metric_id.get((node.benchmark, node.metric))
            return np.array([i] if i is not None and self._compared[i] else [], dtype=np.int64)
        if node.is_root:
            return self.order_ids
        return self.order_ids[self._nodes.below(node, self.order_ids)]

    def comparison_under(self, node: Node, limit: int | None = None) -> Comparison:
        """The comparison restricted to the visible metrics below `node`, in summary order
        (the first `limit` of them)."""
        return self._restricted(self.cmp, self._ids_under(node)[:limit], self._current)

    def whole_under(self, node: Node) -> Comparison:
        """Every compared metric below `node`, whatever `f` and the filter show: what the
        counts of an export or a copy are over, as the per-system summary is."""
        ids = np.flatnonzero(self._current.compared)
        if node.is_metric:
            ids = self._ids_under(node)
        elif not node.is_root:
            ids = ids[self._nodes.below(node, ids)]
        return self._among(self.cmp, ids, self._current)

    def _restricted(self, cmp: Comparison, ids: np.ndarray, per: PerMetric) -> Comparison:
        """`cmp` (the comparison `per` keeps, whatever its display options) with the rows of
        the metrics `ids` only, in that order, each metric's reference first (the tables'
        order): a gather by the rows' metric ids, not a join over every row."""
        position = np.full(len(self.metrics) + 1, len(ids), dtype=np.int64)
        position[ids] = np.arange(len(ids))
        at = position[per.row_ids()]  # a row of no listed metric: len(ids)
        keep = np.flatnonzero(at < len(ids))
        keep = keep[np.lexsort((per.not_reference()[keep], at[keep]))]
        return dataclasses.replace(cmp, rows=cmp.rows[keep])

    def _among(self, cmp: Comparison, ids: np.ndarray, per: PerMetric) -> Comparison:
        """`cmp` with the rows of the metrics `ids` only, in its own order (for what does
        not depend on the order): no copy when they are all of its rows."""
        listed = np.zeros(len(self.metrics) + 1, dtype=bool)
        listed[ids] = True
        keep = listed[per.row_ids()]
        if keep.all():
            return cmp
        return dataclasses.replace(cmp, rows=cmp.rows.filter(pl.Series(keep)))

    def view_key(self, state: ViewState | None = None) -> tuple:
        """Everything in the state (the shown one by default) that changes what the tables
        show (not the cursor)."""
        s = state or self.state
        key: tuple = (s.reference, s.options.comparison_key(), s.sort)
        key += s.options.analysis_key()
        return (*key, s.filter_text, s.significant_only, s.percent, id(self.analysis))

    def system_summary(self) -> pl.DataFrame:
        """The per-system summary: it covers every metric whatever the filter, sort or view,
        so it is computed once per reference and comparison options (it can be costly)."""
        return self._system_summary_of(self.state, self.cmp)

    def _system_summary_of(self, s: ViewState, cmp: Comparison) -> pl.DataFrame:
        key = (s.reference, s.options.comparison_key(), id(self.analysis))
        kept = self._system_summary
        if kept is None or kept[0] != key:
            kept = self._system_summary = (key, cmp.summary())
        return kept[1]

    def answer(self) -> Answer:
        """The first screen: per system the counts and the significant changes, worst first.

        Over every metric, or over those the filter shows when a name filter is set.
        """
        return self._answer_of(self.state, self.cmp, self._current, self.order_ids)

    def _answer_of(
        self, s: ViewState, cmp: Comparison, per: PerMetric, order_ids: np.ndarray
    ) -> Answer:
        # The order and `f` do not change it.
        key: tuple = (s.reference, s.options.comparison_key(), s.filter_text)
        key += (s.percent, s.options.analysis_key(), id(self.analysis))
        with self._lock:
            answer = self._answers.pop(key, None)
        if answer is None:
            summary = self._system_summary_of(s, cmp)
            if s.filter_text:
                cmp = self._restricted(cmp, order_ids, per)
            answer = build_answer(cmp, percent=s.percent, limit=ANSWER_LIMIT, summary=summary)
        with self._lock:  # a worker may be preparing the next screen meanwhile
            self._answers[key] = answer  # the newest last: clearing a filter costs nothing
            while len(self._answers) > ANSWERS_KEPT:
                del self._answers[next(iter(self._answers))]
        return answer

    def prepare(self, s: ViewState, shown: Shown) -> Shown:
        """What `install(s, shown)` will draw at once, made ahead (in the worker that
        computed it, for a large set): the tree's shape, the words on chance, the answer."""
        shown.shape = self._nodes.shape(shown.order)
        shown.per.chance()
        shown.per.row_ids()
        shown.per.rows_of(0)  # the rows ordered by metric, for its tables
        shown.severity = (self.view_key(s), *self._severity_of(shown.per, shown.ids))
        if s.answer_first:
            self._answer_of(s, shown.cmp, shown.per, shown.order)
        else:
            self._table_ahead(s, shown, Node())
        return shown

    def _table_ahead(self, s: ViewState, shown: Shown, node: Node) -> None:
        """A group's table (the pane's first VIEW_ROWS metrics, `summary(node, VIEW_ROWS)`
        once `s` is shown), made and its first rows formatted here: at a million metrics,
        the root's, made on the UI thread when `v` landed, was a frame of a second."""
        key = (node, VIEW_ROWS, *self.view_key(s))
        with self._lock:
            if key in self._summaries:
                return
        ids = shown.order if node.is_root else shown.order[self._nodes.below(node, shown.order)]
        table = self._table_of(node, self._restricted(shown.cmp, ids[:VIEW_ROWS], shown.per))
        if table is not None and table.rows:
            table.rows[0]  # read: its first block formatted now
        self._keep_summary(key, table)

    def reference_note(self) -> list[str]:
        """Lines saying that the reference is first only by its name, and how to choose
        (none once a reference was chosen)."""
        from tuibench.analysis.reference import chosen_by_name, reference_note

        requested = "" if self.reference_requested else None
        if not chosen_by_name(self.rs, self.state.reference, requested):
            return []
        return reference_note(self.rs, self.state.reference, keys=True)

    def ranking(self) -> list[tuple[str, float | None]]:
        """Every system, best first, by the per-system summary's geometric mean of ratios
        against the reference (above 1 is better; the reference itself is 1)."""
        answer = self.answer()
        scores = [(a.system, a.geomean) for a in answer.systems]
        scores.append((answer.reference, 1.0))
        order = {name: i for i, name in enumerate(self.systems)}
        return sorted(scores, key=lambda s: (s[1] is None, -(s[1] or 0.0), order[s[0]]))

    def _metric_part(self, node: Node) -> Comparison:
        """The comparison with one metric's rows only, gathered by the rows' metric ids: the
        tables of a metric filtered every row by name, five times per metric shown (a
        quarter of a second of `n` or `enter` at a million metrics)."""
        i = self._nodes.metric_id.get((node.benchmark, node.metric or ""))
        rows = self._current.rows_of(i) if i is not None else np.zeros(0, dtype=np.int64)
        return dataclasses.replace(self.cmp, rows=self.cmp.rows[rows])

    def severity_order(self) -> np.ndarray:
        """Ids of the shown metrics where some system changed significantly: those with a
        regression first, worst first; then those with only improvements, largest first
        (ties in catalogue order). Made ahead with the view (`prepare`): at a million
        metrics the first `n` of a view waited 80 ms for it."""
        key = self.view_key()
        if self._severity is None or self._severity[0] != key:
            self._severity = (key, *self._severity_of(self._current, self.visible_ids))
        return self._severity[1]

    def _severity_of(self, per: PerMetric, shown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`severity_order` of the metrics `shown` and each metric's place in it (-1: not
        in it). Worst and largest as the answer lists them: by the size a change certainly
        has (its interval's bound nearest zero), then by its size. Array work on the kept
        per-metric verdicts: the first `n` at a million metrics took 0.75 s as lists of
        names."""
        ids = shown[per.changed[shown]]
        worst, best = per.worst_sig[ids], per.best_sig[ids]
        only_better = np.isnan(worst)
        order = ids[
            np.lexsort(
                (
                    -np.nan_to_num(best, nan=0.0),
                    -per.best_sure[ids],
                    np.isnan(best),
                    -np.nan_to_num(worst, nan=0.0),
                    -per.worst_sure[ids],
                    only_better,
                )
            )
        ]
        position = np.full(len(self.metrics), -1, dtype=np.int64)
        position[order] = np.arange(len(order))
        return order, position

    def severity_position(self, key: tuple[str, str] | None) -> int | None:
        """Where the metric `key` is in `severity_order` (None: not in it)."""
        self.severity_order()
        i = None if key is None else self._nodes.metric_id.get(key)
        if i is None or self._severity is None or self._severity[2][i] < 0:
            return None
        return int(self._severity[2][i])

    def summary(self, node: Node, limit: int | None = None) -> Table | None:
        """The mmtests-style summary of the metrics below a group (the first `limit` in the
        current order); None when none is shown.

        The last few are kept: stepping back to a reference shows its summary at once.
        """
        key = (node, limit, *self.view_key())
        with self._lock:  # a worker may be making the next screen's (`prepare`)
            kept = key in self._summaries
            table = self._summaries.pop(key) if kept else None
        if not kept:
            table = self._summary(node, limit)
        self._keep_summary(key, table)
        return table

    def _keep_summary(self, key: tuple, table: Table | None) -> None:
        with self._lock:
            self._summaries[key] = table  # the newest last
            while len(self._summaries) > SUMMARIES_KEPT:
                del self._summaries[next(iter(self._summaries))]

    def _summary(self, node: Node, limit: int | None) -> Table | None:
        return self._table_of(node, self.comparison_under(node, limit), limit is not None)

    @staticmethod
    def _table_of(node: Node, cmp: Comparison, pane: bool = True) -> Table | None:
        if cmp.rows.height == 0:
            return None
        title = "" if node.is_root else f"{node.benchmark}: comparison against {cmp.reference}"
        if pane:  # the explorer's pane: rows formatted as they are drawn
            return summary_window.summary(cmp, title)
        return tables.summary_table(cmp, title)

    def detail(self, node: Node) -> Table:
        return tables.detail_table(self._metric_part(node), node.benchmark, node.metric or "")

    def noise(self, node: Node) -> Table:
        return tables.noise_table(self._metric_part(node), node.benchmark, node.metric or "")

    def systems_summary(self, node: Node) -> Table | None:
        """Per system: geometric mean of ratios and counts, over every metric of the
        comparison (as the report's; the pane's heading says so where it lists fewer)."""
        cmp = self._among(self.cmp, self._ids_under(node), self._current)
        if cmp.rows.height == 0 or len(self.systems) < 2:
            return None
        return systems_table.system_summary_table(cmp)

    def iterations(self, node: Node) -> Table:
        part = self._metric_part(node)
        return tables.iterations_table(part, node.benchmark, node.metric or "")

    def current_table(self, node: Node) -> Table | None:
        """The table that `mark`, `export` and `copy` act on for `node`."""
        if node.metric is not None:
            return self.detail(node) if self.is_compared((node.benchmark, node.metric)) else None
        return self.summary(node)

    def metric_rows(self, node: Node) -> list[dict]:
        """The comparison rows of one metric (reference first), as dictionaries."""
        return list(self._metric_part(node).rows.iter_rows(named=True))

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
        new = Mark(
            node,
            s.reference,
            s.options.alpha,
            table,
            self.comparison_under(node),
            self.whole_under(node),
        )
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
