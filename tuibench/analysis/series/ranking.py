"""Systems ranked per metric, with the groups the data cannot tell apart (Pilot's method).

Per metric the systems are ordered by centre, best first (lowest first where lower is
better; highest first where higher is better or the direction is unknown). Two neighbours in
that order can be told apart when their 95 % intervals do not overlap, or when Welch's test
on their iteration values gives p < alpha; otherwise they join one group. Groups chain: in
"A > {B, C, D}" B is indistinguishable from C and C from D, though B and D may differ.
Welch's test needs two iteration values on each side; without them only the intervals decide,
and a system with one iteration is told apart from none (its interval is of one process).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.series.data import KEY_COLUMNS, METRIC, SeriesData

RANK_COLUMNS = [
    *KEY_COLUMNS,
    "system",
    "rank",
    "group",
    "center",
    "ci_low",
    "ci_high",
    "iterations",
    "p_next",
    "apart_from_next",
]


def _matrix(groups: pl.DataFrame, col: str, m: np.ndarray, s: np.ndarray, shape) -> np.ndarray:
    out = np.full(shape, np.nan)
    out[m, s] = groups[col].cast(pl.Float64).fill_null(np.nan).to_numpy()
    return out


def told_apart(
    first: tuple, second: tuple, alpha: float, trust_single_iteration: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Whether two systems of a metric can be told apart, and Welch's p between them.

    Each side is (centre, ci_low, ci_high, mean, variance, count), the last three of its
    iteration values on the scale where means are arithmetic (1/v for Hmean metrics);
    arrays of any one shape. Apart: both have a centre, and their 95 % intervals do not
    overlap or Welch's test gives p < alpha (NaN with fewer than two values a side). The
    interval of one iteration is of one process's samples, which cannot say how runs differ
    (the report does not count such a verdict): it tells that system apart from none,
    unless `trust_single_iteration` (the option that counts such verdicts)."""
    c1, lo1, hi1, m1, v1, n1 = first
    c2, lo2, hi2, m2, v2, n2 = second
    p, _ = stats.welch(m1, v1, n1, m2, v2, n2)
    both = ~np.isnan(c1) & ~np.isnan(c2)
    runs = trust_single_iteration | ((np.asarray(n1) >= 2) & (np.asarray(n2) >= 2))
    known = ~np.isnan(lo1 + hi1 + lo2 + hi2) & runs
    with np.errstate(invalid="ignore"):
        disjoint = known & (np.maximum(lo1, lo2) > np.minimum(hi1, hi2))
    return both & (disjoint | (p < alpha)), p


def rank_metrics(analysis, data: SeriesData, alpha: float = 0.05) -> pl.DataFrame:
    """RANK_COLUMNS, one row per (metric, system), metrics in `data.keys` order, best first."""
    g = analysis.groups.join(
        data.keys.select(METRIC).with_row_index("_m"), on=METRIC, how="inner"
    ).with_columns(
        pl.col("system")
        .replace_strict(
            {n: i for i, n in enumerate(data.systems)}, default=-1, return_dtype=pl.Int64
        )
        .alias("_s")
    )
    g = g.filter(pl.col("_s") >= 0)
    shape = data.count.shape
    m, s = g["_m"].to_numpy().astype(np.int64), g["_s"].to_numpy()
    centre, lo, hi = (_matrix(g, c, m, s, shape) for c in ("center", "ci_low", "ci_high"))
    with np.errstate(invalid="ignore", divide="ignore"):
        y_mean = data.total / data.count
        y_var = (data.squares - data.total * y_mean) / (data.count - 1)
    y_var = np.where(data.count >= 2, np.maximum(y_var, 0.0), np.nan)

    better = data.keys["better"].to_numpy() if data.n_metrics else np.zeros(0, object)
    sign = np.where(better == "lower", 1.0, -1.0)[:, None]
    key = np.where(np.isnan(centre), np.inf, sign * centre)
    order = np.argsort(key, axis=1, kind="stable")
    take = np.take_along_axis
    c_o, lo_o, hi_o = (take(x, order, axis=1) for x in (centre, lo, hi))
    ym, yv, k = (take(x, order, axis=1) for x in (y_mean, y_var, data.count))

    a, b = np.s_[:, :-1], np.s_[:, 1:]
    apart, p = told_apart(
        (c_o[a], lo_o[a], hi_o[a], ym[a], yv[a], k[a]),
        (c_o[b], lo_o[b], hi_o[b], ym[b], yv[b], k[b]),
        alpha,
    )
    both = ~np.isnan(c_o[:, :-1]) & ~np.isnan(c_o[:, 1:])
    group = 1 + np.pad(np.cumsum(apart, axis=1), ((0, 0), (1, 0)))
    p_next = np.pad(np.where(both, p, np.nan), ((0, 0), (0, 1)), constant_values=np.nan)
    apart_next = np.pad(apart, ((0, 0), (0, 1)))

    present = ~np.isnan(c_o)
    mi, pos = np.nonzero(present)
    names = np.array(data.systems, dtype=object)
    frame = data.keys[mi] if len(mi) else data.keys.clear()
    return frame.with_columns(
        pl.Series("system", names[order[mi, pos]].tolist(), dtype=pl.String),
        pl.Series("rank", pos + 1, dtype=pl.Int64),
        pl.Series("group", group[mi, pos], dtype=pl.Int64),
        pl.Series("center", c_o[mi, pos]),
        pl.Series("ci_low", lo_o[mi, pos]).fill_nan(None),
        pl.Series("ci_high", hi_o[mi, pos]).fill_nan(None),
        pl.Series("iterations", k[mi, pos].astype(np.int64)),
        pl.Series("p_next", p_next[mi, pos]).fill_nan(None),
        pl.Series("apart_from_next", apart_next[mi, pos] & (pos < present.sum(axis=1)[mi] - 1)),
    ).select(RANK_COLUMNS)


def rank_summary(cmp, alpha: float = 0.05) -> pl.DataFrame:
    """Systems ranked by their geometric mean gain against the reference, with groups.

    The per-metric oriented log ratios (above 0: better than the reference) of the metrics
    whose direction is known are the values; the reference is 0 on each of them. Neighbours
    are apart when their 95 % t intervals over metrics do not overlap or Welch's test on
    those values gives p < alpha.
    """
    rows = cmp.rows.filter(
        pl.col("better").is_in(["lower", "higher"])
        & (pl.col("ratio") > 0)
        & pl.col("ratio").is_finite()
    )
    logs = rows.with_columns(
        pl.when(pl.col("better") == "higher")
        .then(pl.col("ratio").log())
        .otherwise(-pl.col("ratio").log())
        .alias("_l")
    )
    per = logs.group_by("system").agg(
        pl.len().alias("n"), pl.col("_l").mean().alias("mean"), pl.col("_l").var().alias("var")
    )
    stats_of = {r["system"]: r for r in per.iter_rows(named=True)}
    n_ref = rows.filter(pl.col("is_reference")).height
    names: list[str] = []
    counts: list[float] = []
    means: list[float] = []
    variances: list[float] = []
    for system in cmp.systems:  # a loop over the (few) systems
        r = stats_of.get(system)
        if r is None or not r["n"]:
            continue
        names.append(system)
        is_ref = system == cmp.reference
        counts.append(float(n_ref if is_ref else r["n"]))
        means.append(0.0 if is_ref else float(r["mean"]))
        variances.append(0.0 if is_ref else (np.nan if r["var"] is None else float(r["var"])))
    n, mean, var = np.array(counts), np.array(means), np.array(variances)
    order = np.argsort(-mean, kind="stable")
    names = [names[i] for i in order]
    n, mean, var = n[order], mean[order], var[order]
    lo, hi = stats.t_interval(mean, var, n)
    lo, hi = np.where(var == 0, mean, lo), np.where(var == 0, mean, hi)
    p, _ = stats.welch(mean[:-1], var[:-1], n[:-1], mean[1:], var[1:], n[1:])
    with np.errstate(invalid="ignore"):
        disjoint = np.maximum(lo[:-1], lo[1:]) > np.minimum(hi[:-1], hi[1:])
    apart = disjoint | (p < alpha)
    group = 1 + np.r_[0, np.cumsum(apart)].astype(np.int64)
    return pl.DataFrame(
        {
            "system": names,
            "rank": np.arange(1, len(names) + 1),
            "group": group[: len(names)],
            "metrics": n.astype(np.int64),
            "geomean_gain": np.expm1(mean),
            "gain_ci_low": np.expm1(lo),
            "gain_ci_high": np.expm1(hi),
            "p_next": np.r_[p, np.nan][: len(names)],
            "apart_from_next": np.r_[apart, False][: len(names)],
        }
    ).with_columns(pl.col(c).fill_nan(None) for c in ("gain_ci_low", "gain_ci_high", "p_next"))


def ranking_text(names: list[str], groups: list[int], known_direction: bool = True) -> str:
    """'A > {B, C} > D' (best first); with an unknown direction, by value, highest first."""
    parts: list[list[str]] = []
    last = None
    for name, grp in zip(names, groups, strict=True):
        if grp != last:
            parts.append([])
            last = grp
        parts[-1].append(name)
    shown = [p[0] if len(p) == 1 else "{" + ", ".join(p) + "}" for p in parts]
    if known_direction:
        return " > ".join(shown)
    return "highest first (direction unknown): " + ", ".join(shown)


def ranking_lines(ranked: pl.DataFrame) -> pl.DataFrame:
    """One line per metric from `rank_metrics` rows: benchmark, metric, better, ranking
    ("A > {B, C} > D", best first; by value, highest first, when the direction is unknown)."""
    groups = ranked.group_by(*METRIC, "better", "group", maintain_order=True).agg(pl.col("system"))
    shown = (
        pl.when(pl.col("system").list.len() == 1)
        .then(pl.col("system").list.first())
        .otherwise(pl.concat_str(pl.lit("{"), pl.col("system").list.join(", "), pl.lit("}")))
    )
    lines = (
        groups.with_columns(shown.alias("_g"))
        .group_by(*METRIC, "better", maintain_order=True)
        .agg(pl.col("_g"))
    )
    known = pl.col("better").is_in(["lower", "higher"])
    text = (
        pl.when(known)
        .then(pl.col("_g").list.join(" > "))
        .otherwise(pl.lit("highest first (direction unknown): ") + pl.col("_g").list.join(", "))
    )
    return lines.select(*METRIC, "better", text.alias("ranking"))
