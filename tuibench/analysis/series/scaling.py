"""Scaling curves: benchmarks whose names differ only in one numeric parameter.

A parameter is a number in a benchmark's name that is either named (`clients:8`,
`threads:4`, hyperfine's `{ms=10}`, Google Benchmark's `size:64`) or a whole path component
(`BM_memcpy/64`, `BM_copy/8/64/real_time`). Names that are equal once that one number is
replaced by `*` (every other number kept) form a family: `pgbench/ro/clients:*`,
`BM_memcpy/*`. A family with at least two distinct values is a scaling curve; its metrics
are plotted against the parameter, on a log axis when every value is at least about double
the one before (1, 2, 4, 8 ... or 1, 10, 100).
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl

_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_NAMED = re.compile(rf"(?<![\w.])([A-Za-z_][\w.-]*?)\s*[:=]\s*({_NUM})(?![\w.])")
_COMPONENT = re.compile(rf"(?:(?<=/)|^)({_NUM})(?=/|$)")
# Google Benchmark run settings: the same for every variant, never a parameter.
_SETTINGS = {"iterations", "repeats", "min_time", "min_warmup_time"}

FAMILY_COLUMNS = ["family", "parameter", "value", "benchmark"]


def parameters(name: str) -> list[tuple[str, str, float]]:
    """Every numeric parameter of a benchmark name: (family, parameter, value)."""
    out = []
    spans = []
    for m in _NAMED.finditer(name):
        if m.group(1) in _SETTINGS:
            continue
        spans.append((m.start(2), m.end(2), m.group(1)))
    for position, m in enumerate(_COMPONENT.finditer(name), start=1):
        if not any(a <= m.start(1) < b for a, b, _ in spans):
            spans.append((m.start(1), m.end(1), f"argument {position}"))
    for start, end, key in spans:
        value = float(name[start:end])
        if math.isfinite(value):
            out.append((name[:start] + "*" + name[end:], key, value))
    return out


def families(benchmarks: list[str]) -> pl.DataFrame:
    """FAMILY_COLUMNS for the families with two or more distinct values, by family then value."""
    rows = [(f, k, v, b) for b in benchmarks for f, k, v in parameters(b)]
    frame = pl.DataFrame(rows, schema=dict.fromkeys(FAMILY_COLUMNS), orient="row")
    frame = frame.cast({"family": pl.String, "parameter": pl.String, "value": pl.Float64})
    frame = frame.cast({"benchmark": pl.String})
    sizes = frame.group_by("family", "parameter").agg(pl.col("value").n_unique().alias("_n"))
    keep = sizes.filter(pl.col("_n") >= 2).drop("_n")
    return frame.join(keep, on=["family", "parameter"], how="semi").sort("family", "value")


def log_axis(values: list[float] | np.ndarray) -> bool:
    """True when every value is positive and at least double the one before it (about)."""
    v = np.unique(np.asarray(values, dtype=np.float64))
    if len(v) < 2 or not (v > 0).all():
        return False
    return bool((v[1:] / v[:-1] >= 1.9).all())


def _gain(rows: pl.DataFrame) -> pl.DataFrame:
    """gain and its interval (positive = better; null for an unknown direction)."""
    sign = (
        pl.when(pl.col("better") == "higher")
        .then(1.0)
        .when(pl.col("better") == "lower")
        .then(-1.0)
        .otherwise(None)
    )
    lo, hi = pl.col("ratio_ci_low") - 1, pl.col("ratio_ci_high") - 1
    return rows.with_columns(
        (sign * pl.col("change") + 0.0).alias("gain"),
        pl.when(sign > 0).then(lo).when(sign < 0).then(-hi).alias("gain_ci_low"),
        pl.when(sign > 0).then(hi).when(sign < 0).then(-lo).alias("gain_ci_high"),
    )


CURVE_COLUMNS = [
    "family",
    "parameter",
    "value",
    "benchmark",
    "metric",
    "unit",
    "better",
    "system",
    "is_reference",
    "center",
    "ci_low",
    "ci_high",
    "change",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "gain",
    "gain_ci_low",
    "gain_ci_high",
    "p_welch",
    "p_adjusted",
    "verdict",
]


def curves(cmp, fams: pl.DataFrame | None = None) -> pl.DataFrame:
    """CURVE_COLUMNS: every family's rows of the comparison, by family, metric, system, value.

    The gain per parameter value is against the comparison's reference at that value.
    """
    if fams is None:
        fams = families(cmp.rows["benchmark"].unique(maintain_order=True).to_list())
    rows = cmp.rows.join(fams, on="benchmark", how="inner")
    rows = rows if "gain_ci_low" in rows.columns else _gain(rows)
    order = {s: i for i, s in enumerate(cmp.systems)}
    return (
        rows.with_columns(
            pl.col("system").replace_strict(order, default=None, return_dtype=pl.Int64).alias("_o")
        )
        .sort("family", "parameter", "metric", "_o", "value", maintain_order=True)
        .select(CURVE_COLUMNS)
    )
