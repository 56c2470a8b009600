"""The answer's lines, as plain parts and cells: what the answer pane draws, made without
Textual or Rich. Styles are named (`Palette.named`: "bold", "muted", "accent", "warning",
"worse", "better") and taken from the theme's palette where the lines are drawn
(widgets/answer_view.py). A first open's loading child makes them for the first screen's
picture (picture.py), before the explorer has polars."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tuibench.tui.format import text_width
from tuibench.tui.view.state import Node
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.present.answer import Answer, SystemAnswer
    from tuibench.tui.view.session import Session


Part = tuple[str, str | None]  # a text and the name of its style


@dataclass(frozen=True)
class Line:
    parts: list[Part]  # fixed text (headings, notes)
    # a change: glyph, size, interval, p, verdict, warnings' marks, name, note
    cells: list[str] | None = None
    verdict: str | None = None
    node: Node | None = None  # what enter opens


# The ranking wraps between systems within this many cells: the answer's width at 80
# columns (its lines are drawn as they are, cut at the pane's edge).
RANKING_WIDTH = 76


def ranking_lines(ranking: Sequence, reference: str) -> list[Line]:
    """`Ranking  #1 tuned 1.014 · #2 base (reference) · #3 patched 0.984`."""
    from tuibench.present.answer import ranking_items

    if not ranking:
        return []
    head = "Ranking by geomean "
    lines: list[list[tuple[str, str | None]]] = [[(head, "bold")]]
    used = len(head)
    for i, (rank, name, what) in enumerate(ranking_items(ranking, reference)):
        item: list[tuple[str, str | None]] = [(rank, "accent")] if rank else []
        item += [(printable(name), None), (f" {what}", "muted")]
        width = sum(text_width(text) for text, _ in item)
        if i and used + 3 + width > RANKING_WIDTH:  # on a line of its own: no name cut off
            lines.append([("  ", None)])
            used = 2
        elif i:
            lines[-1].append((" · ", "muted"))
            used += 3
        lines[-1] += item
        used += width
    return [*(Line(parts) for parts in lines), Line([])]


def view_lines(answer: Answer, ranks: dict[str, int] | None = None) -> list[Line]:
    from tuibench.present.answer import (  # polars: after the first frame
        flag_marks,
        quiet_text,
        scope_text,
        size_parts,
        warning_lines,
    )
    from tuibench.present.tables import fmt_p

    lines: list[Line] = []
    muted = "muted"
    ranks = ranks or {}
    if not answer.systems:
        text = f"Only {printable(answer.reference)}: nothing to compare it with."
        return [Line([(text, None)])]
    for a in answer.systems:
        if lines:
            lines.append(Line([]))
        lines.append(Line(_heading(a, answer.reference, ranks.get(a.system, 0))))
        lines.append(Line(_counts(a)))
        if scope := scope_text(a):
            lines.append(Line([(f"   {scope}", muted)]))
        # what the verdicts must be read with, in words, a short line each (80 columns)
        lines += [Line([(f"   {w}", "warning")]) for w in warning_lines(a, answer)]
        if a.changes:
            what = "gain" if answer.percent == "gain" else "change"
            lines.append(Line([], [" ", what, "[95% CI]", "p", "verdict", "", "metric", ""]))
        for c in a.changes:
            p = fmt_p(c.p, short=True)
            cells = [c.glyph, *size_parts(c), p, c.verdict, flag_marks(c)]
            cells += [printable(c.name), f" {t}" if (t := c.tag(short=True)) else ""]
            lines.append(Line([], cells, c.meaning, Node.of_metric(c.benchmark, c.metric)))
        if a.more:
            more = f"   … {a.more} more significant changes: f and s order them in the tree"
            lines.append(Line([(more, muted)]))
        if not a.changes and not a.more:
            lines.append(Line([(f"   {quiet_text(a, answer.threshold)}", muted)]))
    return lines


def _heading(a: SystemAnswer, reference: str, rank: int) -> list:
    from tuibench.present.answer import geomean_text

    parts: list[tuple[str, str | None]] = []
    if rank:
        parts.append((f"#{rank} ", "accent"))
    parts.append((printable(a.system), "bold"))
    parts.append((f" vs {printable(reference)}", "muted"))
    g = geomean_text(a, scope=False)  # on a line of its own: the heading stays short
    if g:
        parts.append((f"  {g}", None))
    return parts


def _counts(a: SystemAnswer) -> list:
    from tuibench.present.answer import single_words  # polars: after the first frame

    sep = (" · ", "muted")
    parts: list[tuple[str, str | None]] = [
        ("  ", None),
        (f"▼{a.worse} worse", "worse" if a.worse else "muted"),
        sep,
        (f"▲{a.better} better", "better" if a.better else "muted"),
        sep,
        (f"{a.same} same", None),
    ]
    single = single_words(a)
    for n, what in [
        (a.other, "undecided"),
        (a.missing, "not compared"),
        (a.unknown, "of unknown direction"),
        (a.single_iteration, single),
    ]:
        if n:
            parts += [sep, (f"{n} {what}", "warning")]
    return parts


@dataclass(frozen=True)
class AnswerContent:
    """The answer pane as drawn: its title, its lines and the notes under them."""

    title: list[Part]
    lines: list[Line]
    notes: str  # muted


def answer_parts(session: Session) -> tuple[Answer, list[tuple[str, float | None]], list[str]]:
    """What the answer pane of `session` is made of: its answer, the systems' ranking (of
    three systems or more) and the word on a reference chosen by name order."""
    ranking = session.ranking() if len(session.systems) > 2 else []
    return session.answer(), ranking, session.reference_note()


def answer_content(
    answer: Answer,
    ranking: Sequence[tuple[str, float | None]] = (),
    reference_note: Sequence[str] = (),
) -> AnswerContent:
    """The pane of `answer`, after the word on a reference chosen by name order and the
    ranking of the systems, when there are."""
    from tuibench.present.answer import legend, places  # polars: after the first frame

    n = len(answer.systems)
    others = f"{n} system{'s' if n != 1 else ''}"
    title: list[Part] = [
        ("The answer", "bold"),
        (f" · {others} against {printable(answer.reference)}", "muted"),
        (" · v: the table of every metric", "muted"),
    ]
    lines = [Line([(line, "warning")]) for line in reference_note]
    lines += [Line([])] if reference_note else []
    lines += ranking_lines(ranking, answer.reference)
    lines += view_lines(answer, places(ranking))
    notes = legend(answer) + " enter: open a change's metric; n / N: the next / previous."
    if ranking:
        notes += (
            " #: rank of each system (the reference among them at 1.000) by its "
            "geometric mean; overlapping intervals mean the order is not certain."
        )
    return AnswerContent(title, lines, notes)
