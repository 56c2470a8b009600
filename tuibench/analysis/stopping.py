"""`tuibench decide`: whether the iterations so far settle each metric, asked as often as one
likes (after every iteration) without inflating false alarms.

Each system's iteration values are paired with the reference's by position (first with
first, ...; pairing by position is fixed before any value is seen, and cancels what an
iteration shares across systems), and the confidence sequence of `sequential` bounds the
mean log ratio. The verdicts:

- `same`: the ratio's interval lies inside [1 - PCT, 1 + PCT] (the practical margin);
- `worse` / `better` (`changed` when the direction is unknown): it excludes 1;
- `undecided`: neither yet, with how many more iterations would likely settle it;
- `n/a`: no pairs (a side lacks the metric) or a non-positive value (no logarithm), with
  the reason (`reason`); `pairs` still counts the pairs there are.

With a maximum number of iterations reached, an undecided row gets the fixed-sample verdict
of a paired t interval instead (`final`): `worse`/`better` when it excludes 1, `same` when
it lies inside the same margin, else `inconclusive` (no more iterations will be run, and
those there are cannot settle it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as sps

from tuibench.analysis.compare.columns import GROUP, METRIC
from tuibench.stats.sequential import half_width, more_iterations

# Why a row is n/a, as decide says it. A value <= 0 has no logarithm: `report` may still
# give such a metric an arithmetic change, but never a ratio.
NEEDS_POSITIVE = "(the ratio of geometric means needs positive values)"
NO_REFERENCE = "the reference has no results for this metric"
NOT_POSITIVE = {
    "mine": f"this system's values are not all positive {NEEDS_POSITIVE}",
    "ref": f"the reference's values are not all positive {NEEDS_POSITIVE}",
    "both": f"neither side's values are all positive {NEEDS_POSITIVE}",
}
NO_PAIRS = "no pairs of iterations"
ONE_PAIR = "a single pair of iterations at the last look: no interval"

METHOD = (
    "anytime-valid: the confidence sequence of the mean log ratio of paired iterations "
    "(scale-invariant normal mixture), valid however often it is asked"
)


@dataclass
class Decision:
    reference: str
    alpha: float
    threshold: float  # percent
    max_iterations: int | None
    rows: pl.DataFrame  # one per non-reference system and metric

    def count(self, verdict: str) -> int:
        return int((self.rows["verdict"] == verdict).sum())

    @property
    def regressions(self) -> int:
        return self.count("worse")

    @property
    def undecided(self) -> int:
        return self.count("undecided")

    @property
    def inconclusive(self) -> int:
        return self.count("inconclusive")


def _flat(groups: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every group's iteration values' logarithms end to end (iteration order), each
    group's first position and count, and whether it has a value that is not positive (no
    logarithm)."""
    lengths = groups["iteration_values"].list.len().fill_null(0).to_numpy().astype(np.int64)
    values = groups["iteration_values"].explode().cast(pl.Float64).to_numpy()
    values = values[: int(lengths.sum())]  # an empty list explodes to one null
    starts = np.cumsum(lengths) - lengths
    row = np.repeat(np.arange(groups.height), lengths)
    bad = np.bincount(row, weights=~(values > 0), minlength=groups.height) > 0
    with np.errstate(all="ignore"):
        logs = np.log(values)
    return logs, starts, lengths, bad


def _pairs(groups: pl.DataFrame, reference: str):
    """The non-reference rows, and the log ratios of their iterations to the reference's
    paired by position (up to the shorter side) end to end, with each row's count of
    pairs it can use (0 for n/a), of pairs there are, and why it is n/a (else "")."""
    g = groups.select(*GROUP, "unit", "better", "iteration_values").with_row_index("_i")
    ref = g.filter(pl.col("system") == reference).select(*METRIC, pl.col("_i").alias("_r"))
    rows = g.filter(pl.col("system") != reference).join(
        ref, on=METRIC, how="left", maintain_order="left"
    )
    logs, starts, lengths, bad = _flat(g)
    mine = rows["_i"].cast(pl.Int64).to_numpy()
    r = rows["_r"].cast(pl.Int64).fill_null(-1).to_numpy()
    has_ref = r >= 0
    pairs = np.where(has_ref, np.minimum(lengths[mine], lengths[np.maximum(r, 0)]), 0)
    bad_mine, bad_ref = bad[mine], has_ref & bad[np.maximum(r, 0)]
    reason = np.select(
        [~has_ref, bad_mine & bad_ref, bad_ref, bad_mine, pairs < 1],
        [NO_REFERENCE, NOT_POSITIVE["both"], NOT_POSITIVE["ref"], NOT_POSITIVE["mine"], NO_PAIRS],
        "",
    )
    n = np.where(~has_ref | bad_mine | bad_ref, 0, pairs)
    row = np.repeat(np.arange(len(n)), n)
    offset = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    d = logs[starts[mine][row] + offset] - logs[starts[np.maximum(r, 0)][row] + offset]
    return rows.drop("_i", "_r", "iteration_values"), d, row, n, pairs, reason


@np.errstate(all="ignore")
def _moments(d: np.ndarray, row: np.ndarray, n: np.ndarray):
    """Count, mean and mean squared deviation (divided by n: see half_width) per row."""
    mean = np.bincount(row, weights=d, minlength=len(n)) / n
    dev = d - mean[row]
    return n, mean, np.bincount(row, weights=dev * dev, minlength=len(n)) / n


def _oriented(moved: np.ndarray, up: np.ndarray, better: np.ndarray) -> np.ndarray:
    """worse / better / changed for rows whose interval excludes 0 (`up`: above it)."""
    higher, lower = better == "higher", better == "lower"
    good = (higher & up) | (lower & ~up)
    bad = (higher & ~up) | (lower & up)
    word = np.where(good, "better", np.where(bad, "worse", "changed"))
    return np.where(moved, word, "")


def sequence_verdicts(
    lo: np.ndarray, hi: np.ndarray, better: np.ndarray, threshold: float
) -> np.ndarray:
    """same / worse / better / changed / undecided from the log ratio's interval [lo, hi]
    (any shape; `better` broadcasts against it)."""
    t = threshold / 100
    same = (lo >= np.log1p(-t)) & (hi <= np.log1p(t))
    moved = ~same & ((lo > 0) | (hi < 0))
    verdict = np.where(same, "same", _oriented(moved, lo > 0, better))
    return np.where(verdict == "", "undecided", verdict)


@np.errstate(all="ignore")
def decide_rows(
    groups: pl.DataFrame,
    reference: str,
    alpha: float = 0.05,
    threshold: float = 2.0,
    max_iterations: int | None = None,
) -> Decision:
    """groups: `Analysis.groups` (one row per system and metric, `iteration_values` in
    iteration order)."""
    rows, d, row, n, pairs, reason = _pairs(groups, reference)
    n, mean, var = _moments(d, row, n)
    t = threshold / 100
    low, high = np.log1p(-t), np.log1p(t)
    hw = half_width(n, var, alpha)
    lo, hi = mean - hw, mean + hw
    better = rows["better"].fill_null("").to_numpy()
    verdict = np.where(n < 1, "n/a", sequence_verdicts(lo, hi, better, threshold))
    within = np.where(verdict == "same", t, np.nan)
    sd = np.sqrt(var * n / np.maximum(n - 1, 1))
    more = more_iterations(n, mean, sd, alpha, low, high).astype(float)
    # -1: more than 1,000 (kept); fewer than two pairs: no estimate (null).
    more = np.where((verdict == "undecided") & (n >= 2), more, np.nan)
    final = np.zeros(len(n), dtype=bool)
    if max_iterations is not None:
        verdict, lo, hi, within, final = _final(
            groups, rows, n, mean, sd, alpha, max_iterations, verdict, lo, hi, within, better, t
        )
        more = np.where(final, np.nan, more)
        # n/a with one pair to use: the last look's, whose interval needs two
        reason = np.where((verdict == "n/a") & (n == 1), ONE_PAIR, reason)
    frame = rows.with_columns(
        pl.Series("pairs", pairs.astype(np.int64)),
        pl.Series("change", np.expm1(mean)),
        pl.Series("ratio_low", np.exp(lo)),
        pl.Series("ratio_high", np.exp(hi)),
        pl.Series("verdict", verdict),
        pl.Series("reason", reason, dtype=pl.String),
        pl.Series("within", within),
        pl.Series("more_iterations", more).fill_nan(None).cast(pl.Int64),
        pl.Series("final", final),
    ).with_columns(
        pl.col("change", "ratio_low", "ratio_high", "within").fill_nan(None),
        pl.when(pl.col("reason") != "").then(pl.col("reason")),
    )
    unbounded = pl.col("ratio_high").is_infinite()  # no bound yet: neither side is one
    frame = frame.with_columns(
        pl.when(unbounded).then(None).otherwise(pl.col(c)).alias(c)
        for c in ("ratio_low", "ratio_high")
    )
    return Decision(reference, alpha, threshold, max_iterations, frame)


def _final(groups, rows, n, mean, sd, alpha, max_iterations, verdict, lo, hi, within, better, t):
    """The fixed-sample verdict of the undecided rows of metrics where some system (the
    reference included) has reached `max_iterations`: against the same margin as the
    sequence's `same`, so an interval reaching past it is `inconclusive`, never `same`."""
    most = groups.group_by(METRIC).agg(pl.col("iterations").max().alias("_most"))
    most = rows.join(most, on=METRIC, how="left", maintain_order="left")["_most"].to_numpy()
    last = (verdict == "undecided") & (most >= max_iterations)
    final = last & (n >= 2)
    verdict = np.where(last & (n < 2), "n/a", verdict)  # no interval: never decided
    with np.errstate(all="ignore"):
        half = sps.t.ppf(1 - alpha / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    f_lo, f_hi = mean - half, mean + half
    moved = (f_lo > 0) | (f_hi < 0)  # first: a change the interval shows is never same
    inside = ~moved & (f_lo >= np.log1p(-t)) & (f_hi <= np.log1p(t))
    word = np.where(
        moved, _oriented(moved, f_lo > 0, better), np.where(inside, "same", "inconclusive")
    )
    return (
        np.where(final, word, verdict),
        np.where(final, f_lo, lo),
        np.where(final, f_hi, hi),
        np.where(final & inside, t, within),
        final,
    )
