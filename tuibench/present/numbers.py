"""Values as people read them: a unit prefix and one scale per column (`4.74 µs`,
`1.58 GB/s`, `41.1 k tx/s`), never `4.7425e-06`. JSON, CSV and TSV keep the exact floats.

The rule, for the values of one metric (one column of a per-metric table, one row of the
mmtests table):

- **Scale**: the unit of `units.ladder(unit)` in which the typical value (the median of
  the non-zero magnitudes of the systems' centres) reads between 1 and 1000: times in ns,
  µs, ms or s (never minutes), sizes in B to PB or B to PiB (the family the data came in),
  bits in bit to Tbit, the numerator of a rate or per-op unit (`GB/s`, `µs/op`), an SI
  prefix otherwise (`k tx/s`, `k`, `M %`). Every value of the metric uses it, so the digits
  of two systems line up. Beyond the ladder (a value that would still read 10^6 or more, or
  below 0.001) the data's own unit with one power of ten for the whole metric,
  `1.00e+300 s`.
- **Decimals**, the same for every value of the metric: enough for three significant
  digits of the typical value (`4.74`, `41.1`, `312`), and one more at a time while two
  different centres of the metric would still print alike (1395.0 and 1396.2 read
  `1.395 k` and `1.396 k`, never both `1.40 k`), or would print a difference far from
  theirs (100.445 and 100.747 as `100` and `101`: a 1 % step beside a 0.3 % change; only
  for differences of 0.1 % and more), up to six significant digits of the typical value.
  So two centres that differ by more than a hundred-thousandth of the typical value always
  print differently; closer ones may print alike (their change then reads 0.00 % anyway).
  Where it matters, between the systems' centres, nothing is lost against the former fixed
  five significant digits.
- Undefined values (None, NaN, infinities) print as `-`; `-0.00` prints as `0.00`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.model.units import ladder

METRIC = ["benchmark", "metric"]
MIN_SIGNIFICANT = 3  # digits of the typical value
MAX_SIGNIFICANT = 6  # at most, when telling centres apart needs more


@dataclass(frozen=True)
class Scale:
    """How every value of one metric is shown: `value / size / 10**exponent` with
    `decimals` decimals, then `unit` (the prefixed unit label; '' for none)."""

    unit: str
    size: float = 1.0
    decimals: int = 2
    exponent: int = 0

    def number(self, x: float | None) -> str:
        """`4.74` (without the unit); '-' when undefined."""
        if x is None or not math.isfinite(x):
            return "-"
        v = _scaled(x, self.size, self.exponent)
        text = f"{v:.{self.decimals}f}"
        if text[0] == "-" and not text.strip("-0."):
            text = text[1:]  # never -0.00
        return f"{text}e{self.exponent:+d}" if self.exponent else text

    def text(self, x: float | None) -> str:
        """`4.74 µs`; '-' when undefined."""
        shown = self.number(x)
        return f"{shown} {self.unit}" if self.unit and shown != "-" else shown

    def interval(self, lo: float | None, hi: float | None) -> str:
        """`[4.70,4.78] µs` (no space: it fits the noise table in 80 columns); '-' when a
        bound is undefined."""
        a, b = self.number(lo), self.number(hi)
        if a == "-" or b == "-":
            return "-"
        return f"[{a},{b}] {self.unit}" if self.unit else f"[{a},{b}]"

    def named(self, name: str) -> str:
        """`hackbench time (µs)`: a name with the unit values are shown in."""
        return f"{name} ({self.unit})" if self.unit else name


@np.errstate(over="ignore", invalid="ignore")  # a metric from 5e-324 to 3: inf, not a warning
def _shift(x, exponent):
    """x / 10**exponent, in two steps so that 10**exponent itself never overflows (5e-324)."""
    half = exponent // 2
    return x / 10.0**half / 10.0 ** (exponent - half)


@np.errstate(over="ignore", invalid="ignore")
def _scaled(x, size, exponent):
    """x / size / 10**exponent. Near the float's top a unit smaller than the data's makes
    x / size overflow (1e308 minutes in seconds): there the power of ten goes first."""
    shown = _shift(x / size, exponent)
    late = np.isinf(shown) & np.isfinite(x)
    if not np.any(late):
        return shown
    return np.where(late, _shift(x, exponent) / size, shown)


def choose(
    typical: np.ndarray, values: np.ndarray, group: np.ndarray, unit: str | None
) -> list[Scale]:
    """One Scale per metric of `unit`, vectorised over the metrics.

    typical: per metric, the typical magnitude (NaN: none). values, group: the distinct
    finite centres of every metric, sorted within each, and the index of their metric."""
    rungs = ladder(unit)
    labels = [r[0] for r in rungs]
    sizes = np.array([r[1] for r in rungs])
    thresholds = np.array([r[2] for r in rungs])
    typical = np.asarray(typical, dtype=float)
    known = np.isfinite(typical) & (typical > 0)
    own = int(np.argmin(np.abs(np.log(sizes))))  # the rung closest to the data's unit
    idx = np.searchsorted(thresholds, np.where(known, typical, 1.0), side="right") - 1
    idx = np.where(known, np.clip(idx, 0, len(rungs) - 1), own)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = np.where(known, typical / sizes[idx], 1.0)
        # Beyond the ladder: the data's own unit and a power of ten shared by the metric.
        beyond = (t >= 1e6) | (t < 1e-3)
        idx = np.where(beyond, own, idx)
        size = sizes[idx]
        t = np.where(known, typical / size, 1.0)
        # (typical / size overflows near the float's top: its magnitude from the logs)
        logs = np.log10(np.where(known, typical, 1.0)) - np.log10(size)
        mag = np.floor(np.where(np.isinf(t), logs, np.log10(t)))
        exponent = np.where(beyond, 3 * np.floor(mag / 3), 0).astype(int)
        mag = mag - exponent
    decimals = np.where(known, np.maximum(0, MIN_SIGNIFICANT - 1 - mag), 0).astype(int)
    most = np.maximum(decimals, MAX_SIGNIFICANT - 1 - mag).astype(int)
    shown = _scaled(values, size[group], exponent[group]) if len(values) else values
    decimals = _tell_apart(shown, group, decimals, most)
    # One Scale object per distinct choice (there are few), shared by its metrics.
    code = (idx.astype(np.int64) * 64 + decimals) * 4096 + (exponent + 2048)
    combos, inverse = np.unique(code, return_inverse=True)
    shared = np.empty(len(combos), dtype=object)
    shared[:] = [
        Scale(
            labels[c // 4096 // 64], float(sizes[c // 4096 // 64]), c // 4096 % 64, c % 4096 - 2048
        )
        for c in combos.tolist()
    ]
    return shared[np.asarray(inverse).reshape(-1)].tolist()


def _tell_apart(
    values: np.ndarray, group: np.ndarray, decimals: np.ndarray, most: np.ndarray
) -> np.ndarray:
    """More decimals for the metrics where two distinct centres (as shown, before
    rounding) would print alike, or apart by a difference far from theirs.

    Rounding keeps the order, so only neighbours in each metric's sorted values can collide:
    one check per added decimal (a loop over at most three), over all metrics at once."""
    decimals = decimals.copy()
    same = group[1:] == group[:-1]
    if not same.any():
        return decimals
    a, b, g = values[:-1][same], values[1:][same], group[1:][same]
    for _ in range(MAX_SIGNIFICANT - MIN_SIGNIFICANT):
        ten = 10.0 ** decimals[g]
        x, y = a * ten, b * ten
        rx, ry = np.round(x), np.round(y)
        # A value within float error of a rounding tie may print either way (0.14495 is
        # stored a hair below and prints 0.1449): count it as alike, one more decimal.
        alike = (rx == ry) | _near_tie(x) | _near_tie(y)
        # Printed apart but by a difference far from theirs (100.45 and 100.75 as 100 and
        # 101 beside a change of 0.3 %): the rounding would tell the change wrong.
        # Only differences of 0.1 % and more: closer ones read as 0.0 % anyway.
        gap = np.abs(y - x)
        off = np.abs((ry - rx) - (y - x)) > 0.5 * gap
        alike |= off & (gap >= 1e-3 * np.maximum(np.abs(x), np.abs(y)))
        grow = np.zeros(len(decimals), dtype=bool)
        grow[g[alike]] = True
        grow &= decimals < most
        if not grow.any():
            break
        decimals[grow] += 1
    return decimals


@np.errstate(invalid="ignore")  # inf (see `_shift`) is no tie
def _near_tie(x: np.ndarray) -> np.ndarray:
    return np.abs(x - np.floor(x) - 0.5) <= 1e-9 * np.maximum(1.0, np.abs(x))


def _sorted_within(values: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values sorted by metric, then by value."""
    order = np.lexsort((values, ids))
    return values[order], ids[order]


def _per_metric(values: np.ndarray, ids: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """Per metric (`ids` in 0..n-1): the typical magnitude (median of the non-zero finite
    magnitudes, NaN when none), and the distinct finite values sorted within each metric,
    with their metric: two sorts, no loop over metrics."""
    ok = np.isfinite(values) & (values != 0)
    mag, g = _sorted_within(np.abs(values[ok]), ids[ok])
    count = np.bincount(g, minlength=n)
    start = np.cumsum(count) - count
    has = count > 0
    lo = np.where(has, start + (count - 1) // 2, 0)
    hi = np.where(has, start + count // 2, 0)
    # The midpoint as lo + half the gap: a sum of two magnitudes near the float maximum
    # overflows, and halving each first loses the smallest subnormals.
    typical = np.where(has, mag[lo] + (mag[hi] - mag[lo]) / 2 if len(mag) else np.nan, np.nan)
    ok = np.isfinite(values)
    v, g = _sorted_within(values[ok], ids[ok])
    keep = np.r_[True, (g[1:] != g[:-1]) | (v[1:] != v[:-1])] if len(v) else v.astype(bool)
    return typical, v[keep], g[keep]


def scale_for(values: Iterable[float | None], unit: str | None) -> Scale:
    """The Scale of one column: the systems' centres of one metric (or any values that
    must be told apart), measured in `unit`."""
    arr = np.array([math.nan if v is None else v for v in values], dtype=float)
    typical, flat, group = _per_metric(arr, np.zeros(len(arr), dtype=np.int64), 1)
    return choose(typical, flat, group, unit)[0]


def metric_scales(rows: pl.DataFrame, value: str = "center") -> dict[tuple[str, str], Scale]:
    """(benchmark, metric) -> Scale for every metric of comparison rows, from its
    systems' `value`s: numpy over all metrics, then one vectorised choice per unit."""
    if rows.height == 0:
        return {}
    ids = rows.select(pl.struct(METRIC).rank("dense") - 1).to_series().to_numpy()
    ids = ids.astype(np.int64)
    n = int(ids.max()) + 1
    values = rows[value].cast(pl.Float64).fill_null(math.nan).to_numpy()
    typical, flat, group = _per_metric(values, ids, n)
    _, first = np.unique(ids, return_index=True)  # a row of each metric, by id
    heads = rows.select(*METRIC, "unit")[first]
    units = heads["unit"].to_list()
    keys = list(zip(heads["benchmark"].to_list(), heads["metric"].to_list(), strict=True))
    out: dict[tuple[str, str], Scale] = {}
    for unit in dict.fromkeys(units):  # a loop over the distinct units
        mine = np.array([u == unit for u in units])
        chosen = np.flatnonzero(mine)
        renumber = np.cumsum(mine) - 1  # metric id -> index among this unit's metrics
        inside = mine[group]
        scales = choose(typical[chosen], flat[inside], renumber[group[inside]], unit)
        out.update(zip([keys[i] for i in chosen.tolist()], scales, strict=True))
    return out
