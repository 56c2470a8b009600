"""The per-system summary table: each system's geometric mean of its ratios against the
reference, its interval, and the metrics it is over and leaves out (with why)."""

from __future__ import annotations

from tuibench.analysis.compare import Comparison
from tuibench.present.tables import Table
from tuibench.util.text import printable


def system_summary_table(cmp: Comparison, title: str = "") -> Table:
    """Per system against the reference: the geometric mean of its ratios over every metric
    of the comparison that can speak for it (above 1 is better), with its 95 % interval
    (or why none), and how many of those metrics are better, worse or the same."""
    summary = cmp.summary()
    threshold = cmp.options.threshold is not None  # inconclusive: neither same nor changed
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
        counts = [r["better"], r["worse"], r["same"]] + ([r["undecided"]] if threshold else [])
        rows.append([r["system"], r["metrics"], r["left_out"], cell, *counts])
        if lo is not None and lo > 1:
            marks[(len(rows) - 1, 3)] = "better"
        elif hi is not None and hi < 1:
            marks[(len(rows) - 1, 3)] = "worse"
    # Each system's reasons (the column is per system: a sum over them counted no metric).
    per_system = []
    for r in summary.iter_rows(named=True):
        reasons = r["left_out_reasons"] or {}
        words = ", ".join(f"{n} {_LEFT_OUT_WORDS.get(w, w)}" for w, n in reasons.items() if n)
        if words:
            per_system.append(f"{printable(r['system'])}: {words}" if len(rows) > 1 else words)
    why = "; ".join(per_system)
    notes = [
        f"Against {cmp.reference}, over every metric of the comparison (filters do not change "
        "it). Geomean: geometric mean of the ratios of centres oriented so that above 1 is "
        "better (reference/system for lower-is-better metrics); its 95% interval is Welch's t "
        "on the suite summaries of each side's iterations (each iteration one run of the "
        "suite), so it reflects the run-to-run noise of this suite, not how other benchmarks "
        "would move.",
        *(
            f"{r['system']}: {r['geomean_ci_note']}."
            for r in summary.iter_rows(named=True)
            if r.get("geomean_ci_note")
        ),
        "Better, worse, same"
        + (", undecided (inconclusive against the margin)" if threshold else "")
        + ": among the metrics the geomean is over (the column 'metrics'), whatever the "
        "filter, so they may differ from the answer's counts (of every compared metric, or "
        "of those a filter keeps).",
        "Left out: metrics only one side has, without a ratio, of unknown direction, with one "
        "iteration on a side, duplicates of another metric of the same benchmark (a constant "
        "multiple or reciprocal of it) and constants."
        + (f" The column counts: {why}." if why else ""),
    ]
    return Table(
        title or f"Systems against {cmp.reference}",
        ["system", "metrics", "left out", "geomean [95% CI]", "better", "worse", "same"]
        + (["undecided"] if threshold else []),
        rows,
        notes,
        marks,
        numeric=set(range(1, 8 if threshold else 7)),
        slug="systems",
    )


# Each reason of `left_out_reasons` (analysis/compare/columns.LEFT_OUT_REASONS) after a count.
_LEFT_OUT_WORDS = {
    "only one side has it": "that only one side has",
    "no ratio": "without a ratio",
    "direction unknown": "of unknown direction",
    "one iteration on a side": "with one iteration on a side",
    "duplicate": "duplicating another",
    "constant": "constant",
}
