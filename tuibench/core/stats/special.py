"""Normal and Student t distribution functions and log-gamma: numpy only, vectorised.

Importing scipy.special costs about 0.1 s at start-up (its array-API layer imports
numpy.f2py, numpy.testing, ...), a fifth of a small report; the statistics need only these.
Same values, edge cases and argument order as scipy.special, to near double precision
(tests/core/test_special.py holds the figures):

- ndtr: Cephes' rational approximations of erf/erfc, with exp(-x^2/2) split so that the
  tails keep full relative precision (1e-15 down to 1e-300).
- ndtri: Wichura's AS 241 (PPND16), about 1e-16.
- gammaln: Cephes' lgam (rational approximation on [2, 3), recurrence, Stirling series).
- stdtr: the regularized incomplete beta I_x(df/2, 1/2) by continued fractions (modified
  Lentz, masked), and for large df near the centre DiDonato and Morris' BGRAT expansion,
  which takes log(x) rather than x (x rounds to 1 there and would cost digits).
- stdtrit: Hill's ACM 396 start, then Newton steps on the log of the tail in log|t|.
"""

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


# --- normal distribution ------------------------------------------------------------------

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


# --- log-gamma ----------------------------------------------------------------------------

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


# --- Student t ----------------------------------------------------------------------------


# Stirling's series, B_2k / (2k (2k - 1)) for k = 8..1, as a polynomial in 1/z^2.
_STIRLING = (-3617 / 122400, 1 / 156, -691 / 360360, 1 / 1188,
             -1 / 1680, 1 / 1260, -1 / 360, 1 / 12)  # fmt: skip


def _log_gamma_ratio_half(a: np.ndarray) -> np.ndarray:
    """log(Gamma(a + 1/2) / Gamma(a)), a > 0, without the cancellation of two large
    log-gammas: Stirling's series at z = a + k >= 10, and below 10 the shift
    Gamma(a + 1/2) / Gamma(a) = Gamma(z + 1/2) / Gamma(z) * prod_j (a + j) / (a + j + 1/2)."""
    k = np.ceil(np.maximum(10 - a, 0))
    prod = np.ones_like(a)
    for j in range(int(k.max(initial=0))):
        prod *= np.where(j < k, (a + j) / (a + j + 0.5), 1.0)
    z = a + k

    def stirling(z):  # log Gamma(z) - ((z - 1/2) log z - z + log sqrt(2 pi)); from 10 on the
        with np.errstate(over="ignore"):  # first term left out is below 2e-18
            return _poly(1 / (z * z), _STIRLING) / z

    with np.errstate(divide="ignore"):
        return (
            0.5 * np.log(z)
            + (z * np.log1p(0.5 / z) - 0.5)
            + (stirling(z + 0.5) - stirling(z))
            + np.log(prod)
        )


def _betacf(p: np.ndarray, q: np.ndarray, x: np.ndarray, maxiter: int = 400) -> np.ndarray:
    """Continued fraction of I_x(p, q) (Numerical Recipes' betacf, modified Lentz), masked:
    I_x(p, q) = x^p (1-x)^q / (p B(p, q)) * cf. Fast for x < (p + 1) / (p + q + 2)."""
    out = np.full_like(x, np.nan)
    idx = np.arange(len(x))
    pq = p + q
    c = np.ones_like(x)
    d = 1 - pq * x / (p + 1)
    d[d == 0] = _TINY  # Lentz's guard; only an exact zero can occur here
    d = 1 / d
    h = d.copy()
    for m in range(1, maxiter + 1):
        if not len(idx):
            break
        p2m = p + 2 * m
        even = (m * (q - m)) * x / ((p2m - 1) * p2m)
        odd = -((p + m) * (pq + m)) * x / (p2m * (p2m + 1))
        for aa in (even, odd):
            d *= aa
            d += 1
            d[d == 0] = _TINY
            np.divide(1, d, out=d)
            c = aa / c
            c += 1
            c[c == 0] = _TINY
            step = d * c
            h *= step
        step -= 1
        done = np.abs(step) <= 2 * _EPS
        # Drop converged values once enough have (the others go on; a converged one
        # iterated again stays put).
        if done.sum() * 4 >= len(idx) or m == maxiter:
            out[idx[done]] = h[done]
            keep = ~done
            idx, p, q, pq, x, c, d, h = (v[keep] for v in (idx, p, q, pq, x, c, d, h))
    return out


def _p_table(b: float, n: int = 20) -> list[float]:
    """DiDonato and Morris (1992) eq. 9.4: the p_n of BGRAT for this b."""
    p = [1.0]
    for k in range(1, n):
        s = sum((m * b - k) * p[k - m] / math.factorial(2 * m + 1) for m in range(1, k))
        p.append(s / k + (b - 1) / math.factorial(2 * k + 1))
    return p


_BGRAT_P = _p_table(0.5)


def _bgrat_half(a: np.ndarray, log1p_s: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """log I_x(a, 1/2) for large a (>= 15) with log x = -log1p_s (ratio: log Gamma(a + 1/2) /
    Gamma(a)): BGRAT, DiDonato and Morris
    (1992) eqs. 9.1-9.6, as Boost's beta_small_b_large_a_series, with b = 1/2. Each term is
    kept relative to u^b e^-u / Gamma(b) so that nothing underflows."""
    b = 0.5
    t = a - 0.25  # a + (b - 1) / 2
    lx = -log1p_s
    u = t * log1p_s
    z = np.sqrt(u)
    # J0 = Q(b, u) / (u^b e^-u / Gamma(b)) = sqrt(pi) erfcx(sqrt u) / sqrt(u)
    ex = np.empty_like(z)
    lo = z < 1
    zl = z[lo]
    ex[lo] = np.exp(zl * zl) * (1 - zl * _poly(zl * zl, _T) / _poly(zl * zl, _U))
    ex[~lo] = _erfcx_big(z[~lo])
    j = math.sqrt(math.pi) * ex / z
    total = j.copy()
    lx2 = (lx / 2) ** 2
    lxp = np.ones_like(u)
    with np.errstate(over="ignore"):  # df beyond 1e154: the terms after J0 vanish
        t4 = 4 * t * t
    b2n = b
    for pn in _BGRAT_P[1:]:
        j = (b2n * (b2n + 1) * j + (u + b2n + 1) * lxp) / t4
        lxp *= lx2
        b2n += 2
        total += pn * j
    # prefix: Gamma(a + b) / Gamma(a) / t^b, times u^b e^-u / Gamma(b)
    log_h = b * np.log(u) - u - 0.5 * _LOG_PI
    return ratio - b * np.log(t) + log_h + np.log(total)


def _t_lower(nu: np.ndarray, at: np.ndarray, ratio: np.ndarray):
    """For finite nu > 0 and finite at > 0, the t distribution at -at: (F, C, log F, L) with
    F = P(T <= -at), C = 1/2 - F, L = log(at f(at)); F or C, whichever is under 0.45 or so,
    to full relative precision; y = at^2 / (nu + at^2). ratio: log Gamma(nu/2 + 1/2) /
    Gamma(nu/2), which a solver reuses. 1-D arrays."""
    a = nu / 2
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        s = at * at / nu  # x = 1 / (1 + s), 1 - x = s / (1 + s)
        ls = np.log(s)
        l1p = np.log1p(s)
        huge = ~np.isfinite(s) | (at * at == np.inf)
        if huge.any():  # t^2 overflows: log(1 + s) = log s + log(1 + 1/s)
            ls[huge] = 2 * np.log(at[huge]) - np.log(nu[huge])
            l1p[huge] = ls[huge] + np.log1p(np.exp(-ls[huge]))
        x = 1 / (1 + s)
        y = np.where(huge, 1.0, s / (1 + s))
    # log(at f(at)) = log(x^(a + 1/2) sqrt(1 - x) ... / B(a, 1/2)), see module notes
    big_l = -(a + 0.5) * l1p + 0.5 * ls + ratio - 0.5 * _LOG_PI
    log_f = np.empty_like(s)
    # x >= (a + 1) / (a + 2.5): the complement's fraction converges; in s, which keeps its
    # digits where x rounds to 1 (df above 1e16)
    centre = s * (a + 1) <= 1.5
    bgrat = ~centre & (a >= 15) & (s < 1)
    tail = ~centre & ~bgrat
    with np.errstate(divide="ignore", under="ignore"):
        cf = _betacf(np.full(centre.sum(), 0.5), a[centre], y[centre])
        c_centre = np.exp(big_l[centre]) * cf
        log_f[centre] = np.log(0.5 - c_centre)
        cf = _betacf(a[tail], np.full(tail.sum(), 0.5), x[tail])
        log_f[tail] = big_l[tail] + np.log(cf) - np.log(nu[tail])
        log_f[bgrat] = math.log(0.5) + _bgrat_half(a[bgrat], l1p[bgrat], ratio[bgrat])
        f = np.exp(log_f)
        c = 0.5 - f
        c[centre] = c_centre
    return f, c, log_f, big_l, y


def stdtr(df, t):
    """Student t cdf, as scipy.special.stdtr: NaN for df <= 0, ndtr for df = inf."""
    df, t = _floats(df, t)
    shape, df, t = df.shape, df.ravel(), t.ravel()
    out = np.full_like(t, np.nan)
    ok = (df > 0) & ~np.isnan(t)
    normal = ok & (df == np.inf)
    out[normal] = ndtr(t[normal])
    ok &= df < np.inf
    out[ok & (t == 0)] = 0.5
    out[ok & (t == -np.inf)] = 0.0
    out[ok & (t == np.inf)] = 1.0
    calc = ok & (t != 0) & np.isfinite(t)
    tc = t[calc]
    nu = df[calc]
    f, c, *_ = _t_lower(nu, np.abs(tc), _log_gamma_ratio_half(nu / 2))
    out[calc] = np.where(tc < 0, f, np.where(f < 0.25, 1 - f, 0.5 + c))
    return _out(out, shape)


def _hill_start(nu: np.ndarray, q: np.ndarray) -> np.ndarray:
    """log|t| of the lower q quantile by Hill (1970), ACM 396 (as R's qt), nu >= 1."""
    p2 = 2 * q  # two-sided
    a = 1 / (nu - 0.5)
    b = 48 / (a * a)
    c = ((20700 * a / b - 98) * a - 16) * a + 96.36
    d = ((94.5 / (b + c) - 3) / b + 1) * np.sqrt(a * math.pi / 2) * nu
    ly = 2 * (np.log(d) + np.log(p2)) / nu
    y = np.exp(ly)
    out = np.empty_like(q)
    normal = ((nu < 2.1) & (p2 > 0.5)) | (y > 0.05 + a)
    x = ndtri(q[normal])
    nn, an, bn, dn = nu[normal], a[normal], b[normal], d[normal]
    cn = c[normal] + np.where(nn < 5, 0.3 * (nn - 4.5) * (x + 0.6), 0.0)
    cn = (((0.05 * dn * x - 5) * x - 7) * x - 2) * x + bn + cn
    yy = x * x
    yy = (((((0.4 * yy + 6.3) * yy + 36) * yy + 94.5) / cn - yy - 3) / bn + 1) * x
    with np.errstate(divide="ignore"):
        out[normal] = 0.5 * (np.log(nn) + np.log(np.expm1(an * yy * yy)))
    rest = ~normal
    nr, yr, dr = nu[rest], y[rest], d[rest]
    tiny_y = yr < _EPS  # y underflows: the leading power law
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        yr = ((1 / (((nr + 6) / (nr * yr) - 0.089 * dr - 0.822) * (nr + 2) * 3) + 0.5 / (nr + 4))
              * yr - 1) * (nr + 1) / (nr + 2) + 1 / yr  # fmt: skip
        out[rest] = np.where(tiny_y, 0.5 * np.log(nr) - ly[rest] / 2, 0.5 * np.log(nr * yr))
    return out


def _power_law(nu: np.ndarray, q: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """log|t| from the tail's power law F ~ nu^(nu/2 - 1) |t|^-nu / B(nu/2, 1/2): exact far
    out, and never below the true log|t| (the density is below its power law)."""
    log_b = 0.5 * _LOG_PI - ratio
    return 0.5 * np.log(nu) - (np.log(nu) + log_b + np.log(q)) / nu


def _t_start(nu: np.ndarray, q: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """A start for log|t| of the lower q quantile (q < 1/2)."""
    out = np.empty_like(q)
    hill = (nu >= 1) & (nu <= 1e20)
    out[hill] = _hill_start(nu[hill], q[hill])
    huge = nu > 1e20  # the normal quantile, to 1e-15 (Hill's terms overflow)
    out[huge] = np.log(-ndtri(q[huge]))
    # Below df 1: the power law, or near the centre F ~ 1/2 - f(0) |t|; Newton corrects.
    low = nu < 1
    n, qq, rr = nu[low], q[low], ratio[low]
    log_f0 = rr - 0.5 * (_LOG_PI + np.log(n))
    out[low] = np.where(qq < 0.25, _power_law(n, qq, rr), np.log(0.5 - qq) - log_f0)
    return out


def _t_quantile_lower(nu: np.ndarray, q: np.ndarray, maxiter: int = 60) -> np.ndarray:
    """log|t| with P(T <= -|t|) = q, 0 < q < 1/2, finite nu > 0: Halley steps in u = log|t|
    on g = log F (q < 1/4) or on log(1/2 - F) (else), which keep their relative precision;
    log F is nearly linear in u in a power-law tail. Halley's step (cubic, damped) usually
    needs two evaluations from Hill's start. With w = d log(1/2 - F) / du = at f(at) /
    (1/2 - F) and k = d log(at f(at)) / du: g' = w, g'' = w k - w^2 (and -w for log F,
    where w = at f(at) / F)."""
    out = np.full_like(q, np.nan)
    # Where even the power law's |t| is within reach of a float the quantile is too; else
    # it is beyond the largest float (df below 1 in the far tail).
    ratio = _log_gamma_ratio_half(nu / 2)
    beyond = -np.log(q) > 600 * nu  # only there can |t| exceed 1e308
    beyond[beyond] = _power_law(nu[beyond], q[beyond], ratio[beyond]) > _LOG_MAX
    out[beyond] = np.inf
    idx = np.flatnonzero(~beyond)
    nu, q, ratio = nu[idx], q[idx], ratio[idx]
    u = np.clip(_t_start(nu, q, ratio), -700.0, _LOG_MAX)
    u = np.where(np.isnan(u), 0.0, u)
    tail = q < 0.25
    target = np.log(np.where(tail, q, 0.5 - q))
    for _ in range(maxiter):
        if not len(idx):
            break
        _, c, log_f, big_l, y = _t_lower(nu, np.exp(u), ratio)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            log_c = np.log(c)
            g = np.where(tail, log_f - target, log_c - target)
            w = np.where(tail, -np.exp(big_l - log_f), np.exp(big_l - log_c))
            g2 = w * (1 - (nu + 1) * y) - w * w
            halley = np.clip(1 - g * g2 / (2 * w * w), 0.5, 2.0)
            step = -g / w / halley
        step = np.clip(np.nan_to_num(step, nan=0.0), -50.0, 50.0)
        u = np.clip(u + step, -745.0, _LOG_MAX)
        done = np.abs(step) <= 1e-6 * np.maximum(1.0, np.abs(u))  # the next step is ~1e-18
        if done.any():
            out[idx[done]] = u[done]
            keep = ~done
            idx, nu, ratio, u, tail, target = (v[keep] for v in (idx, nu, ratio, u, tail, target))
    return out


def stdtrit(df, p):
    """Student t quantile, as scipy.special.stdtrit: t with stdtr(df, t) = p. -inf at p = 0,
    inf at p = 1 (also where |t| is beyond the largest float), NaN for df <= 0."""
    df, p = _floats(df, p)
    shape, df, p = df.shape, df.ravel(), p.ravel()
    out = np.full_like(p, np.nan)
    ok = (df > 0) & (p >= 0) & (p <= 1)
    normal = ok & (df == np.inf)
    out[normal] = ndtri(p[normal])
    ok &= df < np.inf
    out[ok & (p == 0)] = -np.inf
    out[ok & (p == 1)] = np.inf
    out[ok & (p == 0.5)] = 0.0
    calc = ok & (p > 0) & (p < 1) & (p != 0.5)
    pc = p[calc]
    q = np.minimum(pc, 1 - pc)  # 1 - p is exact above 1/2
    with np.errstate(over="ignore"):
        t = np.exp(_t_quantile_lower(df[calc], q))
    out[calc] = np.where(pc < 0.5, -t, t)
    return _out(out, shape)
