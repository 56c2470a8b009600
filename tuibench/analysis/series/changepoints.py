"""Where along a series of systems a metric changed level: binary segmentation on levels.

A system's iterations share its level, and systems (builds, kernels, boots) have levels of
their own even when nothing changed: code layout, boot, firmware. So the unit of every test
here is the system, not the iteration value. The model: a system's mean varies around its
segment's level by tau^2 + sigma^2 / n (tau: jitter between systems, sigma: the spread of
its n iterations). sigma^2 is estimated from the spread within systems, tau^2 from how far
the systems' means scatter around the levels of the metric's current segmentation (method
of moments, over the whole series, never below 0). The difference of two levels is divided
by the standard error that includes tau^2, with Satterthwaite's degrees of freedom for it;
with the same number of iterations per system this is exactly Student's t on the systems'
means, with systems - levels degrees of freedom. When the means scatter no more than their
iterations predict, tau^2 is 0 and the standard error is the iterations' alone, still with
the systems' degrees of freedom (the data chose which was larger; pooling the iterations'
degrees of freedom then puts jitter down as steps). With one iteration per system there is
only the systems' scatter.

A metric alone has few degrees of freedom for tau^2 (five systems and a step: three), and
no test on three can find a step at every cut of five systems (the alpha the cuts need
adds up to 8 % at 80 % power). The metrics of a suite lend each other some: the residual,
as the relative variance of one system's mean, is moderated toward what 20 or more
metrics share (limma's empirical Bayes, `stats.variance_prior`), never below the metric's
own, and up to DF_LENT degrees of freedom in all. When the metrics' variances differ more
than chance explains, little is lent. The first round fits this to each candidate
position's residuals over the metrics, so a step elsewhere in a metric does not inflate
the prior at its own position; later rounds and the steps' intervals fit it to every
metric's residual around its current levels.

The method, vectorised over every metric at once (the Python
loops are over rounds and the three run widths, never over metrics):

1. Candidates: every cut of a segment into "before" and "after" (the first system after
   it), and every run of one to three systems strictly inside it against the rest of the
   segment (a bump: two nearby steps of opposite sign, which no single cut sees). Each is
   tested between its two levels as above. The segment's `p_split` is the smallest
   weighted-Bonferroni-adjusted p: 80 % of alpha goes to the cuts, 20 % to the runs (a bump
   of a size worth finding is far beyond its bar; the cuts get all of it when the series
   has no runs to try), and within its kind a candidate's share is its weight, (1/systems
   on one side + 1/systems on the other)^2 (the square of its contrast's variance), over
   the sum of the weights of every candidate of its kind in the whole series. A step of a
   given size is hardest to see next to a segment's end (one system against the rest), so
   those cuts get the most: at eight systems and alpha 0.05 an end cut is tested at 1.2 %
   where an equal share gave 0.57 %, the middle cut at 0.23 %. A later round keeps these
   sums, or its segment's own where larger (a short segment's end cuts weigh more), so a
   segment never gets more than its kind's share. On a flat series some candidate this
   strong appears with probability at most `p_split`; at five systems exactly so (the cuts'
   rejection regions barely overlap: an exactly calibrated maximum over cuts found 0.1
   point more steps in simulation, and up to 1 point more at eight to twelve systems, with
   an equal share). Only the strongest cut and the strongest run of a segment get a p (they
   are found by an approximation of log p: Wallace's normal deviate for t, then the normal
   tail within a few per cent).
2. The whole series of every metric is tested first. With `fdr` (the default), a metric has
   a change point when its Benjamini-Hochberg adjusted `p_split` over all tested metrics is
   below alpha; without it, when `p_split` itself is.
3. The pieces of an accepted candidate (two, or three for a run) are tested again the same
   way, against the level that accepted the first one (the BH cutoff, or alpha), until
   nothing is accepted.
4. Each change point's step is measured between the two levels around it (from the change
   point before it to the one after it) with the same test: its p (`p_step`) and, from
   the same standard errors and degrees of freedom, Fieller's 95 % interval for the ratio
   of the levels. A step whose interval contains no change is taken out and its
   neighbours measured again, so a step is `better` or `worse` exactly when its own
   interval says so. `p_split` is the adjusted p with which it was accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.series.data import SeriesData
from tuibench.stats import special

BUMP_WIDTHS = (1, 2, 3)  # runs of systems tested as a bump
BUMP_SHARE = 0.2  # of alpha, when the series has runs to test
# Degrees of freedom a metric may reach with what the others lend: enough that five systems
# find a 6 sd step at any cut (the t's tail beyond this adds little power), few enough that
# iterations with bursts, whose systems' means have heavier tails than normal, keep their
# false change points at alpha (tested only on the model, a t, they would not).
DF_LENT = 12
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
    "p_step",
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


CUMULATIVE = ("n", "s", "k", "q", "a")


def _cumulative(data: SeriesData) -> dict[str, np.ndarray]:
    """Per metric, cumulative along the series: iterations, sum, systems present, sum of
    (system sum)^2 / n and sum of n^2 (the last two for the between-system scatter)."""
    n = data.count
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(n > 0, data.total**2 / n, 0.0)
    cols = {"n": n, "s": data.total, "k": (n > 0).astype(np.float64), "q": q, "a": n * n}
    pad = ((0, 0), (1, 0))
    return {k: np.pad(np.cumsum(v, axis=1), pad) for k, v in cols.items()}


def _range(cum: dict, m, a, b) -> dict[str, np.ndarray]:
    """Sums over systems [a, b) of metrics m."""
    return {k: cum[k][m, b] - cum[k][m, a] for k in CUMULATIVE}


def _minus(x: dict, y: dict) -> dict[str, np.ndarray]:
    return {k: x[k] - y[k] for k in x}


def _fit_terms(r: dict) -> tuple[np.ndarray, np.ndarray]:
    """A level's S^2 / N and sum(n^2) / N (its share of the residual and of tau's weight)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = r["n"] > 0
        return (
            np.where(ok, r["s"] ** 2 / r["n"], 0.0),
            np.where(ok, r["a"] / r["n"], 0.0),
        )


@dataclass
class _Fit:
    """Per metric: totals, and the levels' terms of the current segmentation."""

    n: np.ndarray  # iterations
    k: np.ndarray  # systems with the metric
    q: np.ndarray  # sum of (system sum)^2 / n
    within: np.ndarray  # sum of squares within systems
    b: np.ndarray  # sum over levels of S^2 / N
    c: np.ndarray  # sum over levels of sum(n^2) / N
    levels: np.ndarray
    scale: np.ndarray  # the metric's mean squared: variances over it are relative

    @property
    def dfw(self) -> np.ndarray:
        return np.maximum(self.n - self.k, 0.0)

    @property
    def sw2(self) -> np.ndarray:
        """sigma^2 from within systems; 0 without iterations (the systems' scatter is all)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.dfw > 0, self.within / self.dfw, 0.0)


def _fit(data: SeriesData, cum: dict, m: np.ndarray, c: np.ndarray) -> _Fit:
    """The segmentation of every metric by change points (m, c), sorted by m then c."""
    nm, ns = data.count.shape
    tot = {k: v[:, -1] for k, v in cum.items()}
    same_prev = np.r_[False, m[1:] == m[:-1]] if len(m) else np.zeros(0, bool)
    lo = np.where(same_prev, np.r_[0, c[:-1]], 0)
    last = np.zeros(nm, np.int64)  # where each metric's last level starts
    np.maximum.at(last, m, c)
    mm = np.r_[m, np.arange(nm)]
    r = _range(cum, mm, np.r_[lo, last], np.r_[c, np.full(nm, ns)])
    t_b, t_c = _fit_terms(r)
    b, cc = np.zeros(nm), np.zeros(nm)
    np.add.at(b, mm, t_b)
    np.add.at(cc, mm, t_c)
    levels = 1 + np.bincount(m, minlength=nm)
    within = np.maximum(data.squares.sum(axis=1) - tot["q"], 0.0)
    with np.errstate(invalid="ignore"):
        scale = np.where(data.shift != 0, data.shift**2, np.nan)
    return _Fit(tot["n"], tot["k"], tot["q"], within, b, cc, levels, scale)


def _relative(fit: _Fit, m, sb, dfb, ctau) -> np.ndarray:
    """The between-system residual as the relative variance of one system's mean,
    (tau^2 + sigma^2 / n) / mean^2, with dfb degrees of freedom (NaN: none)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        v = sb / (ctau * fit.scale[m])
    return np.where((dfb >= 1) & (ctau > 0), v, np.nan)


def _metric_prior(fit: _Fit) -> tuple[np.ndarray, np.ndarray]:
    """(s0^2, d0) of every metric from the residuals around the levels of the current
    segmentation of all metrics (d0 = 0 where the metric has no relative variance)."""
    dfb = fit.k - fit.levels
    v = _relative(fit, slice(None), np.maximum(fit.q - fit.b, 0.0), dfb, fit.n - fit.c)
    s0, d0 = stats.fit_prior(v[:, None], dfb[:, None])
    return np.broadcast_to(s0, v.shape), np.where(np.isnan(v), 0.0, d0)


def _test(fit: _Fit, m, one: dict, two: dict, sb, dfb, ctau, prior):
    """Test between two levels given the between-system residual sb (dfb) of the metric's
    segmentation with them, moderated by `prior` ((s0^2, d0) of the relative variance of
    a system's mean): the difference, tau^2, sigma^2, its variance, |t| and df."""
    n1, n2 = one["n"], two["n"]
    sw2, dfw = fit.sw2[m], fit.dfw[m]
    v = _relative(fit, m, sb, dfb, ctau)
    s0, d0 = prior(v, dfb)
    d0 = np.minimum(d0, np.maximum(DF_LENT - dfb, 0))
    d0 = np.where(np.isnan(v) | np.isnan(s0), 0.0, d0)
    v_mod, dfm = stats.moderate(v, dfb, s0, d0)
    # Borrowing lends degrees of freedom but never lowers a metric's own variance: a metric
    # whose systems scatter more than the suite's (an outlier, a burst) keeps its scatter,
    # and the test stays at or below its level wherever the moderated one is.
    v_mod = np.fmax(v_mod, v)
    with np.errstate(invalid="ignore", divide="ignore"):
        sb = np.where(d0 > 0, v_mod * ctau * fit.scale[m], sb)
        d = two["s"] / n2 - one["s"] / n1
        aa = one["a"] / n1**2 + two["a"] / n2**2
        tau2 = np.maximum(sb - dfb * sw2, 0.0) / ctau
        var = tau2 * aa + sw2 * (1 / n1 + 1 / n2)
        # Satterthwaite's df of var as a sum of the two mean squares (g1 from the systems'
        # scatter, g2 from within); when tau2 is 0 the systems' df (dfm, with what the
        # prior lends): which of the two is larger was chosen by the data, so the smaller
        # df is the honest one.
        g1 = aa * sb / ctau
        g2 = var - g1
        satt = var * var / (g1 * g1 / dfm + np.where(dfw > 0, g2 * g2 / dfw, 0.0))
        df = np.where(tau2 > 0, np.minimum(satt, dfm + dfw), dfm)
        t = np.where(var == 0, np.where(d == 0, 0.0, np.inf), np.abs(d) / np.sqrt(var))
    bad = (n1 < 1) | (n2 < 1) | ~(dfb >= 1) | ~(df >= 1) | np.isnan(d)
    return d, tau2, sw2, np.where(bad, np.nan, t), np.where(bad, np.nan, df)


def _p(t: np.ndarray, df: np.ndarray) -> np.ndarray:
    """Two-sided p of |t| with df (NaN stays NaN)."""
    ok = ~np.isnan(t)
    p = np.full(t.shape, np.nan)
    p[ok] = np.where(np.isinf(t[ok]), 0.0, 2.0 * special.stdtr(df[ok], -np.minimum(t[ok], 1e300)))
    return p


def _log_weighted(t: np.ndarray, df: np.ndarray, w: np.ndarray) -> np.ndarray:
    """log(weight) - log(p), approximately, -inf where untested: t's normal deviate
    (Wallace's approximation), then the normal tail within a few per cent (Boyd's bound
    phi(z) * 2 / (z + sqrt(z^2 + 8 / pi)))."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        z = (8 * df + 1) / (8 * df + 3) * np.sqrt(df * np.log1p(t * t / df))
        score = np.log(w) + z * z / 2 + np.log(z + np.sqrt(z * z + 8 / np.pi))
    return np.where(np.isnan(score), np.where(np.isinf(t), np.inf, -np.inf), score)


def _rows(cum: dict, m) -> dict[str, np.ndarray]:
    """Per segment, the cumulative sums of its metric (segments, systems + 1)."""
    return {k: cum[k][m] for k in ("n", "s", "a", "k")}


def _candidate(fit: _Fit, m, seg: dict, one: dict, two: dict, prior):
    """|t| and df of a candidate that divides a segment of metric m into levels one, two."""
    s_b, s_c = _fit_terms(seg)
    (o_b, o_c), (t_b, t_c) = _fit_terms(one), _fit_terms(two)
    sb = np.maximum(fit.q[m] - fit.b[m] + s_b - o_b - t_b, 0.0)
    ctau = fit.n[m] - (fit.c[m] - s_c + o_c + t_c)
    dfb = fit.k[m] - fit.levels[m] - 1
    return _test(fit, m, one, two, sb, dfb, ctau, prior)[3:]


def _weight(one: dict, two: dict) -> np.ndarray:
    """A candidate's share of its kind's alpha, before normalising: the square of
    1 / systems on one side + 1 / systems on the other (a contrast's variance). A step of
    a given size is hardest to see near a segment's ends (one system against the rest);
    this gives those cuts more of alpha and the middle ones, which see it easily, less."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (1 / one["k"] + 1 / two["k"]) ** 2


def _cuts(data: SeriesData, fit: _Fit, rows: dict, m, a, b, prior):
    """|t|, df and weight of every cut c (first system after it) of segments [a, b):
    (segments, ns-1)."""
    ns = data.count.shape[1]
    r = np.arange(len(m))
    lo = {k: v[r, a][:, None] for k, v in rows.items()}
    hi = {k: v[r, b][:, None] for k, v in rows.items()}
    mid = {k: v[:, 1:ns] for k, v in rows.items()}
    one, two = _minus(mid, lo), _minus(hi, mid)
    t, df = _candidate(fit, m[:, None], _minus(hi, lo), one, two, prior)
    c = np.arange(1, ns)[None, :]
    valid = (c > a[:, None]) & (c < b[:, None]) & (data.count[m][:, 1:] > 0)
    valid &= (one["k"] > 0) & (two["k"] > 0)
    return np.where(valid, t, np.nan), df, np.where(valid, _weight(one, two), 0.0)


def _runs(data: SeriesData, fit: _Fit, rows: dict, m, a, b, prior):
    """|t|, df and weight of every run [i, i + w) strictly inside segments [a, b) against
    the rest of the segment: (segments, ns, widths)."""
    ns = data.count.shape[1]
    r = np.arange(len(m))
    lo = {k: v[r, a][:, None] for k, v in rows.items()}
    hi = {k: v[r, b][:, None] for k, v in rows.items()}
    seg = _minus(hi, lo)
    present = np.pad(data.count[m] > 0, ((0, 0), (0, 1)))
    t = np.full((len(m), ns, len(BUMP_WIDTHS)), np.nan)
    df = np.full_like(t, np.nan)
    wt = np.zeros_like(t)
    for x, w in enumerate(BUMP_WIDTHS):
        i = np.arange(ns + 1 - w)[None, :]
        inside = {k: v[:, w:] - v[:, :-w] for k, v in rows.items()}
        rest = _minus(seg, inside)
        tw, dw = _candidate(fit, m[:, None], seg, inside, rest, prior)
        valid = (i > a[:, None]) & (i + w < b[:, None]) & present[:, : ns + 1 - w]
        valid &= present[:, w:]
        valid &= (rows["k"][:, : ns + 1 - w] > lo["k"]) & (hi["k"] > rows["k"][:, w:])
        t[:, : ns + 1 - w, x] = np.where(valid, tw, np.nan)
        df[:, : ns + 1 - w, x] = dw
        wt[:, : ns + 1 - w, x] = np.where(valid, _weight(inside, rest), 0.0)
    return t, df, wt


def _best(data: SeriesData, cum, fit: _Fit, m, a, b, prior, factors=None):
    """Per segment: the best candidate's (start, end) (end = b for a cut), its adjusted p,
    and the per-metric factors (from the candidates tried in the first round): a
    candidate's adjusted p is its p times its kind's factor over its weight."""
    nw = len(BUMP_WIDTHS)
    rows = _rows(cum, m)
    t1, d1, w1 = _cuts(data, fit, rows, m, a, b, prior)
    t2, d2, w2 = _runs(data, fit, rows, m, a, b, prior)
    t2, d2, w2 = (x.reshape(len(m), -1) for x in (t2, d2, w2))
    own = _factors(w1.sum(axis=1), w2.sum(axis=1))
    # A later round's segment keeps the first round's factors, or its own where they are
    # larger (a short segment's end cuts weigh more than any cut of the whole series).
    factors = own if factors is None else tuple(map(np.maximum, own, factors))
    r = np.arange(len(m))
    # The strongest cut and the strongest run by adjusted p: ordered by an approximation
    # of log p (cheap), and only their p is computed (the costly part).
    b1 = np.argmax(_log_weighted(t1, d1, w1), axis=1)
    b2 = np.argmax(_log_weighted(t2, d2, w2), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = _p(t1[r, b1], d1[r, b1]) * factors[0] / w1[r, b1]
        p2 = _p(t2[r, b2], d2[r, b2]) * factors[1] / w2[r, b2]
    p1, p2 = np.nan_to_num(p1, nan=np.inf), np.nan_to_num(p2, nan=np.inf)
    # The smaller adjusted p; on a tie the cut (inf: nothing to test).
    run = p2 < p1
    i = np.where(run, b2 // nw, b1 + 1)
    j = np.where(run, i + np.asarray(BUMP_WIDTHS)[b2 % nw], b)
    p_adj = np.where(run, p2, p1)
    return i, j, np.where(np.isinf(p_adj), np.nan, np.minimum(p_adj, 1.0)), factors


def _factors(cuts: np.ndarray, runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted Bonferroni factors of cuts and runs (their weights' sums over their share
    of alpha): alpha shared between the two kinds, the cuts get all of it without runs."""
    share = np.where(runs > 0, BUMP_SHARE, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return cuts / (1 - share), np.where(runs > 0, runs / share, np.inf)


def detect(data: SeriesData, alpha: float = 0.05, fdr: bool = True) -> ChangePoints:
    """The change points of every metric of `data` (see the module's description)."""
    nm, ns = data.count.shape
    cum = _cumulative(data)
    if nm == 0 or ns < 2:
        return _result(data, cum, *_empty(), alpha, fdr, 0, alpha)
    found = [_empty()]
    fit = _fit(data, cum, *found[0][:2])
    m = np.arange(nm)
    a, b = np.zeros(nm, np.int64), np.full(nm, ns, np.int64)
    lent: list[float] = []
    i, j, p_split, factors = _best(data, cum, fit, m, a, b, partial(_per_candidate, lent))
    tested = int((~np.isnan(p_split)).sum())
    if fdr:
        accept = stats.bh_adjust(p_split) < alpha
        level = alpha * int(accept.sum()) / max(tested, 1)
    else:
        accept = p_split < alpha
        level = alpha
    while accept.any():
        m, a, b, i, j, p = (x[accept] for x in (m, a, b, i, j, p_split))
        run = j < b
        found.append((np.r_[m, m[run]], np.r_[i, j[run]], np.r_[p, p[run]]))
        fm, fc, fp = _sorted(*map(np.concatenate, zip(*found, strict=True)))
        fit = _fit(data, cum, fm, fc)
        m, a, b = np.r_[m, m, m[run]], np.r_[a, i, j[run]], np.r_[i, j, b[run]]
        prior = _per_metric(_metric_prior(fit), m)
        i, j, p_split, _ = _best(data, cum, fit, m, a, b, prior, (factors[0][m], factors[1][m]))
        accept = p_split < level
    fm, fc, fp = _sorted(*map(np.concatenate, zip(*found, strict=True)))
    return _result(data, cum, fm, fc, fp, alpha, fdr, tested, level, max(lent, default=0.0))


def _per_candidate(
    lent: list[float], v: np.ndarray, dfb: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The first round's prior: fitted over the metrics to each candidate position's own
    residuals (a column: the same cut or run in every metric). A step at one position
    then inflates no other metric's variance at that position, and which position is
    tried is not chosen from the data."""
    s0, d0 = stats.fit_prior(v, dfb)
    lent.append(float(np.max(np.minimum(d0, np.maximum(DF_LENT - dfb, 0)), initial=0.0)))
    return np.broadcast_to(s0, v.shape), np.broadcast_to(d0, v.shape)


def _per_metric(prior: tuple[np.ndarray, np.ndarray], m: np.ndarray):
    """A later round's prior, or the steps': fitted to the residuals of every metric
    around its current levels; `m`: the metric of each segment tested."""
    s0, d0 = prior[0][m], prior[1][m]

    def given(v: np.ndarray, dfb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        shape = (-1,) + (1,) * (v.ndim - 1)  # a segment's value for all its candidates
        return np.broadcast_to(s0.reshape(shape), v.shape), np.broadcast_to(
            d0.reshape(shape), v.shape
        )

    return given


def _empty() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)


def _sorted(m, c, p):
    order = np.lexsort((c, m))
    return m[order], c[order], p[order]


def _neighbours(m, c, ns):
    same_prev = np.r_[False, m[1:] == m[:-1]]
    same_next = np.r_[m[:-1] == m[1:], False]
    lo = np.where(same_prev, np.r_[0, c[:-1]], 0)  # the level before starts here
    hi = np.where(same_next, np.r_[c[1:], ns], ns)  # the level after ends here
    return lo, hi


def _measured(data: SeriesData, cum, m, c, p_split):
    """The steps at the final segmentation; steps whose own interval contains no change are
    taken out one per metric and round (the weakest), then the rest measured again."""
    ns = data.count.shape[1]
    while True:
        lo, hi = _neighbours(m, c, ns)
        step = _steps(data, cum, _fit(data, cum, m, c), m, lo, c, hi)
        weak = ~(step["p_step"] < 0.05) | np.isnan(step["change_ci_low"])
        if not weak.any():
            return m, c, p_split, lo, hi, step
        key = np.where(weak, np.nan_to_num(step["p_step"], nan=2.0), -1.0)
        order = np.lexsort((-key, m))  # per metric, the weakest first
        head = order[np.r_[True, m[order][1:] != m[order][:-1]]]
        keep = np.ones(len(m), bool)
        keep[head[weak[head]]] = False
        m, c, p_split = m[keep], c[keep], p_split[keep]


def _result(data, cum, m, c, p_split, alpha, fdr, tested, level, lent=0.0) -> ChangePoints:
    ns = len(data.systems)
    m, c, p_split, lo, hi, step = _measured(data, cum, m, c, p_split)
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
    if lent > 0:
        notes.append(
            f"The {data.n_metrics} metrics' scatter between systems was alike enough for "
            f"them to lend each other up to {lent:.0f} degrees of freedom (empirical Bayes; "
            "a metric's own scatter is never lowered)"
        )
    if tested < data.n_metrics:
        notes.append(
            f"{data.n_metrics - tested} metric(s) could not be tested: a split needs at "
            "least three systems with the metric (the systems' levels are the unit of the "
            "test), one on each side"
        )
    return ChangePoints(list(data.systems), changes, alpha, fdr, tested, level, notes)


def _steps(data: SeriesData, cum, fit: _Fit, m, lo, c, hi) -> dict[str, np.ndarray]:
    """The step between the level of systems [lo, c) and that of [c, hi), per change point."""
    one, two = _range(cum, m, lo, c), _range(cum, m, c, hi)
    sb = np.maximum(fit.q[m] - fit.b[m], 0.0)
    dfb, ctau = fit.k[m] - fit.levels[m], fit.n[m] - fit.c[m]
    prior = _per_metric(_metric_prior(fit), m)
    _, tau2, sw2, t, df = _test(fit, m, one, two, sb, dfb, ctau, prior)
    p = _p(t, df)
    n1, s1, n2, s2 = one["n"], one["s"], two["n"], two["s"]
    with np.errstate(invalid="ignore", divide="ignore"):
        y1, y2 = s1 / n1, s2 / n2
        vm1 = tau2 * one["a"] / n1**2 + sw2 / n1  # the variances of the two levels' means
        vm2 = tau2 * two["a"] / n2**2 + sw2 / n2
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
    # Better or worse only when the step's own interval excludes no change.
    clear = (ch_lo > 0) | (ch_hi < 0)
    verdict = np.where(np.isnan(sign) | ~clear, "changed", np.where(gain > 0, "better", "worse"))
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
        "p_step": p,
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
