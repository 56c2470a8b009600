"""Student's t distribution: stdtr (the incomplete beta by continued fractions, BGRAT for
large df) and stdtrit (Hill's start, then Halley steps)."""

from __future__ import annotations

import math

import numpy as np

from tuibench.stats.special._common import _EPS, _LOG_MAX, _LOG_PI, _TINY, _floats, _out, _poly
from tuibench.stats.special.normal import _T, _U, _erfcx_big, ndtr, ndtri

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
    done = np.zeros(len(x), dtype=bool)
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
        # A value is the one of the step it converged at, whatever else is in the array
        # (iterated again, its last digit may move: a comparison spliced from rows
        # computed in other arrays must equal one computed whole).
        first = (np.abs(step) <= 2 * _EPS) & ~done
        out[idx[first]] = h[first]
        done |= first
        # Drop converged values once enough have (the others go on).
        if done.sum() * 4 >= len(idx) or m == maxiter:
            keep = ~done
            idx, p, q, pq, x, c, d, h, done = (v[keep] for v in (idx, p, q, pq, x, c, d, h, done))
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
