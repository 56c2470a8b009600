"""The tables people read: built once here, shown by the explorer, rendered by export.py.

- `summary_table`: the mmtests compare layout, one row per metric and one column per
  system (reference first), each cell `value (  -1.08%)` or, when significant,
  `value *  -1.08%*`.
- `detail_table`: one metric, one row per system.
- `iterations_table`: one metric, the per-iteration values, one column per system.
- `rows_table`: the comparison rows with every field (csv/tsv/json of `tuibench report`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import polars as pl

from tuibench.core.compare import ROW_COLUMNS, Comparison

MEAN_LABEL = {"amean": "Amean", "hmean": "Hmean"}


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[object]]  # display strings, or raw numbers/bools/None for data tables
    notes: list[str] = field(default_factory=list)
    # Per-cell meaning for colouring: (row, column) -> "worse" | "better" | "reference".
    marks: dict[tuple[int, int], str] = field(default_factory=dict)
    # Columns whose cells are right-aligned in text renderings.
    numeric: set[int] = field(default_factory=set)
    # Stable name for suggested file names (benchmark, metric, ...).
    slug: str = "table"


def fmt_num(x: float | None) -> str:
    """A number with about five significant digits; '-' when undefined."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    ax = abs(x)
    if ax == 0:
        return "0.00"
    if ax < 1e-3 or ax >= 1e7:
        return f"{x:.4e}"
    decimals = min(6, max(0, 4 - math.floor(math.log10(ax))))
    return f"{x:.{decimals}f}"


def fmt_change(change: float | None, significant: bool) -> str:
    """mmtests marks: `(  -1.08%)` or, when significant, `*  -1.08%*`."""
    if change is None or not math.isfinite(change):
        return "(    n/a)"
    pct = f"{change * 100:7.2f}%"
    return f"*{pct}*" if significant else f"({pct})"


def fmt_p(p: float | None) -> str:
    if p is None or not math.isfinite(p):
        return "-"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def fmt_ci(lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return "-"
    return f"[{fmt_num(lo)}, {fmt_num(hi)}]"


def _metric_name(bench: str, metric: str, unit: str | None, with_bench: bool = True) -> str:
    name = f"{bench} {metric}" if with_bench else metric
    return f"{name} ({unit})" if unit else name


def summary_table(cmp: Comparison, title: str = "") -> Table:
    """mmtests compare layout for every metric in `cmp` (already filtered by the caller)."""
    systems = cmp.systems
    col = {s: i + 2 for i, s in enumerate(systems)}
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    for (bench, metric), part in cmp.rows.group_by(["benchmark", "metric"], maintain_order=True):
        first = part.row(0, named=True)
        row: list[object] = [
            MEAN_LABEL.get(first["mean_kind"], first["mean_kind"]),
            _metric_name(bench, metric, first["unit"]),
        ]
        row += ["-"] * len(systems)
        for r in part.iter_rows(named=True):
            c = col[r["system"]]
            row[c] = f"{fmt_num(r['center'])} {fmt_change(r['change'], r['significant'])}"
            if r["verdict"] in ("worse", "better"):
                marks[(len(rows), c)] = r["verdict"]
        rows.append(row)
    notes = [
        f"Reference: {cmp.reference}. Each cell: centre (signed change vs the reference). "
        f"*  x.xx%* marks a significant change (Welch's t-test across iterations, "
        f"p < {cmp.alpha:g}); (  x.xx%) is not significant.",
        "Amean: arithmetic mean, lower is better. Hmean: harmonic mean, for rates, "
        "higher is better.",
    ]
    return Table(
        title or f"Comparison against {cmp.reference}",
        ["", "metric", *systems],
        rows,
        notes,
        marks,
        numeric=set(col.values()),
        slug="summary",
    )


def detail_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    part = cmp.rows.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    notes: list[str] = []
    unit = mean_kind = None
    for r in part.iter_rows(named=True):
        unit, mean_kind = r["unit"], r["mean_kind"]
        name = f"{r['system']} (ref)" if r["is_reference"] else r["system"]
        change = "" if r["is_reference"] else fmt_change(r["change"], r["significant"])
        rows.append(
            [
                name,
                f"{r['iterations']}x{_per_iter(r)}",
                fmt_num(r["center"]),
                fmt_ci(r["ci_low"], r["ci_high"]),
                change,
                "" if r["is_reference"] else fmt_p(r["p_welch"]),
                r["verdict"],
            ]
        )
        if r["verdict"] in ("worse", "better", "reference"):
            marks[(len(rows) - 1, 4)] = r["verdict"]
            marks[(len(rows) - 1, 6)] = r["verdict"]
        if r["note"]:
            notes.append(f"{r['system']}: {r['note']}")
    label = MEAN_LABEL.get(mean_kind or "", "")
    centre = f"{label} ({unit})" if unit else label
    columns = ["system", "iter x samples", centre, "95% CI", "change", "p (Welch)", "verdict"]
    return Table(
        f"{benchmark} {metric}",
        columns,
        rows,
        notes,
        marks,
        numeric={2, 4, 5},
        slug=f"{benchmark}-{metric}",
    )


def _per_iter(r: dict) -> str:
    """Samples per iteration: one number when all iterations have the same count."""
    its, n = r["iterations"], r["samples"]
    return str(n // its) if its and n % its == 0 else f"~{n / its:.1f}"


def iterations_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    part = cmp.rows.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))
    systems = part["system"].to_list()
    values = part["iteration_values"].to_list()
    depth = max((len(v) for v in values), default=0)
    rows = [[str(i)] + [fmt_num(v[i]) if i < len(v) else "" for v in values] for i in range(depth)]
    return Table(
        f"{benchmark} {metric}: per-iteration values",
        ["iteration", *systems],
        rows,
        numeric=set(range(1, len(systems) + 1)),
        slug=f"{benchmark}-{metric}-iterations",
    )


def rows_table(cmp: Comparison) -> Table:
    """Every comparison row with raw values: the machine-readable table."""
    rows = []
    for r in cmp.rows.select(ROW_COLUMNS).iter_rows():
        r = list(r)
        i = ROW_COLUMNS.index("iteration_values")
        r[i] = " ".join(repr(v) for v in r[i])
        rows.append(r)
    return Table(f"Comparison against {cmp.reference}", list(ROW_COLUMNS), rows, slug="rows")
