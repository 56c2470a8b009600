"""What chance alone would flag among many tests, said one way in every output.

Over the tests whose verdict counts (`Comparison.tests`): a change seen on one iteration's
samples, a test of one process, is left apart as the answer's counts leave it. At alpha,
about alpha x n of n tests with no real change have p < alpha; under a practical margin a
verdict also needs its interval beyond the margin, so the flags are then called by their p.
"""

from __future__ import annotations

from typing import cast

import polars as pl

from tuibench.analysis.compare import Comparison

FROM = 20  # tests from which chance is said


def about(expected: float) -> str:
    """How many flags chance gives, as every output writes it: 1.5, not 2 here and 1.5 there."""
    return f"{expected:.1f}" if expected < 10 else f"{expected:.0f}"


def header(cmp: Comparison) -> str:
    """The explorer's header: `24 flagged, ≈2.7 by chance (d: FDR)`, or what --fdr left."""
    n, flagged, _apart = cmp.tests()
    if n < FROM:
        return ""
    alpha = cmp.options.alpha
    if not cmp.options.fdr:
        what = "flagged" if cmp.options.threshold is None else f"at p<{alpha:g}"
        return f"{flagged} {what}, ≈{about(alpha * n)} by chance (d: FDR)"
    if flagged:
        return ""
    smallest = _smallest(cmp)
    return f"FDR: none (smallest adjusted p {smallest})" if smallest else "FDR: none"


def notes(cmp: Comparison) -> list[str]:
    """How many flags chance alone would give, and why --fdr left nothing (if it did)."""
    n, flagged, apart = cmp.tests()
    if n < FROM:
        return []
    alpha = cmp.options.alpha
    if not cmp.options.fdr:
        beside = f", beside {apart} from one iteration, not counted" if apart else ""
        if cmp.options.threshold is None:
            what, are = "be flagged", f"{flagged} are{beside}"
        else:  # the verdicts also need the interval beyond the margin
            what, are = f"have p < {alpha:g}", f"{flagged} do{beside}"
        return [
            f"{n} comparisons at alpha {alpha:g}: about {about(alpha * n)} would {what} "
            f"by chance alone even with no real change ({are}). --fdr controls the false "
            "discovery rate over all of them."
        ]
    if flagged:  # among the tests that count (a one-iteration flag does not)
        return []
    tested = ~pl.col("is_reference") & cmp.counted()
    its = cmp.rows.select(pl.col("iterations").filter(tested))["iterations"]
    smallest = _smallest(cmp) or "-"
    fewest, most = cast(int, its.min()), cast(int, its.max())
    span = f"{most}" if fewest == most else f"{fewest} to {most}"
    return [
        f"--fdr flags nothing: the smallest adjusted p over these {n} comparisons is "
        f"{smallest}, not below {alpha:g}. With {span} iterations per system a real change "
        "rarely reaches the p that so many comparisons require; 10 or more iterations per "
        "system suit suites of hundreds of metrics."
    ]


def _smallest(cmp: Comparison) -> str | None:
    """The smallest adjusted p of the tests that count, as written; None without one."""
    p = cmp.rows.filter(cmp.counted())["p_adjusted"].drop_nulls()
    return f"{cast(float, p.min()):.2g}" if p.len() else None
