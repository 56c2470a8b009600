"""A comparison against one reference: its rows, filters and per-system summary."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.core import stats
from tuibench.core.compare.columns import METRIC, SUMMARY_COLUMNS
from tuibench.core.compare.decide import decide
from tuibench.core.compare.frames import glob


@dataclass
class Comparison:
    reference: str
    alpha: float
    systems: list[str]
    rows: pl.DataFrame  # ROW_COLUMNS, grouped by benchmark and metric, systems in order
    fdr: bool = False
    threshold: float | None = None  # percent
    trim_outliers: bool = False

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
        its own results would make the adjustment meaningless).
        """
        rows = self.rows
        if benchmark:
            rows = rows.filter(glob(pl.col("benchmark"), benchmark))
        if metric:
            rows = rows.filter(glob(pl.col("metric"), metric))
        rows = decide(rows, self.alpha, self.fdr, self.threshold)
        if only_significant:
            hit = rows.filter(pl.col("significant")).select(METRIC).unique()
            rows = rows.join(hit, on=METRIC, how="semi", maintain_order="left")
        return dataclasses.replace(self, rows=rows)

    @property
    def regressions(self) -> int:
        return int((self.rows["verdict"] == "worse").sum())

    def summary(self) -> pl.DataFrame:
        """Per non-reference system: the geometric mean of its ratios to the reference.

        Over the metrics both the system and the reference have in these rows (with a
        positive ratio); `left_out` counts the others (only one side has them, or the ratio
        is undefined). Ratios are oriented so that above 1 is better (reference / system for
        lower-is-better metrics). The 95 % interval is a Student t interval on the log
        ratios across metrics. better / worse / same count the verdicts of the metrics used
        (same: every other verdict).
        """
        rows = self.rows
        ref_metrics = rows.filter(pl.col("is_reference")).select(METRIC)
        oriented = (
            pl.when(pl.col("better") == "higher")
            .then(pl.col("ratio").log())
            .otherwise(-pl.col("ratio").log())
        )
        usable = ~pl.col("is_reference") & (pl.col("ratio") > 0) & pl.col("ratio").is_finite()
        used = rows.filter(usable).with_columns(oriented.alias("_l"))
        per = used.group_by("system").agg(
            pl.len().alias("metrics"),
            pl.col("_l").mean().alias("_mean"),
            pl.col("_l").std().alias("_sd"),
            (pl.col("verdict") == "better").sum().alias("better"),
            (pl.col("verdict") == "worse").sum().alias("worse"),
        )
        others = rows.filter(~pl.col("is_reference"))
        own = others.group_by("system").agg(pl.len().alias("_rows"))
        with_ref = others.join(ref_metrics, on=METRIC, how="semi").group_by("system").agg(pl.len())
        n_ref = ref_metrics.height
        out = []
        for system in self.systems[1:]:
            p = per.filter(pl.col("system") == system)
            n_rows = _first(own.filter(pl.col("system") == system), "_rows", 0)
            n_both = _first(with_ref.filter(pl.col("system") == system), "len", 0)
            union = n_ref + n_rows - n_both
            if p.height:
                k, mean, sd, better, worse = p.row(0)[1:]
            else:
                k, mean, sd, better, worse = 0, None, None, 0, 0
            lo = hi = None
            if k >= 2 and sd is not None:
                half = float(stats.t_quantile(0.975, np.array([k - 1.0]))[0]) * sd / np.sqrt(k)
                lo, hi = float(np.exp(mean - half)), float(np.exp(mean + half))
            out.append(
                {
                    "system": system,
                    "metrics": int(k),
                    "left_out": int(union - k),
                    "geomean_ratio": None if mean is None else float(np.exp(mean)),
                    "geomean_ci_low": lo,
                    "geomean_ci_high": hi,
                    "better": int(better),
                    "worse": int(worse),
                    "same": int(k - better - worse),
                }
            )
        schema = {
            c: pl.String if c == "system" else pl.Float64 if c.startswith("geomean") else pl.Int64
            for c in SUMMARY_COLUMNS
        }
        return pl.DataFrame(out, schema=schema)


def _first(df: pl.DataFrame, col: str, default: int) -> int:
    return int(df[col][0]) if df.height else default
