"""A comparison's verdicts per metric, as arrays over the metrics' integer ids
(`PerMetric`): a filter, an order or a toggle costs array operations, whatever the number
of metrics. The tree's nodes by id are node_index.py."""

from __future__ import annotations

import numpy as np
import polars as pl

from tuibench.analysis.compare import METRIC, Comparison
from tuibench.present import chance


def metric_ids_of(names: pl.DataFrame, metric_ids: pl.DataFrame, n: int) -> np.ndarray:
    """Each row's metric id in the catalogue `metric_ids` (`n` where its metric is not
    there), by a join on the names."""
    ids = names.select(METRIC).join(metric_ids, on=METRIC, how="left", maintain_order="left")
    return ids["_mid"].fill_null(n).cast(pl.Int64).to_numpy()


class PerMetric:
    """One comparison and, per metric (by id), whether some system is worse, better or
    significantly changed, and how bad its worst change is (for the orders)."""

    def __init__(
        self, cmp: Comparison, metric_ids: pl.DataFrame, n: int, row_ids: np.ndarray | None = None
    ):
        """`row_ids`: `row_ids()` when known (another comparison of the same rows)."""
        self.cmp = cmp
        self._metric_ids = metric_ids
        self._n = n
        self._gains: dict[str, np.ndarray] = {}
        self._chance: str | None = None
        self._by_metric: tuple[np.ndarray, np.ndarray] | None = None
        self._row_ids = row_ids
        self._not_ref: np.ndarray | None = None
        direction = pl.when(pl.col("better") == "higher").then(-1.0).otherwise(1.0)
        badness = pl.col("change") * direction  # > 0: worse than the reference
        # the size a change certainly has: its interval's bound nearest zero (0 across it)
        lo, hi = (pl.col("ratio_ci_low") - 1) * direction, (pl.col("ratio_ci_high") - 1) * direction
        sure_bad = pl.min_horizontal(lo, hi).clip(lower_bound=0).fill_null(0.0)
        sure_good = pl.min_horizontal(-lo, -hi).clip(lower_bound=0).fill_null(0.0)
        # By the metrics' integer ids: grouped by their names, a million metrics took a
        # hash of every name and a join (0.3 GB for a moment).
        per = (
            cmp.rows.lazy()  # lazy: only the columns read are filtered
            .with_columns(pl.Series("_mid", self.row_ids()))
            .filter(pl.col("_mid") < n)  # metrics of the catalogue only
            .group_by("_mid")
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
            .collect()
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

    def rows_of(self, i: int) -> np.ndarray:
        """Positions of metric `i`'s rows in the comparison, in the tables' order: the
        reference first (one sort of the rows' metric ids, kept)."""
        if self._by_metric is None:
            ids = self.row_ids()
            order = np.lexsort((self.not_reference(), ids))
            self._by_metric = (order, ids[order])
        order, sorted_ids = self._by_metric
        lo, hi = np.searchsorted(sorted_ids, [i, i + 1])
        return order[lo:hi]

    def row_ids(self) -> np.ndarray:
        """Each comparison row's metric id (`n` where a row's metric is not in the
        catalogue), made when first needed and kept."""
        if self._row_ids is None:
            self._row_ids = metric_ids_of(self.cmp.rows, self._metric_ids, self._n)
        return self._row_ids

    def not_reference(self) -> np.ndarray:
        """Each comparison row: not the reference's (the second key of the tables' order,
        `Comparison.reference_first`), made when first needed and kept."""
        if self._not_ref is None:
            self._not_ref = ~self.cmp.rows["is_reference"].fill_null(False).to_numpy()
        return self._not_ref

    def chance(self) -> str:
        """See `Session.chance` (kept: the same for every filter, sort or toggle)."""
        if self._chance is None:
            self._chance = chance.header(self.cmp)
        return self._chance

    def gains(self, system: str) -> np.ndarray:
        """Each metric's gain of `system` against the reference (NaN where it has none)."""
        if system not in self._gains:
            ids, rows = self.row_ids(), self.cmp.rows
            mine = (rows["system"] == system).fill_null(False).to_numpy() & (ids < self._n)
            out = np.full(self._n, np.nan)
            out[ids[mine]] = rows["gain"].fill_null(np.nan).to_numpy()[mine]
            self._gains[system] = out
        return self._gains[system]
