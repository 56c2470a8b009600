"""`tuibench decide` as text, Markdown or JSON (the report's renderers and JSON writer)."""

from __future__ import annotations

from tuibench.analysis.stopping import METHOD, Decision
from tuibench.model.problems import Problem
from tuibench.output.export import json_lines, render_output
from tuibench.present.tables import Table, fmt_ratio_change

VERDICTS = ("worse", "better", "changed", "same", "inconclusive", "undecided", "n/a")


def verdict_words(r: dict) -> str:
    v = r["verdict"]
    if v == "same":
        return f"same within ±{r['within'] * 100:.3g} %"
    if v == "undecided":
        more = r["more_iterations"]
        if more is None:
            return "undecided: a second iteration is needed for any estimate"
        if more < 0:
            return "undecided: more than 1,000 more iterations"
        return f"undecided: about {more} more iteration{'s' if more != 1 else ''}"
    if v == "n/a" and r.get("reason"):
        return f"n/a: {r['reason']}"
    if v == "inconclusive":  # only at the last look: more iterations will not come
        return f"inconclusive at {r['pairs']} iterations"
    return v


def _final_mark(r: dict) -> str:
    return " (fixed-sample, last look)" if r["final"] else ""


def summary_line(dec: Decision) -> str:
    counts = [f"{dec.count(v)} {v}" for v in VERDICTS if dec.count(v)]
    return "; ".join(counts) if counts else "nothing to compare"


def decision_table(dec: Decision) -> Table:
    rows = [
        [
            r["benchmark"],
            r["metric"],
            r["system"],
            r["pairs"],
            fmt_ratio_change(
                None if r["change"] is None else 1 + r["change"],
                r["ratio_low"],
                r["ratio_high"],
                r["better"],
                "change",
            ),
            verdict_words(r) + _final_mark(r),
        ]
        for r in dec.rows.iter_rows(named=True)
    ]
    marks = {(i, 5): r[5].split(" ")[0].rstrip(":") for i, r in enumerate(rows)}
    notes = [
        f"vs {dec.reference}: {summary_line(dec)}",
        f"Method: {METHOD}; alpha {dec.alpha:g}, same = within ±{dec.threshold:g} %.",
        "Iterations: pairs of iterations (the system's i-th with the reference's i-th); "
        "change: the ratio of geometric means - 1, with its confidence-sequence interval.",
    ]
    if dec.max_iterations is not None:
        notes.append(
            f"From {dec.max_iterations} iterations, an undecided metric gets a fixed-sample "
            f"paired t verdict ({100 * (1 - dec.alpha):g} % interval), marked as the last look: "
            f"worse or better when it excludes 0, same when it lies within ±{dec.threshold:g} %, "
            "else inconclusive (the iterations allowed cannot settle it)."
        )
    return Table(
        f"tuibench decide: vs {dec.reference}",
        ["benchmark", "metric", "system", "iterations", "change [interval]", "verdict"],
        rows,
        notes=notes,
        marks=marks,
        numeric={3},
        slug="decide",
    )


def decision_json(dec: Decision, problems: list[Problem]) -> str:
    """One line per row and problem, as `tuibench report --format json`."""
    settings = {
        "reference": dec.reference,
        "alpha": dec.alpha,
        "threshold": dec.threshold,
        "max_iterations": dec.max_iterations,
        "method": METHOD,
        "counts": {v: dec.count(v) for v in VERDICTS},
    }
    return json_lines(settings, {"rows": dec.rows}, problems)


def render_decision(dec: Decision, fmt: str, problems: list[Problem]) -> str:
    return render_output(fmt, lambda: decision_table(dec), lambda: decision_json(dec, problems))
