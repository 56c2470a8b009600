"""Small polars/numpy helpers shared by the comparison steps."""

from __future__ import annotations

import numpy as np
import polars as pl


def rle_groups(df: pl.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Group id of every row and the start row of each group, for a frame sorted by keys."""
    ids = df.select(pl.struct(keys).rle_id()).to_series().to_numpy().astype(np.int64)
    if len(ids) == 0:
        return ids, ids
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    return ids, starts


def fixed_width_text(s: pl.Series) -> np.ndarray:
    """A String column as numpy fixed-width text, null as "": each distinct value converted
    once, then gathered by its index (converting every value took 40-50 ms a column at
    400,000 rows; this 6-8 ms)."""
    filled = s.fill_null("")
    if not len(filled):
        return filled.to_numpy().astype(str)
    distinct = filled.unique()
    at = filled.replace_strict(distinct, np.arange(len(distinct)), return_dtype=pl.Int64)
    return distinct.to_numpy().astype(str)[at.to_numpy()]


TABLE_MAX = 1 << 20  # code pairs looked up in a table of flags (or 4 per metric, if more)


def harmonic(keys: pl.DataFrame, metrics: pl.DataFrame) -> np.ndarray:
    """Whether each row's metric (benchmark, metric) is an Hmean one in the catalogue
    `metrics` (one row a metric): on the names' codes when both hold them as the same
    Enums (a join of 2,000,000 iterations took 0.2 s), else by a join."""
    names = ("benchmark", "metric")
    coded = all(
        isinstance(keys.schema[k], pl.Enum) and keys.schema[k] == metrics.schema[k] for k in names
    )
    if not coded or not len(keys) or not len(metrics):
        kinds = keys.select(*names).join(
            metrics.select(*names, "mean_kind"), on=list(names), how="left", maintain_order="left"
        )
        return (kinds["mean_kind"] == "hmean").fill_null(False).to_numpy()
    b, m = (keys[k].to_physical().to_numpy().astype(np.int64) for k in names)
    cb, cm = (metrics[k].to_physical().to_numpy().astype(np.int64) for k in names)
    width = max(int(m.max()), int(cm.max())) + 1
    at = cb * width + cm
    cells = (max(int(b.max()), int(cb.max())) + 1) * width
    if cells <= max(TABLE_MAX, 4 * len(metrics)) and np.bincount(at, minlength=cells).max() < 2:
        # One flag per code pair, looked up: a search per row was 50-100 ms at 2,000,000.
        table = np.zeros(cells, dtype=bool)
        table[at] = (metrics["mean_kind"] == "hmean").fill_null(False).to_numpy()
        return table[b * width + m]
    order = np.argsort(at, kind="stable")
    at = at[order]
    pos = np.minimum(np.searchsorted(at, b * width + m), len(at) - 1)
    flag = (metrics["mean_kind"] == "hmean").fill_null(False).to_numpy()[order]
    return (at[pos] == b * width + m) & flag[pos]


def group_lists(name: str, values: pl.Series, starts: np.ndarray) -> pl.Series:
    """Each group's values as a list: groups are contiguous runs of `values` from `starts`.
    When every group has as many, a reshape (no hashing of group ids: 0.4 s at 400,000
    groups); else grouped by id."""
    counts = np.diff(np.r_[starts, len(values)])
    if len(counts) and counts[0] > 0 and (counts == counts[0]).all():
        width = (len(counts), int(counts[0]))
        return values.reshape(width).cast(pl.List(values.dtype)).alias(name)
    gid = np.repeat(np.arange(len(counts)), counts)
    lists = pl.DataFrame({"_gid": gid, name: values}).group_by("_gid", maintain_order=True)
    return lists.agg(pl.col(name))[name]


def whole_numbers(name: str, values: np.ndarray) -> pl.Series:
    """A float column as Int64: null where NaN, infinite or beyond 64 bits, so a count a
    statistic could not bound loses its cell, never the comparison."""
    values = np.asarray(values, dtype=np.float64)
    fits = np.abs(values) < 2.0**63  # False for NaN and inf too
    return pl.Series(name, np.where(fits, values, np.nan)).fill_nan(None).cast(pl.Int64)


def reciprocal(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """1/x where `where` (NaN for non-positive x there), x elsewhere."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(where, np.where(x > 0, 1.0 / x, np.nan), x)


def notes(*conds: tuple[np.ndarray, str | pl.Expr], data: dict | None = None) -> pl.Series:
    """Join the texts whose condition holds, per row; null where none does.

    A text may be a polars expression over the columns in `data` (one value per row).
    Only the rows where a condition holds are joined, with only the conditions that hold
    somewhere: polars makes every text of a `when` for every row, and at 200,000 metrics
    most rows have no note.
    """
    n = len(conds[0][0]) if conds else 0
    masks = [np.asarray(mask, dtype=bool) for mask, _ in conds]
    kept = [i for i, mask in enumerate(masks) if mask.any()]
    anywhere = np.logical_or.reduce([masks[i] for i in kept]) if kept else np.zeros(n, bool)
    rows = np.flatnonzero(anywhere)
    none = pl.repeat(None, n, dtype=pl.String, eager=True).alias("note")
    if not len(rows):
        return none
    some = len(rows) < n
    cols = {f"_c{i}": masks[i][rows] if some else masks[i] for i in kept}
    data = {k: v[rows] if some else v for k, v in (data or {}).items()}
    frame = pl.DataFrame({**cols, **data}, height=len(rows))
    parts = [
        pl.when(pl.col(f"_c{i}")).then(text if isinstance(text, pl.Expr) else pl.lit(text))
        for i, (_, text) in enumerate(conds)
        if i in kept
    ]
    joined = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    said = frame.select(pl.when(joined != "").then(joined).alias("note")).to_series()
    return none.scatter(rows, said) if some else said


def join_notes(first: pl.Series, second: pl.Series) -> pl.Series:
    joined = pl.concat_str([pl.col("a"), pl.col("b")], separator="; ", ignore_nulls=True)
    return (
        pl.DataFrame({"a": first, "b": second})
        .select(pl.when(joined != "").then(joined).alias("note"))
        .to_series()
    )


# How a reader's note on a metric whose direction it could not take begins: dropped once
# the direction is known (tuibench.toml, or another file that states it).
DIRECTION_UNKNOWN = "direction unknown"


def with_reader_notes(frame: pl.DataFrame, said: pl.DataFrame) -> pl.DataFrame:
    """Put what the readers said about a row (`ResultSet.notes`) before its own `_note`."""
    if said.is_empty():
        return frame
    keys = ["system", "benchmark", "metric"]
    known = frame.filter(pl.col("better").is_in(["lower", "higher"])).select(keys)
    settled = pl.col("note").str.starts_with(DIRECTION_UNKNOWN)
    said = pl.concat([said.filter(~settled), said.filter(settled).join(known, on=keys, how="anti")])
    per_row = said.group_by(keys, maintain_order=True).agg(pl.col("note").str.join("; "))
    frame = frame.join(per_row, on=keys, how="left", maintain_order="left")
    return frame.with_columns(join_notes(frame["note"], frame["_note"]).alias("_note")).drop("note")
