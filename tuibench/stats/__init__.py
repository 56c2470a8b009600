"""Vectorised statistics over many groups at once (numpy/scipy only: no polars, no I/O).

Groups are contiguous runs in flat arrays, described by `starts` and `counts`, or group ids
per value. Every function works on all groups in one go; the only Python loops are over
distinct group sizes (a handful), never over groups.

The method (DESIGN.md, "Statistics"):
1. per iteration, the median of B subselection means (80 % of the samples, without
   replacement), of the mean kind (arithmetic, or harmonic for rates): `subselection`;
2. per system, the mean of those values with a Student t interval across iterations
   (on reciprocals for harmonic means): `moments`;
3. against the reference, Welch's t-test with Welch-Satterthwaite degrees of freedom: `welch`;
   the ratio's interval by Fieller (`fieller`), the U test (`utest`), the false discovery
   rate (`fdr`), iterations needed (`power`), noise (`tukey`, `variance`).
"""

from tuibench.stats.fdr import bh_adjust
from tuibench.stats.fieller import fieller
from tuibench.stats.mmtests import Z975, cidiff, pooled_spread
from tuibench.stats.moments import (
    group_moments,
    group_sums,
    pooled_moments,
    relative_sd,
    segment_min,
    segment_moments,
    segment_sums,
    t_interval,
    t_quantile,
)
from tuibench.stats.power import (
    POWER,
    POWER_TABLE_MAX,
    detectable_noncentrality,
    iterations_needed,
)
from tuibench.stats.samples.blocks import (
    CHUNK,
    MERGE_RUNS_FROM,
    SORT_CHUNK,
    one_blas_thread,
    sort_within,
)
from tuibench.stats.samples.digits import (
    iteration_rounding,
    printed_quantum,
    significant_digits,
)
from tuibench.stats.samples.per_iteration import (
    ITERATION_VALUES,
    iteration_means,
    iteration_medians,
)
from tuibench.stats.samples.shift import MAX_PAIRS, group_medians, hodges_lehmann
from tuibench.stats.samples.subselection import (
    MAX_SUBSELECTIONS,
    SUBSET_FRACTION,
    group_shift,
    iteration_values,
    selection_matrix,
    subset_size,
)
from tuibench.stats.samples.tukey import EXTREME, MILD, tukey, tukey_and_medians
from tuibench.stats.utest import (
    EXACT_MAX,
    RankedBlocks,
    mwu_min_p,
    mwu_pairs,
    mwu_pvalue,
    mwu_samples_for,
)
from tuibench.stats.variance import variance_components
from tuibench.stats.variance_prior import fit_prior, moderate
from tuibench.stats.welch import welch

__all__ = [
    "CHUNK",
    "EXACT_MAX",
    "EXTREME",
    "ITERATION_VALUES",
    "MAX_PAIRS",
    "MAX_SUBSELECTIONS",
    "MERGE_RUNS_FROM",
    "MILD",
    "POWER",
    "POWER_TABLE_MAX",
    "SORT_CHUNK",
    "SUBSET_FRACTION",
    "Z975",
    "RankedBlocks",
    "bh_adjust",
    "cidiff",
    "detectable_noncentrality",
    "fieller",
    "fit_prior",
    "group_medians",
    "group_moments",
    "group_shift",
    "group_sums",
    "hodges_lehmann",
    "iteration_means",
    "iteration_medians",
    "iteration_rounding",
    "iteration_values",
    "iterations_needed",
    "moderate",
    "mwu_min_p",
    "mwu_pairs",
    "mwu_pvalue",
    "mwu_samples_for",
    "one_blas_thread",
    "pooled_moments",
    "pooled_spread",
    "printed_quantum",
    "relative_sd",
    "segment_min",
    "segment_moments",
    "segment_sums",
    "selection_matrix",
    "significant_digits",
    "sort_within",
    "subset_size",
    "t_interval",
    "t_quantile",
    "tukey",
    "tukey_and_medians",
    "variance_components",
    "welch",
]
