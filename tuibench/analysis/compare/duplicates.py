"""Metrics that are one measurement twice: a constant multiple or the reciprocal of an
earlier metric of the same benchmark, up to the rounding the values were printed with.

Worked in numpy over every metric at once (one sort of the iterations, per-metric figures
by `reduceat`); only the pairs whose spans could agree have their iterations compared.
The means are polars' own group means, as they were when this was a chain of polars
joins: the same sums, so the same metrics are duplicates. At 200,000 metrics the joins
carried every metric's iteration lists into two million candidate pairs (3 s).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.analysis.compare.columns import METRIC

DIGITS = 6  # the finest relative precision (in log units) at which metrics are duplicates
_SCHEMA = {"benchmark": pl.String, "metric": pl.String, "duplicate_of": pl.String}


def duplicate_metrics(iterations: pl.DataFrame, metrics: pl.DataFrame) -> pl.DataFrame:
    """(benchmark, metric, duplicate_of) for every metric that is a constant multiple or the
    reciprocal of an earlier metric of the same benchmark in every iteration of every system,
    up to the rounding the values were printed with.

    Compared on the plain per-iteration means (harmonic for Hmean metrics, so that a rate
    computed from a time is the reciprocal of it up to a constant), centred on the log
    scale. A printed value is off by at most half a unit of its last digit, and a mean of
    such values by at most that over its smallest value, a relative t (per iteration:
    `Analysis._rounding`, never below 10^-DIGITS; Go prints ns/op whole and MB/s with two
    decimals). So two metrics are one when, in every iteration, their centred
    logs agree (or are opposite) within the two iterations' t plus the mean t of each
    metric (what centring may add). Metrics that vary less than 8 times their mean t are
    never duplicates (rounding could hide a difference), nor those with a non-positive mean.
    """
    m = _metrics(iterations)
    if m is None:
        return pl.DataFrame(schema=_SCHEMA)
    position = _catalogue_order(m, metrics)
    later, earlier = _pairs(m, position)
    if not len(later):
        return pl.DataFrame(schema=_SCHEMA)
    # The earliest metric (in the catalogue) each one duplicates.
    order = np.lexsort((position[earlier], later))
    later, earlier = later[order], earlier[order]
    first = np.r_[True, later[1:] != later[:-1]]
    later, earlier = later[first], earlier[first]
    return pl.DataFrame(
        {
            "benchmark": m.names["benchmark"][later],
            "metric": m.names["metric"][later],
            "duplicate_of": m.names["metric"][earlier],
        }
    ).select(pl.all().cast(pl.String))


@dataclass
class _Metrics:
    """Per metric (sorted by benchmark and metric codes): its iterations' centred logs `z`
    and tolerances `t` (contiguous, from `start`, `n` of them, in system and iteration
    order), and the figures pairs are sought by."""

    names: dict[str, pl.Series]  # benchmark and metric
    z: np.ndarray
    t: np.ndarray
    start: np.ndarray
    n: np.ndarray
    span: np.ndarray  # of z
    tm: np.ndarray  # mean t
    tx: np.ndarray  # largest t
    bench: np.ndarray  # benchmark code
    layout: np.ndarray  # `_layouts`


def _metrics(it: pl.DataFrame) -> _Metrics | None:
    """The metrics of the iterations `it` whose iteration means are all positive."""
    if not it.height:
        return None
    b, mc, s = (it[k].to_physical().to_numpy().astype(np.int64) for k in (*METRIC, "system"))
    i = it["iteration"].to_numpy()
    v = it["mean_raw"].to_numpy()
    order = _metric_major(b * (int(mc.max()) + 1) + mc, s, i)
    b, s, i, v = b[order], s[order], i[order], v[order]
    starts = np.flatnonzero(np.r_[True, np.diff(b * (int(mc.max()) + 1) + mc[order]) != 0])
    gid = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(v)]))
    # A metric with a non-positive or undefined mean in some iteration is never one.
    bad = np.logical_or.reduceat(~(v > 0) | ~np.isfinite(v), starts)
    keep = ~bad[gid]
    if not keep.any():
        return None
    gid = np.cumsum(np.r_[True, gid[keep][1:] != gid[keep][:-1]]) - 1
    lv = pl.Series(v[keep]).log().to_numpy()  # polars' log, as the means below
    t = np.fmax(it["rounding"].to_numpy()[order[keep]], 10.0**-DIGITS)  # NaN: the floor
    # polars' group means (its sums, exactly as before) of the logs and the tolerances.
    means = (
        pl.DataFrame({"g": gid, "lv": lv, "t": t})
        .group_by("g", maintain_order=True)
        .agg(pl.col("lv", "t").mean())
    )
    start = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    n = np.diff(np.r_[start, len(gid)])
    z = lv - np.repeat(means["lv"].to_numpy(), n)
    return _Metrics(
        names={k: it[k].gather(order[starts[~bad]]) for k in METRIC},
        z=z,
        t=t,
        start=start,
        n=n,
        span=np.maximum.reduceat(z, start) - np.minimum.reduceat(z, start),
        tm=means["t"].to_numpy(),
        tx=np.maximum.reduceat(t, start),
        bench=b[keep][start],
        layout=_layouts(s[keep], i[keep], start, n),
    )


def _metric_major(key: np.ndarray, s: np.ndarray, i: np.ndarray) -> np.ndarray:
    """The order of rows by metric `key`, then system and iteration. Iterations come
    system after system, each in metric order: then a stable sort merges those runs."""
    ds, dk, di = np.diff(s), np.diff(key), np.diff(i)
    if ((ds > 0) | ((ds == 0) & ((dk > 0) | ((dk == 0) & (di > 0))))).all():
        return np.argsort(key, kind="stable")
    return np.lexsort((i, s, key))


def _layouts(s: np.ndarray, i: np.ndarray, start: np.ndarray, n: np.ndarray) -> np.ndarray:
    """An id per metric, equal for metrics measured in the same (system, iteration)
    sequence: their iterations pair up position by position. One pass per distinct count."""
    out = np.zeros(len(start), dtype=np.int64)
    base = 0
    for k in np.unique(n):
        rows = np.flatnonzero(n == k)
        at = start[rows, None] + np.arange(k)
        keys = np.concatenate([s[at], i[at]], axis=1)
        if (keys == keys[0]).all():  # the usual case: every metric in one layout (no sort)
            out[rows] = base
            base += 1
            continue
        order = np.lexsort(keys.T[::-1])  # column sorts: np.unique(axis=0) took seconds
        keys = keys[order]
        ids = np.empty(len(rows), dtype=np.int64)
        ids[order] = np.cumsum(np.r_[False, (keys[1:] != keys[:-1]).any(axis=1)])
        out[rows] = base + ids
        base += int(ids.max()) + 1
    return out


def _catalogue_order(m: _Metrics, metrics: pl.DataFrame) -> np.ndarray:
    """Each metric's position in the catalogue: "earlier" is in that order."""
    order = metrics.select(*METRIC).with_row_index("order")
    names = pl.DataFrame(m.names).with_row_index("_i")
    found = names.join(order, on=METRIC, how="left").sort("_i")["order"]
    return found.fill_null(-1).to_numpy().astype(np.int64)


def _pairs(m: _Metrics, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(later, earlier) metric indices of every duplicate pair."""
    # Metrics that vary less than 8 times their mean t could hide a difference.
    ok = (m.n >= 2) & (m.span > 8 * m.tm) & (order >= 0)
    idx = np.flatnonzero(ok)
    if len(idx) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    bucket = pl.Series(m.span[idx]).log(2).floor().cast(pl.Int64).to_numpy()
    a, b = _close_spans(m, idx)
    a, b = idx[a], idx[b]
    bucket_of = np.zeros(len(m.n), dtype=np.int64)
    bucket_of[idx] = bucket
    # The later metric (in the catalogue) is the one that may be left out.
    swap = order[a] < order[b]
    later, earlier = np.where(swap, b, a), np.where(swap, a, b)
    most = m.tx[later] + m.tx[earlier] + m.tm[later] + m.tm[earlier]
    near = (np.abs(bucket_of[later] - bucket_of[earlier]) <= 1) & (
        np.abs(m.span[later] - m.span[earlier]) <= 2 * most
    )
    later, earlier = later[near], earlier[near]
    same = _agree(m, later, earlier)
    return later[same], earlier[same]


def _close_spans(m: _Metrics, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions (in `idx`) of every pair of metrics of one benchmark and layout whose
    spans are within twice their largest allowance: a superset of the pairs the exact
    test keeps, found by a sort and a search instead of comparing every pair."""
    bench, layout, span = m.bench[idx], m.layout[idx], m.span[idx]
    reach = m.tx[idx] + m.tm[idx]
    order = np.lexsort((span, layout, bench))
    bench, layout, span, reach = bench[order], layout[order], span[order], reach[order]
    new = np.r_[True, (bench[1:] != bench[:-1]) | (layout[1:] != layout[:-1])]
    seg = np.cumsum(new) - 1
    seg_start = np.flatnonzero(new)
    seg_end = np.r_[seg_start[1:], len(span)]
    # A partner's own allowance is at most the largest of its group.
    widest = np.maximum.reduceat(reach, seg_start)[seg]
    limit = span + 2 * (reach + widest) * (1 + 1e-9) + span * 1e-12  # beyond rounding
    lo = np.arange(len(span)) + 1
    hi = _first_above(span, limit, lo, seg_end[seg])
    count = hi - lo
    first = np.repeat(np.arange(len(span)), count)
    second = np.repeat(lo - np.cumsum(np.r_[0, count[:-1]]), count) + np.arange(int(count.sum()))
    return order[first], order[second]


def _first_above(x: np.ndarray, limit: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per i, the first position in [lo_i, hi_i) of sorted x with x > limit_i (hi_i if
    none): a bisection of every search at once."""
    lo, hi = lo.copy(), hi.copy()
    while (open_ := lo < hi).any():
        mid = (lo + hi) // 2
        above = np.zeros(len(lo), dtype=bool)
        above[open_] = x[mid[open_]] > limit[open_]
        hi = np.where(open_ & above, mid, hi)
        lo = np.where(open_ & ~above, mid + 1, lo)
    return lo


def _agree(m: _Metrics, later: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    """Whether, in every iteration, the two metrics' centred logs agree (or are opposite)
    within the iterations' t plus each metric's mean t."""
    if not len(later):
        return np.zeros(0, dtype=bool)
    n = m.n[later]
    step = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    i, j = np.repeat(m.start[later], n) + step, np.repeat(m.start[earlier], n) + step
    allowed = m.t[i] + m.t[j] + np.repeat(m.tm[later], n) + np.repeat(m.tm[earlier], n)
    at = np.r_[0, np.cumsum(n)[:-1]]
    same = np.maximum.reduceat(np.abs(m.z[i] - m.z[j]) - allowed, at)
    opposite = np.maximum.reduceat(np.abs(m.z[i] + m.z[j]) - allowed, at)
    return np.minimum(same, opposite) <= 0
