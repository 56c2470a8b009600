"""Where along a series of systems a metric changed level: binary segmentation.

The method, vectorised over every metric at once (the Python loops are over rounds of the
segmentation and never over metrics):

1. Every split of a segment of systems into "before" and "after" (the split point is the
   first system after it) is tested with Welch's t-test on the iteration values pooled on each
   side. The best split of the segment is the one with the smallest p-value (largest |t| on
   ties); its p-value times the number of splits that were tried (Bonferroni) is the
   segment's `p_split`: on a flat segment a split at least this strong appears somewhere
   with probability at most `p_split`.
2. The whole series of every metric is tested first. With `fdr` (the default), a metric has
   a change point when its Benjamini-Hochberg adjusted `p_split` over all tested metrics is
   below alpha; without it, when `p_split` itself is. A flat metric therefore gets a false
   change point with probability at most alpha (without `fdr`), and among the metrics
   reported with change points, the expected share of flat ones is at most alpha (with it).
3. Both halves of an accepted split are tested again the same way, against the level that
   accepted the first split (the BH cutoff, or alpha), until no segment splits.
4. Each change point's step is measured between the two levels around it (from the change
   point before it to the one after it): the change of centre with Fieller's 95 % interval
   and Welch's p, as in the comparison against a reference. Its reported `p_split` is
   recomputed there too (Student's t between the two levels, times the splits the series
   offers), so that a step found before its neighbours were split off reads with the
   confidence its final levels give it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from tuibench.core import stats
from tuibench.core.series.data import SeriesData
from tuibench.core.stats import special

# Columns of a change point (the `changes` of `tuibench report --series --format json`).
CHANGE_COLUMNS = [
    "benchmark",
    "metric",
    "unit",
    "better",
    "mean_kind",
    "system",
    "previous",
    "position",
    "level_from",
    "level_to",
    "systems_before",
    "systems_after",
    "iterations_before",
    "iterations_after",
    "before",
    "after",
    "change",
    "change_ci_low",
    "change_ci_high",
    "gain",
    "gain_ci_low",
    "gain_ci_high",
    "p_welch",
    "p_split",
    "verdict",
    "at_last",
]


@dataclass
class ChangePoints:
    systems: list[str]
    changes: pl.DataFrame  # CHANGE_COLUMNS, by metric (in series data order) then position
    alpha: float
    fdr: bool
    tested: int  # metrics with at least one testable split
    level: float  # every split was accepted with a p_split below this
    notes: list[str] = field(default_factory=list)

    def last_system_regressions(self) -> pl.DataFrame:
        """Steps to worse whose first system is the last of the series (a new build)."""
        return self.changes.filter(pl.col("at_last") & (pl.col("verdict") == "worse"))


def _segments(
    cum: tuple[np.ndarray, np.ndarray, np.ndarray], m: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Count, sum, mean and variance (ddof 1) of the values of systems [a, b) of metric m."""
    cn, c1, c2 = cum
    n = cn[m, b] - cn[m, a]
    s1 = c1[m, b] - c1[m, a]
    s2 = c2[m, b] - c2[m, a]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / n
        var = np.maximum(s2 - s1 * mean, 0.0) / (n - 1)
    var = np.where(n >= 2, var, np.nan)
    return n, s1, mean, var


def _cumulative(data: SeriesData) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pad = ((0, 0), (1, 0))
    return tuple(np.pad(np.cumsum(x, axis=1), pad) for x in (data.count, data.total, data.squares))


def _pooled_t(n1, m1, v1, n2, m2, v2) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided p and |t| of Student's two-sample t-test (pooled variance).

    On a flat segment both sides come from one distribution, so the pooled test is exact
    for normal values; Welch's approximation is not, and with two values on one side it
    finds false splits several times more often than its p-value says.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        df = n1 + n2 - 2
        ss = np.nan_to_num(v1) * (n1 - 1) + np.nan_to_num(v2) * (n2 - 1)
        se = np.sqrt(ss / df * (1 / n1 + 1 / n2))
        t = np.abs(m1 - m2) / se
        p = 2.0 * special.stdtr(df, -t)
    p = np.where(se == 0, np.where(m1 == m2, 1.0, 0.0), p)
    p = np.where((n1 < 1) | (n2 < 1) | (df < 1), np.nan, p)
    return p, np.where(se == 0, np.where(m1 == m2, 0.0, np.inf), t)


def _best_splits(
    data: SeriesData, cum, m: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For segments [a, b) of metrics m: the best split point, its p and the splits tried."""
    ns = data.count.shape[1]
    c = np.arange(1, ns)[None, :]  # candidate first system after the split
    mm, aa, bb = m[:, None], a[:, None], b[:, None]
    cc = np.broadcast_to(c, (len(m), ns - 1))
    present = data.count[mm, cc] > 0
    n1, _, m1, v1 = _segments(cum, mm, aa, cc)
    n2, _, m2, v2 = _segments(cum, mm, cc, bb)
    valid = (cc > aa) & (cc < bb) & present & (n1 + n2 >= 3)
    p, t = _pooled_t(n1, m1, v1, n2, m2, v2)
    valid &= ~np.isnan(p)
    key = np.where(valid, p, np.inf)
    p_min = key.min(axis=1)
    tie = valid & (key == p_min[:, None])
    best = np.argmax(np.where(tie, t, -1.0), axis=1)
    tried = valid.sum(axis=1)
    return best + 1, np.where(tried > 0, p_min, np.nan), tried


def detect(data: SeriesData, alpha: float = 0.05, fdr: bool = True) -> ChangePoints:
    """The change points of every metric of `data` (see the module's description)."""
    nm, ns = data.count.shape
    cum = _cumulative(data)
    found_m: list[np.ndarray] = []
    found_c: list[np.ndarray] = []

    m = np.arange(nm)
    a, b = np.zeros(nm, np.int64), np.full(nm, ns, np.int64)
    if nm == 0 or ns < 2:
        return _result(data, cum, [], [], np.zeros(nm), alpha, fdr, 0, alpha)
    c, p_min, tried = _best_splits(data, cum, m, a, b)
    p_split = np.minimum(1.0, p_min * tried)
    # Every later split of a metric pays for all the splits its whole series offers, so
    # the flat stretches between its true change points together add at most alpha.
    factor = tried
    tested = int((~np.isnan(p_split)).sum())
    if fdr:
        q = stats.bh_adjust(p_split)
        accept = q < alpha
        level = alpha * int(accept.sum()) / max(tested, 1)
    else:
        accept = p_split < alpha
        level = alpha
    while accept.any():
        m, a, b, c = m[accept], a[accept], b[accept], c[accept]
        found_m.append(m)
        found_c.append(c)
        m = np.r_[m, m]
        a, b = np.r_[a, c], np.r_[c, b]
        c, p_min, _ = _best_splits(data, cum, m, a, b)
        p_split = np.minimum(1.0, p_min * factor[m])
        accept = p_split < level
    return _result(data, cum, found_m, found_c, factor, alpha, fdr, tested, level)


def _result(data, cum, found_m, found_c, factor, alpha, fdr, tested, level) -> ChangePoints:
    ns = len(data.systems)
    m = np.concatenate(found_m) if found_m else np.zeros(0, np.int64)
    c = np.concatenate(found_c) if found_c else np.zeros(0, np.int64)
    order = np.lexsort((c, m))
    m, c = m[order], c[order]
    same_prev = np.r_[False, m[1:] == m[:-1]]
    same_next = np.r_[m[:-1] == m[1:], False]
    lo = np.where(same_prev, np.r_[0, c[:-1]], 0)  # the level before starts here
    hi = np.where(same_next, np.r_[c[1:], ns], ns)  # the level after ends here
    step = _steps(data, cum, m, lo, c, hi)
    # The split's p once the segmentation is final: Student's t between the two levels
    # around it, times the splits its series offers (as when it was accepted).
    n1, _, y1, v1 = _segments(cum, m, lo, c)
    n2, _, y2, v2 = _segments(cum, m, c, hi)
    p_split = np.minimum(1.0, _pooled_t(n1, y1, v1, n2, y2, v2)[0] * factor[m])
    present = data.count > 0
    names = np.array(data.systems, dtype=object)
    previous = _last_present_before(present, m, c)
    first_in = _first_present_from(present, m, lo)
    last_in = _last_present_before(present, m, hi)
    keys = data.keys[m] if len(m) else data.keys.clear()
    changes = keys.with_columns(
        pl.Series("system", names[c].tolist() if len(c) else [], dtype=pl.String),
        pl.Series("previous", names[previous].tolist() if len(c) else [], dtype=pl.String),
        pl.Series("position", c, dtype=pl.Int64),
        pl.Series("level_from", names[first_in].tolist() if len(c) else [], dtype=pl.String),
        pl.Series("level_to", names[last_in].tolist() if len(c) else [], dtype=pl.String),
        pl.Series("systems_before", _systems_in(present, m, lo, c), dtype=pl.Int64),
        pl.Series("systems_after", _systems_in(present, m, c, hi), dtype=pl.Int64),
        *(pl.Series(k, v) for k, v in step.items()),
        pl.Series("p_split", p_split, dtype=pl.Float64),
        pl.Series("at_last", c == ns - 1, dtype=pl.Boolean),
    )
    changes = changes.with_columns(
        pl.col(k).fill_nan(None) for k, v in changes.schema.items() if v == pl.Float64
    ).select(CHANGE_COLUMNS)
    notes = []
    if tested < data.n_metrics:
        notes.append(
            f"{data.n_metrics - tested} metric(s) could not be tested: a split needs a system "
            "with the metric on each side and at least three iteration values in all"
        )
    return ChangePoints(list(data.systems), changes, alpha, fdr, tested, level, notes)


def _steps(data: SeriesData, cum, m, lo, c, hi) -> dict[str, np.ndarray]:
    """The step between the level of systems [lo, c) and that of [c, hi), per change point."""
    n1, s1, y1, v1 = _segments(cum, m, lo, c)
    n2, s2, y2, v2 = _segments(cum, m, c, hi)
    p, df = stats.welch(y1, v1, n1, y2, v2, n2)
    with np.errstate(invalid="ignore", divide="ignore"):
        vm1, vm2 = v1 / n1, v2 / n2
        # A side with one value has no variance of its own: the pooled one (Student).
        one = (n1 < 2) | (n2 < 2)
        pooled = (np.nan_to_num(v1) * (n1 - 1) + np.nan_to_num(v2) * (n2 - 1)) / (n1 + n2 - 2)
    p = np.where(one, _pooled_t(n1, y1, v1, n2, y2, v2)[0], p)
    df = np.where(one, n1 + n2 - 2, df)
    vm1, vm2 = np.where(one, pooled / n1, vm1), np.where(one, pooled / n2, vm2)
    before, after = data.centre_of(n1, s1, m), data.centre_of(n2, s2, m)
    # Ratio after / before on the arithmetic scale y (centred: add the shift back).
    hmean, shift = data.hmean[m], data.shift[m]
    y1, y2 = y1 + shift, y2 + shift
    num, den = np.where(hmean, y1, y2), np.where(hmean, y2, y1)
    vnum, vden = np.where(hmean, vm1, vm2), np.where(hmean, vm2, vm1)
    r_lo, r_hi, _ = stats.fieller(num, vnum, den, vden, df)
    with np.errstate(invalid="ignore", divide="ignore"):
        change = np.where(before != 0, after / before - 1.0, np.nan)
    ch_lo, ch_hi = r_lo - 1.0, r_hi - 1.0
    better = data.keys["better"].to_numpy()[m] if len(m) else np.zeros(0, object)
    sign = np.where(better == "higher", 1.0, np.where(better == "lower", -1.0, np.nan))
    gain = sign * change
    g_lo = np.where(sign > 0, ch_lo, -ch_hi) * np.abs(sign)
    g_hi = np.where(sign > 0, ch_hi, -ch_lo) * np.abs(sign)
    verdict = np.where(np.isnan(sign), "changed", np.where(gain > 0, "better", "worse"))
    return {
        "iterations_before": n1.astype(np.int64),
        "iterations_after": n2.astype(np.int64),
        "before": before,
        "after": after,
        "change": change,
        "change_ci_low": ch_lo,
        "change_ci_high": ch_hi,
        "gain": gain,
        "gain_ci_low": g_lo,
        "gain_ci_high": g_hi,
        "p_welch": p,
        "verdict": verdict.astype(str),
    }


def _systems_in(present: np.ndarray, m: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    cum = np.pad(np.cumsum(present, axis=1), ((0, 0), (1, 0)))
    return (cum[m, b] - cum[m, a]).astype(np.int64)


def _last_present_before(present: np.ndarray, m: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Index of the last system below c that has the metric."""
    ns = present.shape[1]
    idx = np.where(present, np.arange(ns)[None, :], -1)
    last = np.maximum.accumulate(idx, axis=1)  # last present at or before each column
    return last[m, np.maximum(c - 1, 0)]


def _first_present_from(present: np.ndarray, m: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Index of the first system at or after a that has the metric."""
    ns = present.shape[1]
    idx = np.where(present, np.arange(ns)[None, :], ns)
    first = np.minimum.accumulate(idx[:, ::-1], axis=1)[:, ::-1]
    return first[m, a]
