"""The pairwise comparison section: every design's A/A and power runs, and the tables.

Each design runs twice through the engine: A/A suites (nothing changed) and power suites
(half of each suite's metrics EFFECT worse; the rest stay A/A, so FDR meets a mix).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from . import pairwise, summary
from .engine import run
from .regimes import EFFECT, REGIMES, Design, simulate
from .settings import Check, Section, Settings

CHANGED_SHARE = 0.5
# Regimes where the verdicts with per-iteration medians are measured too (the README's
# advice for outlying samples, and what it costs without them).
MEDIAN_REGIMES = ("gaussian", "bursts")


@dataclass
class Measured:
    design: Design
    counts: dict[str, tuple[int, int]]

    def rate(self, name: str) -> float:
        hit, n = self.counts.get(name, (0, 0))
        return hit / n if n else np.nan


def designs(s: Settings) -> list[Design]:
    if s.designs is not None:
        return s.designs
    samples = (5,) if s.quick else (1, 5, 20, 50)
    suites = 200 if s.quick else 500
    return [Design(g, k, n, suites, 10) for g in REGIMES for k in (1, 2, 3, 5, 10) for n in samples]


def measure(d: Design, seed: int) -> Measured:
    rng = np.random.default_rng([seed, zlib.crc32(d.label.encode())])
    aa_sim = simulate(d, 0.0, rng)
    aa = run(aa_sim)
    ch_sim = simulate(d, CHANGED_SHARE, rng)
    ch = run(ch_sim)
    counts = pairwise.measure(aa, ch, ch_sim.changed.ravel())
    if d.regime.name in MEDIAN_REGIMES:  # --iteration-value median on the same data
        for name, c in pairwise.verdict_rates(
            run(aa_sim, "median"), run(ch_sim, "median"), ch_sim.changed.ravel()
        ).items():
            counts[f"median {name}"] = c
    for name, c in summary.measure(aa, aa_sim, rng).items():
        counts[f"A/A {name}"] = c
    for name, c in summary.measure(ch, ch_sim, rng).items():
        counts[f"changed {name}"] = c
    return Measured(d, counts)


def pct(x: float) -> str:
    return "    -" if np.isnan(x) else f"{100 * x:5.1f}"


PAIRWISE = [
    ("verdict false alarms", "FA"),
    ("threshold false alarms", "FA thr"),
    ("fdr false alarms", "FA fdr"),
    ("verdict power", "power"),
    ("threshold power", "pow thr"),
    ("fdr power", "pow fdr"),
    ("median false alarms", "FA med"),
    ("median power", "pow med"),
    ("robust disagrees", "!robust"),
    ("detectable note", "MDE"),
]
SUMMARY = [
    ("A/A summary covers", "cov A/A"),
    ("changed summary covers", "cov chg"),
    ("A/A summary none", "no CI"),
    ("changed summary excludes 1", "power"),
    ("A/A welch t covers", "welch t"),
    ("A/A expanded covers", "expand"),
    ("A/A boot-t covers", "boot-t"),
    ("changed welch t covers", "welch chg"),
]


def table(title: str, columns: list[tuple[str, str]], results: list[Measured]) -> list[str]:
    head = f"{'regime':<8} {'its':>3} x {'n':<2} " + " ".join(f"{h:>8}" for _, h in columns)
    lines = [title, head]
    for m in results:
        lines.append(m.design.label + " " + " ".join(f"{pct(m.rate(k)):>8}" for k, _ in columns))
    return lines


def span(results: list[Measured], name: str, keep) -> tuple[float, float, int]:
    xs = [m.rate(name) for m in results if keep(m.design)]
    xs = [x for x in xs if not np.isnan(x)]
    return (min(xs), max(xs), len(xs)) if xs else (np.nan, np.nan, 0)


def ranges(results: list[Measured]) -> list[str]:
    """Each quantity's range over every regime (iterations grouped), as the README quotes."""
    same = lambda d: not d.regime.builds_differ  # noqa: E731
    groups = [
        ("1 iteration", lambda d: d.iterations == 1),
        ("2 iterations", lambda d: d.iterations == 2),
        (">= 3 iterations", lambda d: d.iterations >= 3),
    ]
    lines = ["Ranges over every design (min-max, in %; [designs]):"]
    quantities = [k for k, _ in PAIRWISE] + [k for k, _ in SUMMARY]
    for name in quantities:
        parts = []
        for label, keep in groups:
            if ("false alarms" in name or "robust" in name or "detectable" in name) and (
                "median" not in name
            ):
                lo, hi, n = span(results, name, lambda d, k=keep: k(d) and same(d))
                jlo, jhi, jn = span(results, name, lambda d, k=keep: k(d) and not same(d))
                text = f"{pct(lo).strip()}-{pct(hi).strip()} [{n}]"
                if jn:
                    text += f" (jitter: {pct(jlo).strip()}-{pct(jhi).strip()})"
            else:
                lo, hi, n = span(results, name, keep)
                text = f"{pct(lo).strip()}-{pct(hi).strip()} [{n}]"
            parts.append(f"{label}: {text}")
        lines.append(f"  {name:<28} " + "; ".join(parts))
    lines.append("Ranges the README quotes beside:")
    for label, name, keep in (
        ("median power, bursts, 2-10 its", "median power", _in("bursts", 2, 10)),
        ("default power, bursts, 2-10 its", "verdict power", _in("bursts", 2, 10)),
        ("median false alarms, >= 3 its", "median false alarms", lambda d: d.iterations >= 3),
        ("median power, gaussian, 2-3 its", "median power", _in("gaussian", 2, 3)),
        ("default power, gaussian, 2-3 its", "verdict power", _in("gaussian", 2, 3)),
        ("fdr power, 3-5 its", "fdr power", lambda d: 3 <= d.iterations <= 5),
        ("verdict power, 3-5 its", "verdict power", lambda d: 3 <= d.iterations <= 5),
    ):
        lo, hi, n = span(results, name, keep)
        lines.append(f"  {label:<34} {pct(lo).strip()}-{pct(hi).strip()} [{n}]")
    return lines


def _in(regime: str, low: int, high: int):
    return lambda d: d.regime.name == regime and low <= d.iterations <= high


def checks(results: list[Measured]) -> list[Check]:
    """The bounds, on the counts they rest on: with 3 or more iterations, false alarms of
    the verdict at most 5.5 % (where the two builds do not differ) and the summary's
    coverage 93 to 97 %; with fewer, no summary interval."""
    out = []
    for m in results:
        d, c = m.design, m.counts
        if d.iterations >= 3:
            if not d.regime.builds_differ:
                fa = c["verdict false alarms"]
                out.append(Check(f"{d.label} verdict false alarms", *fa, None, 0.055))
            for name in ("A/A summary covers", "changed summary covers"):
                out.append(Check(f"{d.label} {name}", *c[name], 0.93, 0.97))
        else:
            none = c["A/A summary none"]
            out.append(Check(f"{d.label} no summary interval", *none, 1.0, None, exact=True))
    return out


def section(s: Settings) -> Section:
    results = [measure(d, s.seed) for d in designs(s)]
    lines = [
        f"Pairwise comparisons: {results[0].design.suites} suites x "
        f"{results[0].design.metrics} metrics per design; power at {100 * EFFECT:.0f} % worse; "
        "rates in %.",
        *table("Verdicts (alpha 0.05; --threshold 2; --fdr per suite)", PAIRWISE, results),
        "",
        *table("Per-system summary: coverage of the true geometric mean", SUMMARY, results),
        "",
        *ranges(results),
    ]
    return Section("comparisons", lines, checks(results), results)
