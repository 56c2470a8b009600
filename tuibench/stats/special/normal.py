"""The standard normal distribution: ndtr (Cephes) and ndtri (Wichura's AS 241)."""

from __future__ import annotations

import math

import numpy as np

from tuibench.stats.special._common import _floats, _out, _poly

# Cephes ndtr.c: erf = x T(x^2)/U(x^2) on |x| < 1; erfc = exp(-x^2) P(x)/Q(x) on [1, 8),
# exp(-x^2) R(x)/S(x) beyond (leading 1 of Q, S, U written out).
_T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
      7.00332514112805075473e3, 5.55923013010394962768e4)  # fmt: skip
_U = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
      2.26290000613890934246e4, 4.92673942608635921086e4)  # fmt: skip
_P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
      4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
      9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)  # fmt: skip
_Q = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
      9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
      1.65666309194161350182e3, 5.57535340817727675546e2)  # fmt: skip
_R = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
      6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)  # fmt: skip
_S = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
      1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)  # fmt: skip


def _erfcx_big(z: np.ndarray) -> np.ndarray:
    """exp(z^2) erfc(z) for z >= 1 (no exponential: it cannot underflow)."""
    out = _poly(z, _P)
    out /= _poly(z, _Q)
    far = np.flatnonzero(z >= 8)
    if len(far):
        out[far] = _poly(z[far], _R) / _poly(z[far], _S)
    return out


def _exp_half_square(a: np.ndarray) -> np.ndarray:
    """exp(-a^2 / 2) to full relative precision: a^2 rounded costs a^2 eps (1e-13 at 37).
    Below 8 (1e-15 at most) a single exp does."""
    out = a * a
    out *= -0.5
    np.exp(out, out=out)
    far = np.flatnonzero(a >= 8)
    if len(far):
        af = a[far]
        hi = np.floor(af * 16) / 16  # few bits: hi^2 is exact
        out[far] = np.exp(-hi * hi / 2) * np.exp(-(af - hi) * (af + hi) / 2)
    return out


def ndtr(x):
    """Standard normal cdf, as scipy.special.ndtr."""
    (x,) = _floats(x)
    shape, x = x.shape, x.ravel()
    # Both branches over the whole array, then a choice: cheaper than gathering each part.
    a = np.minimum(np.abs(x), 40.0)  # ndtr(-40) underflows to 0; NaN stays NaN
    z = a * math.sqrt(0.5)
    half = _erfcx_big(np.maximum(z, 1.0))  # |z| >= 1: erfc(z) / 2
    half *= _exp_half_square(a)
    half *= 0.5
    out = np.where(x < 0, half, 1 - half)
    xs = np.clip(x, -math.sqrt(2), math.sqrt(2)) * math.sqrt(0.5)  # |z| < 1: (1 + erf) / 2
    x2 = xs * xs
    centre = _poly(x2, _T)
    centre /= _poly(x2, _U)
    centre *= 0.5 * xs
    centre += 0.5
    return _out(np.where(z < 1, centre, out), shape)


# Wichura (1988), AS 241 PPND16: |p - 0.5| <= 0.425, then r = sqrt(-log(min(p, 1-p))) <= 5
# and beyond. Coefficients highest degree first.
_A1 = (2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4,
       4.5921953931549871457e4, 1.3731693765509461125e4, 1.9715909503065514427e3,
       1.3314166789178437745e2, 3.3871328727963666080e0)  # fmt: skip
_B1 = (5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4,
       2.1213794301586595867e4, 5.3941960214247511077e3, 6.8718700749205790830e2,
       4.2313330701600911252e1, 1.0)  # fmt: skip
_A2 = (7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
       1.27045825245236838258e0, 3.64784832476320460504e0, 5.76949722146069140550e0,
       4.63033784615654529590e0, 1.42343711074968357734e0)  # fmt: skip
_B2 = (1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
       1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e0,
       2.05319162663775882187e0, 1.0)  # fmt: skip
_A3 = (2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
       2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580e0,
       5.46378491116411436990e0, 6.65790464350110377720e0)  # fmt: skip
_B3 = (2.04426310338993978564e-15, 1.42151175831644588870e-7, 1.84631831751005468180e-5,
       7.86869131145613259100e-4, 1.48753612908506148525e-2, 1.36929880922735805310e-1,
       5.99832206555887937690e-1, 1.0)  # fmt: skip


def ndtri(p):
    """Standard normal quantile, as scipy.special.ndtri: -inf at 0, inf at 1, NaN outside."""
    (p,) = _floats(p)
    shape, p = p.shape, p.ravel()
    q = p - 0.5
    r = 0.180625 - q * q
    out = _poly(r, _A1)  # the central branch over the whole array, tails replaced after
    out /= _poly(r, _B1)
    out *= q
    tail = np.flatnonzero(~(np.abs(q) <= 0.425))  # also NaN and p outside [0, 1]
    if len(tail):
        pt = p[tail]
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.sqrt(-np.log(np.minimum(pt, 1 - pt)))
            x = np.where(r <= 5, _poly(r - 1.6, _A2) / _poly(r - 1.6, _B2),
                         _poly(r - 5, _A3) / _poly(r - 5, _B3))  # fmt: skip
        x = np.where(pt < 0.5, -x, x)
        x[pt == 0] = -np.inf
        x[pt == 1] = np.inf
        out[tail] = x
    return _out(out, shape)
