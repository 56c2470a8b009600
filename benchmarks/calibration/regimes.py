"""Simulated suites in the regimes real benchmark results show.

A design is a regime, a number of iterations per system and of samples per iteration. Its
data are many independent suites, measured by a reference and by one system each: every
suite has `metrics` benchmarks (half times: lower is better, an arithmetic mean; half rates:
higher is better, a harmonic mean), and each iteration is one run of the whole suite.

On the log scale, a sample of metric j in iteration k is

    log base_j + level + effect_j + run_k,j + noise

- run_k,j: iteration-to-iteration noise, SIGMA_RUN (1 %); in `shared`, most of it is a
  condition of the run common to every metric of that iteration (a slow boot);
  in `bimodal`, an iteration lands in a slow mode (3 SIGMA_RUN) half of the time;
- noise: sample noise, SIGMA_SAMPLE (2 %); in `bursts` 5 % of samples are 3x too slow;
- level: in `jitter`, each system (build) has a level of its own per metric (sd
  SIGMA_RUN / 2, as code layout gives builds of the same source);
- `rounded`: values printed with 3 significant digits, as Go prints ns/op.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SIGMA_RUN = 0.01
SIGMA_SAMPLE = 0.02
EFFECT = 0.05  # the known change of the power runs: 5 % worse
SHARED = 0.8  # share of the run-to-run variance common to a run's metrics (`shared`)


@dataclass(frozen=True)
class Regime:
    name: str
    bursts: float = 0.0  # share of samples 3x too slow
    bimodal: float = 0.0  # slow mode of an iteration, in units of SIGMA_RUN
    jitter: float = 0.0  # sd of each build's own level, in units of SIGMA_RUN
    shared: float = 0.0  # share of the run-to-run variance common to all metrics of a run
    digits: int | None = None  # values rounded to this many significant digits
    # Whether the two systems differ although the code is the same (builds' own levels):
    # a test that finds that difference is right about these two builds.
    builds_differ: bool = False


REGIMES = [
    Regime("gaussian"),
    Regime("bursts", bursts=0.05),
    Regime("bimodal", bimodal=3.0),
    Regime("jitter", jitter=0.5, builds_differ=True),
    Regime("shared", shared=SHARED),
    Regime("rounded", digits=3),
]


@dataclass(frozen=True)
class Design:
    regime: Regime
    iterations: int
    samples: int
    suites: int  # independent suites (a system each, against the one reference)
    metrics: int  # per suite

    @property
    def label(self) -> str:
        return f"{self.regime.name:<8} {self.iterations:>2} x {self.samples:<2}"


@dataclass
class Simulated:
    """Values of the reference and of the systems, (suites, metrics, iterations, samples),
    and the truth: every system's oriented log ratio per metric (positive = better)."""

    ref: np.ndarray
    sys: np.ndarray
    truth: np.ndarray  # (suites, metrics)
    changed: np.ndarray  # (suites, metrics): the metric carries the known change
    higher: np.ndarray  # (metrics,): a rate, higher is better


def rounded(x: np.ndarray, digits: int) -> np.ndarray:
    """x printed with `digits` significant digits."""
    scale = 10.0 ** (np.floor(np.log10(np.abs(x))) - (digits - 1))
    return np.round(x / scale) * scale


def _side(
    d: Design, slow: np.ndarray, base: np.ndarray, sign: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One side's values and its level on the slowness scale (suites, metrics): `slow`, and
    the build's own level under jitter."""
    r, m, k, n = d.suites, d.metrics, d.iterations, d.samples
    g = d.regime
    run = rng.standard_normal((r, m, k))
    if g.shared:
        common = rng.standard_normal((r, 1, k))
        run = np.sqrt(1 - g.shared) * run + np.sqrt(g.shared) * common
    run = SIGMA_RUN * run
    if g.bimodal:
        run = run + g.bimodal * SIGMA_RUN * (rng.random((r, m, k)) < 0.5)
    level = slow
    if g.jitter:
        level = level + g.jitter * SIGMA_RUN * rng.standard_normal((r, m))
    noise = SIGMA_SAMPLE * rng.standard_normal((r, m, k, n))
    if g.bursts:
        noise = noise + np.log(3.0) * (rng.random((r, m, k, n)) < g.bursts)
    # Slowness raises a time and lowers a rate.
    log = np.log(base)[None, :, None, None] + sign[None, :, None, None] * (
        (level[..., None] + run)[..., None] + noise
    )
    x = np.exp(log)
    return (rounded(x, g.digits) if g.digits else x), level


def simulate(d: Design, changed_share: float, rng: np.random.Generator) -> Simulated:
    """A/A suites (changed_share 0) or suites where that share of metrics got EFFECT worse."""
    m = d.metrics
    higher = np.arange(m) % 2 == 1
    sign = np.where(higher, -1.0, 1.0)
    base = np.where(higher, 10 ** rng.uniform(1, 4, m), 10 ** rng.uniform(2, 5, m))
    changed = np.zeros((d.suites, m), bool)
    changed[:, : round(changed_share * m)] = True
    slow = np.where(changed, np.log1p(EFFECT), 0.0)
    ref, ref_level = _side(d, np.zeros((d.suites, m)), base, sign, rng)
    sys, sys_level = _side(d, slow, base, sign, rng)
    return Simulated(ref, sys, ref_level - sys_level, changed, higher)
