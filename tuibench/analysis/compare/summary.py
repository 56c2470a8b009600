"""The per-system summary: the geometric mean of a system's ratios to the reference.

Always over every metric of the comparison (filters hide rows; they do not change it), and
without the metrics that cannot speak for the suite: only one side has them, no ratio, the
direction is unknown, one iteration on a side, a duplicate of another metric of the same
benchmark (a constant multiple or the reciprocal of it in every iteration, up to the
rounding of the printed values, such as a rate computed from a time), or a constant.
`left_out` counts them, `left_out_reasons` says why.

The 95 % interval comes from the measurement uncertainty: an iteration is one run of the
suite, so the metrics it measured move together. Each iteration's suite summary (the mean
over metrics of its oriented relative deviation from the centre: what that run adds to the
log of the geometric mean) is one observation per run; Welch's t on those of the system and
of the reference gives the half-width around the geometric mean, on the log scale. In the
calibration harness (benchmarks/calibrate.py) a percentile bootstrap of the same runs
covered 77 to 95 % with 3 to 10 iterations (64 to 73 % with 2); this covers 92.8 to 98.4 %
with 3 or more. With fewer than 3 iterations on a side, or iterations that are not runs of
the whole suite, there is no interval and `geomean_ci_note` says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare.columns import LEFT_OUT_REASONS, METRIC, SUMMARY_COLUMNS
from tuibench.analysis.compare.frames import reference_rows

# Iterations a side needs for an interval: with two, Welch's t has one to two degrees of
# freedom and such an interval covered 90 to 99 % in the calibration harness, off the mark
# either way; from three on, 92.8 to 98.4 %.
MIN_RUNS = 3
NO_INTERVAL = {
    "runs": "no interval: fewer than 3 iterations on a side",
    "aligned": "no interval: not every metric was measured in every iteration, so an "
    "iteration is not one run of the whole suite",
    "positive": "no interval: a metric has a non-positive or infinite iteration value",
}


@dataclass
class BootstrapData:
    """Every iteration value on the arithmetic scale, with its frame row and its iteration
    label (dense per system): the runs of the suite, for the summary's interval."""

    row: np.ndarray  # frame row of each iteration
    label: np.ndarray  # iteration label, 0..L-1 within its system
    y: np.ndarray  # value, or 1/value for Hmean metrics

    @classmethod
    def build(cls, it: pl.DataFrame, a: dict[str, np.ndarray], gid: np.ndarray) -> BootstrapData:
        """From the iterations, the rows' frame (`_g`: each row's group) and each
        iteration's group."""
        g = a["_g"]
        row_of_group = np.empty(len(g), dtype=np.int64)
        row_of_group[g] = np.arange(len(g))
        row = row_of_group[gid] if len(g) else np.zeros(0, np.int64)
        label = _dense_labels(it)
        v = it["value"].to_numpy()
        hmean = (a["mean_kind"] == "hmean")[row] if len(row) else np.zeros(0, bool)
        with np.errstate(divide="ignore"):
            y = np.where(hmean, 1.0 / v, v)
        # Rows and labels as 32-bit where they fit: half of 0.1 GB kept at a million metrics.
        return cls(_narrow(row), _narrow(label), y)


def _narrow(a: np.ndarray) -> np.ndarray:
    """Non-negative integers as 32-bit when they fit."""
    return a.astype(np.int32) if not len(a) or int(a.max()) < 2**31 - 1 else a


def _dense_labels(it: pl.DataFrame) -> np.ndarray:
    """Each iteration's dense rank among its system's iterations (0..L-1): from a table of
    the iterations each system has when it is small, else by one sort."""
    if it["system"].null_count():
        dense = pl.col("iteration").rank("dense").over("system") - 1
        return it.select(dense.cast(pl.Int64)).to_series().to_numpy()
    s, i = (it[k].to_physical().to_numpy() for k in ("system", "iteration"))
    if len(i) and i.dtype.kind == "i":
        lo, span, systems = int(i.min()), int(i.max()) - int(i.min()) + 1, int(s.max()) + 1
        if span * systems <= 1 << 24:
            present = np.zeros((systems, span), dtype=bool)
            present[s, i - lo] = True
            return (np.cumsum(present, axis=1) - 1)[s, i - lo].astype(np.int64)
    return _dense_ranks(s, i)


def _dense_ranks(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Each key's dense rank (from 0) among its group's keys: one sort, in numpy (a polars
    rank over the groups used every core for as long at 200,000 iterations)."""
    order = np.lexsort((key, group))
    g, k = group[order], key[order]
    first = np.r_[True, g[1:] != g[:-1]][: len(g)]  # of a group
    dense = np.cumsum(first | np.r_[True, k[1:] != k[:-1]][: len(g)]) - 1
    out = np.empty(len(g), dtype=np.int64)
    out[order] = dense - np.maximum.accumulate(np.where(first, dense, 0))
    return out


@dataclass
class SummarySource:
    """What the summary needs beyond a comparison's (possibly filtered) rows."""

    rows: pl.DataFrame  # every row of the comparison, unfiltered
    boot: BootstrapData | None
    duplicates: pl.DataFrame
    cache: dict = field(default_factory=dict)


# The rows' columns the summary reads (`_reasons`, `_interval`, `_system_summary`).
_READ = (
    *METRIC,
    "system",
    "is_reference",
    "_row",
    "_mm_min",
    "_mm_max",
    "single_iteration",
    "ratio",
    "better",
    "mean_kind",
    "verdict",
)


# What `_system_summary` reads of a system's used rows.
_USED = ("system", "_l", "verdict", "mean_kind", "better", "_row", "_ref_row")


def _reasons(
    rows: pl.DataFrame, duplicates: pl.DataFrame | None, trust_single: bool
) -> pl.DataFrame:
    """Every non-reference row with `_reason` (null when the metric is used) and `_l`, its
    log ratio oriented so that positive is better."""
    ref = rows.select(
        "is_reference",  # a column of the rows': the literals below then fill every row
        (pl.col("_row") if "_row" in rows.columns else pl.lit(None)).alias("_ref_row"),
        *(
            [pl.col("_mm_min").alias("_rmin"), pl.col("_mm_max").alias("_rmax")]
            if "_mm_min" in rows.columns
            else []
        ),
        pl.lit(True).alias("_has_ref"),
    ).drop("is_reference")
    # Each other row beside its reference row's fields (null where the metric has none).
    others_at = np.flatnonzero(~rows["is_reference"].fill_null(False).to_numpy())
    ref_at = reference_rows(rows)[others_at]
    beside = ref[pl.Series(np.maximum(ref_at, 0))]
    beside = beside.select(pl.when(pl.Series(ref_at >= 0)).then(pl.col(c)) for c in ref.columns)
    others = pl.concat([rows[pl.Series(others_at)], beside], how="horizontal")
    if duplicates is not None and duplicates.height:
        others = others.join(duplicates, on=METRIC, how="left", maintain_order="left")
    else:
        others = others.with_columns(pl.lit(None, pl.String).alias("duplicate_of"))
    constant = (
        (pl.col("_mm_min") == pl.col("_mm_max"))
        & (pl.col("_rmin") == pl.col("_rmax"))
        & (pl.col("_mm_min") == pl.col("_rmin"))
        if "_mm_min" in rows.columns
        else pl.lit(False)
    )
    single = (
        pl.col("single_iteration").fill_null(False)
        if "single_iteration" in rows.columns and not trust_single
        else pl.lit(False)
    )
    ratio = pl.col("ratio")
    reason = (
        pl.when(pl.col("_has_ref").is_null())
        .then(pl.lit("only one side has it"))
        .when(~((ratio > 0) & ratio.is_finite()).fill_null(False))
        .then(pl.lit("no ratio"))
        .when(~pl.col("better").is_in(["lower", "higher"]).fill_null(False))
        .then(pl.lit("direction unknown"))
        .when(single)
        .then(pl.lit("one iteration on a side"))
        .when(pl.col("duplicate_of").is_not_null())
        .then(pl.lit("duplicate"))
        .when(constant.fill_null(False))
        .then(pl.lit("constant"))
        .otherwise(None)
    )
    oriented = pl.when(pl.col("better") == "higher").then(ratio.log()).otherwise(-ratio.log())
    return others.with_columns(reason.alias("_reason"), oriented.alias("_l"))


def _runs_of_suite(
    rows: np.ndarray, boot: BootstrapData, sign: np.ndarray
) -> tuple[np.ndarray | None, str | None]:
    """Each iteration's suite summary, the mean over metrics of its oriented relative
    deviation from the metric's centre (rows: the metrics' frame rows, in order), or None
    and why there is no interval."""
    m = len(rows)
    size = int(max(rows.max(), boot.row.max() if len(boot.row) else 0)) + 1
    # 32-bit where the metrics fit: `c` below holds one per iteration of every row.
    col = np.full(size, -1, dtype=np.int32 if m < 2**31 else np.int64)
    col[rows] = np.arange(m)
    c = col[boot.row]
    pick = c >= 0
    labels = boot.label[pick]
    y = np.full((int(labels.max()) + 1 if pick.any() else 0, m), np.nan)
    y[labels, c[pick]] = boot.y[pick]
    y = y[~np.isnan(y).all(axis=1)]  # iterations of the system's other metrics only
    if len(y) < MIN_RUNS:
        return None, NO_INTERVAL["runs"]
    if np.isnan(y).any():
        return None, NO_INTERVAL["aligned"]
    if not (np.isfinite(y).all() and (y > 0).all()):
        return None, NO_INTERVAL["positive"]
    # What each run adds to the log centres: log of a mean moves by the run's relative
    # deviation over the count (the log's own deviation undercovered with outlying runs,
    # whose weight in a mean is larger than in a mean of logs).
    return (y / y.mean(axis=0) - 1) @ sign / m, None


def _interval(
    used: pl.DataFrame, boot: BootstrapData, mean: float
) -> tuple[float | None, float | None, str | None]:
    """95 % Welch t interval of the geometric mean from the suite summaries of each side's
    iterations, around the geometric mean shown (log scale); or no interval and why."""
    hmean = (used["mean_kind"] == "hmean").to_numpy()
    higher = (used["better"] == "higher").to_numpy()
    # Centres: mean of y, or 1/mean(y) for Hmean; the sign turns log y so that positive is
    # better.
    sign = np.where(hmean, -1.0, 1.0) * np.where(higher, 1.0, -1.0)
    gs, why = _runs_of_suite(used["_row"].to_numpy(), boot, sign)
    if gs is None:
        return None, None, why
    gr, why = _runs_of_suite(used["_ref_row"].to_numpy(), boot, sign)
    if gr is None:
        return None, None, why
    a, b = gs.var(ddof=1) / len(gs), gr.var(ddof=1) / len(gr)
    if a + b == 0:  # every run of the suite alike on both sides
        return float(np.exp(mean)), float(np.exp(mean)), None
    df = (a + b) ** 2 / (a**2 / (len(gs) - 1) + b**2 / (len(gr) - 1))
    half = float(stats.t_quantile(0.975, np.array([df]))[0]) * np.sqrt(a + b)
    return float(np.exp(mean - half)), float(np.exp(mean + half)), None


def _system_summary(
    system: str,
    reference: str,
    used: pl.DataFrame,
    reasons: dict[str, int],
    reference_only: int,
    source: SummarySource | None,
) -> dict:
    """One system's line: `used` its metrics that count, `reasons` how many were left out
    and why, beside `reference_only` metrics that only the reference has."""
    reasons["only one side has it"] += reference_only
    k = used.height
    mean = float(cast(float, used["_l"].mean())) if k else None
    lo = hi = note = None
    if mean is not None and source is not None and source.boot is not None:
        lo, hi, note = _interval(used, source.boot, mean)
    verdict = used["verdict"]
    better, worse = int((verdict == "better").sum()), int((verdict == "worse").sum())
    same = int(verdict.is_in(["same", "equivalent"]).sum())
    return {
        "system": system,
        "metrics": k,
        "left_out": sum(reasons.values()),
        "left_out_reasons": reasons,
        "geomean_ratio": None if mean is None else float(np.exp(mean)),
        "geomean_ci_low": lo,
        "geomean_ci_high": hi,
        "geomean_ci_note": note,
        "better": better,
        "worse": worse,
        "same": same,
        "undecided": k - better - worse - same,  # inconclusive under a threshold
    }


def summarise(
    rows: pl.DataFrame,
    reference: str,
    systems: list[str],
    source: SummarySource | None,
    trust_single: bool = False,
) -> pl.DataFrame:
    """Per non-reference system: metrics used, left out (and why), the geometric mean of its
    oriented ratios with its interval (or why none), and its better / worse / same counts."""
    full = source.rows if source is not None else rows
    # Only the columns read here: filters and joins then copy 12 columns, not about 60
    # (0.9 GB at a million metrics).
    full = full.select(c for c in _READ if c in full.columns)
    marked = _reasons(full, source.duplicates if source is not None else None, trust_single)
    n_ref = int(full["is_reference"].sum())
    # One pass for the counts of every system; numpy only for the intervals.
    with_ref = dict(marked.group_by("system").agg(pl.col("_has_ref").sum()).iter_rows())
    why = {
        (system, reason): n
        for system, reason, n in marked.group_by("system", "_reason").agg(pl.len()).iter_rows()
    }
    # The used rows with what `_system_summary` reads only, and `marked` let go of before
    # the intervals' arrays are made (at a million metrics they were the switch's peak).
    kept = [c for c in _USED if c in marked.columns]
    used = marked.lazy().filter(pl.col("_reason").is_null()).select(kept).collect()
    empty = used.clear()
    del marked
    used_by = {key[0]: part for key, part in used.partition_by("system", as_dict=True).items()}
    del used
    out = [
        _system_summary(
            system,
            reference,
            used_by.pop(system, empty),
            {r: int(why.get((system, r), 0)) for r in LEFT_OUT_REASONS},
            n_ref - int(with_ref.get(system) or 0),
            source,
        )
        for system in systems
        if system != reference
    ]
    schema = {
        c: pl.String
        if c in ("system", "geomean_ci_note")
        else pl.Struct({r: pl.Int64 for r in LEFT_OUT_REASONS})
        if c == "left_out_reasons"
        else pl.Float64
        if c.startswith("geomean")
        else pl.Int64
        for c in SUMMARY_COLUMNS
    }
    return pl.DataFrame(out, schema=schema)
