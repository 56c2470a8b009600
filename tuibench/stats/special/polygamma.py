"""digamma, trigamma and tetragamma for positive arguments, and the inverse of trigamma.

Recurrence up to 10, then the asymptotic series (Abramowitz and Stegun 6.3.18, 6.4.11):
within 1e-12 (relative; absolute near the root of digamma). The inverse of trigamma is limma's
(Smyth 2004): Newton's method on 1 / trigamma, which is nearly linear.
"""

from __future__ import annotations

import numpy as np

from tuibench.stats.special._common import _floats, _out

_UP = 10.0  # the series hold from here


def _shifted(x: np.ndarray, power: int, sign: float) -> tuple[np.ndarray, np.ndarray]:
    """x raised to at least _UP, and the sum of the recurrence's terms sign / x^power."""
    acc = np.zeros_like(x)
    x = x.copy()
    for _ in range(int(_UP)):
        low = x < _UP
        if not low.any():
            break
        acc += np.where(low, sign / np.where(low, x, 1.0) ** power, 0.0)
        x = np.where(low, x + 1, x)
    return x, acc


def _evaluated(x, power: int, sign: float, tail) -> np.ndarray:
    """A polygamma function at x > 0 (NaN elsewhere): the recurrence's terms
    sign / x^power, then `tail(z)`, its asymptotic series at z >= _UP."""
    (x,) = _floats(x)
    shape, x = x.shape, x.ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        z, acc = _shifted(np.where(x > 0, x, np.nan), power, sign)
        out = tail(z) + acc
    return _out(out, shape)


def _digamma_tail(z: np.ndarray) -> np.ndarray:
    w = 1 / (z * z)
    series = w * (-1 / 12 + w * (1 / 120 + w * (-1 / 252 + w * (1 / 240 + w * -1 / 132))))
    return np.log(z) - 0.5 / z + series


def _trigamma_tail(z: np.ndarray) -> np.ndarray:
    w = 1 / (z * z)
    series = w * (1 / 6 + w * (-1 / 30 + w * (1 / 42 + w * (-1 / 30 + w * 5 / 66))))
    return (1 + 0.5 / z + series) / z


def _tetragamma_tail(z: np.ndarray) -> np.ndarray:
    w = 1 / (z * z)
    series = w * (1 / 2 + w * (-1 / 6 + w * (1 / 6 + w * (-3 / 10 + w * 5 / 6))))
    return -(1 + 1 / z + series) / (z * z)


def digamma(x):
    """psi(x) for x > 0 (NaN elsewhere)."""
    return _evaluated(x, 1, -1.0, _digamma_tail)


def trigamma(x):
    """psi'(x) for x > 0 (NaN elsewhere)."""
    return _evaluated(x, 2, 1.0, _trigamma_tail)


def tetragamma(x):
    """psi''(x) for x > 0 (NaN elsewhere)."""
    return _evaluated(x, 3, -2.0, _tetragamma_tail)


def trigamma_inverse(y):
    """x with trigamma(x) = y, for y > 0 (NaN elsewhere)."""
    (y,) = _floats(y)
    shape, y = y.shape, y.ravel()
    out = np.full_like(y, np.nan)
    big, small = y > 1e7, (y > 0) & (y < 1e-6)
    out[big] = 1 / np.sqrt(y[big])
    out[small] = 1 / y[small]
    mid = np.flatnonzero((y > 0) & ~big & ~small)
    x, ym = 0.5 + 1 / y[mid], y[mid]
    for _ in range(50):
        tri = trigamma(x)
        step = tri * (1 - tri / ym) / tetragamma(x)
        x = x + step
        if np.all(-step / x < 1e-8):
            break
    out[mid] = x
    return _out(out, shape)
