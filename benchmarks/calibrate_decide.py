"""Calibration of `tuibench decide` when it is asked after every iteration.

    python benchmarks/calibrate_decide.py [--seed 1] [--quick]

Each simulated metric compares a system with the reference over 30 iterations; `decide`'s
verdict (alpha 0.05, margin +/-2 %) is taken after every iteration from 3 to 30, as a
benchmark loop would ask it. The iteration values are lower-is-better times of 100 with
1 % noise per iteration, in four regimes:

- gaussian: value = level * exp(0.01 e), e ~ N(0, 1);
- bursts: the same, and 5 % of iterations (of either system) hit by a burst 10 % slower;
- bimodal: each iteration lands in one of two modes 2 % apart (a boot's memory layout),
  with 0.5 % noise inside its mode (about 1.1 % in all);
- shared: iteration i of both systems shares an effect of 2 % sd (the machine's state that
  iteration), plus 1 % of its own.

Printed per regime: A/A (no change), the share of metrics ever declared worse or better,
beside the same share for a fixed-sample Welch test and a paired t test (alpha 0.05 on the
log values, the pairs `decide` uses) repeated after every iteration, which is what looking
after every run and stopping when it looks significant does; a 5 % slowdown, the share
decided `worse` within 15 iterations; and the mean iteration at which each is settled (30
when never), with the iterations saved against a fixed 30.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
from scipy import stats as sps

# Simulated suites are loaded by the thousand: none goes into the user's load cache.
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tuibench.analysis.stopping import sequence_verdicts
from tuibench.stats.sequential import half_width

ALPHA, THRESHOLD, LAST, FIRST, BY = 0.05, 2.0, 30, 3, 15
REGIMES = ("gaussian", "bursts", "bimodal", "shared")


def simulate(rng, regime: str, metrics: int, change: float) -> tuple[np.ndarray, np.ndarray]:
    """Log iteration values of the reference and the system, metrics x LAST."""
    shape = (metrics, LAST)
    if regime == "bimodal":

        def own():
            return 0.02 * (rng.random(shape) < 0.5) + 0.005 * rng.standard_normal(shape)

    else:

        def own():
            return 0.01 * rng.standard_normal(shape)

    ref, new = own(), own() + np.log1p(change)
    if regime == "bursts":
        ref += np.log1p(0.10) * (rng.random(shape) < 0.05)
        new += np.log1p(0.10) * (rng.random(shape) < 0.05)
    if regime == "shared":
        common = 0.02 * rng.standard_normal(shape)
        ref, new = ref + common, new + common
    return ref, new


def verdicts_by_iteration(ref: np.ndarray, new: np.ndarray) -> np.ndarray:
    """`decide`'s verdict after each iteration FIRST..LAST: metrics x looks."""
    d = new - ref
    n = np.arange(1, LAST + 1, dtype=float)
    s1, s2 = np.cumsum(d, axis=1), np.cumsum(d * d, axis=1)
    mean = s1 / n
    var = np.maximum(s2 / n - mean * mean, 0.0)
    hw = half_width(n[None, :], var, ALPHA)
    v = sequence_verdicts(mean - hw, mean + hw, np.array("lower"), THRESHOLD)
    return v[:, FIRST - 1 :]


def repeated_ever(ref: np.ndarray, new: np.ndarray, paired: bool) -> float:
    """Share of metrics a fixed-sample test (Welch, or paired t), repeated after every
    iteration, ever finds."""
    ever = np.zeros(len(ref), dtype=bool)
    for n in range(FIRST, LAST + 1):  # one vectorised test over all metrics per look
        a, b = new[:, :n], ref[:, :n]
        test = (
            sps.ttest_rel(a, b, axis=1) if paired else sps.ttest_ind(a, b, axis=1, equal_var=False)
        )
        ever |= test.pvalue < ALPHA
    return float(ever.mean())


def stopping(v: np.ndarray) -> np.ndarray:
    """The iteration at which each metric is first settled; LAST when never."""
    decided = v != "undecided"
    return np.where(decided.any(axis=1), FIRST + np.argmax(decided, axis=1), LAST)


def first_verdict(v: np.ndarray) -> np.ndarray:
    decided = v != "undecided"
    first = v[np.arange(len(v)), np.argmax(decided, axis=1)]
    return np.where(decided.any(axis=1), first, "undecided")


def regime_figures(rng, regime: str, metrics: int) -> dict[str, float]:
    ref, new = simulate(rng, regime, metrics, 0.0)
    v = verdicts_by_iteration(ref, new)
    ever = np.isin(v, ("worse", "better")).any(axis=1)
    # --max-iterations 30: the still undecided get a paired t verdict at the last look.
    last = (v[:, -1] == "undecided") & (sps.ttest_rel(new, ref, axis=1).pvalue < ALPHA)
    out = {
        "aa_ever": float(ever.mean()),
        "aa_last": float((ever | last).mean()),
        "aa_welch": repeated_ever(ref, new, paired=False),
        "aa_paired": repeated_ever(ref, new, paired=True),
        "aa_stop": float(stopping(v).mean()),
        "aa_same": float((first_verdict(v) == "same").mean()),
    }
    ref, new = simulate(rng, regime, metrics, 0.05)
    v = verdicts_by_iteration(ref, new)
    stop, first = stopping(v), first_verdict(v)
    out["ab_by15"] = float(((first == "worse") & (stop <= BY)).mean())
    out["ab_wrong"] = float(np.isin(first, ("better", "same")).mean())
    out["ab_stop"] = float(stop.mean())
    return out


def run(seed: int = 1, quick: bool = False) -> list[str]:
    metrics = 1000 if quick else 5000
    rng = np.random.default_rng(seed)
    lines = [
        f"decide after every iteration {FIRST}..{LAST}, alpha {ALPHA}, margin ±{THRESHOLD:g} %, "
        f"{metrics} metrics per regime (seed {seed})",
        f"{'regime':<9} {'A/A ever':>9} {'+last':>6} {'Welch ever':>11} {'paired ever':>12} "
        f"{'A/A same':>9} {'A/A stop':>9} {'saved':>6} {'+5% by 15':>10} {'wrong':>6} "
        f"{'+5% stop':>9} {'saved':>6}",
    ]
    for regime in REGIMES:
        f = regime_figures(rng, regime, metrics)
        lines.append(
            f"{regime:<9} {f['aa_ever']:>9.1%} {f['aa_last']:>6.1%} {f['aa_welch']:>11.1%} "
            f"{f['aa_paired']:>12.1%} "
            f"{f['aa_same']:>9.1%} {f['aa_stop']:>9.1f} {LAST - f['aa_stop']:>6.1f} "
            f"{f['ab_by15']:>10.1%} {f['ab_wrong']:>6.1%} "
            f"{f['ab_stop']:>9.1f} {LAST - f['ab_stop']:>6.1f}"
        )
    lines += [
        "A/A ever: share of unchanged metrics ever declared worse or better (bound: 5 %);",
        "+last: the same with --max-iterations 30 (a paired t test at the last look; bound 10 %);",
        "Welch ever, paired ever: a fixed-sample Welch test (paired t test) repeated after",
        "every iteration, the same share; A/A same: settled as same within the margin by 30;",
        "+5% by 15: a 5 % slowdown declared worse within 15 iterations (goal: 90 %); wrong: its",
        "first verdict better or same; stop: mean iteration when settled (30 if never); saved:",
        "iterations saved against a fixed 30.",
    ]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="fewer metrics per regime")
    args = ap.parse_args()
    for line in run(args.seed, args.quick):
        print(line)


if __name__ == "__main__":
    main()
