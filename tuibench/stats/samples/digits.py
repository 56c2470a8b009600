"""How many significant digits a number was printed with.

Producers round what they print: Go prints ns/op as whole nanoseconds (4 significant
digits below 1,000) and MB/s with two decimals. Numbers equal only up to that rounding
(a rate derived from a time) are told apart from different measurements by it.
"""

from __future__ import annotations

import numpy as np

MAX_DIGITS = 17  # a float64 printed in full


def significant_digits(x: np.ndarray) -> np.ndarray:
    """The fewest significant digits that give back each value (0 for 0, MAX_DIGITS for
    non-finite values). Trailing zeros of an integer are not counted: 3000 has 1."""
    x = np.asarray(x, dtype=np.float64)
    out = np.full(x.shape, MAX_DIGITS, dtype=np.int8)
    ok = np.isfinite(x) & (x != 0)
    out[x == 0] = 0
    a = np.abs(x[ok])
    exponent = np.floor(np.log10(a))
    found = np.zeros(a.shape, dtype=np.int8)
    for d in range(1, MAX_DIGITS + 1):
        scale = 10.0 ** (exponent - (d - 1))
        same = np.abs(np.round(a / scale) * scale - a) <= a * 1e-15
        found = np.where((found == 0) & same, d, found)
        if (found > 0).all():
            break
    out[ok] = np.where(found > 0, found, MAX_DIGITS)
    return out


def printed_quantum(x: np.ndarray) -> np.ndarray:
    """A unit of the last printed digit of each value (3666 -> 1, 17.46 -> 0.01, 3000 ->
    1000): the value is within half of it of what was measured. NaN for 0 or non-finite."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = np.floor(np.log10(np.abs(x)))
        q = 10.0 ** (exponent - significant_digits(x) + 1)
    return np.where(np.isfinite(x) & (x != 0), q, np.nan)
