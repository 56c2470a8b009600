"""Significance and verdicts of comparison rows (re-run whenever the family changes)."""

from __future__ import annotations

import numpy as np
import polars as pl

from tuibench.core import stats


def decide(rows: pl.DataFrame, alpha: float, fdr: bool, threshold: float | None) -> pl.DataFrame:
    """p_adjusted, significant and verdict of `rows` (the family: every non-reference row).

    Without a threshold: significant when p < alpha (p_adjusted under fdr); the verdict is
    `better` or `worse` by the metric's direction when significant, else `same`.
    With a threshold t % (margin 1 - t/100 .. 1 + t/100 on the ratio of centres), from the
    ratio's 95 % interval: `worse` or `better` when the change is significant and the whole
    interval lies beyond the margin on that side; `equivalent` when the whole interval lies
    inside the margin; `inconclusive` otherwise (it crosses a margin, or is undefined).
    """
    is_ref = rows["is_reference"].to_numpy()
    p = rows["p_welch"].fill_null(np.nan).to_numpy()
    p_adj = stats.bh_adjust(np.where(is_ref, np.nan, p))
    used = p_adj if fdr else p
    significant = ~is_ref & (used < alpha)
    higher = (rows["better"] == "higher").to_numpy()
    change = rows["change"].fill_null(np.nan).to_numpy()
    if threshold is None:
        improved = np.where(higher, change > 0, change < 0)
        verdict = np.where(significant, np.where(improved, "better", "worse"), "same")
    else:
        t = threshold / 100
        lo = rows["ratio_ci_low"].fill_null(np.nan).to_numpy()
        hi = rows["ratio_ci_high"].fill_null(np.nan).to_numpy()
        up, down = lo > 1 + t, hi < 1 - t
        inside = (lo >= 1 - t) & (hi <= 1 + t)
        worse = significant & np.where(higher, down, up)
        better = significant & np.where(higher, up, down)
        verdict = np.where(
            worse,
            "worse",
            np.where(better, "better", np.where(inside, "equivalent", "inconclusive")),
        )
    verdict = np.where(is_ref, "reference", verdict)
    return rows.with_columns(
        pl.Series("p_adjusted", p_adj).fill_nan(None),
        pl.Series("significant", significant),
        pl.Series("verdict", verdict, dtype=pl.String),
    )
