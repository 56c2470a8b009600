"""Calibration of the series' change points on simulated series, beside Otava and ruptures.

    python benchmarks/calibrate_changepoints.py [--seed 1] [--quick]

The model: system s of a series has a level of its own, mu_s + tau * u_s (u_s ~ N(0, 1):
build-to-build jitter, code layout, boot), and its iterations add sigma * e (e ~ N(0, 1)),
sigma = 1 % of a level of 100. So one system's mean varies by sd = sqrt(tau^2 + sigma^2 / n)
with n iterations. Regimes: tau in {0, sigma/2, sigma}, n in {1, 2, 3, 5, 10}, series of
5, 8 and 12 systems, and

- flat: no change; the false rate is the share of series with any change point;
- step: a step of 6 sd (6 tau where the jitter dominates, 6 sigma / sqrt(n) at tau = 0) at
  the second system, the middle one or the last; found = a change point at that system;
- bump: one iteration, tau = 0, systems raised by 10 sigma for 1, 2 or 3 systems in the
  middle (two steps of opposite sign); found = change points at both edges;
- flat again with iterations that are not normal: bursts (an iteration is 5 sigma slower
  with probability 0.1), bimodal (two modes 2 sigma apart, each iteration in either with
  probability 1/2, plus 0.2 sigma of noise), rounded (values printed to 1 sigma) and
  uneven (each system has 1 to n iterations, drawn uniformly).

Beside each step and bump, an oracle: Student's t on the systems' means at the known
position (the step's two levels, or the bump against the rest) at alpha 0.05, which no
search over positions can beat with one metric's data alone. At five systems a search on
one metric's data cannot come near it: the cuts' rejection regions barely overlap, so the
alphas each cut needs for 80 % add up (printed at the end: 8.1 % at five systems). The
series of one regime are analysed together, as the metrics of one suite, so they lend
each other degrees of freedom (changepoints.py); `mixed_suites` checks the same where
the metrics differ (their own noise, jitter and steps).

tuibench runs with alpha 0.05 per metric (no Benjamini-Hochberg: that is the stricter case
for flat metrics). A contradiction is a change point called better or worse whose own 95 %
interval contains 0. The peers see the per-system means of the same series: Apache Otava
(`compute_change_points`, its t-test E-divisive split and merge, with its default
max_pvalue 0.001) and ruptures' PELT and binary segmentation (l2 cost, minimum size 1, the
BIC penalty 2 sd^2 ln(k) given the true sd of a system's mean: an oracle tuibench does not
have). The peers are optional (`pip install -e '.[calibrate]'`); their columns read `-`
without them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

# Simulated suites are loaded by the thousand: none goes into the user's load cache.
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tuibench.analysis.series.changepoints import detect
from tuibench.analysis.series.data import from_values

ALPHA = 0.05
TAUS = (0.0, 0.5, 1.0)  # in units of sigma
ITERATIONS = (1, 2, 3, 5, 10)
LENGTHS = (5, 8, 12)
BOUND_FALSE, BOUND_FOUND = 0.05, 0.80
DISTORTIONS = ("bursts", "bimodal", "rounded", "uneven")


def regimes() -> list[dict]:
    out = []
    for k in LENGTHS:
        for tau in TAUS:
            for n in ITERATIONS:
                sd = np.sqrt(tau**2 + 1.0 / n)
                out.append(dict(kind="flat", k=k, tau=tau, n=n, at=0, width=0, size=0.0))
                for at in (1, k // 2, k - 1):
                    out.append(
                        dict(kind="step", k=k, tau=tau, n=n, at=at, width=k - at, size=6 * sd)
                    )
        for w in (1, 2, 3):
            out.append(dict(kind="bump", k=k, tau=0.0, n=1, at=(k - w) // 2, width=w, size=10.0))
    for how in DISTORTIONS:
        for k in LENGTHS:
            for tau in TAUS:
                for n in ITERATIONS:
                    out.append(dict(kind="flat", k=k, tau=tau, n=n, at=0, width=0, size=0.0))
                    out[-1]["how"] = how
    return out


def _noise(rng, how: str, shape: tuple) -> np.ndarray:
    """Iteration noise in units of sigma (NaN: no such iteration)."""
    if how == "bursts":
        return rng.standard_normal(shape) + 5.0 * (rng.random(shape) < 0.1)
    if how == "bimodal":
        return np.where(rng.random(shape) < 0.5, -1.0, 1.0) + 0.2 * rng.standard_normal(shape)
    e = rng.standard_normal(shape)
    if how == "uneven":
        count = rng.integers(1, shape[2] + 1, shape[:2])
        e[np.arange(shape[2])[None, None, :] >= count[..., None]] = np.nan
    return e


def simulate(rng, r: dict, reps: int) -> np.ndarray:
    """Iteration values (reps, systems, iterations) of one regime."""
    k, n = r["k"], r["n"]
    level = np.zeros(k)
    level[r["at"] : r["at"] + r["width"]] = r["size"]
    u = rng.standard_normal((reps, k, 1))
    how = r.get("how", "normal")
    y = 100.0 + level[None, :, None] + r["tau"] * u + _noise(rng, how, (reps, k, n))
    return np.round(y) if how == "rounded" else y


def oracle(r: dict, y: np.ndarray) -> float | None:
    """Share of series where Student's t on the systems' means at the known position (the
    step's two levels, or the bump against the rest) gives p < alpha."""
    if r["kind"] == "flat":
        return None
    from scipy import stats

    x = np.nanmean(y, axis=2)
    inside = np.zeros(r["k"], bool)
    inside[r["at"] : r["at"] + r["width"]] = True
    return float((stats.ttest_ind(x[:, inside], x[:, ~inside], axis=1).pvalue < ALPHA).mean())


def tuibench_changes(y: np.ndarray) -> pl.DataFrame:
    reps, k, n = y.shape
    keys = pl.DataFrame(
        {
            "benchmark": [f"m{i}" for i in range(reps)],
            "metric": ["time"] * reps,
            "unit": ["s"] * reps,
            "better": ["lower"] * reps,
            "mean_kind": ["amean"] * reps,
        }
    )
    m = np.repeat(np.arange(reps), k * n)
    s = np.tile(np.repeat(np.arange(k), n), reps)
    ok = ~np.isnan(y.ravel())
    data = from_values(y.ravel()[ok], m[ok], s[ok], keys, [f"s{i}" for i in range(k)])
    ch = detect(data, ALPHA, fdr=False).changes
    return ch.with_columns(pl.col("benchmark").str.slice(1).cast(pl.Int64).alias("rep"))


def _positions(ch: pl.DataFrame, reps: int) -> list[set[int]]:
    found: list[set[int]] = [set() for _ in range(reps)]
    for rep, pos in ch.select("rep", "position").iter_rows():
        found[rep].add(pos)
    return found


def _rate(r: dict, found: list[set[int]]) -> float:
    if r["kind"] == "flat":
        hit = [bool(f) for f in found]
    elif r["kind"] == "step":
        hit = [r["at"] in f for f in found]
    else:
        hit = [{r["at"], r["at"] + r["width"]} <= f for f in found]
    return float(np.mean(hit))


def contradictions(ch: pl.DataFrame) -> int:
    """Change points called better or worse whose own 95 % interval contains 0 (or has none)."""
    called = ch.filter(pl.col("verdict").is_in(["better", "worse"]))
    lo, hi = called["gain_ci_low"], called["gain_ci_high"]
    return int(((lo.is_null() | hi.is_null()) | ((lo <= 0) & (hi >= 0))).sum())


def peers():
    """The peers' detectors on one series of per-system means, or None when not installed."""
    try:
        import ruptures as rpt
        from otava.analysis import compute_change_points
    except ImportError:
        return None

    def otava(x, sd):
        return {int(c.index) for c in compute_change_points(list(x))[0]}

    def rup(algo):
        def run(x, sd):
            pen = 2 * sd**2 * np.log(len(x))
            bk = algo(model="l2", min_size=1, jump=1).fit(x).predict(pen=pen)
            return set(bk[:-1])

        return run

    return {"Otava": otava, "PELT": rup(rpt.Pelt), "BinSeg": rup(rpt.Binseg)}


def label(r: dict) -> str:
    where = {"flat": "", "step": f" at {r['at']}", "bump": f" {r['width']} wide at {r['at']}"}
    how = f" {r['how']}" if "how" in r else ""
    return f"{r['kind']:<4} k={r['k']:<2} tau={r['tau']:.1f} n={r['n']:<2}{where[r['kind']]}{how}"


def run(
    seed: int = 1, quick: bool = False, with_peers: bool = True, checks: list | None = None
) -> list[str]:
    """Every regime's rates as printed lines, then the ranges per bound; `checks`, when
    given, receives every bound as a `Check` (calibrate.py counts and reports them)."""
    rng = np.random.default_rng(seed)
    reps, peer_reps = (400, 60) if quick else (2000, 300)
    detectors = peers() if with_peers else None
    names = list(detectors) if detectors else ["Otava", "PELT", "BinSeg"]
    head = f"{'regime':<42} {'tuibench':>8} {'oracle':>7} {'contra':>6} " + " ".join(
        f"{x:>7}" for x in names
    )
    lines = [
        f"seed {seed}, {reps} series per regime ({peer_reps} for the peers), alpha {ALPHA}",
        "rate: flat = any change point, step = found at its system, bump = both edges found",
        "oracle: Student's t on the systems' means at the known position (no search)",
        head,
    ]
    table = []
    for r in regimes():
        y = simulate(rng, r, reps)
        ch = tuibench_changes(y)
        row: dict[str, Any] = {
            "regime": r,
            "tuibench": _rate(r, _positions(ch, reps)),
            "contra": 0,
        }
        row["contra"] = contradictions(ch)
        row["called"] = int(ch["verdict"].is_in(["better", "worse"]).sum())
        row["oracle"] = oracle(r, y)
        means = np.nanmean(y[:peer_reps], axis=2)
        sd = np.sqrt(r["tau"] ** 2 + 1.0 / r["n"])
        for name in names:  # the peers on the normal regimes only (they take long)
            ran = detectors and "how" not in r
            row[name] = _rate(r, [detectors[name](x, sd) for x in means]) if ran else None
        table.append(row)
        cells = " ".join(_cell(row[x]) for x in ["oracle", "contra", *names])
        lines.append(f"{label(r):<42} {row['tuibench'] * 100:7.1f}% {cells}")
    lines += summary(table, names, reps)
    mixed: list[tuple[str, int, int, int, int]] = []
    lines += mixed_suites(rng, reps, mixed)
    if checks is not None:
        checks += bounds(table, mixed, reps)
    lines += needed()
    return lines


def _burst_alone(r: dict) -> bool:
    return r.get("how") == "bursts" and r["n"] == 1


def bounds(table: list[dict], mixed: list, reps: int) -> list:
    """The issue's bounds as checks: flat series with per-system jitter (normal iterations,
    and any with two iterations or more) <= 5 %; every 6 sd step and bump found >= 80 %;
    no verdict against its own interval; mixed suites' flat metrics <= 5 %. One
    iteration with bursts has no bound: that iteration is the system's level."""
    from calibration.settings import Check

    out = []
    for row in table:
        r = row["regime"]
        hits = round(row["tuibench"] * reps)
        if r["kind"] == "flat" and not _burst_alone(r):
            out.append(Check(f"change points, {label(r)}", hits, reps, None, BOUND_FALSE))
        elif r["kind"] != "flat":
            out.append(Check(f"change points, {label(r)}", hits, reps, BOUND_FOUND, None))
    called = sum(x["called"] for x in table)
    contra = sum(x["contra"] for x in table)
    out.append(Check("change points against their interval", contra, called, None, 0, True))
    for name, hits, n, *_ in mixed:
        out.append(Check(f"change points, mixed suite {name}, flat", hits, n, None, BOUND_FALSE))
    return out


def mixed_suite(rng, k: int, n: int, reps: int, stepped: float = 0.2) -> tuple[int, ...]:
    """One suite of `reps` metrics that differ as a real suite's do: each has its own noise
    (sigma from 0.25 % to 4 % of its level, log-uniform), its own jitter (tau of 0, 1/2 or
    1 sigma) and, for a share `stepped` of them, a 6 sd step at a position of its own.
    Returns the flat metrics with a change point, the flat metrics, the steps found and
    the steps."""
    sigma = np.exp(rng.uniform(np.log(0.25), np.log(4.0), reps))
    tau = rng.choice(TAUS, reps)
    at = np.where(rng.random(reps) < stepped, rng.integers(1, k, reps), 0)
    sd = np.sqrt(tau**2 + 1.0 / n)
    after = np.arange(k)[None, :] >= np.where(at > 0, at, k)[:, None]
    level = np.where(after, 6 * sd[:, None], 0.0)
    u = rng.standard_normal((reps, k, 1))
    e = rng.standard_normal((reps, k, n))
    y = 100.0 + sigma[:, None, None] * (level[..., None] + tau[:, None, None] * u + e)
    found = _positions(tuibench_changes(y), reps)
    flat = [bool(f) for f, a in zip(found, at, strict=True) if a == 0]
    steps = [a in f for f, a in zip(found, at, strict=True) if a > 0]
    return sum(flat), len(flat), sum(steps), len(steps)


def mixed_suites(rng, reps: int, counts: list | None = None) -> list[str]:
    """Every length and iteration count as one mixed suite (`mixed_suite`): the metrics'
    variances are borrowed from each other only as far as they are alike. `counts`, when
    given, receives (name, *mixed_suite's counts) per suite."""
    out = ["", "mixed suites (metrics with their own noise, jitter and steps; 20 % stepped):"]
    rates, worst = [], (0.0, 1)
    for k in LENGTHS:
        for n in ITERATIONS:
            false, flat, found, steps = mixed_suite(rng, k, n, reps)
            rates.append((false / flat, found / steps))
            worst = max(worst, (false / flat, flat))
            if counts is not None:
                counts.append((f"k={k} n={n}", false, flat, found, steps))
            out.append(
                f"  k={k:<2} n={n:<2}  flat {100 * false / flat:5.1f} %   "
                f"steps found {100 * found / steps:5.1f} %"
            )
    f, s = zip(*rates, strict=True)
    out.append(
        f"  range: flat {min(f) * 100:.1f}-{max(f) * 100:.1f} % "
        f"({_verdict(worst[0], BOUND_FALSE, '<=', worst[1])}), "
        f"steps found {min(s) * 100:.1f}-{max(s) * 100:.1f} %"
    )
    return out


def _cell(x) -> str:
    if x is None:
        return f"{'-':>7}"
    return f"{x:>6}" if isinstance(x, int) else f"{x * 100:6.1f}%"


def needed(power: float = BOUND_FOUND) -> list[str]:
    """Per length, the alpha each cut needs for `power` against a 6 sd step on Student's t
    of the systems' means (noncentral t), and their sum: above alpha, no test that shares
    alpha over the cuts finds a step at every position that often."""
    from scipy import optimize, stats

    out = ["", f"alpha each cut needs for {power * 100:.0f} % against a 6 sd step (sum):"]
    for k in LENGTHS:
        df, need = k - 2, []
        for c in range(1, k):
            ncp = 6 / np.sqrt(1 / c + 1 / (k - c))

            def gap(la, ncp=ncp, df=df):
                return stats.nct.sf(stats.t.isf(10**la / 2, df), df, ncp) - power

            need.append(10 ** optimize.brentq(gap, -12, -1e-6))
        cells = " ".join(f"{x * 100:.2g}" for x in need)
        out.append(f"  {k:>2} systems: {cells} %  (sum {sum(need) * 100:.2g} %)")
    return out


def _span(rows: list[dict], key: str) -> str:
    v = [x[key] for x in rows if x[key] is not None]
    return f"{min(v) * 100:.1f}-{max(v) * 100:.1f} %" if v else "-"


def _verdict(rate: float, bound: float, want: str, reps: int) -> str:
    """met, met within the simulation's error (two binomial standard errors), or NOT met."""
    ok = rate <= bound if want == "<=" else rate >= bound
    se = np.sqrt(bound * (1 - bound) / reps)
    near = rate - 2 * se <= bound if want == "<=" else rate + 2 * se >= bound
    return "met" if ok else ("met within 2 standard errors" if near else "NOT met")


def summary(table: list[dict], names: list[str], reps: int) -> list[str]:
    out = ["", "ranges over all regimes of a kind (tuibench | " + " | ".join(names) + "):"]
    for kind, bound, want in (
        ("flat", BOUND_FALSE, "<="),
        ("step", BOUND_FOUND, ">="),
        ("bump", BOUND_FOUND, ">="),
    ):
        rows = [x for x in table if x["regime"]["kind"] == kind]
        if kind == "flat":  # one iteration with a burst: that is the level
            alone = [x for x in rows if _burst_alone(x["regime"])]
            rows = [x for x in rows if x not in alone]
        peers_ = " | ".join(_span(rows, x) for x in names)
        out.append(
            f"  {kind}: {_span(rows, 'tuibench')} | {peers_}   "
            f"bound {want} {bound * 100:.0f} %: {_bound(rows, bound, want, reps)}"
        )
        groups = [(f"{k:>2} systems", lambda r, k=k: r["k"] == k) for k in LENGTHS]
        if kind == "flat":
            groups += [
                (f"{how:>10}", lambda r, how=how: r.get("how", "normal") == how)
                for how in ("normal", *DISTORTIONS)
            ]
        for name, keep in groups:
            sub = [x for x in rows if keep(x["regime"])]
            line = f"    {name}: {_span(sub, 'tuibench')}  {_bound(sub, bound, want, reps)}"
            if kind != "flat":
                line += f"   (oracle {_span(sub, 'oracle')})"
            out.append(line)
        if kind == "flat":
            out.append(
                f"  flat, one iteration with bursts: {_span(alone, 'tuibench')} "
                "(no bound: the one iteration is the system's level)"
            )
    called = sum(x["called"] for x in table)
    contra = sum(x["contra"] for x in table)
    out.append(
        f"  contradictions: {contra} of {called} change points called better/worse "
        f"({'met' if contra == 0 else 'NOT met'})"
    )
    return out


def _bound(rows: list[dict], bound: float, want: str, reps: int) -> str:
    rates = [x["tuibench"] for x in rows]
    return _verdict(max(rates) if want == "<=" else min(rates), bound, want, reps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="fewer series per regime")
    ap.add_argument("--no-peers", action="store_true", help="tuibench alone")
    args = ap.parse_args()
    for line in run(args.seed, args.quick, not args.no_peers):
        print(line, flush=True)


if __name__ == "__main__":
    main()
