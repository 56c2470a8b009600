"""The mmtests summary of thousands of metrics, formatted only where it is read.

The explorer shows the first thousands of metrics of a group, yet a screen holds forty
rows: formatting every row (`summary_table`, a Python loop per row) was most of a key's
work. Here the rows are formatted when first read, a block of metrics at a time, by
`summary_table` itself on that block (the scale of a metric depends on its own rows only,
so a block reads as the whole table does). The column widths come without formatting every
row: for a given scale a value's width grows with its magnitude, so the widest value of a
scale is its largest or its most negative one; the same holds for the changes of one kind
of cell (direction known or not, significant, single iteration). A column is as wide as
the widest value beside the widest change of each kind, plus the star (★) when the column
has one: where these are not in the same row it is a cell or two wider than its widest
cell (the test set of tests/tui/test_tui_summary_window.py shows how much).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from tuibench.analysis.best import GLYPH, best_systems
from tuibench.analysis.compare import Comparison
from tuibench.present import tables
from tuibench.present.numbers import Scale, metric_scales
from tuibench.util.text import printable

BLOCK = 64  # metrics formatted at once
WINDOW_FROM = 300  # fewer metrics: the whole table at once (exact widths, as in reports)


class LazyRows(list):
    """A list of rows to every reader; a row is formatted (with its block) when first read.
    Made to be read only: nothing changes the table once it is made."""

    def __init__(self, size: int, fill: Callable[[int], None]) -> None:
        super().__init__([None] * size)
        self._fill = fill

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        row = super().__getitem__(i)
        if row is None:
            self._fill(i if i >= 0 else i + len(self))
            row = super().__getitem__(i)
        return row

    def __iter__(self) -> Iterator:
        return (self[i] for i in range(len(self)))

    def put(self, start: int, rows: list) -> None:
        for i, row in enumerate(rows):
            super().__setitem__(start + i, row)


@dataclass
class WindowedTable(tables.Table):
    """A summary `Table` whose rows are formatted when read; `widths`: each column's width
    without reading them (the header's too), `compact_widths` the same for the narrow
    layout (`tables.compact_change`), `names`: the metric column's cells."""

    widths: list[int] = field(default_factory=list)
    compact_widths: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def summary(cmp: Comparison, title: str = "") -> tables.Table:
    """`tables.summary_table(cmp, title)`, its rows formatted when read (from WINDOW_FROM
    metrics on; fewer: the table itself)."""
    rows = cmp.rows
    starts = _metric_starts(rows)
    if len(starts) < WINDOW_FROM:
        return tables.summary_table(cmp, title)
    bounds = np.append(starts, rows.height)
    by_key = metric_scales(rows)
    best = best_systems(cmp)
    heads = rows.select("benchmark", "metric")[starts]  # the two columns, not every one
    keys = zip(heads["benchmark"].to_list(), heads["metric"].to_list(), strict=True)
    scales = [by_key[k] for k in keys]
    names = _names(heads, scales)
    table = WindowedTable(  # as summary_table makes it
        title or f"Comparison against {cmp.reference}",
        ["", "metric", *cmp.systems],
        [],
        _notes(cmp, bool(best)),
        {},
        numeric={i + 2 for i in range(len(cmp.systems))},
        slug="summary",
        names=names,
    )

    def fill(i: int) -> None:
        lo = i - i % BLOCK
        hi = min(lo + BLOCK, len(starts))
        part = tables.summary_table(
            dataclasses.replace(cmp, rows=rows.slice(int(bounds[lo]), int(bounds[hi] - bounds[lo])))
        )
        lazy.put(lo, part.rows)
        table.marks.update({(r + lo, c): m for (r, c), m in part.marks.items()})

    lazy = LazyRows(len(starts), fill)
    table.rows = lazy
    _measure(table, cmp, scales, best, bounds)
    return table


def _names(heads: pl.DataFrame, scales: list[Scale]) -> list[str]:
    """The metric column's cells, `scale.named(f"{benchmark} {metric}")` as drawn, joined by
    polars (a loop over two thousand names was a fifth of the table's cost)."""
    suffix = {sc: sc.named("") for sc in dict.fromkeys(scales)}  # ` (µs)` or ''
    units = set(suffix.values())
    # one unit for all (the usual case): a literal, not a column made of a Python list
    tail = pl.lit(units.pop()) if len(units) == 1 else pl.Series([suffix[sc] for sc in scales])
    names = heads.select(pl.concat_str("benchmark", pl.lit(" "), "metric", tail)).to_series()
    if names.str.contains(r"[^ -~]").any():  # beyond printable ASCII: escape what needs it
        return [printable(name) for name in names.to_list()]
    return names.to_list()


def _metric_starts(rows: pl.DataFrame) -> np.ndarray:
    """The first row of each metric (the rows come grouped by metric)."""
    if rows.height == 0:
        return np.zeros(0, dtype=np.int64)
    new = (pl.col("benchmark") != pl.col("benchmark").shift()) | (
        pl.col("metric") != pl.col("metric").shift()
    )
    return np.flatnonzero(rows.select(new.fill_null(True)).to_series().to_numpy())


def _notes(cmp: Comparison, best: bool) -> list[str]:
    """The notes `summary_table` writes, from every row at once."""
    rows = cmp.rows
    unknown = bool((~rows["better"].is_in(["lower", "higher"]).fill_null(False)).any())
    single = not cmp.options.trust_single_iteration and bool(
        (rows["single_iteration"].fill_null(False) & rows["significant"].fill_null(False)).any()
    )
    untested = bool(((rows["verdict"] == "n/a") & rows["change"].is_finite()).any())
    return tables._summary_notes(cmp, unknown, single, False, best, untested)


def _measure(
    table: WindowedTable, cmp: Comparison, scales: list[Scale], best, bounds: np.ndarray
) -> None:
    """Each column's width, full and compact, from the extremes of what it shows: per
    system and kind of change cell (direction known, significant, single), the widest value
    and the widest change; a value's width grows with its magnitude for a given scale.
    `bounds`: each metric's first row, then the number of rows."""
    rows = cmp.rows
    kinds = rows["mean_kind"].unique().to_list()
    label = max([0, *(len(tables.MEAN_LABEL.get(k, k) or "") for k in kinds)])
    shared = list(dict.fromkeys(scales))  # the few distinct scales
    index = {scale: i for i, scale in enumerate(shared)}
    per_metric = np.array([index[sc] for sc in scales], dtype=np.int64)
    counts = np.diff(bounds)
    trusted, threshold = cmp.options.trust_single_iteration, cmp.options.threshold
    gain = (pl.col("better").is_in(["lower", "higher"]).fill_null(False)) & (cmp.percent == "gain")
    size = pl.when(gain).then(pl.col("gain")).otherwise(pl.col("change")).fill_nan(None)
    centre = pl.col("center").fill_nan(None)
    finite = pl.when(centre.is_finite()).then(centre)
    extremes = (
        rows.select(
            "system",
            "better",
            pl.col("significant").fill_null(False),
            (pl.col("single_iteration").fill_null(False) & (not trusted)).alias("single"),
            pl.col("verdict"),
            pl.Series("scale", np.repeat(per_metric, counts)),
            finite.alias("x"),
            size.alias("size"),
        )
        .group_by("system", "better", "significant", "single", "verdict", "scale")
        .agg(
            pl.col("x").max().alias("x_hi"),
            pl.col("x").min().alias("x_lo"),
            pl.col("size").max().alias("s_hi"),
            pl.col("size").min().alias("s_lo"),
            pl.col("size").null_count().alias("s_na"),
        )
    )
    full = dict.fromkeys(cmp.systems, 0)
    short = dict.fromkeys(cmp.systems, 0)
    for row in extremes.iter_rows():
        system, better, sig, single, verdict, scale, x_hi, x_lo, s_hi, s_lo, s_na = row
        number = max(len(shared[scale].number(x)) for x in (x_hi, x_lo))  # '-' when None
        changes = [s_hi, s_lo] + ([None] if s_na else [])
        # each cell's marks as summary_table writes them (under a margin: the verdict)
        state = tables.cell_state(verdict, None if single else threshold)
        if threshold is not None:
            sig = verdict in ("worse", "better", "changed")
        for x in changes:
            text = tables.fmt_change(x, sig, x, better, cmp.percent, single, state)
            full[system] = max(full[system], number + 1 + len(text))
            short[system] = max(
                short[system], number + 1 + len(tables.compact_change(text) or text)
            )
    starred = set(best.values())
    widths, compact = [label, 0], [0]  # the names: measured by the viewer
    for i, system in enumerate(cmp.systems):
        star = len(GLYPH) if system in starred else 0  # ★ takes one cell
        head = len(table.columns[i + 2])
        widths.append(max(head, star + full[system], 1))  # value, space, change
        cells = short[system] if i else _value_width(extremes, system, shared)
        compact.append(max(head, star + cells, 1))
    table.widths, table.compact_widths = widths, compact


def _value_width(extremes: pl.DataFrame, system: str, shared: list[Scale]) -> int:
    """The widest value of a system (its compact cell, the reference's, is the value alone)."""
    mine = extremes.filter(pl.col("system") == system).select("scale", "x_hi", "x_lo")
    return max(
        (len(shared[scale].number(x)) for scale, *xs in mine.iter_rows() for x in xs), default=1
    )
