"""How many significant digits a number was printed with.

Producers round what they print: Go prints ns/op as whole nanoseconds (4 significant
digits below 1,000) and MB/s with two decimals. Numbers equal only up to that rounding
(a rate derived from a time) are told apart from different measurements by it.
"""

from __future__ import annotations

import numpy as np

from tuibench.stats.moments import segment_min

MAX_DIGITS = 17  # a float64 printed in full
SKIP = 12  # digits most values are first tested beyond (`_more_digits_than`)


def significant_digits(x: np.ndarray) -> np.ndarray:
    """The fewest significant digits that give back each value (0 for 0, MAX_DIGITS for
    non-finite values). Trailing zeros of an integer are not counted: 3000 has 1."""
    x = np.asarray(x, dtype=np.float64)
    out = np.full(x.shape, MAX_DIGITS, dtype=np.int8)
    ok = np.isfinite(x) & (x != 0)
    out[x == 0] = 0
    a = np.abs(x[ok])
    exponent = np.floor(np.log10(a))
    # Most measured values need more than SKIP digits (a float printed in full): their
    # search starts after SKIP, saving a pass over them per digit.
    found = np.zeros(a.shape, dtype=np.int8)
    longer = _more_digits_than(a, exponent, SKIP)
    for part, start in ((np.flatnonzero(~longer), 1), (np.flatnonzero(longer), SKIP + 1)):
        found[part] = _first_digits(a[part], exponent[part], start)
    out[ok] = np.where(found > 0, found, MAX_DIGITS)
    return out


def _first_digits(a: np.ndarray, exponent: np.ndarray, start: int) -> np.ndarray:
    """The first digit count from `start` on at which each value is within 1e-15 of
    itself rounded to that many significant digits (0 if none). A pass that settles
    some values drops them from the next ones."""
    found = np.zeros(a.shape, dtype=np.int8)
    todo = np.arange(len(a))
    k = exponent.astype(np.int64) - _TEN_FROM
    for d in range(start, MAX_DIGITS + 1):
        if not len(todo):
            break
        scale = _TEN[k - (d - 1)]
        same = np.abs(np.round(a / scale) * scale - a) <= a * 1e-15
        if same.any():
            found[todo[same]] = d
            todo, a, k = todo[~same], a[~same], k[~same]
    return found


# 10.0 ** k for every exponent a float's digits can have, computed as numpy computes it
# for an array (the same numbers as `10.0 ** exponents`, looked up instead of computed).
_TEN_FROM = -345
with np.errstate(over="ignore"):
    _TEN = 10.0 ** np.arange(_TEN_FROM, 310, dtype=np.float64)


def _more_digits_than(a: np.ndarray, exponent: np.ndarray, digits: int) -> np.ndarray:
    """Whether each value certainly needs more than `digits` significant digits: it is
    further than 1e-14 (relative) from the nearest number of `digits` digits. A value
    within 1e-15 of a number of d <= digits digits is within that plus a few units in
    the last place of it (a number of d digits has `digits` digits, followed by zeros),
    far below 1e-14. Values near the ends of the float range are never skipped."""
    normal = (exponent > -290) & (exponent < 290)
    k = np.where(normal, exponent - (digits - 1), 0).astype(np.int64) - _TEN_FROM
    scale = _TEN[k]
    far = np.abs(np.round(a / scale) * scale - a) > a * 1e-14
    return normal & far


def printed_quantum(x: np.ndarray) -> np.ndarray:
    """A unit of the last printed digit of each value (3666 -> 1, 17.46 -> 0.01, 3000 ->
    1000): the value is within half of it of what was measured. NaN for 0 or non-finite."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = np.floor(np.log10(np.abs(x)))
        q = 10.0 ** (exponent - significant_digits(x) + 1)
    return np.where(np.isfinite(x) & (x != 0), q, np.nan)


def iteration_rounding(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, finest: float
) -> np.ndarray:
    """How far printing may have moved each iteration's mean, relative: half a unit of the
    last digit (the smallest among its first three samples: a trailing zero hides a digit
    of a tenth of the values) over its smallest sample (`values[starts[i]:][:counts[i]]`).

    Below `finest` only a bound is given: an iteration whose first sample certainly has
    more than SKIP digits moved by at most 10^-SKIP of that sample over its smallest one,
    and when that is under half of `finest` it stands for the exact figure (the digits of
    every sample of a million iterations of full-precision values took most of the time)."""
    n = len(starts)
    q = np.full(n, np.inf)
    low = np.abs(segment_min(np.abs(values), starts, counts))
    first = np.flatnonzero(counts > 0)
    x0 = np.abs(values[starts[first]])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bound = 0.5 * 10.0**-SKIP * x0 / low[first]
        coarse = _more_digits_than(x0, np.floor(np.log10(x0)), SKIP) & (bound < 0.5 * finest)
    exact = np.ones(n, dtype=bool)
    exact[first[coarse]] = False
    # The first three samples' quanta in one call (each value's as in three: 20 % less).
    rows = [np.flatnonzero(exact & (counts > k)) for k in range(3)]
    quanta = printed_quantum(np.concatenate([values[starts[r] + k] for k, r in enumerate(rows)]))
    at = 0
    for r in rows:
        q[r] = np.fmin(q[r], quanta[at : at + len(r)])
        at += len(r)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 0.5 * q / low
    out[first[coarse]] = bound[coarse]
    return out
