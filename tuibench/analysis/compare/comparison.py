"""A comparison against one reference: its rows, filters and per-system summary."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import polars as pl

from tuibench.analysis.compare.columns import GROUP, METRIC
from tuibench.analysis.compare.decide import decide
from tuibench.analysis.compare.frames import reference_first_order
from tuibench.analysis.compare.summary import SummarySource, summarise
from tuibench.model.options import DEFAULT_ANALYSIS, AnalysisOptions
from tuibench.util.globs import glob_expr


@dataclass
class Comparison:
    reference: str
    systems: list[str]
    # ROW_COLUMNS, grouped by benchmark and metric, systems in order: as `Analysis.compare`
    # makes them, whatever the reference; `reference_first` gives the tables' order.
    rows: pl.DataFrame
    options: AnalysisOptions = DEFAULT_ANALYSIS  # those that made the rows
    # How people read sizes: "gain" (positive = better) or "change" (positive = bigger).
    percent: str = "gain"
    source: SummarySource | None = dataclasses.field(default=None, repr=False, compare=False)
    # PRIVATE_COLUMNS of the rows, keyed by GROUP (None for rows built by hand): joined back
    # on those keys, so that copies with rows reordered or cut keep them right.
    private: pl.DataFrame | None = dataclasses.field(default=None, repr=False, compare=False)

    def full_rows(self) -> pl.DataFrame:
        """The rows with their private columns beside."""
        if self.private is None:
            return self.rows
        keys, private = self.rows.select(GROUP), self.private
        # As made (`Analysis.comparison_of`), row for row: beside, not joined (4x faster);
        # the join's answer too when keys are unique and never null (a null matches none).
        aligned = keys.equals(private.select(GROUP)) and not sum(keys.null_count().row(0))
        if aligned and not keys.is_duplicated().any():
            return self.rows.hstack(private.drop(GROUP))
        return self.rows.join(private, on=GROUP, how="left", maintain_order="left")

    def reference_first(self) -> Comparison:
        """A copy whose rows put each metric's reference row first, the other systems after
        it in their order (the order of every table and report); itself when they are so
        already (the reference is the first system, or the rows hold no reference)."""
        order = reference_first_order(self.rows)
        if order is None:
            return self
        at = pl.Series(order)
        private = self.private
        if private is not None and private.height == self.rows.height:
            private = private[at]  # row for row beside the rows, as made (`full_rows`)
        return dataclasses.replace(self, rows=self.rows[at], private=private)

    def filter(
        self,
        benchmark: str | None = None,
        metric: str | None = None,
        only_significant: bool = False,
    ) -> Comparison:
        """The rows of matching benchmarks and metrics.

        The kept rows are the family of the false discovery rate: p_adjusted, significant
        and verdict are recomputed over them. `only_significant` then keeps the metrics
        where some system is significant, without changing that family (a family chosen by
        its own results would make the adjustment meaningless). The per-system summary
        stays over every metric of the comparison.
        """
        rows = self.full_rows()
        if benchmark:
            rows = rows.filter(glob_expr(pl.col("benchmark"), benchmark))
        if metric:
            rows = rows.filter(glob_expr(pl.col("metric"), metric))
        if self.private is not None:
            rows = decide(rows, self.options.alpha, self.options.fdr, self.options.threshold)
        if only_significant:
            hit = rows.filter(pl.col("significant")).select(METRIC).unique()
            rows = rows.join(hit, on=METRIC, how="semi", maintain_order="left")
        return self.with_full_rows(rows)

    def with_full_rows(self, rows: pl.DataFrame) -> Comparison:
        """A copy holding `rows` (public and private columns together)."""
        if self.private is None:
            return dataclasses.replace(self, rows=rows)
        private = [c for c in self.private.columns if c not in GROUP]
        return dataclasses.replace(
            self, rows=rows.drop(private), private=rows.select(*GROUP, *private)
        )

    def counted(self) -> pl.Expr:
        """Rows whose better / worse verdict counts: all, unless a side has one iteration
        and that is not trusted."""
        if self.options.trust_single_iteration or "single_iteration" not in self.rows.columns:
            return pl.lit(True)
        return ~pl.col("single_iteration").fill_null(False)

    @property
    def regressions(self) -> int:
        """Significantly worse rows that count (for --fail-on-regression)."""
        # Counted, not filtered: a filter copies every column of the rows it keeps (half a
        # gigabyte for a moment at a million metrics).
        worse = (pl.col("verdict") == "worse") & self.counted()
        return int(self.rows.select(worse.fill_null(False).sum()).item())

    def tests(self) -> tuple[int, int, int]:
        """The tests these rows hold (non-reference rows with a p-value) whose verdict
        counts, how many of those are significant, and the tests left out as not counted
        (one iteration on a side, untrusted): chance alone flags alpha x the first."""
        tested = (~pl.col("is_reference") & pl.col("p_welch").is_not_null()).fill_null(False)
        counted = tested & self.counted()
        significant = counted & pl.col("significant").fill_null(False)
        n, flagged, tests = self.rows.select(
            counted.sum().alias("n"), significant.sum().alias("flagged"), tested.sum().alias("t")
        ).row(0)
        return int(n), int(flagged), int(tests - n)

    def summary(self) -> pl.DataFrame:
        """Per non-reference system against the reference (see summary.py), over every
        metric of the comparison whatever the filters."""
        cache = self.source.cache if self.source is not None else {}
        key = ("summary", self.options.trust_single_iteration)
        if key not in cache:
            cache[key] = summarise(  # the source's rows when it has them: no join
                self.source.rows if self.source is not None else self.full_rows(),
                self.reference,
                self.systems,
                self.source,
                self.options.trust_single_iteration,
            )
        return cache[key]
