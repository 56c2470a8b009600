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
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "p_welch",
    "p_adjusted",
    "significant",
    "ci_overlap",
    "p_utest",
    "utest_min_p",
    "verdict",
    "rsd",
    "rsd_flag",
    "outliers_low",
    "outliers_high",
    "outliers_extreme",
    "trimmed",
    "center_raw",
    "change_raw",
    "rsd_raw",
    "var_within",
    "var_between",
    "iterations_needed",
    "note",
]

RSD_NOISY, RSD_VERY_NOISY = 10.0, 25.0  # percent (Goldilocks' yellow and red)

# Per-system summary columns (the `summary` list of `tuibench report --format json`).
SUMMARY_COLUMNS = [
    "system",
    "metrics",
    "left_out",
    "geomean_ratio",
    "geomean_ci_low",
    "geomean_ci_high",
    "better",
    "worse",
    "same",
]
