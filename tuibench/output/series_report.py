"""`tuibench report --series`: the change points (and the systems ranked) in every format."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from tuibench.analysis.series.changepoints import CHANGE_COLUMNS, ChangePoints, detect
from tuibench.analysis.series.data import METRIC, SeriesData, series_data
from tuibench.analysis.series.ranking import (
    rank_metrics,
    rank_summary,
    ranking_lines,
    ranking_text,
)
from tuibench.output.export import json_text, json_value, render_output
from tuibench.present.numbers import Scale, scale_for
from tuibench.present.series_display import size_header, step_size
from tuibench.present.tables import Table, fmt_p, fmt_ratio_change

SUMMARY_RANK_COLUMNS = [
    "system",
    "rank",
    "group",
    "metrics",
    "geomean_gain",
    "gain_ci_low",
    "gain_ci_high",
    "p_next",
    "apart_from_next",
]


@dataclass
class SeriesReport:
    changes: ChangePoints
    ranked: pl.DataFrame  # SUMMARY_RANK_COLUMNS
    reference: str
    percent: str = "gain"
    metric_ranks: pl.DataFrame | None = None  # ranking_lines: one per metric

    @property
    def regressions(self) -> int:
        """Worse steps at the last system of the series (the newest against the level before)."""
        return self.changes.last_system_regressions().height


def restrict(data: SeriesData, metrics: pl.DataFrame) -> SeriesData:
    """The metrics of `data` that are in `metrics` (benchmark, metric), in `data`'s order."""
    keep = (
        data.keys.select(METRIC)
        .join(
            metrics.select(METRIC).unique().with_columns(pl.lit(True).alias("_k")),
            on=METRIC,
            how="left",
            maintain_order="left",
        )["_k"]
        .fill_null(False)
        .to_numpy()
    )
    return SeriesData(
        data.keys.filter(pl.Series(keep)),
        data.systems,
        data.count[keep],
        data.total[keep],
        data.squares[keep],
        data.shift[keep],
        data.hmean[keep],
    )


SERIES_MIN = 3  # systems: with two, the one possible step is the plain comparison


def short_series_note(systems: list[str]) -> str | None:
    """What a series of fewer than SERIES_MIN systems can say, or None."""
    if len(systems) >= SERIES_MIN:
        return None
    if len(systems) < 2:
        only = f" ({systems[0]})" if systems else ""
        return (
            f"A series needs three systems or more; only one was loaded{only}: nothing to compare."
        )
    return (
        "A series needs three systems or more to say where along it a metric changed; "
        f"with two ({systems[0]}, {systems[1]}) the one possible step is their difference: "
        "`tuibench report` without --series compares them in full."
    )


def series_report(analysis, cmp, alpha: float = 0.05) -> SeriesReport:
    """Change points of the metrics in `cmp` (already filtered), and the systems ranked."""
    data = restrict(series_data(analysis), cmp.rows)
    lines = ranking_lines(rank_metrics(analysis, data, alpha))
    changes = detect(data, alpha)
    if note := short_series_note(changes.systems):
        changes.notes.insert(0, note)
    return SeriesReport(changes, rank_summary(cmp, alpha), cmp.reference, cmp.percent, lines)


def _step(r: dict) -> str:
    return f"{r['previous']} -> {r['system']}"


def _level(scale: Scale, value: float | None, first: str, last: str) -> str:
    span = first if first == last else f"{first} .. {last}"
    return f"{scale.text(value)} ({span})"


def changes_table(report: SeriesReport) -> Table:
    """One row per change point: where, the two levels, the gain with its interval, p."""
    cp = report.changes
    rows = []
    marks = {}
    for r in cp.changes.iter_rows(named=True):
        size = step_size(r, report.percent)
        scale = scale_for([r["before"], r["after"]], r["unit"])  # one scale for the two levels
        rows.append(
            [
                f"{r['benchmark']} {r['metric']}",
                _step(r),
                _level(scale, r["before"], r["level_from"], r["previous"]),
                _level(scale, r["after"], r["system"], r["level_to"]),
                size,
                fmt_p(r["p_split"]),
                r["verdict"] + (" (last system)" if r["at_last"] else ""),
            ]
        )
        if r["verdict"] in ("better", "worse"):
            marks[(len(rows) - 1, 4)] = r["verdict"]
    how = "Benjamini-Hochberg over the metrics, then" if cp.fdr else "per metric,"
    notes = [
        f"Series ({len(cp.systems)} system(s), in order): " + ", ".join(cp.systems) + ".",
        "Step: the system before -> the first system at the new level. Before/After: the "
        "centre of the iteration values of each level (the systems it spans). The step: "
        "after against before with its 95 % interval, as a gain (positive = better) or, "
        "with --percent change, the signed change; ? marks a metric whose direction is "
        "unknown (its signed change).",
        f"Detection over {cp.tested} metric(s): binary segmentation on the systems' levels: "
        "every cut of the series and every run of one to three systems is tested between "
        "its two levels by a t-test whose standard error includes the jitter between "
        "systems (how far their means scatter beyond what their iterations explain), "
        f"Bonferroni over those candidates, {how} "
        + (
            f"every accepted change point has p < {cp.level:.3g} (alpha {cp.alpha:g})."
            if cp.level > 0
            else f"none reached the level at alpha {cp.alpha:g}."
        )
        + " p: that adjusted p. The step's "
        "interval comes from the same test between its final levels; it is better or "
        "worse only when that interval excludes no change.",
        *cp.notes,
    ]
    if short := short_series_note(cp.systems):  # first, said once
        notes = [short, *(n for n in notes if n != short)]
    elif not rows:
        notes.insert(0, f"No change points among {cp.tested} tested metric(s).")
    return Table(
        "Change points along the series",
        ["Metric", "Step", "Before", "After", size_header(report.percent), "p", "Verdict"],
        rows,
        notes,
        marks,
        numeric={2, 3, 5},
        slug="changes",
    )


def ranking_table(report: SeriesReport) -> Table:
    r = report.ranked
    rows = [
        [
            x["rank"],
            x["system"],
            x["group"],
            "0 (the reference)"
            if x["system"] == report.reference
            else fmt_ratio_change(
                1 + x["geomean_gain"],
                None if x["gain_ci_low"] is None else 1 + x["gain_ci_low"],
                None if x["gain_ci_high"] is None else 1 + x["gain_ci_high"],
                "higher",  # already a gain: positive = better
                "gain",
            ),
            x["metrics"],
            fmt_p(x["p_next"]),
        ]
        for x in r.iter_rows(named=True)
    ]
    text = ranking_text(r["system"].to_list(), r["group"].to_list()) if r.height else ""
    notes = [
        f"Best first: {text}." if text else "No system has metrics with a known direction.",
        f"Geometric mean gain against {report.reference} over the metrics whose direction "
        "is known, with a 95 % t interval over the metrics' gains (how they spread across "
        "metrics, not the run-to-run noise the per-system summary's interval measures). "
        "Neighbours share a group when "
        "their intervals overlap and Welch's test between them (p next) is not below "
        f"alpha ({report.changes.alpha:g}): the data cannot tell them apart.",
    ]
    return Table(
        f"Systems ranked against {report.reference}",
        ["Rank", "System", "Group", "Geomean gain [95% CI]", "Metrics", "p next"],
        rows,
        notes,
        numeric={0, 2, 4, 5},
        slug="ranking",
    )


def metric_ranking_table(report: SeriesReport) -> Table:
    """Per metric, the systems best first with the groups the data cannot tell apart."""
    lines = report.metric_ranks
    rows = (
        []
        if lines is None
        else [[f"{b} {m}", text] for b, m, text in lines.select(*METRIC, "ranking").iter_rows()]
    )
    return Table(
        "Systems ranked per metric, best first",
        ["Metric", "Ranking"],
        rows,
        [
            "In braces: neighbours in the order whose 95 % intervals overlap and whose "
            f"Welch p is not below alpha ({report.changes.alpha:g}): the data cannot tell "
            "them apart. Groups chain: in a group of three, the first and the last may "
            "still differ. A system with one iteration is told apart from none: its interval "
            "comes from the samples of one process, which cannot say how runs differ."
        ],
        slug="rankings",
    )


def changes_data_table(report: SeriesReport) -> Table:
    """Every field of every change point (csv and tsv)."""
    rows = [list(r) for r in report.changes.changes.select(CHANGE_COLUMNS).iter_rows()]
    return Table("Change points", list(CHANGE_COLUMNS), rows, slug="changes")


def series_document(report: SeriesReport, problems: list) -> dict:
    """`tuibench report --series --format json` (keys documented in the README)."""

    def records(frame: pl.DataFrame) -> list[dict]:
        return [{k: json_value(v) for k, v in r.items()} for r in frame.iter_rows(named=True)]

    cp = report.changes
    return {
        "systems": cp.systems,
        "alpha": cp.alpha,
        "fdr": cp.fdr,
        "metrics_tested": cp.tested,
        "level": cp.level,
        "changes": records(cp.changes),
        "reference": report.reference,
        "ranking": records(report.ranked.select(SUMMARY_RANK_COLUMNS)),
        "metric_rankings": [] if report.metric_ranks is None else records(report.metric_ranks),
        "notes": cp.notes,
        "problems": [p.to_dict() for p in problems],
    }


def render_series(report: SeriesReport, fmt: str, problems: list) -> str:
    return render_output(
        fmt,
        lambda: [changes_table(report), ranking_table(report), metric_ranking_table(report)],
        lambda: json_text(series_document(report, problems)),
        data=lambda: changes_data_table(report),
    )
