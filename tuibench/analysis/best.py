"""The best system of each metric, marked only where the data supports it.

With three systems or more, a metric's best system is the one first by centre (lowest
where lower is better, highest where higher is better) when both hold:

1. it is told apart from the runner-up by the ranking's rule (`series/ranking.told_apart`:
   their 95 % intervals do not overlap, or Welch's test on their iteration values gives
   p < alpha; the interval of one iteration tells nothing apart unless trusted): it is
   ahead of every other system, not only of the reference;
2. the comparison against the reference agrees: it is significantly better than the
   reference (verdict `better`), or, when it is the reference itself, every other system
   is significantly worse (`worse`). Under `--fdr` or `--threshold` those verdicts follow
   them; a verdict from one iteration's samples does not count unless trusted.

Otherwise there is no best: the top two cannot be told apart, nothing is significant
against the reference, the direction is unknown, or fewer than three systems have the
metric. Vectorised over every metric: one sort, two picks per metric, one Welch test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from tuibench.analysis.series.ranking import told_apart

if TYPE_CHECKING:
    from tuibench.analysis.compare import Comparison

METRIC = ["benchmark", "metric"]
MIN_SYSTEMS = 3
GLYPH = "★"
LEGEND = (
    f"{GLYPH}: the best system of the metric: first by centre and told apart from the "
    "runner-up (95% intervals apart or Welch p < alpha), and significantly better than the "
    "reference (or the reference, when every other system is significantly worse); none "
    "when the data cannot say."
)


def best_systems(cmp: Comparison, rows: pl.DataFrame | None = None) -> dict[tuple[str, str], str]:
    """(benchmark, metric) -> the best system, for the metrics of `rows` (default: all of
    `cmp.rows`; whole metrics, every system's row) that have one."""
    known = pl.col("better").is_in(["lower", "higher"]).fill_null(False)
    rows = cmp.rows if rows is None else rows
    if len(cmp.systems) < MIN_SYSTEMS:
        return {}
    rows = rows.filter(known & pl.col("center").is_finite())
    if rows.height == 0:
        return {}
    values = pl.col("iteration_values").list.eval(pl.element().filter(pl.element().is_finite()))
    # The iteration values on the scale where means are arithmetic, as the ranking uses.
    hmean = pl.when(pl.col("mean_kind") == "hmean").then(values.list.eval(1 / pl.element()))
    y = hmean.otherwise(values)
    counted = cmp.counted()
    ranked = (
        rows.with_columns(
            pl.when(pl.col("better") == "lower")
            .then(pl.col("center"))
            .otherwise(-pl.col("center"))
            .alias("_key"),
            ((pl.col("verdict") == "better") & counted).alias("_better"),
            (pl.col("is_reference") | ((pl.col("verdict") == "worse") & counted)).alias("_down"),
        )
        .sort([*METRIC, "_key"], maintain_order=True)
        .with_columns(
            pl.int_range(pl.len()).over(METRIC).alias("_pos"),
            pl.len().over(METRIC).alias("_systems"),
            pl.col("_down").all().over(METRIC).alias("_others_worse"),
        )
        .filter((pl.col("_systems") >= MIN_SYSTEMS) & (pl.col("_pos") <= 1))
        .with_columns(  # only for the top two of each metric
            y.list.mean().alias("_m"),
            y.list.var(ddof=1).alias("_v"),
            y.list.len().cast(pl.Float64).alias("_n"),
        )
    )
    side = ["center", "ci_low", "ci_high", "_m", "_v", "_n"]
    top = ranked.filter(pl.col("_pos") == 0)
    second = ranked.filter(pl.col("_pos") == 1)  # same metrics, same order as `top`

    def arrays(frame: pl.DataFrame) -> tuple:
        return tuple(frame[c].cast(pl.Float64).fill_null(np.nan).to_numpy() for c in side)

    options = cmp.options
    apart, _ = told_apart(
        arrays(top), arrays(second), options.alpha, options.trust_single_iteration
    )
    is_ref = top["is_reference"].to_numpy()
    agrees = np.where(is_ref, top["_others_worse"].to_numpy(), top["_better"].to_numpy())
    best = top.filter(pl.Series(apart & agrees))
    return {(b, m): s for b, m, s in best.select(*METRIC, "system").iter_rows()}
