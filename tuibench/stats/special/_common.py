"""Shared by the distribution functions: argument handling and Horner's rule."""

from __future__ import annotations

import math

import numpy as np

_EPS = np.finfo(np.float64).eps
_TINY = 1e-300
_LOG_PI = math.log(math.pi)
_LOG_MAX = math.log(np.finfo(np.float64).max)


def _floats(*args):
    return np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in args))


def _poly(x, coefs):
    """Horner: coefs highest degree first."""
    r = x * coefs[0]  # in place from here: at a million values allocation is half the time
    r += coefs[1]
    for c in coefs[2:]:
        r *= x
        r += c
    return r


def _out(y, shape):
    return y.reshape(shape)[()]  # a numpy scalar for scalar input, as scipy
