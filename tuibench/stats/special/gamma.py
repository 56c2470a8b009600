"""log |Gamma(x)|: Cephes' lgam."""

from __future__ import annotations

import math

import numpy as np

from tuibench.stats.special._common import _LOG_PI, _floats, _out, _poly

# Cephes lgam.c: Stirling's series beyond 13 (A), log Gamma(2 + x) = x B(x)/C(x) on [0, 1).
_LA = (8.11614167470508450300e-4, -5.95061904284301438324e-4, 7.93650340457716943945e-4,
       -2.77777777730099687205e-3, 8.33333333333331927722e-2)  # fmt: skip
_LB = (-1.37825152569120859100e3, -3.88016315134637840924e4, -3.31612992738871184744e5,
       -1.16237097492762307383e6, -1.72173700820839662146e6, -8.53555664245765465627e5)  # fmt: skip
_LC = (1.0, -3.51815701436523470549e2, -1.70642106651881159223e4, -2.20528590553854454839e5,
       -1.13933444367982507207e6, -2.53252307177582951285e6, -2.01889141433532773231e6)  # fmt: skip
_LS2PI = 0.91893853320467274178  # log(sqrt(2 pi))


def _lgam_positive(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x > 0 (1-D)."""
    # Stirling over the whole array (kept from 13 on), then the values below 13 replaced.
    xb = np.maximum(x, 13.0)
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.log(xb)
        out *= xb - 0.5
        out -= xb
        out += _LS2PI
        corr = _poly(1 / (xb * xb), _LA)
    corr /= xb
    out += corr
    small = np.flatnonzero(x < 13)
    if not len(small):
        return out
    # Below 13: Gamma(x) = z Gamma(u) with u = x - n in [2, 3), z = (x-1)...(x-n) or, below
    # 2, 1/x or 1/(x (x+1)) (the same products, in the same order, as Cephes).
    xs = x[small]
    n = np.floor(xs) - 2
    with np.errstate(over="ignore"):  # below 1e-308: inf, as Cephes
        z = np.where(xs < 2, 1 / xs, 1.0)
        z = np.where(xs < 1, z / (xs + 1), z)
    for k in range(1, int(n.max(initial=0)) + 1):
        z *= np.where(n >= k, xs - k, 1.0)
    r = xs - n - 2
    out[small] = np.log(z) + r * _poly(r, _LB) / _poly(r, _LC)
    return out


def gammaln(x):
    """log |Gamma(x)|, as scipy.special.gammaln (inf at 0 and the negative integers)."""
    (x,) = _floats(x)
    shape, x = x.shape, x.ravel()
    out = np.full_like(x, np.nan)
    pos = x > 0
    out[pos] = _lgam_positive(x[pos])
    neg = x <= 0
    xn = x[neg]
    with np.errstate(divide="ignore", invalid="ignore"):
        # Reflection: |Gamma(x) Gamma(1 - x)| = pi / |sin(pi x)|; sin(pi x) via the
        # distance to the nearest integer so that it is exact at the poles.
        frac = xn - np.round(xn)
        val = _LOG_PI - np.log(np.abs(np.sin(math.pi * frac))) - _lgam_positive(1 - xn)
    out[neg] = np.where(frac == 0, np.inf, val)
    out[x == np.inf] = np.inf
    out[x == -np.inf] = -np.inf  # scipy's value
    return _out(out, shape)
