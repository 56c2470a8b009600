"""Coverage of the per-system summary interval, tuibench's and alternatives'.

The truth of a suite is the geometric mean over its metrics of the systems' true ratios
(oriented, above 1 better): 1 in A/A suites except under `jitter`, where it is the ratio
of the two builds' own levels (an interval from these builds' runs can only speak for
these builds).

The alternatives are computed here from the same iteration values (`Analysis.iterations`),
vectorised over suites: every iteration is one run of the suite, so its suite summary is
G_k = mean over metrics of the oriented log value, and the summary's log is
mean(G of the system) - mean(G of the reference).
- `welch t`: Welch's t interval on the G's of the two sides;
- `expanded`: a percentile bootstrap of the G's widened by sqrt(n/(n-1)) t/z
  (Hesterberg's expanded percentile interval), n the smaller side's iterations;
- `boot-t`: a studentised bootstrap of the G's.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as sps

from .engine import Run
from .regimes import Simulated

REPLICATES = 1000


def suite_summaries(run: Run, sim: Simulated) -> tuple[np.ndarray, np.ndarray]:
    """G of every iteration, (suites, iterations), of the reference and of the systems."""
    r, m, k, _ = sim.ref.shape
    v = run.analysis.iterations["value"].to_numpy().reshape(2, r, m, k)
    higher = sim.higher[None, None, :, None]
    # Oriented: positive is better; a rate's log counts up, a time's down.
    g = np.where(higher, np.log(v), -np.log(v)).mean(axis=2)
    return g[0], g[1]


def _covered(lo: np.ndarray, hi: np.ndarray, truth: np.ndarray) -> np.ndarray:
    return (lo <= truth) & (truth <= hi)


def welch_t(gr: np.ndarray, gs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k_r, k_s = gr.shape[1], gs.shape[1]
    d = gs.mean(axis=1) - gr.mean(axis=1)
    a, b = gs.var(axis=1, ddof=1) / k_s, gr.var(axis=1, ddof=1) / k_r
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (a + b) ** 2 / (a**2 / (k_s - 1) + b**2 / (k_r - 1))
    half = sps.t.ppf(0.975, df) * np.sqrt(a + b)
    return d - half, d + half


def _replicates(
    gr: np.ndarray, gs: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap means and variances of the difference, (suites, REPLICATES)."""
    out = []
    for g in (gs, gr):
        k = g.shape[1]
        pick = rng.integers(0, k, (g.shape[0], REPLICATES, k))
        draw = np.take_along_axis(g[:, None, :], pick, axis=2)
        out.append((draw.mean(axis=2), draw.var(axis=2, ddof=1) / k))
    (ms, vs), (mr, vr) = out
    return ms - mr, vs + vr


def expanded(gr, gs, rng) -> tuple[np.ndarray, np.ndarray]:
    d = gs.mean(axis=1) - gr.mean(axis=1)
    reps, _ = _replicates(gr, gs, rng)
    lo, hi = np.quantile(reps, [0.025, 0.975], axis=1)
    n = min(gr.shape[1], gs.shape[1])
    widen = np.sqrt(n / (n - 1)) * sps.t.ppf(0.975, n - 1) / sps.norm.ppf(0.975)
    return d + (lo - d) * widen, d + (hi - d) * widen


def boot_t(gr, gs, rng) -> tuple[np.ndarray, np.ndarray]:
    d = gs.mean(axis=1) - gr.mean(axis=1)
    se = np.sqrt(gs.var(axis=1, ddof=1) / gs.shape[1] + gr.var(axis=1, ddof=1) / gr.shape[1])
    reps, v = _replicates(gr, gs, rng)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (reps - d[:, None]) / np.sqrt(v)
    t = np.where(np.isnan(t), 0.0, t)  # a draw that repeats one iteration on both sides
    with np.errstate(invalid="ignore"):
        q_lo, q_hi = np.quantile(t, [0.025, 0.975], axis=1)
    return d - q_hi * se, d - q_lo * se


def measure(run: Run, sim: Simulated, rng: np.random.Generator) -> dict[str, tuple[int, int]]:
    """Counts (covered, suites) per interval, and how often tuibench gives none."""
    truth = sim.truth.mean(axis=1)
    s = run.summary
    lo = np.log(s["geomean_ci_low"].fill_null(np.nan).to_numpy())
    hi = np.log(s["geomean_ci_high"].fill_null(np.nan).to_numpy())
    given = ~np.isnan(lo)
    out = {
        "summary covers": (int(_covered(lo, hi, truth)[given].sum()), int(given.sum())),
        "summary none": (int((~given).sum()), len(given)),
        "summary excludes 1": (int(((hi < 0) | (lo > 0))[given].sum()), int(given.sum())),
    }
    if sim.ref.shape[2] < 2:
        return out
    gr, gs = suite_summaries(run, sim)
    for name, fn in (
        ("welch t", lambda: welch_t(gr, gs)),
        ("expanded", lambda: expanded(gr, gs, rng)),
        ("boot-t", lambda: boot_t(gr, gs, rng)),
    ):
        with np.errstate(invalid="ignore"):
            a, b = fn()
        ok = np.isfinite(a) & np.isfinite(b)
        out[f"{name} covers"] = (int(_covered(a, b, truth)[ok].sum()), int(ok.sum()))
    return out
