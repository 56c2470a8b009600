"""The tables people read: built once here, shown by the explorer, rendered by export.py.

- `summary_table`: the mmtests compare layout, one row per metric and one column per
  system (reference first), each cell `value (  -1.08%)` or, when significant,
  `value *  -1.08%*`.
- `detail_table`: one metric, one row per system: centre, change with its interval, verdict.
- `noise_table`: one metric, one row per system: data, U test, RSD, outliers, advice.
- `system_summary_table`: one row per system: geometric mean of its ratios to the reference.
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


def _metric_name(bench: str, metric: str, unit: str | None) -> str:
    name = f"{bench} {metric}"
    return f"{name} ({unit})" if unit else name


def summary_table(cmp: Comparison, title: str = "") -> Table:
    """mmtests compare layout for every metric in `cmp` (already filtered by the caller)."""
    systems = cmp.systems
    col = {s: i + 2 for i, s in enumerate(systems)}
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    # One pass over the rows (they come grouped by metric): a group_by per table costs
    # more than the table itself at thousands of metrics.
    fields = [
        "benchmark",
        "metric",
        "unit",
        "mean_kind",
        "system",
        "center",
        "change",
        "significant",
        "verdict",
    ]
    key = None
    for bench, metric, unit, mean_kind, system, centre, change, sig, verdict in cmp.rows.select(
        fields
    ).iter_rows():
        if (bench, metric) != key:
            key = (bench, metric)
            rows.append(
                [MEAN_LABEL.get(mean_kind, mean_kind), _metric_name(bench, metric, unit)]
                + ["-"] * len(systems)
            )
        c = col[system]
        rows[-1][c] = f"{fmt_num(centre)} {fmt_change(change, sig)}"
        if verdict in ("worse", "better"):
            marks[(len(rows) - 1, c)] = verdict
    test = "Welch's t-test across iterations"
    if cmp.fdr:
        test += ", Benjamini-Hochberg adjusted over all rows shown"
    notes = [
        f"Reference: {cmp.reference}. Each cell: centre (signed change vs the reference). "
        f"*  x.xx%* marks a significant change ({test}, "
        f"p < {cmp.alpha:g}); (  x.xx%) is not significant.",
        "Amean: arithmetic mean, lower is better. Hmean: harmonic mean, for rates, "
        "higher is better.",
    ]
    if cmp.threshold is not None:
        notes.append(
            f"Colours follow the verdicts against a practical margin of ±{cmp.threshold:g}%: "
            "worse or better only when the whole 95% interval of the change lies beyond it."
        )
    return Table(
        title or f"Comparison against {cmp.reference}",
        ["", "metric", *systems],
        rows,
        notes,
        marks,
        numeric=set(col.values()),
        slug="summary",
    )


def fmt_pct(x: float | None, decimals: int = 1) -> str:
    """A signed percentage: `+3.1%`, `-0.42%`; '-' when undefined."""
    if x is None or not math.isfinite(x):
        return "-"
    return f"{x * 100:+.{decimals}f}%"


def fmt_ratio_change(ratio: float | None, lo: float | None, hi: float | None) -> str:
    """The ratio of centres as a change with its interval: `-3.1% [-4.0%, -2.2%]`."""
    if ratio is None or not math.isfinite(ratio):
        return "n/a"
    spread = [abs(v - 1) for v in (ratio, lo, hi) if v is not None and math.isfinite(v)]
    decimals = 2 if max(spread) < 0.01 else 1
    centre = fmt_pct(ratio - 1, decimals)
    if lo is None or hi is None:
        return f"{centre} [unbounded]"
    return f"{centre} [{fmt_pct(lo - 1, decimals)}, {fmt_pct(hi - 1, decimals)}]"


def fmt_half_width(centre: float | None, lo: float | None, hi: float | None) -> str:
    """Half the interval's width relative to the centre: `±1.2%` ('' when undefined)."""
    if centre is None or lo is None or hi is None or centre == 0:
        return ""
    return f"±{abs(hi - lo) / 2 / abs(centre) * 100:.1f}%"


def _detail_part(cmp: Comparison, benchmark: str, metric: str) -> pl.DataFrame:
    return cmp.rows.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))


def _system_label(r: dict) -> str:
    return f"{r['system']} (ref)" if r["is_reference"] else r["system"]


def detail_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    """One metric, one row per system: the centre and how each system compares.

    Columns: the centre with the half-width of its 95 % interval, the change as a ratio of
    centres with its 95 % (Fieller) interval, the p-value that decides (Welch's, or its
    Benjamini-Hochberg adjustment under --fdr), the verdict and, beside it, whether the two
    95 % intervals overlap (mmtests' reading). More numbers per system: `noise_table`.
    """
    part = _detail_part(cmp, benchmark, metric)
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    notes: list[str] = []
    unit = mean_kind = None
    p_key = "p_adjusted" if cmp.fdr else "p_welch"
    for r in part.iter_rows(named=True):
        unit, mean_kind = r["unit"], r["mean_kind"]
        ref = r["is_reference"]
        centre = fmt_num(r["center"])
        half = fmt_half_width(r["center"], r["ci_low"], r["ci_high"])
        overlap = r["ci_overlap"]
        rows.append(
            [
                _system_label(r),
                f"{centre} {half}" if half else centre,
                "" if ref else fmt_ratio_change(r["ratio"], r["ratio_ci_low"], r["ratio_ci_high"]),
                "" if ref else fmt_p(r[p_key]),
                r["verdict"],
                "" if overlap is None else ("overlap" if overlap else "apart"),
            ]
        )
        if r["verdict"] in ("worse", "better", "reference"):
            marks[(len(rows) - 1, 2)] = r["verdict"]
            marks[(len(rows) - 1, 4)] = r["verdict"]
        if r["note"]:
            notes.append(f"{r['system']}: {r['note']}")
    label = MEAN_LABEL.get(mean_kind or "", "")
    centre_head = f"{label} ({unit})" if unit else label
    p_head = "p (BH)" if cmp.fdr else "p Welch"
    columns = ["system", centre_head, "change [95% CI]", p_head, "verdict", "CIs"]
    notes.append(
        "±: half the centre's 95% interval, relative to it. change: ratio of centres - 1, "
        "with its 95% interval (Fieller). CIs: do the 95% intervals of the system and the "
        "reference overlap?"
    )
    if cmp.threshold is not None:
        notes.append(
            f"Verdicts against a practical margin of ±{cmp.threshold:g}%: equivalent when the "
            "change's 95% interval lies inside it, worse or better when the change is "
            "significant and the whole interval lies beyond it, inconclusive otherwise."
        )
    return Table(
        f"{benchmark} {metric}",
        columns,
        rows,
        notes,
        marks,
        numeric={1, 2, 3},
        slug=f"{benchmark}-{metric}",
    )


def noise_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    """One metric, one row per system: how much data there is and how noisy it is.

    Columns: iterations x samples per iteration, the centre's 95 % interval, the Mann-Whitney
    U p-value on all samples, the relative standard deviation of the samples with its flag,
    the Tukey outliers (low/high, and how many of them are extreme), and the iterations per
    system needed to detect the change with power 0.8. With --trim-outliers, also the centre
    of the untrimmed samples.
    """
    part = _detail_part(cmp, benchmark, metric)
    trimmed = cmp.trim_outliers
    rows: list[list[object]] = []
    for r in part.iter_rows(named=True):
        rsd = "-" if r["rsd"] is None else f"{r['rsd']:.1f}%"
        if r["rsd_flag"] not in (None, "ok"):
            rsd += f" {r['rsd_flag']}"
        outliers = f"{r['outliers_low']}/{r['outliers_high']} ({r['outliers_extreme']})"
        needed = r["iterations_needed"]
        row = [
            _system_label(r),
            f"{r['iterations']}x{_per_iter(r)}",
            fmt_ci(r["ci_low"], r["ci_high"]),
            "" if r["is_reference"] else fmt_p(r["p_utest"]),
            rsd,
            outliers,
            "" if needed is None else str(needed),
        ]
        if trimmed:
            row.append(fmt_num(r["center_raw"]))
        rows.append(row)
    columns = ["system", "n", "95% CI", "p U", "RSD", "outliers", "needed"]
    if trimmed:
        columns.append("raw")
    notes = [
        "n: iterations x samples per iteration. p U: Mann-Whitney U test on all samples. "
        "RSD: relative standard deviation of all samples (flagged noisy above 10%, "
        "very-noisy above 25%). outliers: beyond Tukey's 1.5 IQR fences in their "
        "iteration, low/high (beyond 3 IQR). needed: iterations per system to detect the "
        "change with power 0.8."
    ]
    if trimmed:
        notes.append(
            "Outliers trimmed: every figure comes from the samples inside the fences; "
            "raw: the centre of all samples."
        )
    return Table(
        f"{benchmark} {metric}: data and noise",
        columns,
        rows,
        notes,
        numeric={1, 3, 4, 6, 7} if trimmed else {1, 3, 4, 6},
        slug=f"{benchmark}-{metric}-noise",
    )


def system_summary_table(cmp: Comparison, title: str = "") -> Table:
    """Per system against the reference: the geometric mean of its ratios over the metrics
    both have (above 1 is better), with a 95 % t interval across metrics, and how many
    metrics are better, worse or the same."""
    summary = cmp.summary()
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    for r in summary.iter_rows(named=True):
        g, lo, hi = r["geomean_ratio"], r["geomean_ci_low"], r["geomean_ci_high"]
        if g is None:
            cell = "-"
        elif lo is None or hi is None:
            cell = f"{g:.3f}"
        else:
            cell = f"{g:.3f} [{lo:.3f}, {hi:.3f}]"
        rows.append(
            [r["system"], r["metrics"], r["left_out"], cell, r["better"], r["worse"], r["same"]]
        )
        if lo is not None and lo > 1:
            marks[(len(rows) - 1, 3)] = "better"
        elif hi is not None and hi < 1:
            marks[(len(rows) - 1, 3)] = "worse"
    notes = [
        f"Against {cmp.reference}, over the metrics both systems have (left out: metrics only "
        "one side has, or whose ratio is undefined). Geomean: geometric mean of the ratios "
        "of centres oriented so that above 1 is better (reference/system for lower-is-better "
        "metrics), with a 95% Student t interval on the log ratios across metrics."
    ]
    return Table(
        title or f"Systems against {cmp.reference}",
        ["system", "metrics", "left out", "geomean [95% CI]", "better", "worse", "same"],
        rows,
        notes,
        marks,
        numeric={1, 2, 3, 4, 5, 6},
        slug="systems",
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
