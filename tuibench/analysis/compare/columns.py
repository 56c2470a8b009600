"""The columns of a comparison: row keys and per-system summary keys, in order."""

from __future__ import annotations

GROUP = ["system", "benchmark", "metric"]
METRIC = ["benchmark", "metric"]

# Columns of a comparison row, in order (the JSON row keys of `tuibench report`).
ROW_COLUMNS = [
    "benchmark",
    "metric",
    "unit",
    "better",
    "mean_kind",
    "system",
    "is_reference",
    "iterations",
    "samples",
    "iteration_values",
    "center",
    "ci_low",
    "ci_high",
    "change",
    "gain",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "p_welch",
    "p_adjusted",
    "significant",
    "ci_overlap",
    "mmtests_sig",
    "mmtests_cidiff",
    "p_utest",
    "utest_min_p",
    "utest_shift",
    "verdict",
    "robust",
    "single_iteration",
    "rsd",
    "rsd_flag",
    "outliers_low",
    "outliers_high",
    "outliers_extreme",
    "iteration_value",
    "trimmed",
    "center_raw",
    "change_raw",
    "rsd_raw",
    "var_within",
    "var_between",
    "detectable_change",
    "iterations_for_threshold",
    "note",
]

# Carried by the rows for decide() and the tables, never exported: the verdict's inputs
# with per-iteration medians, the reference's outlying samples (for the note when the two
# disagree), the reference-independent note, the frame row, and mmtests' statistics of
# the pooled samples (for `--stats`).
PRIVATE_COLUMNS = [
    "_row",
    "_na",
    "_p_med",
    "_change_med",
    "_rlo_med",
    "_rhi_med",
    "_ref_out",
    "_note_base",
    "_mm_min",
    "_mm_max",
    "_mm_mean",
    "_mm_sd",
    "_mm_coeffvar",
    "_mm_bmean95",
]

RSD_NOISY, RSD_VERY_NOISY = 10.0, 25.0  # percent (Goldilocks' yellow and red)

# Per-system summary columns (the `summary` list of `tuibench report --format json`).
SUMMARY_COLUMNS = [
    "system",
    "metrics",
    "left_out",
    "left_out_reasons",
    "geomean_ratio",
    "geomean_ci_low",
    "geomean_ci_high",
    "geomean_ci_note",  # why there is no interval (null when there is one)
    "better",
    "worse",
    "same",  # same, or equivalent under a threshold
    "undecided",  # inconclusive under a threshold (0 without one)
]

# Why a metric is left out of a system's summary (the fields of `left_out_reasons`).
LEFT_OUT_REASONS = [
    "only one side has it",
    "no ratio",
    "direction unknown",
    "one iteration on a side",
    "duplicate",
    "constant",
]
