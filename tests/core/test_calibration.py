"""A seeded subset of the calibration harness (benchmarks/calibrate.py): fails when a bound
of the verdicts or of the per-system summary interval is broken.

Counts and margins: each design runs 150 suites of 10 metrics (1,500 A/A rows; 150 A/A and
150 changed suites for the summary). Per design a bound counts as broken only when the
rate's 99 % Wilson interval lies wholly outside it (`Check.ok`), as the harness prints it;
pooled over the designs with 3 or more iterations (6,000 rows, 1,200 suites), the point
estimates themselves must meet the bounds: a binomial standard error of 0.27 points for
false alarms near 4.5 % and 0.63 points for a coverage of 95 % puts the bounds (5.5 %;
93 to 97 %) more than 3 standard errors from what a correct method gives, so a new seed
or platform would fail by chance well under 1 time in 100 (the `shared` regime's rows move
together within a suite, which widens its share; its suites are still independent).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from calibration import comparisons
from calibration.regimes import REGIMES, Design
from calibration.settings import Settings

BY_NAME = {g.name: g for g in REGIMES}
SUBSET = [
    Design(BY_NAME["gaussian"], 3, 5, 150, 10),
    Design(BY_NAME["shared"], 5, 1, 150, 10),
    Design(BY_NAME["bursts"], 5, 5, 150, 10),
    Design(BY_NAME["bimodal"], 3, 1, 150, 10),
    Design(BY_NAME["jitter"], 3, 1, 150, 10),
    Design(BY_NAME["gaussian"], 2, 1, 50, 10),
]


@pytest.fixture(scope="module")
def section():
    return comparisons.section(Settings(seed=0, designs=SUBSET))


def _pooled(section, name: str, keep) -> float:
    hits = n = 0
    for m in section.results:
        if keep(m.design):
            h, k = m.counts[name]
            hits, n = hits + h, n + k
    return hits / n


def test_every_bound_of_the_subset_holds(section):
    broken = [(c.name, c.value, c.wilson()) for c in section.checks if not c.ok]
    assert not broken
    assert any("summary covers" in c.name for c in section.checks)


def test_pooled_rates_meet_the_bounds(section):
    def three(d):
        return d.iterations >= 3 and not d.regime.builds_differ

    assert _pooled(section, "verdict false alarms", three) <= 0.055
    for name in ("A/A summary covers", "changed summary covers"):
        assert 0.93 <= _pooled(section, name, lambda d: d.iterations >= 3) <= 0.97
    # Power is there to be seen: a 5 % change with 3 to 5 iterations of Gaussian noise.
    assert _pooled(section, "verdict power", lambda d: d.regime.name == "gaussian") > 0.5


def test_two_iterations_give_no_summary_interval(section):
    two = [m for m in section.results if m.design.iterations == 2]
    assert two and all(m.rate("A/A summary none") == 1.0 for m in two)


def test_same_seed_same_numbers():
    d = [Design(BY_NAME["rounded"], 3, 2, 20, 4)]
    a = comparisons.section(Settings(seed=3, designs=d))
    b = comparisons.section(Settings(seed=3, designs=d))
    assert a.lines == b.lines and a.results[0].counts == b.results[0].counts
    c = comparisons.section(Settings(seed=4, designs=d))
    assert c.results[0].counts != a.results[0].counts
