"""The numbers of the rows against a reference, part by part (see the package's text)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl

from tuibench.analysis.compare.against import (
    changes,
    gather_reference,
    interval_overlap,
    median_values_job,
    mmtests_cidiff,
    outliers_of_reference,
    power,
    ratio_interval,
    row_notes,
    single_iteration,
    utest,
    welch_test,
)
from tuibench.analysis.compare.frames import DIRECTION_UNKNOWN

# Every numeric column of the rows made against a reference, with its dtype.
FLOATS = (
    "change",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "p_welch",
    "ci_overlap",
    "p_utest",
    "utest_min_p",
    "mmtests_cidiff",
    "change_raw",
    "detectable_change",
    "iterations_for_threshold",
    "_ref_out",
    "_p_med",
    "_change_med",
    "_rlo_med",
    "_rhi_med",
)
BOOLS = ("is_reference", "single_iteration", "_na")


def part_bounds(m: np.ndarray, size: int) -> Iterator[tuple[int, int]]:
    """[lo, hi) parts of about `size` rows of `m` (metric ids, ascending), cut between
    metrics only."""
    lo, n = 0, len(m)
    if n == 0:
        yield 0, 0  # one empty part: the frame of no rows has its columns all the same
    while lo < n:
        hi = min(lo + max(size, 1), n)
        if hi < n:  # back to the first row of that metric; past it if it began at lo
            hi = int(np.searchsorted(m, m[hi], side="left"))
            if hi <= lo:
                hi = int(np.searchsorted(m, m[lo], side="right"))
        yield lo, hi
        lo = hi


def part_numbers(
    a: dict[str, np.ndarray],
    r: int,
    reference: str,
    alpha: float,
    threshold: float | None,
    utest_p: np.ndarray,
    pooled: np.ndarray,
    groups: pl.DataFrame,
) -> tuple[dict[str, np.ndarray], pl.Series]:
    """The numbers and reference-dependent notes of the rows `a` (whole metrics), with
    `groups` the same rows' benchmark, metric and `_note`."""
    x = gather_reference(a, r, reference)
    med_job = median_values_job(x)  # the same test on per-iteration medians
    w = welch_test(x)
    change, change_raw = changes(x)
    ratio, r_lo, r_hi, unbounded = ratio_interval(x, w)
    pw = power(x, w, alpha, threshold)
    med = med_job.result()
    u = utest(x, utest_p, pooled, w.p)
    out = {
        "is_reference": x.is_ref,
        "change": change,
        "ratio": ratio,
        "ratio_ci_low": r_lo,
        "ratio_ci_high": r_hi,
        "p_welch": w.p,
        "ci_overlap": interval_overlap(x),
        "p_utest": u.p,
        "utest_min_p": u.min_p,
        "single_iteration": single_iteration(x),
        "mmtests_cidiff": mmtests_cidiff(x),
        "change_raw": change_raw,
        "detectable_change": pw.detectable,
        "iterations_for_threshold": pw.for_threshold,
        "_ref_out": outliers_of_reference(x),
        "_na": ~x.is_ref & (~x.has_ref | np.isnan(x.centre) | np.isnan(w.p)),
        "_p_med": med["p"],
        "_change_med": med["change"],
        "_rlo_med": med["ratio_ci_low"],
        "_rhi_med": med["ratio_ci_high"],
    }
    explained = groups["_note"].str.contains(DIRECTION_UNKNOWN, literal=True).fill_null(False)
    said = row_notes(
        x,
        w,
        u,
        unbounded,
        pw,
        alpha,
        groups["benchmark"],
        groups["metric"],
        threshold,
        explained.to_numpy(),
    )
    return out, said
