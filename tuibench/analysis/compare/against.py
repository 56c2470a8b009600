"""The steps of a comparison against one reference, each vectorised over every row.

`Analysis.compare` runs them in order: gather every row's reference, Welch's test, the
change, the ratio with Fieller's interval, the overlap of the intervals, the U test, the
power hint, the notes; then `decide` gives significance and verdicts.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare.frames import notes
from tuibench.util.worker import in_worker

# Measured by benchmarks/calibrate_notes.py (A/A pairs, 2 iterations a side, 1 to 50
# samples each, 4,000 metrics per design, alpha 0.05): 2.0-2.9 % with Gaussian noise,
# iteration levels, bursts or shared iteration effects; 3.4-13.3 % with bimodal iterations.
TWO_ITERATIONS = (
    "two iterations on a side: the test is weak (see detectable_change), and in "
    "simulation at alpha 0.05 its false alarms ran at 2-3% with Gaussian noise, outlier "
    "bursts or iteration effects shared across metrics, and up to 13% when iteration "
    "values fall into two modes"
)


@dataclass
class Against:
    """Every row of the analysis next to its metric's reference row."""

    a: dict[str, np.ndarray]  # the analysis' per-row arrays
    reference: str
    r: int  # the reference's system id
    nrow: int
    m: np.ndarray  # metric id per row
    s: np.ndarray  # system id per row
    is_ref: np.ndarray
    exists: np.ndarray  # the metric has a reference row
    ref: np.ndarray  # the row index of the reference (0 where none)
    centre: np.ndarray
    rcentre: np.ndarray
    has_ref: np.ndarray  # the reference has a centre
    other: np.ndarray  # not the reference, and the reference has a centre
    k: np.ndarray  # iterations of the row
    rk: np.ndarray  # iterations of the reference (0 where none)

    def refv(self, col: str) -> np.ndarray:
        return np.where(self.exists, self.a[col].astype(np.float64)[self.ref], np.nan)


def gather_reference(a: dict[str, np.ndarray], r: int, reference: str) -> Against:
    """Every row's reference row (system id `r`) of the same metric."""
    m, s = a["_m"], a["_s"]
    nrow = len(m)
    ref_of_metric = np.full(int(m.max()) + 1 if nrow else 0, -1, dtype=np.int64)
    is_ref = s == r
    ref_of_metric[m[is_ref]] = np.flatnonzero(is_ref)
    ref = ref_of_metric[m] if nrow else np.zeros(0, np.int64)
    exists = ref >= 0
    ref = np.where(exists, ref, 0)
    centre = a["center"].astype(float)
    rcentre = np.where(exists, a["center"].astype(np.float64)[ref], np.nan)
    has_ref = ~np.isnan(rcentre)
    k = a["iterations"].astype(float)
    rk = np.nan_to_num(np.where(exists, a["iterations"].astype(np.float64)[ref], np.nan), nan=0)
    return Against(
        a, reference, r, nrow, m, s, is_ref, exists, ref, centre, rcentre, has_ref,
        ~is_ref & has_ref, k, rk,
    )  # fmt: skip


@dataclass
class Welch:
    p: np.ndarray
    df: np.ndarray
    use_s: np.ndarray  # raw samples were used (a side has one iteration)
    v1: np.ndarray
    n1: np.ndarray
    v2: np.ndarray
    n2: np.ndarray


def welch_test(x: Against) -> Welch:
    """Welch's test on iteration values, unless either side has one iteration: raw samples."""
    a, refv, k, rk = x.a, x.refv, x.k, x.rk
    use_s = (k < 2) | (rk < 2)
    m1 = np.where(use_s, a["_s_mean"], a["_y_mean"])
    v1 = np.where(use_s, a["_s_var"], a["_y_var"])
    n1 = np.where(use_s, a["_s_n"], k).astype(float)
    m2 = np.where(use_s, refv("_s_mean"), refv("_y_mean"))
    v2 = np.where(use_s, refv("_s_var"), refv("_y_var"))
    n2 = np.where(use_s, refv("_s_n"), rk).astype(float)
    p, df = stats.welch(m1, v1, n1, m2, v2, n2, where=x.other)
    return Welch(p, df, use_s, v1, n1, v2, n2)


def changes(x: Against) -> tuple[np.ndarray, np.ndarray]:
    """The relative change of the centre, and of the untrimmed centre: against the size of
    the reference's, so that a bigger number is a positive change also where the reference
    is negative (-5 to -5.5 is 10 % lower; dividing by -5 said 10 % higher)."""
    centre, rcentre, a, is_ref = x.centre, x.rcentre, x.a, x.is_ref
    with np.errstate(divide="ignore", invalid="ignore"):
        change = np.where(rcentre != 0, (centre - rcentre) / np.abs(rcentre), np.nan)
        raw_ref = x.refv("center_raw")
        change_raw = np.where(raw_ref != 0, (a["center_raw"] - raw_ref) / np.abs(raw_ref), np.nan)
    change = np.where(is_ref & ~np.isnan(centre), 0.0, change)
    change_raw = np.where(is_ref & ~np.isnan(a["center_raw"]), 0.0, change_raw)
    return change, change_raw


def ratio_interval(x: Against, w: Welch) -> tuple[np.ndarray, ...]:
    """Ratio of centres with Fieller's interval: (ratio, low, high, unbounded).

    On the scale where means are arithmetic: Amean: y = value, ratio = y / y_ref; Hmean:
    y = 1/value, ratio = y_ref / y.
    """
    a, centre, rcentre = x.a, x.centre, x.rcentre
    hmean = a["mean_kind"] == "hmean"
    y, ry = a["_y_mean"], x.refv("_y_mean")
    with np.errstate(divide="ignore", invalid="ignore"):
        vm1 = w.v1 / w.n1  # variance of each side's mean (same choice of values as Welch)
        vm2 = w.v2 / w.n2
    num, den = np.where(hmean, ry, y), np.where(hmean, y, ry)
    vnum, vden = np.where(hmean, vm2, vm1), np.where(hmean, vm1, vm2)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(rcentre > 0, centre / rcentre, np.nan)
    defined = x.other & ~np.isnan(ratio)
    r_lo, r_hi, unbounded = stats.fieller(num, vnum, den, vden, w.df, where=defined)
    ratio = np.where(x.is_ref & (centre > 0), 1.0, np.where(defined, ratio, np.nan))
    return ratio, r_lo, r_hi, unbounded


def interval_overlap(x: Against) -> np.ndarray:
    """Do the two 95 % intervals overlap? 1.0, 0.0, or NaN where unknown."""
    a = x.a
    lo1, hi1, lo2, hi2 = a["ci_low"], a["_hi"], x.refv("ci_low"), x.refv("_hi")
    known = x.other & ~np.isnan(lo1) & ~np.isnan(hi1) & ~np.isnan(lo2) & ~np.isnan(hi2)
    with np.errstate(invalid="ignore"):
        apart = (np.maximum(lo1, lo2) > np.minimum(hi1, hi2)).astype(float)
    return np.where(known, 1.0 - apart, np.nan)


@dataclass
class UTest:
    p: np.ndarray
    min_p: np.ndarray
    n1: np.ndarray  # pooled samples of the row
    n2: np.ndarray  # pooled samples of the reference


def utest(x: Against, utest_p: np.ndarray, pooled: np.ndarray, p: np.ndarray) -> UTest:
    """Mann-Whitney U on the pooled samples; utest_p[metric, system]: the p-value of each
    system against the reference."""
    m, s, r, nrow = x.m, x.s, x.r, x.nrow
    present = x.other & x.exists
    p_u = np.where(present, utest_p[m, s] if nrow else p, np.nan)
    n_u1 = pooled[m, s] if nrow else p
    n_u2 = pooled[m, r] if nrow else p
    min_p = np.where(present, stats.mwu_min_p(n_u1, n_u2), np.nan)
    return UTest(p_u, min_p, n_u1, n_u2)


def single_iteration(x: Against) -> np.ndarray:
    """A side has a single iteration: the test then sees the samples of one process only."""
    return (x.k == 1) | (x.other & (x.rk == 1))


def with_median_values(x: Against) -> dict[str, np.ndarray]:
    """Welch's p, the change and the ratio's interval with per-iteration medians instead of
    the chosen iteration value: what the verdict would be without a few outlying samples."""
    a = dict(x.a)
    a["_y_mean"], a["_y_var"], a["center"] = a["_y_mean_med"], a["_y_var_med"], a["_center_med"]
    m = gather_reference(a, x.r, x.reference)
    w = welch_test(m)
    change, _ = changes(m)
    _, lo, hi, _ = ratio_interval(m, w)
    return {"p": w.p, "change": change, "ratio_ci_low": lo, "ratio_ci_high": hi}


# Rows from which the medians' test runs in turn, not beside the comparison's other tests:
# their temporaries together were the explorer's peak (0.8 GB more at a million metrics).
MEDIANS_IN_TURN_FROM = 1_000_000


def median_values_job(x: Against) -> Future:
    """`with_median_values(x)` in a worker, beside the caller's other tests, up to
    MEDIANS_IN_TURN_FROM rows (the second core); from there done now, in turn."""
    if len(x.centre) < MEDIANS_IN_TURN_FROM:
        return in_worker(with_median_values, x)
    done: Future = Future()
    done.set_result(with_median_values(x))
    return done


def outliers_of_reference(x: Against) -> np.ndarray:
    """Samples of the reference row beyond Tukey's mild fences of their iteration."""
    out = x.refv("outliers_low") + x.refv("outliers_high")
    return np.where(x.other, out, np.nan)


def utest_shift(
    x: Against, sorted_samples: np.ndarray, start: np.ndarray, n: np.ndarray
) -> np.ndarray:
    """The shift the U test is about, relative to the reference's median: the Hodges-Lehmann
    estimate (median of all pairwise differences), or the difference of the medians where
    the pairs are too many."""
    ref_median = stats.group_medians(sorted_samples, start[x.ref], n[x.ref])
    # Only rows against another system: the reference's own rows are half of them.
    rows = np.flatnonzero(x.other & x.exists & (ref_median != 0))
    shift, _ = stats.hodges_lehmann(
        sorted_samples, start[rows], n[rows], start[x.ref[rows]], n[x.ref[rows]]
    )
    out = np.full(x.nrow, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        out[rows] = shift / np.abs(ref_median[rows])
    return out


def mmtests_cidiff(x: Against) -> np.ndarray:
    """mmtests' cidiff against the reference (Compare.pm), from the pooled samples' means and
    standard deviations; NaN on the reference row and where undefined."""
    a, refv = x.a, x.refv
    out = stats.cidiff(a["_mm_mean"], a["_mm_sd"], refv("_mm_mean"), refv("_mm_sd"))
    return np.where(x.other, out, np.nan)


@dataclass
class Power:
    detectable: np.ndarray  # smallest relative change detected with power 0.8
    for_threshold: np.ndarray  # iterations per system to detect the threshold (or NaN)
    hint: np.ndarray  # say so in the note


def power(x: Against, w: Welch, alpha: float, threshold: float | None) -> Power:
    """What these iterations can detect, never from the observed change (observed power
    says nothing the p-value does not).

    detectable: the smallest change Welch's test on these iteration values detects with
    power 0.8 at alpha: nc*(df) standard errors (noncentral t, Welch-Satterthwaite df),
    relative to the reference (on the reciprocal scale for Hmean, converted back as the
    threshold is). NaN where a side has one iteration (the test sees one process there).
    for_threshold: iterations per system for a two-sample t-test to detect the threshold.
    hint: not significant, the spread lies between iterations (more samples per iteration
    would not help) and, with a threshold, more iterations are needed than either side has.
    """
    a, refv = x.a, x.refv
    hmean = a["mean_kind"] == "hmean"
    ry = np.abs(refv("_y_mean"))
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(w.v1 / w.n1 + w.v2 / w.n2)
        delta = stats.detectable_noncentrality(w.df, alpha) * se
        rel = np.where(hmean, delta / (ry - delta), delta / ry)
    ok = x.other & ~w.use_s & (ry > 0) & (rel >= 0) & np.isfinite(rel)
    detectable = np.where(ok, rel, np.nan)
    needed = np.full(x.nrow, np.nan)
    if threshold is not None:
        t = threshold / 100
        with np.errstate(divide="ignore", invalid="ignore"):
            delta_t = ry * np.where(hmean, t / (1 + t), t)
            # Pooled across-iteration variance; a side with one iteration lends none.
            va, vb = a["_y_var"], refv("_y_var")
            sides = (~np.isnan(va)).astype(float) + (~np.isnan(vb))
            pooled = np.sqrt((np.nan_to_num(va) + np.nan_to_num(vb)) / sides)
            d = np.where(pooled == 0, np.inf, delta_t / pooled)
        needed = np.where(x.other, stats.iterations_needed(d, alpha), np.nan)
        # Beyond a billion iterations there is no change to detect (a difference of
        # rounding errors); such counts also overflowed the 64-bit column.
        needed[np.isinf(needed) | (needed > 1e9)] = np.nan
    between_dominates = a["var_between"] >= a["var_within"] * a["_inv_n"]
    hint = x.other & ~(w.p < alpha) & between_dominates & (a["var_between"] > 0)
    if threshold is None:
        hint &= ~np.isnan(detectable)
    else:
        hint &= needed > np.maximum(x.k, x.rk)
    return Power(detectable, needed, hint)


def _power_note(alpha: float, threshold: float | None) -> pl.Expr:
    """What more iterations would buy, where the spread lies between iterations."""
    if threshold is None:
        return pl.format(
            "not significant, and these iterations detect only changes of about {}% or more "
            "(power 0.8 at alpha {}); the spread is between iterations: more iterations, not "
            "more samples per iteration, would detect smaller ones",
            (pl.col("detectable") * 100).round_sig_figs(2),
            pl.lit(f"{alpha:g}"),
        )
    return pl.format(
        "about {} iterations per system would detect a {}% change (power 0.8 at alpha {}); "
        "add iterations, not samples per iteration (the spread is between iterations)",
        pl.col("needed"),
        pl.lit(f"{threshold:g}"),
        pl.lit(f"{alpha:g}"),
    )


def row_notes(
    x: Against,
    w: Welch,
    u: UTest,
    unbounded: np.ndarray,
    pw: Power,
    alpha: float,
    bench: pl.Series,
    metric: pl.Series,
    threshold: float | None = None,
    explained: np.ndarray | None = None,
) -> pl.Series:
    """The notes that depend on the reference, one string (or null) per row. explained:
    rows whose unknown direction a reader's note already explains."""
    is_ref, has_ref, other, p = x.is_ref, x.has_ref, x.other, w.p
    samples_for = stats.mwu_samples_for(alpha)
    zero_var = (w.v1 == 0) & (w.v2 == 0) & other
    unknown = ~is_ref & ~np.isin(x.a["better"], ["lower", "higher"])
    if explained is not None:
        unknown &= ~explained
    single = other & w.use_s & ~np.isnan(p)
    fewest = np.minimum(x.k, x.rk)  # iterations of the side with fewer
    two = other & ~w.use_s & (fewest == 2)
    ref_nonpos = ~is_ref & x.exists & ~has_ref & (x.refv("_s_n") > 0)
    return notes(
        (~is_ref & ~x.exists, f"the reference {x.reference} has no results for this metric"),
        (
            ref_nonpos,
            f"the reference {x.reference} has no centre here (its own row says why: "
            "non-positive values for a harmonic mean, or an overflow): no change and no verdict",
        ),
        (
            single,
            "one iteration on a side: the test compares the samples of a single process and "
            "cannot know how much separate runs differ, so it raises false alarms; not "
            "counted as better or worse (--trust-single-iteration counts it)",
        ),
        (two, TWO_ITERATIONS),
        (~is_ref & has_ref & np.isnan(p) & ~np.isnan(x.centre), "too few values for a test"),
        (
            zero_var & (p == 0) & (fewest > 2),
            "no variation on either side: the difference is exact",
        ),
        (  # two values alike on each side: too few to call the spread zero
            zero_var & (p == 0) & (fewest <= 2),
            "no variation on either side, of two iterations or fewer: exact only if every "
            "run gives the same value, which so few runs cannot show",
        ),
        (zero_var & (p == 1), "identical constant values on both sides"),
        (has_ref & (x.rcentre == 0) & ~is_ref, "reference centre is zero: no relative change"),
        (
            has_ref & (x.rcentre < 0) & ~is_ref,
            "reference centre is negative: the change is against its size (a bigger number "
            "is a positive change); no ratio, so no interval of it",
        ),
        (
            unknown,
            pl.format(
                "direction unknown: nothing says whether lower or higher is better, so this "
                'is only "changed" or "same"; to set it, add to tuibench.toml: '
                '[metrics."{}:{}"] better = "lower" (or "higher")',
                pl.col("_bench"),
                pl.col("_metric"),
            ),
        ),
        (
            u.min_p >= alpha,
            pl.format(
                "the U test cannot reach p < {} with {} and {} samples (smallest p {}); "
                "it needs at least {} per side",
                pl.lit(f"{alpha:g}"),
                pl.col("n1"),
                pl.col("n2"),
                pl.col("min_p").round_sig_figs(2),
                pl.lit(samples_for),
            ),
        ),
        (
            unbounded,
            "ratio interval unbounded: the denominator's interval includes zero",
        ),
        (pw.hint, _power_note(alpha, threshold)),
        data={
            "_bench": bench,
            "_metric": metric,
            "n1": u.n1.astype(np.int64),
            "n2": u.n2.astype(np.int64),
            "min_p": u.min_p,
            "needed": np.nan_to_num(pw.for_threshold).astype(np.int64),
            "detectable": pw.detectable,
        },
    )
