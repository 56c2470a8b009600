"""The tables people read: built once here, shown by the explorer, rendered by export.py.

- `summary_table`: the mmtests compare layout, one row per metric and one column per
  system (reference first), each cell `value (  -1.08%)` or, when significant,
  `value *  -1.08%*`.
- `detail_table`: one metric, one row per system: centre, change with its interval, verdict.
- `noise_table`: one metric, one row per system: data, U test, RSD, outliers, advice.
- `iterations_table`: one metric, the per-iteration values, one column per system.
- `rows_table`: the comparison rows with every field (csv/tsv/json of `tuibench report`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import polars as pl

from tuibench.analysis.best import GLYPH, LEGEND, best_systems
from tuibench.analysis.compare import ROW_COLUMNS, Comparison
from tuibench.ingest.formats.text_readers.mmtests import CONTRADICTED
from tuibench.present import chance
from tuibench.present.numbers import Scale, metric_scales, scale_for
from tuibench.util.text import printable

MEAN_LABEL = {"amean": "Amean", "hmean": "Hmean"}


def direction_words(better: str | None) -> str:
    """A metric's direction as a reader takes it: never a bare `None is better`."""
    return {"lower": "lower is better", "higher": "higher is better"}.get(
        better or "", "direction unknown"
    )


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[object]]  # display strings, or raw numbers/bools/None for data tables
    notes: list[str] = field(default_factory=list)
    # Per-cell meaning for colouring: (row, column) -> "worse" | "better" | "best" | ...
    marks: dict[tuple[int, int], str] = field(default_factory=dict)
    # Columns whose cells are right-aligned in text renderings.
    numeric: set[int] = field(default_factory=set)
    # Stable name for suggested file names (benchmark, metric, ...).
    slug: str = "table"
    # A metric's detail table: its best system (the row marked "best"), None without one.
    best: str | None = None


def fmt_change(
    change: float | None,
    significant: bool,
    gain: float | None = None,
    better: str | None = "lower",
    percent: str = "gain",
    single: bool = False,
    state: str | None = None,
) -> str:
    """An mmtests cell: `(   1.08%)`, or when significant `*   1.08%*`.

    percent "gain" (the default, as mmtests prints it): positive = better; "change": the
    signed change, positive = a bigger number. Where the direction is unknown the size is
    always the signed change, marked `(? +1.08%)`, or `?  +1.08%?` when significant. A
    significant change where a side has one iteration (and that is not trusted) is marked
    `~   1.08%~`: not a star. state "untested": no test could be made (too few values),
    `[   1.08%]`, not to be read as not significant; "equivalent" (under a threshold): the
    change's interval lies within the margin, `=   1.08%=`.
    """
    known = better in ("lower", "higher")
    size = gain if percent == "gain" and known else change
    if size is None or not math.isfinite(size):
        return "(    n/a)"
    size = size * 100 + 0.0  # never -0.00%
    if state == "untested":
        return f"[{size:7.2f}%]" if known else f"[?{size:+6.2f}%]"
    if state == "equivalent":
        return f"={size:7.2f}%=" if known else f"=?{size:+6.2f}%="
    if not known:
        return f"?{size:+7.2f}%?" if significant else f"(?{size:+6.2f}%)"
    pct = f"{size:7.2f}%"
    if significant:
        return f"~{pct}~" if single else f"*{pct}*"
    return f"({pct})"


_CHANGE = re.compile(
    r"^(?P<open>[(*~?=\[])(?P<q>\?)?\s*(?P<size>[+-]?[\d.]+|n/a)%?(?P<close>[)*~?=\]])$"
)


def compact_change(text: str) -> str | None:
    """A `fmt_change` cell for a narrow screen: `*  -6.53%*` -> `-6.5%*`, `[ -10.00%]` ->
    `[-10.0%]` (untested: neither significant nor not, as wide), `(    n/a)` -> `n/a`;
    None for text of another shape."""
    m = _CHANGE.match(text)
    if m is None:
        return None
    size = m["size"]
    if size == "n/a":
        return size
    pct = f"{float(size):+.1f}%"
    if m["open"] == "[":
        return f"[{pct}{'?' if m['q'] else ''}]"
    mark = {"*": "*", "~": "~", "?": "?", "=": "="}.get(m["close"], "")
    return f"{pct}{mark or ('?' if m['q'] else '')}"


def size_word(percent: str) -> str:
    """What a table's sizes are: `gain` (positive = better) or `change` (positive = bigger)."""
    return "gain" if percent == "gain" else "change"


def cell_meaning(verdict: str, single: bool) -> str | None:
    """The colour meaning of a verdict cell: worse, better, changed, or none."""
    if verdict in ("worse", "better"):
        return "single" if single else verdict
    if verdict == "changed":
        return "changed"
    return None


def fmt_p(p: float | None, short: bool = False) -> str:
    """The one way a p-value reads: `0.0123`, below 1e-4 `3.2e-05`, '-' when undefined;
    `short` (the answer's lines, named): `p 0.012`, below 0.001 `p 3e-05`, `p -`."""
    if p == 0:  # no variation on either side: exact, not a tiny p of a test (`0.0e+00`)
        return "p 0" if short else "0"
    if short:
        text = "-" if p is None or not math.isfinite(p) else f"{p:.3f}" if p >= 1e-3 else f"{p:.0e}"
        return f"p {text}"
    if p is None or not math.isfinite(p):
        return "-"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


STAT_ROWS = {  # --stats: mmtests' spread rows, from the pooled samples
    "min": ("Min", "_mm_min"),
    "max": ("Max", "_mm_max"),
    "stddev": ("Stddev", "_mm_sd"),
    "coeffvar": ("CoeffVar", "_mm_coeffvar"),
    "bmean95": ("B{mean}.95", "_mm_bmean95"),
}


def summary_table(cmp: Comparison, title: str = "", extra_stats: list[str] | None = None) -> Table:
    """mmtests compare layout for every metric in `cmp` (already filtered by the caller).

    extra_stats: names of STAT_ROWS to add under each metric, as mmtests prints them.
    """
    systems = cmp.systems
    col = {s: i + 2 for i, s in enumerate(systems)}
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    extra = [k for k in (extra_stats or []) if k in STAT_ROWS]
    percent = cmp.percent
    trusted = cmp.options.trust_single_iteration
    # One pass over the rows (grouped by metric): a group_by per table cost more.
    fields = [
        "benchmark",
        "metric",
        "mean_kind",
        "better",
        "system",
        "center",
        "change",
        "gain",
        "significant",
        "verdict",
        "single_iteration",
    ]
    frame = cmp.full_rows() if extra else cmp.rows
    scales = metric_scales(frame)
    best = best_systems(cmp)
    stat_cols = [STAT_ROWS[k][1] for k in extra]
    key = None
    n_extra = len(extra)
    unknown_seen = single_seen = False
    threshold = cmp.options.threshold
    untested_seen = False
    for r in frame.select(fields + stat_cols).iter_rows():
        bench, metric, mean_kind, better, system, centre, change, gain = r[:8]
        sig, verdict, single = r[8:11]
        if (bench, metric) != key:
            key = (bench, metric)
            scale = scales[key]
            label = MEAN_LABEL.get(mean_kind, mean_kind)
            # The unit once, in the name: one scale per row makes it the same in every
            # cell, and at 80 columns a unit in each cell would push a system off screen.
            name = scale.named(f"{bench} {metric}")
            rows.append([label, name, *["-"] * len(systems)])
            for k in extra:
                head = STAT_ROWS[k][0].format(mean=label)
                if k in ("stddev", "coeffvar") and mean_kind == "hmean":
                    head = "H" + head
                rows.append([head, name, *["-"] * len(systems)])
        c = col[system]
        main = len(rows) - 1 - n_extra
        single_mark = bool(single) and not trusted
        # The best system's cell starts with the glyph (no space: compact cells split
        # the value from the change at the first space).
        star = GLYPH if best.get(key) == system else ""
        state = cell_state(verdict, None if single_mark else threshold)  # one process: no =
        if threshold is not None:  # the star is the verdict: beyond the margin
            sig = verdict in ("worse", "better", "changed")
        cell = fmt_change(change, sig, gain, better, percent, single_mark, state)
        rows[main][c] = f"{star}{scale.number(centre)} {cell}"
        untested_seen |= cell.startswith("[")
        unknown_seen |= better not in ("lower", "higher")
        single_seen |= single_mark and bool(sig)
        meaning = "best" if star else cell_meaning(verdict, single_mark)
        if meaning:
            marks[(main, c)] = meaning
        for i, value in enumerate(r[11:]):
            coeffvar = extra[i] == "coeffvar"  # a percentage, not in the metric's unit
            rows[main + 1 + i][c] = _fmt_plain(value) if coeffvar else scale.number(value)
    return Table(
        title or f"Comparison against {cmp.reference}",
        ["", "metric", *systems],
        rows,
        _summary_notes(cmp, unknown_seen, single_seen, bool(extra), bool(best), untested_seen),
        marks,
        numeric=set(col.values()),
        slug="summary",
    )


ITERATION_VALUE_WORDS = {
    "subselection": "mmtests' median of subset means",
    "mean": "the mean of its samples",
    "median": "the median of its samples",
    "trimmed": "the mean of its samples inside Tukey's fences",
}


def centre_method(cmp: Comparison, interval: bool = True) -> str:
    """How a centre (and its interval) are made, for the legends."""
    kind = ITERATION_VALUE_WORDS.get(cmp.options.iteration_value, cmp.options.iteration_value)
    text = f"centre: the Amean or Hmean of the per-iteration values (each iteration: {kind})"
    if not interval:
        return text + "."
    return (
        f"{text}; its 95% interval: Student's t across those values (across the samples "
        "where there is one iteration)."
    )


# How the pairwise numbers are made (the legends of the per-row tables).
SIZE_METHOD = "95% interval by Fieller's method on the per-iteration means and variances"
P_METHOD = (
    "Welch's t-test on the per-iteration values (on the samples where a side has one iteration)"
)


def direction_notes(cmp: Comparison) -> list[str]:
    """Why some directions are unknown where a producer gave one: mmtests ops whose mark
    (lower-is-better) contradicts their name (a throughput). The tables show no notes."""
    said = cmp.rows.filter(
        pl.col("better").is_null() & pl.col("note").str.contains(CONTRADICTED, literal=True)
    )
    pairs = said.select(pl.format("{} {}", "benchmark", "metric")).unique(maintain_order=True)
    if pairs.height == 0:
        return []
    names = pairs.to_series().to_list()
    listed = ", ".join(printable(n) for n in names[:5])
    if len(names) > 5:
        listed += f" and {len(names) - 5} more"
    return [
        f"Direction unknown for {listed}: mmtests marks these ops lower-is-better but their "
        "names say throughput (an extract without --sub-heading marks every op of a test "
        "alike), so neither better nor worse is claimed. Extract them with --sub-heading "
        "<metric>, or set their direction in tuibench.toml."
    ]


def _fmt_plain(x: float | None) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:.2f}"


def cell_state(verdict: str | None, threshold: float | None) -> str | None:
    """What a cell must say beyond its star: untested, or equivalent under a threshold."""
    if verdict == "n/a":
        return "untested"
    if threshold is not None and verdict == "equivalent":
        return "equivalent"
    return None


def _summary_notes(
    cmp: Comparison,
    unknown: bool,
    single: bool,
    extra: bool,
    best: bool,
    untested: bool = False,
) -> list[str]:
    test = "Welch's t-test across iterations"
    if cmp.options.trust_single_iteration and cmp.rows["single_iteration"].fill_null(False).any():
        test += ", or on the samples where a side has one iteration"  # counted: starred
    if cmp.options.fdr:
        test += ", Benjamini-Hochberg adjusted over all rows shown"
    if cmp.percent == "gain":
        size = "gain against the reference, positive = better, as mmtests prints it"
    else:
        size = "signed change against the reference, positive = a bigger number"
    threshold = cmp.options.threshold
    if threshold is None:
        marks = (
            f"*  x.xx%* marks a significant change ({test}, p < {cmp.options.alpha:g}); "
            "(  x.xx%) is not significant."
        )
    else:  # the marks are the verdicts against the margin, which the colours may not show
        marks = (
            f"*  x.xx%* marks a change worse or better beyond the practical margin of "
            f"±{threshold:g}% (significant, {test}, p < {cmp.options.alpha:g}, and its whole "
            f"95% interval beyond the margin); =  x.xx%= one within it (equivalent); "
            "(  x.xx%) one whose interval crosses it (inconclusive: more iterations may "
            "settle it)."
        )
    notes = [
        f"Reference: {cmp.reference}. Each cell: centre, in the unit after the metric's "
        f"name ({size}). " + marks,
        "Amean: arithmetic mean, for lower-is-better metrics and those whose direction is "
        "unknown. Hmean: harmonic mean, for rates, higher is better. "
        + centre_method(cmp, interval=False),
    ]
    if unknown:
        notes.append(
            "(? +x.xx%): the direction is unknown (nothing says whether lower or higher is "
            "better): the signed change; ?  +x.xx%? when significant (changed, neither better "
            'nor worse). Set it in tuibench.toml: [metrics."bench:metric"] better = "lower".'
        )
        notes += direction_notes(cmp)
    if single:
        notes.append(
            "~  x.xx%~: significant on the samples of a single iteration (one process): the "
            "test cannot know how much separate runs differ; not counted as better or worse "
            "(--trust-single-iteration counts it)."
        )
    if untested:
        notes.append(
            "[  x.xx%]: no test could be made (too few values on a side, such as one "
            "sample each): the size alone, neither significant nor not."
        )
    if best:
        notes.append(LEGEND)
    if extra:
        notes.append(
            "Min, Max, Stddev, CoeffVar (percent), B*mean.95 (the mean of the best 95%): "
            "mmtests' statistics of all samples pooled (harmonic SD for Hmean)."
        )
    notes += chance.notes(cmp)
    if threshold is not None:
        notes.append(
            f"Colours follow the verdicts against a practical margin of ±{threshold:g}%: "
            "worse or better only when the whole 95% interval of the change lies beyond it."
        )
    return notes


def _text(x: object) -> str:
    return "" if x is None else str(x)


def fmt_detectable(x: float | None) -> str:
    """`3.4%`, `12%`, `<.1%`: a smallest detectable change in four cells (a size, no sign)."""
    if x is None or not math.isfinite(x):
        return ""
    v = 100 * x
    if v < 0.05:
        return "<.1%"
    return f"{v:.1f}%" if v < 9.95 else f"{v:.0f}%"


def fmt_pct(x: float | None, decimals: int = 1, missing: str = "-") -> str:
    """The one way a signed percentage of a fraction reads: `+3.1%`, `-0.42%` (never
    `-0.0%` for a zero); `missing` when undefined."""
    if x is None or not math.isfinite(x):
        return missing
    return f"{x * 100 + 0.0:+.{decimals}f}%"


def pct_decimals(*xs: float | None) -> int:
    """Decimals for percentages printed together: 2 while all are below 1 % (a 0.4 %
    change and its interval would otherwise read 0.4 [0.3, 0.5]), else 1."""
    finite = [abs(x) for x in xs if x is not None and math.isfinite(x)]
    return 2 if finite and max(finite) < 0.01 else 1


def fmt_ratio_change(
    ratio: float | None,
    lo: float | None,
    hi: float | None,
    better: str | None = None,
    percent: str = "change",
) -> str:
    """The ratio of centres as a size with its interval: `-3.1% [-4.0%, -2.2%]`.

    percent "change": ratio - 1; "gain": oriented so that positive is better (1 - ratio for
    lower-is-better metrics). Unknown direction: the change, marked `?`.
    """
    if ratio is None or not math.isfinite(ratio):
        return "n/a"
    decimals = pct_decimals(*(v - 1 for v in (ratio, lo, hi) if v is not None))
    flip = percent == "gain" and better == "lower"
    mark = "?" if better not in ("lower", "higher") else ""

    def size(r: float) -> str:
        return fmt_pct((1 - r) if flip else (r - 1), decimals)

    centre = mark + size(ratio)
    if lo is None or hi is None:
        return f"{centre} [unbounded]"
    a, b = (hi, lo) if flip else (lo, hi)
    return f"{centre} [{size(a)}, {size(b)}]"


def without_ratio(r: dict, percent: str) -> float | None:
    """A row's size where there is no ratio of centres (a reference not above 0): the
    change against the reference's size, as the text table and JSON give it; else None."""
    change = r.get("change")
    if r.get("is_reference") or change is None or not math.isfinite(change):
        return None
    return oriented(change, r["better"], percent)


def size_cell(r: dict, percent: str) -> str:
    """A row's size with its 95 % interval (`fmt_ratio_change`), or without a ratio its
    change and `[no interval]` (never `n/a` beside a verdict made from that change)."""
    ratio = r["ratio"]
    size = without_ratio(r, percent) if ratio is None or not math.isfinite(ratio) else None
    if size is not None:
        mark = "?" if r["better"] not in ("lower", "higher") else ""
        return f"{mark}{fmt_pct(size)} [no interval]"
    return fmt_ratio_change(r["ratio"], r["ratio_ci_low"], r["ratio_ci_high"], r["better"], percent)


def oriented(size: float | None, better: str | None, percent: str) -> float | None:
    """A change-like fraction in the table's convention (gain: positive = better)."""
    if size is None or percent != "gain" or better == "higher":
        return size
    return -size if better == "lower" else size


def fmt_half_width(centre: float | None, lo: float | None, hi: float | None) -> str:
    """Half the interval's width relative to the centre: `±1.2%` ('' when undefined)."""
    if centre is None or lo is None or hi is None or centre == 0:
        return ""
    return f"±{abs(hi - lo) / 2 / abs(centre) * 100:.1f}%"


ABSENT_WORDS = "not compared"  # no value or no test, or no row at all: as the counts say


def uncounted(r: dict, cmp: Comparison) -> bool:
    """Whether the row's verdict comes from a single iteration (one process) and is not
    counted, whatever it is (`--trust-single-iteration` counts it), as the counts leave it."""
    single = r.get("single_iteration") and not cmp.options.trust_single_iteration
    return bool(single) and not r["is_reference"] and r["verdict"] not in ("n/a", "reference")


def with_absent(cmp: Comparison, rows: list[dict]) -> list[tuple[str, dict | None]]:
    """One metric's `rows` as (system, row), the reference first, then every other system
    of `cmp` in its order, None where a system lacks a metric the reference has (a crashed
    or skipped benchmark): no system silently drops out of a table of one row per metric
    and system, and these rows are the "not compared" the counts give it. A metric the
    reference lacks is not compared for any system; its rows say so, no row is added."""
    by_system = {r["system"]: r for r in rows}
    if cmp.reference not in by_system:
        return [(r["system"], r) for r in rows]
    order = [cmp.reference, *(s for s in cmp.systems if s != cmp.reference)]
    return [(s, by_system.get(s)) for s in order]


def _detail_part(cmp: Comparison, benchmark: str, metric: str) -> pl.DataFrame:
    """One metric's rows, the reference first (whatever order `cmp` holds them in)."""
    part = cmp.rows.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))
    return part.sort("is_reference", descending=True, nulls_last=True, maintain_order=True)


def _scale(part: pl.DataFrame) -> Scale:
    """One metric's scale, from its systems' centres (see present/numbers.py)."""
    unit = part["unit"][0] if part.height else None
    return scale_for(part["center"].to_list(), unit)


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
    scale = _scale(part)
    best = best_systems(cmp, part).get((benchmark, metric))
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    notes: list[str] = []
    mean_kind = None
    p_key = "p_adjusted" if cmp.options.fdr else "p_welch"
    for system, r in with_absent(cmp, list(part.iter_rows(named=True))):
        if r is None:  # the system has no values of it
            rows.append([system, "-", "", "", ABSENT_WORDS, ""])
            continue
        mean_kind = r["mean_kind"]
        ref = r["is_reference"]
        centre = scale.text(r["center"])
        half = fmt_half_width(r["center"], r["ci_low"], r["ci_high"])
        overlap = r["ci_overlap"]
        single = uncounted(r, cmp)  # a same of one process too
        size = size_cell(r, cmp.percent)
        word = ABSENT_WORDS if r["verdict"] == "n/a" else r["verdict"]
        verdict = word + ("~" if single else "") + ("!" if r["robust"] is False else "")
        if r["system"] == best:
            marks[(len(rows), 0)] = "best"
        rows.append(
            [
                _system_label(r) + (f" {GLYPH}" if r["system"] == best else ""),
                f"{centre} {half}" if half else centre,
                "" if ref else size,
                "" if ref else fmt_p(r[p_key]),
                verdict,
                "" if overlap is None else ("overlap" if overlap else "apart"),
            ]
        )
        meaning = "reference" if ref else cell_meaning(r["verdict"], single)
        if meaning:
            marks[(len(rows) - 1, 2)] = meaning
            marks[(len(rows) - 1, 4)] = meaning
        if r["note"]:
            notes.append(f"{r['system']}: {r['note']}")
    centre_head = MEAN_LABEL.get(mean_kind or "", "")
    p_head = "p (BH)" if cmp.options.fdr else "p Welch"
    word = size_word(cmp.percent)
    columns = ["system", centre_head, f"{word} [95% CI]", p_head, "verdict", "CIs"]
    what = (
        "gain: the change oriented so that positive is better"
        if cmp.percent == "gain"
        else "change: ratio of centres - 1 (positive = a bigger number)"
    )
    notes.append(
        f"±: half the centre's 95% interval, relative to it; {centre_method(cmp)} {what}, "
        f"with its {SIZE_METHOD}. p: {P_METHOD}"
        + (", Benjamini-Hochberg adjusted" if cmp.options.fdr else "")
        + "; ?: direction unknown, the signed change. verdict~: from one iteration's "
        "samples only (one process: not counted, whichever the verdict); verdict!: "
        "per-iteration medians give "
        "another verdict. CIs: do the 95% intervals of the system and the reference "
        "overlap (not mmtests' rule: see mmtests_sig)?"
    )
    if best is not None:
        notes.append(LEGEND)
    if (threshold := cmp.options.threshold) is not None:
        notes.append(
            f"Verdicts against a practical margin of ±{threshold:g}%: equivalent when the "
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
        best=best,
    )


def noise_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    """One metric, one row per system: how much data there is and how noisy it is.

    Columns: iterations x samples per iteration, the centre's 95 % interval, the Mann-Whitney
    U p-value on all samples, the relative standard deviation of the samples with its flag,
    the Tukey outliers (low/high, and how many of them are extreme), and the smallest change
    these iterations detect with power 0.8 (with --threshold, also the iterations per system
    to detect the threshold). With --trim-outliers, also the centre of the untrimmed samples.
    """
    part = _detail_part(cmp, benchmark, metric)
    scale = _scale(part)
    trimmed = cmp.options.trimmed
    rows: list[list[object]] = []
    for r in part.iter_rows(named=True):
        rsd = "-" if r["rsd"] is None else f"{r['rsd']:.1f}%"
        if r["rsd_flag"] not in (None, "ok"):
            rsd += f" {r['rsd_flag']}"
        outliers = f"{r['outliers_low']}/{r['outliers_high']} ({r['outliers_extreme']})"
        detect = r["detectable_change"]
        needed = r["iterations_for_threshold"]
        row: list[object] = [
            _system_label(r),
            f"{r['iterations']}x{_per_iter(r)}",
            scale.interval(r["ci_low"], r["ci_high"]),
            "" if r["is_reference"] else _p_with_shift(r, cmp.percent),
            rsd,
            outliers,
            fmt_detectable(detect) if cmp.options.threshold is None else _text(needed),
        ]
        if trimmed:
            row.append(scale.text(r["center_raw"]))
        rows.append(row)
    # One column for what more iterations would buy (the table fits 80 cells).
    power = "MDE" if cmp.options.threshold is None else "need"
    columns = ["system", "n", "95% CI", "p U  shift", "RSD", "out", power]
    if trimmed:
        columns.append("raw")
    notes = [
        "n: iterations x samples per iteration. p U: Mann-Whitney U test on all samples, "
        f"and shift: the shift it tests ({size_word(cmp.percent)}, Hodges-Lehmann, relative to "
        "the reference's median). "
        "RSD: relative standard deviation of all samples (flagged noisy above 10%, "
        "very-noisy above 25%). out: outliers beyond Tukey's 1.5 IQR fences in their "
        "iteration, low/high (beyond 3 IQR). "
        + (
            "MDE: the smallest change Welch's test on these iterations detects with power "
            "0.8 (noncentral t on the spread of the iteration values; never the change seen)."
            if cmp.options.threshold is None
            else f"need: iterations per system for a t-test to detect a {cmp.options.threshold:g}% "
            "change with power 0.8 (the JSON and CSV also hold detectable_change)."
        )
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
        numeric=set(range(1, len(columns))) - {2, 5},
        slug=f"{benchmark}-{metric}-noise",
    )


def _p_with_shift(r: dict, percent: str) -> str:
    p = fmt_p(r["p_utest"])
    shift = oriented(r["utest_shift"], r["better"], percent)
    if shift is None or not math.isfinite(shift):
        return p
    mark = "" if r["better"] in ("lower", "higher") else "?"
    return f"{p} {mark}{fmt_pct(shift)}"


def _per_iter(r: dict) -> str:
    """Samples per iteration: one number when all iterations have the same count."""
    its, n = r["iterations"], r["samples"]
    return str(n // its) if its and n % its == 0 else f"~{n / its:.1f}"


def iterations_table(cmp: Comparison, benchmark: str, metric: str) -> Table:
    part = _detail_part(cmp, benchmark, metric)
    scale = _scale(part)
    systems = part["system"].to_list()
    values = part["iteration_values"].to_list()
    depth = max((len(v) for v in values), default=0)
    rows: list[list[object]] = [
        [str(i), *[scale.text(v[i]) if i < len(v) else "" for v in values]] for i in range(depth)
    ]
    return Table(
        f"{benchmark} {metric}: per-iteration values",
        ["iteration", *systems],
        rows,
        numeric=set(range(1, len(systems) + 1)),
        slug=f"{benchmark}-{metric}-iterations",
    )


def rows_table(cmp: Comparison) -> Table:
    """Every comparison row with raw values: the machine-readable table."""
    rows: list[list[object]] = []
    for t in cmp.rows.select(ROW_COLUMNS).iter_rows():
        r = list(t)
        i = ROW_COLUMNS.index("iteration_values")
        r[i] = " ".join(repr(v) for v in r[i])
        rows.append(r)
    return Table(f"Comparison against {cmp.reference}", list(ROW_COLUMNS), rows, slug="rows")
