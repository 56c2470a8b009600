"""The rows against a reference: numbers by parts (numbers.py), joined to the groups once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.analysis.compare.columns import (
    PRIVATE_COLUMNS,
    ROW_COLUMNS,
    RSD_NOISY,
    RSD_VERY_NOISY,
)
from tuibench.analysis.compare.decide import gain_expr
from tuibench.analysis.compare.frames import join_notes, whole_numbers
from tuibench.analysis.compare.parts.numbers import BOOLS, FLOATS, part_bounds, part_numbers

# Rows whose temporaries exist at once (about 1 KB a row: a quarter of a gigabyte).
PART_ROWS = 250_000

# Undefined numbers (NaN) leave as null, so that they never read as numbers.
NAN_IS_NULL = (
    "center",
    "ci_low",
    "ci_high",
    "change",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "p_welch",
    "p_utest",
    "utest_min_p",
    "utest_shift",
    "mmtests_cidiff",
    "rsd",
    "center_raw",
    "change_raw",
    "rsd_raw",
    "var_within",
    "var_between",
    "detectable_change",
)


def rsd_flag() -> pl.Expr:
    return (
        pl.when(pl.col("rsd").is_nan())
        .then(None)
        .when(pl.col("rsd") > RSD_VERY_NOISY)
        .then(pl.lit("very-noisy"))
        .when(pl.col("rsd") > RSD_NOISY)
        .then(pl.lit("noisy"))
        .otherwise(pl.lit("ok"))
        .alias("rsd_flag")
    )


@dataclass
class RowSource:
    """What the rows against a reference are made of (the analysis's, or a part of them
    for a spliced comparison)."""

    a: dict[str, np.ndarray]  # the groups' columns compare() reads, as numpy
    groups: pl.DataFrame  # the groups' frame, the same rows
    utest_p: np.ndarray  # the U tests' p-values against the reference, metrics x systems
    pooled: np.ndarray  # samples per metric and system
    trimmed: bool
    iteration_value: str


def rows_against(
    src: RowSource,
    r: int,
    reference: str,
    alpha: float,
    threshold: float | None,
    shift: Callable[[], np.ndarray],
    part_rows: int | None = None,
) -> pl.DataFrame:
    """The rows against system `r` (`reference`) before `decide`, in the groups' order
    (metric by metric, the systems in their order), whatever the reference: every
    comparison then holds the groups' own columns, not a copy put in another order (0.65 GB
    per reference at a million metrics of two systems). `Comparison.reference_first` gives
    the tables' order. `shift()`: every row's U-test shift (waited for once the numbers are
    made). `part_rows`: PART_ROWS by default."""
    n = len(src.a["_m"])
    numbers: dict[str, np.ndarray] = {k: np.empty(n) for k in FLOATS}
    numbers |= {k: np.empty(n, dtype=bool) for k in BOOLS}
    said = []
    keys = src.groups.select("benchmark", "metric", "_note")
    for lo, hi in part_bounds(src.a["_m"], part_rows or PART_ROWS):
        part = {k: v[lo:hi] for k, v in src.a.items()}
        got, notes = part_numbers(
            part, r, reference, alpha, threshold, src.utest_p, src.pooled, keys[lo:hi]
        )
        for k, v in got.items():
            numbers[k][lo:hi] = v
        said.append(notes)
    del keys
    return _frame(src.groups, numbers, pl.concat(said), shift(), src)


def _frame(
    groups: pl.DataFrame,
    numbers: dict[str, np.ndarray],
    note: pl.Series,
    shift: np.ndarray,
    src: RowSource,
) -> pl.DataFrame:
    """The groups with the numbers beside, each array taken as its column (NaN as null
    where NAN_IS_NULL says) and let go of at once."""
    mmtests_sig = np.abs(numbers["mmtests_cidiff"]) > 1

    def col(name: str) -> pl.Series:
        s = pl.Series(name, numbers.pop(name))
        return s.fill_nan(None) if name in NAN_IS_NULL else s

    threshold_n = whole_numbers("iterations_for_threshold", numbers.pop("iterations_for_threshold"))
    rows = groups.with_columns(
        col("ci_overlap").fill_nan(None).cast(pl.Boolean),
        pl.Series("utest_shift", shift).fill_nan(None),
        pl.Series("mmtests_sig", mmtests_sig),
        rsd_flag(),
        pl.lit(src.trimmed).alias("trimmed"),
        pl.lit(src.iteration_value).alias("iteration_value"),
        threshold_n,
        join_notes(groups["_note"], note).alias("_note_base"),
        *(col(name) for name in list(numbers)),
    ).with_columns(pl.col(c).fill_nan(None) for c in NAN_IS_NULL if c in groups.columns)
    rows = rows.with_columns(gain_expr())
    # mmtests' judgement exists only against a reference with a value.
    rows = rows.with_columns(
        pl.when(pl.col("mmtests_cidiff").is_null() & ~pl.col("is_reference"))
        .then(None)
        .otherwise(pl.col("mmtests_sig"))
        .alias("mmtests_sig")
    )
    return rows.with_columns(
        pl.lit(None, pl.Float64).alias("p_adjusted"),
        pl.lit(False).alias("significant"),
        pl.lit("", pl.String).alias("verdict"),
        pl.lit(None, pl.Boolean).alias("robust"),
        pl.lit(None, pl.String).alias("note"),
    ).select(*ROW_COLUMNS, *PRIVATE_COLUMNS)
