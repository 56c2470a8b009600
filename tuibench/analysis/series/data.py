"""The iteration values of every metric laid out along the series of systems.

A series is the systems in their display order (natural sort, `system.toml` `order`, or the
mmtests `-n` order). For change points only the moments of each (metric, system) cell are
needed: how many iteration values, their sum and their sum of squares, on the scale where
means are arithmetic (the value, or its reciprocal for harmonic means). The values are
centred on the metric's mean first, so sums of squares keep their precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench import stats

METRIC = ["benchmark", "metric"]
KEY_COLUMNS = ["benchmark", "metric", "unit", "better", "mean_kind"]


@dataclass
class SeriesData:
    """Per metric (rows) and system (columns, in series order): moments of iteration values."""

    keys: pl.DataFrame  # one row per metric: KEY_COLUMNS
    systems: list[str]
    count: np.ndarray  # (metrics, systems): iteration values
    total: np.ndarray  # (metrics, systems): sum of (y - shift)
    squares: np.ndarray  # (metrics, systems): sum of (y - shift)^2
    shift: np.ndarray  # (metrics,): the metric's mean of y
    hmean: np.ndarray  # (metrics,): y = 1 / value

    @property
    def n_metrics(self) -> int:
        return self.count.shape[0]

    def centre_of(self, n: np.ndarray, s1: np.ndarray, m: np.ndarray) -> np.ndarray:
        """The centre (of the mean kind) of `n` values summing to `s1`, for metric rows `m`."""
        with np.errstate(invalid="ignore", divide="ignore"):
            y = self.shift[m] + s1 / n
            return np.where(self.hmean[m], np.where(y > 0, 1.0 / y, np.nan), y)


def from_values(
    y: np.ndarray,
    metric: np.ndarray,
    system: np.ndarray,
    keys: pl.DataFrame,
    systems: list[str],
) -> SeriesData:
    """SeriesData from flat iteration values `y` (already on the arithmetic scale).

    metric, system: row index into `keys` and column index into `systems` of every value.
    Non-finite values are left out.
    """
    y = np.asarray(y, dtype=np.float64)
    ok = np.isfinite(y)
    y, metric, system = y[ok], np.asarray(metric)[ok], np.asarray(system)[ok]
    nm, ns = keys.height, len(systems)
    _, shift, _ = stats.group_moments(y, metric, nm)
    shift = np.nan_to_num(shift)
    d = y - shift[metric]
    cell = metric * ns + system
    size = nm * ns
    count = np.bincount(cell, minlength=size).reshape(nm, ns).astype(np.float64)
    total = np.bincount(cell, weights=d, minlength=size).reshape(nm, ns)
    squares = np.bincount(cell, weights=d * d, minlength=size).reshape(nm, ns)
    hmean = (keys["mean_kind"] == "hmean").to_numpy() if nm else np.zeros(0, bool)
    return SeriesData(keys, list(systems), count, total, squares, shift, hmean)


def series_data(analysis) -> SeriesData:
    """The iteration values of an `Analysis` (its per-system rows), along its system order."""
    systems = list(analysis.rs.system_names)
    g = analysis.groups.select(*KEY_COLUMNS, "system", "iteration_values")
    m_id = g.select(pl.struct(METRIC).rle_id()).to_series().to_numpy().astype(np.int64)
    starts = np.flatnonzero(np.r_[True, m_id[1:] != m_id[:-1]]) if g.height else m_id
    keys = g.select(KEY_COLUMNS)[starts] if g.height else g.select(KEY_COLUMNS)
    s_id = (
        g["system"]
        .replace_strict({n: i for i, n in enumerate(systems)}, default=-1, return_dtype=pl.Int64)
        .to_numpy()
    )
    flat = (
        g.select(pl.col("iteration_values").alias("v"))
        .with_row_index("row")
        .explode("v")
        .drop_nulls()
    )
    values = flat["v"].to_numpy().astype(np.float64)
    row = flat["row"].to_numpy().astype(np.int64)
    known = s_id[row] >= 0
    hmean = (g["mean_kind"] == "hmean").to_numpy()[row]
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(hmean, np.where(values > 0, 1.0 / values, np.nan), values)
    return from_values(y[known], m_id[row][known], s_id[row][known], keys, systems)
