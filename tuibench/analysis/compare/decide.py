"""Significance and verdicts of comparison rows (re-run whenever the family changes)."""

from __future__ import annotations

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare.frames import join_notes


def gain_expr() -> pl.Expr:
    """The gain: the change oriented so that positive is better; null when the direction is
    unknown (nothing says whether lower or higher is better)."""
    better = pl.col("better")
    return (
        pl.when(better == "higher")
        .then(pl.col("change"))
        .when(better == "lower")
        .then(pl.when(pl.col("change") == 0).then(0.0).otherwise(-pl.col("change")))
        .otherwise(None)
        .alias("gain")
    )


# Verdicts as codes into this tuple while they are worked out (numpy strings of every row
# were a third of `decide` at 200,000 metrics); words only in the frame.
VERDICTS = ("same", "better", "worse", "changed", "equivalent", "inconclusive")
REFERENCE, NA = len(VERDICTS), len(VERDICTS) + 1
WORDS = pl.Series("verdict", [*VERDICTS, "reference", "n/a"], dtype=pl.String)


def verdicts(
    significant: np.ndarray,
    higher: np.ndarray,
    lower: np.ndarray,
    change: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    threshold: float | None,
) -> np.ndarray:
    """better / worse / changed (direction unknown) / same, or with a threshold
    better / worse / changed / equivalent / inconclusive (see `decide`), as codes into
    VERDICTS."""
    same, better_, worse_, changed_, equivalent, inconclusive = range(len(VERDICTS))
    unknown = ~higher & ~lower
    if threshold is None:
        improved = np.where(higher, change > 0, change < 0)
        moved = np.where(unknown, changed_, np.where(improved, better_, worse_))
        return np.where(significant, moved, same)
    t = threshold / 100
    up, down = lo > 1 + t, hi < 1 - t
    inside = (lo >= 1 - t) & (hi <= 1 + t)
    worse = significant & ((higher & down) | (lower & up))
    better = significant & ((higher & up) | (lower & down))
    changed = significant & unknown & (up | down)
    return np.where(
        worse,
        worse_,
        np.where(
            better,
            better_,
            np.where(changed, changed_, np.where(inside, equivalent, inconclusive)),
        ),
    )


def _disagreement(p_name: str) -> pl.Expr:
    """What `robust` false means, in facts: both p-values and both verdicts; outliers are
    named only where Tukey's fences find some (on this side or the reference's)."""
    said = pl.format(
        "not robust: with {} iteration values {} = {} ({}), "
        "with per-iteration medians {} = {} ({})",
        pl.col("kind"),
        pl.lit(p_name),
        pl.col("p").round_sig_figs(2),
        pl.col("v"),
        pl.lit(p_name),
        pl.col("p_med").round_sig_figs(2),
        pl.col("v_med"),
    )
    outliers = pl.format(
        "; Tukey's fences find {} outlying samples ({} here, {} in the reference), which "
        "may move one of the two values and not the other",
        pl.col("own") + pl.col("ref"),
        pl.col("own"),
        pl.col("ref"),
    )
    none = pl.lit("; no sample lies beyond Tukey's fences on either side (not an outlier effect)")
    known = pl.col("own").is_not_null() & pl.col("ref").is_not_null()
    return (
        pl.when(known & (pl.col("own") + pl.col("ref") > 0))
        .then(said + outliers)
        .when(known)
        .then(said + none)
        .otherwise(said)
    )


def _arr(rows: pl.DataFrame, col: str) -> np.ndarray:
    return rows[col].fill_null(np.nan).to_numpy()


def _with_defaults(rows: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """Rows built without the private columns (by hand) get neutral ones: every row judged,
    the medians agreeing with the chosen values. Returns the names added."""
    defaults = {
        "_na": pl.lit(False),
        "_p_med": pl.col("p_welch"),
        "_change_med": pl.col("change"),
        "_rlo_med": pl.col("ratio_ci_low"),
        "_rhi_med": pl.col("ratio_ci_high"),
        "_ref_out": pl.lit(None, pl.Int64),
        "outliers_low": pl.lit(None, pl.Int64),
        "outliers_high": pl.lit(None, pl.Int64),
        "iteration_value": pl.lit("the chosen"),
        "_note_base": pl.col("note") if "note" in rows.columns else pl.lit(None, pl.String),
    }
    added = [c for c in defaults if c not in rows.columns]
    return rows.with_columns(defaults[c].alias(c) for c in added), added


def decide(rows: pl.DataFrame, alpha: float, fdr: bool, threshold: float | None) -> pl.DataFrame:
    """p_adjusted, significant, verdict, robust and note of `rows` (the family: every
    non-reference row).

    Without a threshold: significant when p < alpha (p_adjusted under fdr); the verdict is
    `better` or `worse` by the metric's direction when significant (`changed` when the
    direction is unknown), else `same`.
    With a threshold t % (margin 1 - t/100 .. 1 + t/100 on the ratio of centres), from the
    ratio's 95 % interval: `worse` or `better` when the change is significant and the whole
    interval lies beyond the margin on that side (`changed` when the direction is unknown);
    `equivalent` when the whole interval lies inside the margin; `inconclusive` otherwise.
    `n/a` where there is nothing to compare (no reference value, no centre, no test).
    robust: whether per-iteration medians give the same verdict (null on reference and n/a).
    """
    rows, added = _with_defaults(rows)
    is_ref = rows["is_reference"].to_numpy()
    na = rows["_na"].to_numpy()
    higher, lower = ((rows["better"] == w).fill_null(False).to_numpy() for w in ("higher", "lower"))
    judged = ~is_ref & ~na

    def verdict_of(p_col: str, change_col: str, lo_col: str, hi_col: str):
        p = np.where(judged, _arr(rows, p_col), np.nan)
        p_adj = stats.bh_adjust(p)
        significant = judged & ((p_adj if fdr else p) < alpha)
        v = verdicts(
            significant,
            higher,
            lower,
            _arr(rows, change_col),
            _arr(rows, lo_col),
            _arr(rows, hi_col),
            threshold,
        )
        v = np.where(is_ref, REFERENCE, np.where(na, NA, v))
        return p_adj, significant, v

    p_adj, significant, verdict = verdict_of("p_welch", "change", "ratio_ci_low", "ratio_ci_high")
    p_adj_med, _, verdict_med = verdict_of("_p_med", "_change_med", "_rlo_med", "_rhi_med")
    robust = pl.Series(verdict == verdict_med).zip_with(
        pl.Series(judged), pl.Series([None], dtype=pl.Boolean)
    )
    shaky = np.flatnonzero(judged & (verdict != verdict_med))
    # The disagreement's text only for the rows that have one (most have none).
    extra = pl.repeat(None, rows.height, dtype=pl.String, eager=True).alias("extra")
    if len(shaky):
        facts = pl.DataFrame(
            {
                "p": (p_adj if fdr else _arr(rows, "p_welch"))[shaky],
                "p_med": (p_adj_med if fdr else _arr(rows, "_p_med"))[shaky],
                "v": WORDS.gather(verdict[shaky]),
                "v_med": WORDS.gather(verdict_med[shaky]),
                "kind": rows["iteration_value"].cast(pl.String)[shaky],
                "own": (rows["outliers_low"] + rows["outliers_high"])[shaky],
                "ref": rows["_ref_out"].cast(pl.Int64, strict=False)[shaky],
            }
        )
        said = facts.select(_disagreement("p (BH)" if fdr else "p").alias("extra"))
        extra = extra.scatter(shaky, said.to_series())
    return rows.with_columns(
        pl.Series("p_adjusted", p_adj).fill_nan(None),
        pl.Series("significant", significant),
        WORDS.gather(verdict),
        robust.cast(pl.Boolean).alias("robust"),
        join_notes(rows["_note_base"], extra),
    ).drop(added)
