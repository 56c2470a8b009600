"""The answer as Markdown: what the explorer's first screen shows, to paste into a review.

The same lines as the screen, in the same order: the word on a reference chosen by name,
the ranking, then per system its counts, the warnings its verdicts must be read with and
its listed changes (as a table), and the legend.
"""

from __future__ import annotations

from collections.abc import Sequence

from tuibench.output.export import md_escape
from tuibench.present.answer import (
    Answer,
    counts_text,
    flag_marks,
    geomean_text,
    legend,
    quiet_text,
    ranking_items,
    size_parts,
    warning_lines,
)
from tuibench.present.tables import fmt_p
from tuibench.util.text import printable


def answer_markdown(
    answer: Answer,
    ranking: Sequence[tuple[str, float | None]] = (),
    reference_note: Sequence[str] = (),
) -> str:
    """The answer as shown, as Markdown (`ranking`: best first, as the screen ranks)."""
    n = len(answer.systems)
    parts = [
        f"**The answer** · {n} system{'s' if n != 1 else ''} against {md_escape(answer.reference)}",
        "",
    ]
    if reference_note:
        parts += [*(f"> {md_escape(line)}" for line in reference_note), ""]
    if ranking:
        parts += [_ranking(ranking, answer.reference), ""]
    if not answer.systems:
        parts.append(md_escape(f"Only {answer.reference}: nothing to compare it with."))
        return "\n".join(parts) + "\n"
    for a in answer.systems:
        head = counts_text(a, answer.reference)
        g = geomean_text(a)
        parts.append(f"**{md_escape(head)}**" + (f" · {g}" if g else ""))
        parts += [f"- {md_escape(w)}" for w in warning_lines(a, answer)]
        parts.append("")
        if a.changes:
            parts += _changes(a, answer.percent)
        if a.more:
            s = "s" if a.more != 1 else ""
            parts.append(f"… {a.more} more significant change{s}")
        elif not a.changes:
            parts.append(quiet_text(a, answer.threshold))
        parts.append("")
    parts.append(md_escape(legend(answer)))
    return "\n".join(parts) + "\n"


def _ranking(ranking: Sequence[tuple[str, float | None]], reference: str) -> str:
    items = ranking_items(ranking, reference)
    return "Ranking by geomean: " + " · ".join(
        f"{rank}{md_escape(name)} {what}" for rank, name, what in items
    )


def _changes(a, percent: str) -> list[str]:
    what = "Gain" if percent == "gain" else "Change"
    rows = [
        f"| | {what} | 95% CI | p | Verdict | Warnings | Metric |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for c in a.changes:
        size, interval = size_parts(c)
        tag = f" {t}" if (t := c.tag()) else ""
        p = fmt_p(c.p, short=True)
        cells = [c.glyph, size, interval, p, c.verdict + tag, flag_marks(c)]
        cells.append(printable(c.name))
        rows.append("| " + " | ".join(md_escape(cell) for cell in cells) + " |")
    return rows
