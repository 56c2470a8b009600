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


def reference_rows(rows: pl.DataFrame) -> np.ndarray:
    """Each row's metric's reference row: its position in `rows` (-1: the metric has none).
    The rows of a metric lie together (`Comparison.rows`): found by position, where a join
    on the names hashed every name (0.5 GB for a moment at a million distinct names)."""
    block, _ = rle_groups(rows, ["benchmark", "metric"])
    is_ref = rows["is_reference"].fill_null(False).to_numpy()
    ref_of_block = np.full(int(block.max()) + 1 if len(block) else 0, -1, dtype=np.int64)
    ref_of_block[block[is_ref]] = np.flatnonzero(is_ref)
    return ref_of_block[block]


def reference_first_order(rows: pl.DataFrame) -> np.ndarray | None:
    """The positions that put each metric's reference row first, the others after it in
    their order (stable); None when `rows` are in that order already. The rows of a metric
    lie together (`Comparison.rows`)."""
    if rows.height == 0 or "is_reference" not in rows.columns:
        return None
    block, _ = rle_groups(rows, ["benchmark", "metric"])
    order = np.lexsort((~rows["is_reference"].fill_null(False).to_numpy(), block))
    return None if np.array_equal(order, np.arange(rows.height)) else order


def fixed_width_text(s: pl.Series) -> np.ndarray:
    """A String column as numpy fixed-width text, null as "": each distinct value converted
    once, then gathered by its index (converting every value took 40-50 ms a column at
    400,000 rows; this 6-8 ms)."""
    at, distinct = factorized(s.fill_null(""))
    return distinct.to_numpy().astype(str)[at]


def factorized(s: pl.Series) -> tuple[np.ndarray, pl.Series]:
    """Each value's index among the distinct values of `s` (-1 for null), and those values."""
    distinct = s.drop_nulls().unique()
    if not len(distinct):
        return np.full(len(s), -1, dtype=np.int64), distinct
    at = s.replace_strict(distinct, np.arange(len(distinct)), return_dtype=pl.Int64)
    return at.fill_null(-1).to_numpy(), distinct


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
    Where only fixed texts hold, a row's note depends only on which of them hold: one
    string is made per such pattern and gathered, so its rows share its bytes (a note made
    per row keeps a copy in each: 140 bytes a row where every row had one, 700 MiB of
    a million metrics' comparison). The rows where a text of their own holds are joined one
    by one, with only the conditions that hold somewhere: polars makes every text of a
    `when` for every row, and at 200,000 metrics most rows have no note.
    """
    n = len(conds[0][0]) if conds else 0
    masks = [np.asarray(mask, dtype=bool) for mask, _ in conds]
    kept = [i for i, mask in enumerate(masks) if mask.any()]
    own = [i for i in kept if isinstance(conds[i][1], pl.Expr)]
    fixed = [i for i in kept if i not in own]
    varied = np.logical_or.reduce([masks[i] for i in own]) if own else np.zeros(n, bool)
    pattern = np.zeros(n, dtype=np.int64)
    for bit, i in enumerate(fixed):
        pattern |= masks[i].astype(np.int64) << bit
    pattern[varied] = 0  # joined one by one below
    seen, at = _dense(pattern)
    texts = ["; ".join(str(conds[i][1]) for b, i in enumerate(fixed) if p >> b & 1) for p in seen]
    said = pl.Series("note", [t or None for t in texts], dtype=pl.String).gather(at)
    rows = np.flatnonzero(varied)
    if len(rows):  # shared as well: a row keeps no copy of its own
        at, distinct = factorized(_joined_rows(conds, masks, kept, rows, data or {}))
        said = said.scatter(rows, _with_null(distinct, at))
    return said


def _with_null(values: pl.Series, at: np.ndarray) -> pl.Series:
    """`values` gathered at `at`, null where `at` is -1."""
    nulls = pl.Series([None], dtype=values.dtype)
    return pl.concat([values, nulls]).gather(np.where(at < 0, len(values), at))


def _dense(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of the non-negative `codes`, in order, and each code's place
    among them: through a table of every code when they are few (`np.unique` sorts, 0.1 s
    at 2,000,000)."""
    if not len(codes):
        return codes, codes
    top = int(codes.max()) + 1
    if top > max(TABLE_MAX, len(codes)):
        return np.unique(codes, return_inverse=True)
    seen = np.flatnonzero(np.bincount(codes, minlength=top))
    index = np.zeros(top, dtype=np.int64)
    index[seen] = np.arange(len(seen))
    return seen, index[codes]


def _joined_rows(
    conds: tuple[tuple[np.ndarray, str | pl.Expr], ...],
    masks: list[np.ndarray],
    kept: list[int],
    rows: np.ndarray,
    data: dict,
) -> pl.Series:
    """The notes of `rows`, each joined from the texts of `kept` that hold on it."""
    cols = {f"_c{i}": masks[i][rows] for i in kept}
    frame = pl.DataFrame({**cols, **{k: v[rows] for k, v in data.items()}}, height=len(rows))
    parts = [
        pl.when(pl.col(f"_c{i}")).then(text if isinstance(text, pl.Expr) else pl.lit(text))
        for i, (_, text) in enumerate(conds)
        if i in kept
    ]
    joined = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    return frame.select(pl.when(joined != "").then(joined).alias("note")).to_series()


def join_notes(first: pl.Series, second: pl.Series) -> pl.Series:
    """`first; second` per row, the one that is there where the other is null, null where
    neither is (or the join is empty). Joined once per distinct pair and gathered, so rows
    share the bytes of their note: a column built with the rows of another keeps that
    column's bytes alive even where none of its rows is kept."""
    (ia, da), (ib, db) = factorized(first), factorized(second)
    width = len(db) + 1
    seen, at = _dense((ia + 1) * width + ib + 1)
    a, b = _with_null(da, seen // width - 1), _with_null(db, seen % width - 1)
    joined = pl.concat_str([pl.lit(a), pl.lit(b)], separator="; ", ignore_nulls=True)
    texts = pl.select(pl.when(joined != "").then(joined).alias("note")).to_series()
    return texts.gather(at)


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
