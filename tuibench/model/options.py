"""The options a person chooses (command line and explorer keys): typed, checked, in one place."""

from __future__ import annotations

import math
from dataclasses import dataclass

# Near the smallest normal double (2.2e-308) 1/alpha overflows and denormals lose precision:
# such an alpha is refused, not silently rounded. 1e-300 keeps a round, safe margin.
MIN_ALPHA = 1e-300


def alpha_problem(value: float) -> str | None:
    """Why `value` cannot be a significance level, or None when it can."""
    if not math.isfinite(value) or not 0 < value < 1:
        return "alpha must be a number between 0 and 1 (exclusive)"
    if value < MIN_ALPHA:
        return f"alpha must be at least {MIN_ALPHA:g}"
    return None


@dataclass(frozen=True)
class AnalysisOptions:
    """Every option that changes a number, built once from the command line; the explorer's
    keys make a new one (`dataclasses.replace`). The analysis, each comparison and the
    explorer's view state hold it, so no option travels as a loose argument.

    The first three decide the per-iteration values (`Analysis` recomputes them when one
    changes); the others only the comparison against a reference.
    """

    iteration_value: str = "subselection"  # what stands for an iteration (ITERATION_VALUES)
    subselections: int = 100  # per iteration, for the robust value
    seed: int = 0  # of the subselections
    alpha: float = 0.05  # significance level
    fdr: bool = False  # significance from Benjamini-Hochberg adjusted p-values
    threshold: float | None = None  # practical margin in percent (2 means +/-2 %)
    trust_single_iteration: bool = False  # count one-iteration rows as better or worse

    def __post_init__(self) -> None:
        if why := alpha_problem(self.alpha):
            raise ValueError(why)
        if self.threshold is not None and not self.threshold > 0:
            raise ValueError(f"threshold must be a positive percentage, not {self.threshold}")

    @property
    def trimmed(self) -> bool:
        """Samples outside the 1.5 IQR Tukey fences are dropped before anything else."""
        return self.iteration_value == "trimmed"

    def analysis_key(self) -> tuple[str, int, int]:
        """What the per-iteration values depend on: an analysis is reused while it holds."""
        return (self.iteration_value, self.subselections, self.seed)

    def comparison_key(self) -> tuple[float, bool, float | None, bool]:
        """What a comparison depends on beyond its analysis and reference."""
        return (self.alpha, self.fdr, self.threshold, self.trust_single_iteration)


@dataclass(frozen=True)
class ViewOptions:
    """How the explorer shows results and where it writes; no number depends on these."""

    reference: str | None = None  # asked for by name; None: the results' default
    percent: str = "gain"  # sizes as the gain (positive = better) or the signed change
    export_dir: str = "."
    theme: str | None = None
    mouse: bool = True
    follow: bool = False  # apply result files as they arrive (--follow)
    decide: bool = False  # `tuibench decide`'s verdicts per metric (--decide; --follow too)


DEFAULT_ANALYSIS = AnalysisOptions()
DEFAULT_VIEW = ViewOptions()
