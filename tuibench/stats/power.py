"""Iterations per system needed to detect an effect with a two-sample t-test."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from tuibench.stats import special

POWER = 0.8
POWER_TABLE_MAX = 1000  # beyond this many iterations the normal approximation is used
DEFAULT_ALPHA = 0.05
# More iterations than anyone runs: a difference that needs more is rounding (the same
# timings in us and in ms), not a change, and the count would not fit a 64-bit integer.
MAX_ITERATIONS = 10**9
# The alphas whose tables ship, solved ahead (tools/make_power_table.py and
# make_noncentrality_table.py): solving both for another alpha takes about half a second,
# as long as a small report. Per kind and alpha a file, the table's scalar first:
# [noncentrality, d*(2), ..., d*(POWER_TABLE_MAX)] for the effects, [normal nc*,
# nc*(DF_GRID)] for the noncentralities.
SHIPPED_ALPHAS = (0.1, 0.05, 0.01, 0.001)


# The two kinds of table, as their files are named: effects per iteration count, and
# noncentralities over Welch's degrees of freedom.
EFFECTS, NONCENTRALITIES = "power_table", "noncentrality"


def shipped(kind: str, alpha: float) -> Path:
    """The file of the table `kind` (EFFECTS, NONCENTRALITIES) at alpha and POWER."""
    return Path(__file__).with_name(f"{kind}_{alpha:g}_{POWER:g}.npy")


# t_test_power: critical values from which the power is integrated rather than taken from
# the noncentral t, and noncentralities from which the far tail is 0.
QUADRATURE_FROM = 30.0
FAR_TAIL_FROM = 8.3
HERMITE_POINTS = 40


@functools.cache
def _hermite() -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of the standard normal (numpy.polynomial loads on first use: only
    where a table is solved, not at every start)."""
    z, w = np.polynomial.hermite_e.hermegauss(HERMITE_POINTS)
    return z, w / np.sqrt(2 * np.pi)


def t_test_power(nc: np.ndarray, df: np.ndarray, alpha: float) -> np.ndarray:
    """Power of the two-sided t test with df degrees of freedom at noncentrality nc >= 0:
    P(|T| > c), T noncentral t, c its critical value at alpha.

    scipy's noncentral t where c is moderate. Where it is large (a tiny alpha with few
    degrees of freedom: c is 6e11 at alpha 1e-12 and df 1) that takes up to seconds per
    value, so there the same probability comes as an integral over the normal part,
    P(|Z + nc| > c S) = E[F(df (Z + nc)^2 / c^2)], F the chi-square CDF of df (S^2 df is
    chi-square), by Gauss-Hermite quadrature: within 1e-14 of scipy from c = 30 on.
    """
    # scipy imported here: only an alpha whose tables do not ship solves one, never at
    # start-up (scipy.special costs 0.1 s).
    from scipy.special import chdtr, nctdtr

    nc, df = np.broadcast_arrays(np.asarray(nc, np.float64), np.asarray(df, np.float64))
    crit = special.stdtrit(df, 1 - alpha / 2)
    out = np.empty(nc.shape)
    wide = crit >= QUADRATURE_FROM
    z, w = _hermite()
    t = (nc[wide, None] + z) / crit[wide, None]
    out[wide] = chdtr(df[wide, None], df[wide, None] * t * t) @ w
    near = ~wide
    out[near] = 1 - nctdtr(df[near], nc[near], crit[near])
    # The far tail P(T < -c) is at most P(Z < -nc): nothing a double holds beside 0.8
    # from nc = 8.3 on. Elsewhere scipy's, NaN where it underflows: counted as 0.
    far = near & (nc < FAR_TAIL_FROM)
    out[far] += np.nan_to_num(nctdtr(df[far], nc[far], -crit[far]), nan=0.0)
    return out


# Tables by (kind, alpha, power), kept for the process (16 KB each): solving one for an
# alpha that does not ship takes 0.1 to 0.65 s, so the explorer asks `solved` before a
# comparison and has a worker compute one that would solve a table.
_TABLES: dict[tuple[str, float, float], tuple[np.ndarray, float]] = {}


def _shipped_or_solved(kind: str, solve, alpha: float, power: float):
    """(table, its scalar) of (alpha, power): the shipped file's, else solved, once."""
    key = (kind, alpha, power)
    if key in _TABLES:
        return _TABLES[key]
    if power == POWER and alpha in SHIPPED_ALPHAS:
        data = np.load(shipped(kind, alpha))
        table = data[1:]
        table.flags.writeable = False
        made = table, float(data[0])
    else:
        made = solve(alpha, power)
    return _TABLES.setdefault(key, made)


def solved(alpha: float, power: float = POWER, effects: bool = False) -> bool:
    """Whether a comparison at `alpha` finds its tables at hand, solving none: the
    noncentralities, and with `effects` (a threshold is set) the effects too."""
    if power == POWER and alpha in SHIPPED_ALPHAS:
        return True
    kinds = [NONCENTRALITIES] + ([EFFECTS] if effects else [])
    return all((kind, alpha, power) in _TABLES for kind in kinds)


def _effect_table(alpha: float, power: float) -> tuple[np.ndarray, float]:
    """The table of (alpha, power): shipped or solved (once)."""
    return _shipped_or_solved(EFFECTS, solve_effect_table, alpha, power)


def solve_effect_table(alpha: float, power: float) -> tuple[np.ndarray, float]:
    """d*(n) for n = 2..POWER_TABLE_MAX: the smallest effect detected with that power.

    Solved once per (alpha, power) over all n at once (`_smallest_nc`); decreasing in n. Also
    the noncentrality at which the two-sided z test has that power (both tails), for the
    normal approximation beyond the table.
    """
    n = np.arange(2, POWER_TABLE_MAX + 1, dtype=np.float64)
    za = special.ndtri(1 - alpha / 2)
    nc = _smallest_nc(2 * n - 2, alpha, power)
    d = nc / np.sqrt(n / 2)
    d.flags.writeable = False
    return d, _normal_nc(za, power)


def _smallest_nc(df: np.ndarray, alpha: float, power: float) -> np.ndarray:
    """Per degrees of freedom, the smallest noncentrality at which the t test at `alpha`
    reaches `power` (power rises with it), to a few units in the last place: widen from
    the normal answer until the upper end has the power, then close the bracket by
    regula falsi (Illinois: the end that stays twice has its value halved), each step on
    what is still open. A third of bisection's steps, the same values to 4e-15. Read-only,
    as the tables are shared."""
    start = special.ndtri(1 - alpha / 2) + special.ndtri(power)
    lo, hi = np.zeros_like(df), np.full_like(df, start)
    short = np.arange(len(df))
    for _ in range(64):
        short = short[t_test_power(hi[short], df[short], alpha) < power]
        if not len(short):
            break
        lo[short], hi[short] = hi[short], 2 * hi[short]
    f_lo = t_test_power(lo, df, alpha) - power  # below 0
    f_hi = t_test_power(hi, df, alpha) - power  # 0 or above
    moved = np.zeros(len(df), dtype=np.int8)  # the end moved last: 1 hi, -1 lo
    for _ in range(64):
        now = np.flatnonzero(hi - lo > 1e-15 * hi)
        if not len(now):
            break
        a, b, fa, fb = lo[now], hi[now], f_lo[now], f_hi[now]
        x = b - fb * (b - a) / (fb - fa)
        outside = ~((x > a) & (x < b))
        x[outside] = (a[outside] + b[outside]) / 2
        fx = t_test_power(x, df[now], alpha) - power
        up = fx >= 0
        fa = np.where(up & (moved[now] == 1), fa / 2, fa)
        fb = np.where(~up & (moved[now] == -1), fb / 2, fb)
        hi[now], f_hi[now] = np.where(up, x, b), np.where(up, fx, fb)
        lo[now], f_lo[now] = np.where(up, a, x), np.where(up, fa, fx)
        moved[now] = np.where(up, 1, -1)
    hi.flags.writeable = False
    return hi


def iterations_needed(d: np.ndarray, alpha: float, power: float = POWER) -> np.ndarray:
    """Iterations per system for a two-sided two-sample t-test to detect effect size d.

    d = |difference| / pooled standard deviation. Exact (noncentral t, same as statsmodels'
    `TTestIndPower().solve_power`, rounded up) up to 1000 iterations, through a table solved
    once per alpha; beyond, the normal approximation (both tails) with Guenther's
    correction, 2 (nc / d)^2 + z_a/2^2 / 4. At least 2; inf for d = 0 and beyond
    MAX_ITERATIONS (no run could detect it); NaN for NaN.
    """
    d = np.abs(np.asarray(d, dtype=np.float64))
    table, nc = _effect_table(float(alpha), float(power))
    idx = np.searchsorted(-table, -np.nan_to_num(d, nan=0.0), side="left")
    out = (idx + 2).astype(np.float64)
    za = special.ndtri(1 - alpha / 2)
    with np.errstate(divide="ignore"):
        approx = np.ceil(2 * (nc / d) ** 2 + za * za / 4)
    beyond = idx >= len(table)
    out[beyond] = np.maximum(approx[beyond], POWER_TABLE_MAX + 1)
    out[(d == 0) | (out > MAX_ITERATIONS)] = np.inf
    out[np.isnan(d)] = np.nan
    return out


# -- the smallest change a comparison would detect -------------------------------------------
# Noncentrality at which Welch's test (approximated, as usual, by a noncentral t with the
# Welch-Satterthwaite df) has the power: solved on a grid of df, interpolated in log df.
DF_GRID = np.geomspace(1.0, 1e4, 2001)


def solve_noncentrality_table(alpha: float, power: float) -> tuple[np.ndarray, float]:
    """nc*(df) on DF_GRID, the noncentrality at which the test has `power` (solved over
    the whole grid at once), and the normal test's nc* for df beyond the grid."""
    nc = _smallest_nc(DF_GRID, alpha, power)
    return nc, _normal_nc(special.ndtri(1 - alpha / 2), power)


def _normal_nc(za: float, power: float) -> float:
    """nc at which the two-sided z test has `power` (both tails)."""
    a, b = 0.0, za + special.ndtri(power) + 1.0
    for _ in range(60):
        nc = (a + b) / 2
        if special.ndtr(nc - za) + special.ndtr(-nc - za) >= power:
            b = nc
        else:
            a = nc
    return b


def _nc_table(alpha: float, power: float) -> tuple[np.ndarray, float]:
    """The noncentralities of (alpha, power): shipped or solved (once)."""
    return _shipped_or_solved(NONCENTRALITIES, solve_noncentrality_table, alpha, power)


def detectable_noncentrality(df: np.ndarray, alpha: float, power: float = POWER) -> np.ndarray:
    """The noncentrality nc*(df) a two-sided t test at `alpha` detects with `power`.

    The smallest detectable difference is nc* times the standard error of the difference.
    From a table over df in [1, 1e4], log nc* interpolated linearly in log df (relative
    error below 1e-5 at alpha 0.05, 2e-5 at 1e-3, 1e-4 at 1e-12, where nc* grows steeply
    as df falls: nc* itself interpolated was off by up to 2e-5, 1e-4 and 2e-3); beyond,
    the normal test's nc* plus the table's last excess shrinking as 1/df. NaN for df < 1
    or NaN.
    """
    df = np.asarray(df, dtype=np.float64)
    table, normal = _nc_table(float(alpha), float(power))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.exp(np.interp(np.log(df), np.log(DF_GRID), np.log(table)))
        beyond = normal + (table[-1] - normal) * DF_GRID[-1] / df
    out = np.where(df > DF_GRID[-1], beyond, out)
    return np.where(np.isnan(df) | (df < DF_GRID[0]), np.nan, out)
