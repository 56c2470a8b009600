"""What exports and copies hold: tables that stand alone.

On screen a verdict is also a colour and the header says what the reference is; a table
pasted into a mail has neither. So every human-readable export (Markdown, text, LaTeX)
opens with the per-system line and holds, per system, the verdict in words, the gain (or
change) with its 95 % interval and the p-value that decided; CSV, TSV and JSON hold the real
fields of `tuibench report`, never display strings; HTML is the complete report.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import polars as pl

from tuibench.analysis.best import GLYPH, LEGEND, MIN_SYSTEMS, best_systems
from tuibench.analysis.compare import Comparison
from tuibench.present.answer import build_answer, counts_text, warning_lines
from tuibench.present.numbers import metric_scales, scale_for
from tuibench.present.systems_table import system_summary_table
from tuibench.present.tables import (
    ABSENT_WORDS,
    MEAN_LABEL,
    P_METHOD,
    SIZE_METHOD,
    Table,
    centre_method,
    detail_table,
    direction_notes,
    fmt_half_width,
    fmt_p,
    oriented,
    size_cell,
    size_word,
    uncounted,
    with_absent,
    without_ratio,
)
from tuibench.util.text import printable

HUMAN = ("markdown", "text", "latex")
# Verdicts that colour a cell (the others read the same in black and white).
MARKED = ("worse", "better", "reference")


@dataclass
class Shareable:
    """One thing to export or copy: the comparison of the metrics below a place in the tree.

    `metric` names the one metric when the place is a metric (its detail table is then the
    human table); `facts` are the header lines of the HTML report (options of the run).
    `whole`: every metric of the place when `cmp` holds only those shown (`f`, a filter,
    `--only-significant`): the counts are over it, as the per-system summary is.
    """

    cmp: Comparison
    title: str
    metric: tuple[str, str] | None = None
    facts: list[tuple[str, str]] = field(default_factory=list)
    whole: Comparison | None = None
    heads: list[str] = field(default_factory=list)  # said first (a reference chosen by name)

    @property
    def counted(self) -> Comparison:
        """The comparison the per-system counts are over."""
        return self.whole if self.whole is not None else self.cmp

    def human_tables(self) -> list[Table]:
        if self.metric is not None:
            return [detail_table(self.cmp, *self.metric)]
        tables = [changes_table(self.cmp, self.title)]
        if len(self.cmp.systems) > 1 and self.cmp.rows.height:
            tables.append(system_summary_table(self.cmp))
        return tables


def merged(items: list[Shareable]) -> Shareable:
    """Several shareables as one (for the one HTML report): they must share a comparison's
    settings; a metric marked twice appears once."""
    if len(items) == 1:
        return items[0]
    head = items[0]
    settings = {
        (s.cmp.reference, s.cmp.options.alpha, s.cmp.options.fdr, s.cmp.options.threshold)
        for s in items
    }
    if len(settings) > 1:
        raise ValueError(
            "the marked tables compare against different references or settings: one HTML "
            "report holds one comparison; export them one at a time, or as Markdown"
        )
    rows = pl.concat([s.cmp.rows for s in items]).unique(
        subset=["benchmark", "metric", "system"], keep="first", maintain_order=True
    )
    cmp = dataclasses.replace(head.cmp, rows=rows)
    whole = None
    wholes = [s.whole for s in items if s.whole is not None]
    if len(wholes) == len(items):
        every = pl.concat([w.rows for w in wholes])
        every = every.unique(subset=["benchmark", "metric", "system"], maintain_order=True)
        whole = dataclasses.replace(head.cmp, rows=every)
    return Shareable(cmp, f"{len(items)} marked tables", None, head.facts, whole, head.heads)


def run_facts(paths: list[str], subselections: int, seed: int) -> list[tuple[str, str]]:
    """What the HTML report's header says about the run, beyond the comparison's options."""
    return [
        ("results", " ".join(paths)),
        ("subselections", str(subselections)),
        ("seed", str(seed)),
    ]


# -- the per-system line ----------------------------------------------------------------------
def system_lines(cmp: Comparison, whole: Comparison | None = None) -> list[str]:
    """`patched vs base: ▼8 worse · ▲2 better · 101 same` for every non-reference system,
    as the explorer's answer shows it (counted over `whole` when given), each followed by
    what its verdicts must be read with (not robust, two iterations, chance, ...)."""
    answer = build_answer(cmp, limit=0, whole=whole)
    lines = []
    for a in answer.systems:
        lines.append(counts_text(a, cmp.reference))
        lines += [f"  {w}" for w in warning_lines(a, answer)]
    return lines


def metric_count(cmp: Comparison) -> int:
    return cmp.rows.select("benchmark", "metric").n_unique()


def scope(s: Shareable) -> list[str]:
    """Says what the counts cover when the table lists fewer metrics than they do."""
    if s.whole is None or s.metric is not None:
        return []
    counted, listed = metric_count(s.whole), metric_count(s.cmp)
    if listed >= counted:
        return []
    return [
        f"Counts over all {counted} metrics; the table lists {listed} of them (those shown: "
        "only significant changes, or a filter)."
    ]


# -- the long table -----------------------------------------------------------------------------
def gain_value(r: dict, percent: str = "gain") -> float | None:
    """The row's size as a fraction, in the table's convention (`tables.oriented`): the gain
    by default, the signed change with percent="change" or where the direction is unknown."""
    ratio = r["ratio"]
    if ratio is None or not math.isfinite(ratio):
        return without_ratio(r, percent)
    return oriented(ratio - 1, r["better"], percent)


ABSENT_NOTE = "no values of this metric"  # beside ABSENT_WORDS on the page


def verdict_words(r: dict, cmp: Comparison) -> str:
    """The verdict in words, as the counts name it: `not compared` for no value or no
    test, and a verdict of one iteration that is not counted says so."""
    v = r["verdict"]
    if uncounted(r, cmp):
        return f"{v} (one iteration, not counted)"
    return ABSENT_WORDS if v == "n/a" else v


def by_metric(cmp: Comparison) -> list[list[dict]]:
    """The comparison's rows, one list per metric (rows come grouped by metric)."""
    out: list[list[dict]] = []
    key = None
    for r in cmp.rows.iter_rows(named=True):
        if (r["benchmark"], r["metric"]) != key:
            key = (r["benchmark"], r["metric"])
            out.append([])
        out[-1].append(r)
    return out


def changes_table(cmp: Comparison, title: str = "") -> Table:
    """One row per metric and system (the reference first): the centre with its interval's
    half-width, the gain with its 95 % interval, the deciding p and the verdict in words."""
    p_key = "p_adjusted" if cmp.options.fdr else "p_welch"
    rows: list[list[object]] = []
    marks: dict[tuple[int, int], str] = {}
    scales = metric_scales(cmp.rows)
    best = best_systems(cmp)
    for metric in by_metric(cmp):
        for system, row in with_absent(cmp, metric):
            if row is None:
                name = [metric[0]["benchmark"], metric[0]["metric"], system]
                rows.append([*name, "-", "", "", "", ABSENT_WORDS])
            else:
                _change_row(cmp, row, rows, marks, scales, best, p_key)
    p_head = "p (BH)" if cmp.options.fdr else "p Welch"
    return Table(
        title or f"Comparison against {cmp.reference}",
        [
            "benchmark",
            "metric",
            "system",
            "centre ±95%",
            "mean",
            f"{size_word(cmp.percent)} [95% CI]",
            p_head,
            "verdict",
        ],
        rows,
        changes_notes(cmp),
        marks,
        numeric={3, 5, 6},
        slug="changes",
    )


def _change_row(
    cmp: Comparison,
    r: dict,
    rows: list[list[object]],
    marks: dict[tuple[int, int], str],
    scales: dict,
    best: dict,
    p_key: str,
) -> None:
    """One row of `changes_table`, appended to `rows` (its colours to `marks`)."""
    ref = r["is_reference"]
    star = best.get((r["benchmark"], r["metric"])) == r["system"]
    if star:
        marks[(len(rows), 2)] = "best"
    centre = scales[(r["benchmark"], r["metric"])].text(r["center"])
    half = fmt_half_width(r["center"], r["ci_low"], r["ci_high"])
    rows.append(
        [
            r["benchmark"],
            r["metric"],
            r["system"] + (f" {GLYPH}" if star else ""),
            centre + (f" {half}" if half else ""),
            MEAN_LABEL.get(r["mean_kind"], r["mean_kind"] or ""),
            "" if ref else size_cell(r, cmp.percent),
            "" if ref else fmt_p(r[p_key]),
            verdict_words(r, cmp),
        ]
    )
    if r["verdict"] in MARKED:
        marks[(len(rows) - 1, 7)] = r["verdict"]
        if not ref:
            marks[(len(rows) - 1, 5)] = r["verdict"]


def changes_notes(cmp: Comparison) -> list[str]:
    p_name = P_METHOD + (
        ", Benjamini-Hochberg adjusted over the rows shown" if cmp.options.fdr else ""
    )
    if cmp.percent == "gain":
        size = (
            "gain: how much better the system is than the reference (positive = better; the "
            "signed change, marked ?, where the direction is unknown)"
        )
    else:
        size = "change: the signed change of the centre (positive = a bigger number)"
    notes = [
        f"Reference: {printable(cmp.reference)}. {size}, with its {SIZE_METHOD}. "
        f"p: {p_name}; a change is significant when p < {cmp.options.alpha:g}.",
        "centre ±95%: the centre and half its 95% interval, relative to it. Amean: "
        "arithmetic mean; Hmean: harmonic mean, for rates; " + centre_method(cmp),
        *direction_notes(cmp),
    ]
    if len(cmp.systems) >= MIN_SYSTEMS:
        notes.append(LEGEND)
    if (threshold := cmp.options.threshold) is not None:
        notes.append(
            f"Verdicts against a practical margin of ±{threshold:g}%: equivalent when the "
            "change's 95% interval lies inside it, worse or better when the change is "
            "significant and the whole interval lies beyond it, inconclusive otherwise."
        )
    return notes


def row_sentence(r: dict, cmp: Comparison) -> str:
    """One comparison row as a sentence that stands alone (the `current row` copy)."""
    name = printable(f"{r['benchmark']} {r['metric']}")
    ref_centre = _reference_centre(cmp, r)
    scale = scale_for([r["center"], ref_centre], r["unit"])  # the two centres, told apart
    shown = printable(scale.text(r["center"]))
    system, reference = printable(r["system"]), printable(cmp.reference)
    if r["is_reference"]:
        return f"{name}: {system} is the reference, centre {shown}"
    p_name = "p (BH)" if cmp.options.fdr else "p Welch"
    p = fmt_p(r["p_adjusted" if cmp.options.fdr else "p_welch"])
    percent = cmp.percent
    return (
        f"{name}: {system} vs {reference}: {verdict_words(r, cmp)}, "
        f"{size_word(percent)} {size_cell(r, percent)}, {p_name} {p} "
        f"(alpha {cmp.options.alpha:g}); centre {shown} vs {printable(scale.text(ref_centre))}"
    )


def _reference_centre(cmp: Comparison, r: dict) -> float | None:
    ref = cmp.rows.filter(
        (pl.col("benchmark") == r["benchmark"])
        & (pl.col("metric") == r["metric"])
        & pl.col("is_reference")
    )
    return ref["center"][0] if ref.height else None


def row_sentences(cmp: Comparison) -> str:
    """Every non-reference row of `cmp` (one metric) as a sentence, one per line."""
    rows = [r for r in cmp.rows.iter_rows(named=True) if not r["is_reference"]]
    return "".join(row_sentence(r, cmp) + "\n" for r in rows)
