"""The first screen: per system against the reference, the counts and the significant
changes worst first, one per line, each line opening its metric.

A line-API widget drawn from plain strings: a line is cheap whatever the number of metrics,
and the columns are sized from the strings' lengths (no Rich measuring). Numbers come first
after the glyph, so they are never cut; the name takes what is left, shortened in the
middle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tuibench.tui.format import shorten_distinct, shorten_middle, text_width
from tuibench.tui.palette import Palette
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.repaint import PaintedWhole
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.present.answer import Answer, SystemAnswer


@dataclass(frozen=True)
class Line:
    parts: list[tuple[str, Style | None]]  # fixed text (headings, notes)
    # a change: glyph, size, interval, p, verdict, warnings' marks, name, note
    cells: list[str] | None = None
    verdict: str | None = None
    node: Node | None = None  # what enter opens


BOLD = Style(bold=True)  # one for every heading: 10,000 systems made 10,000


# The ranking wraps between systems within this many cells: the answer's width at 80
# columns (its lines are drawn as they are, cut at the pane's edge).
RANKING_WIDTH = 76


def ranking_lines(ranking: Sequence, reference: str, palette: Palette) -> list[Line]:
    """`Ranking  #1 tuned 1.014 · #2 base (reference) · #3 patched 0.984`."""
    from tuibench.present.answer import ranking_items

    if not ranking:
        return []
    head = "Ranking by geomean "
    lines: list[list[tuple[str, Style | None]]] = [[(head, BOLD)]]
    used = len(head)
    for i, (rank, name, what) in enumerate(ranking_items(ranking, reference)):
        item: list[tuple[str, Style | None]] = [(rank, palette.accent_style)] if rank else []
        item += [(printable(name), None), (f" {what}", palette.muted)]
        width = sum(text_width(text) for text, _ in item)
        if i and used + 3 + width > RANKING_WIDTH:  # on a line of its own: no name cut off
            lines.append([("  ", None)])
            used = 2
        elif i:
            lines[-1].append((" · ", palette.muted))
            used += 3
        lines[-1] += item
        used += width
    return [*(Line(parts) for parts in lines), Line([])]


def view_lines(answer: Answer, palette: Palette, ranks: dict[str, int] | None = None) -> list[Line]:
    from tuibench.present.answer import (  # polars: after the first frame
        flag_marks,
        quiet_text,
        scope_text,
        size_parts,
        warning_lines,
    )
    from tuibench.present.tables import fmt_p

    lines: list[Line] = []
    muted = palette.muted
    ranks = ranks or {}
    if not answer.systems:
        text = f"Only {printable(answer.reference)}: nothing to compare it with."
        return [Line([(text, None)])]
    for a in answer.systems:
        if lines:
            lines.append(Line([]))
        lines.append(Line(_heading(a, answer.reference, ranks.get(a.system, 0), palette)))
        lines.append(Line(_counts(a, palette)))
        if scope := scope_text(a):
            lines.append(Line([(f"   {scope}", muted)]))
        # what the verdicts must be read with, in words, a short line each (80 columns)
        lines += [Line([(f"   {w}", palette.warning_style)]) for w in warning_lines(a, answer)]
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


def _heading(a: SystemAnswer, reference: str, rank: int, palette: Palette) -> list:
    from tuibench.present.answer import geomean_text

    parts: list[tuple[str, Style | None]] = []
    if rank:
        parts.append((f"#{rank} ", palette.accent_style))
    parts.append((printable(a.system), BOLD))
    parts.append((f" vs {printable(reference)}", palette.muted))
    g = geomean_text(a, scope=False)  # on a line of its own: the heading stays short
    if g:
        parts.append((f"  {g}", None))
    return parts


def _counts(a: SystemAnswer, palette: Palette) -> list:
    from tuibench.present.answer import single_words  # polars: after the first frame

    sep = (" · ", palette.muted)
    parts: list[tuple[str, Style | None]] = [
        ("  ", None),
        (f"▼{a.worse} worse", palette.worse_style if a.worse else palette.muted),
        sep,
        (f"▲{a.better} better", palette.better_style if a.better else palette.muted),
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
            parts += [sep, (f"{n} {what}", palette.warning_style)]
    return parts


class AnswerView(PaintedWhole, ScrollView, can_focus=False):
    """The answer, with a cursor on the change lines; the pane around it scrolls."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"answer-view--cursor"}
    DEFAULT_CSS = """
    AnswerView {
        width: 100%;
        height: auto;
        overflow: hidden hidden;
        & > .answer-view--cursor {
            background: $accent 30%;
        }
    }
    """

    class Open(Message):
        def __init__(self, node: Node, row: int) -> None:
            self.node, self.row = node, row
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Line] = []
        self.cursor: int | None = None
        self._widths: list[int] = []
        self._shortened: dict[int, dict[str, str]] = {}
        self._palette: Palette | None = None
        self._key: object = None

    def show(
        self,
        answer: Answer,
        palette: Palette,
        key: object,
        ranking: Sequence = (),
        reference_note: Sequence[str] = (),
    ) -> None:
        """Show `answer` (built for `key`: the same key keeps the cursor), after the word on
        a reference chosen by name order and the ranking of the systems, when there are."""
        if key == self._key and palette is self._palette:
            return
        keep = self.cursor_node
        self._key, self._palette = key, palette
        from tuibench.present.answer import places

        ranks = places(ranking)
        self.lines = [Line([(line, palette.warning_style)]) for line in reference_note]
        self.lines += [Line([])] if reference_note else []
        self.lines += ranking_lines(ranking, answer.reference, palette)
        self.lines += view_lines(answer, palette, ranks)
        widths = [0] * 6
        for line in self.lines:
            if line.cells:
                widths = [max(w, len(c)) for w, c in zip(widths, line.cells, strict=False)]
        self._widths = widths
        self._shortened = {}  # width -> the names cut to it
        rows = self.rows
        self.cursor = None
        if rows:
            self.cursor = next((i for i in rows if self.lines[i].node == keep), rows[0])
        self.virtual_size = Size(self.size.width, len(self.lines))
        self.refresh(layout=True)

    # -- cursor ---------------------------------------------------------------------------
    @property
    def rows(self) -> list[int]:
        return [i for i, line in enumerate(self.lines) if line.node is not None]

    @property
    def cursor_line(self) -> int | None:
        return self.cursor

    @property
    def cursor_node(self) -> Node | None:
        if self.cursor is None or self.cursor >= len(self.lines):
            return None
        return self.lines[self.cursor].node

    def move_cursor(self, step: int) -> bool:
        """Move to the next (or previous) change line; False when there is none."""
        rows = self.rows
        if not rows:
            return False
        i = rows.index(self.cursor) if self.cursor in rows else 0
        j = min(max(i + step, 0), len(rows) - 1)
        if j == i and self.cursor in rows:
            return False
        self.set_cursor(rows[j])
        return True

    def set_cursor(self, line: int) -> None:
        if 0 <= line < len(self.lines) and self.lines[line].node is not None:
            old, self.cursor = self.cursor, line
            # only the two lines that change: over SSH a move is then a few hundred bytes
            for y in {old, line}:
                if y is not None:
                    self.refresh_lines(y)

    def open_cursor(self) -> bool:
        node = self.cursor_node
        if node is None:
            return False
        self.post_message(self.Open(node, self.cursor or 0))
        return True

    def on_click(self, event) -> None:
        line = event.y + round(self.scroll_y)
        if 0 <= line < len(self.lines) and self.lines[line].node is not None:
            self.set_cursor(line)
            self.open_cursor()

    # -- drawing --------------------------------------------------------------------------
    def on_resize(self) -> None:
        self._drop_painted()

    def render_line(self, y: int) -> Strip:
        self.painted()
        width = self.scrollable_content_region.width or self.size.width
        base = self.line_style
        if y >= len(self.lines):
            return Strip.blank(width, base)
        line = self.lines[y]
        if y == self.cursor:
            base = base + self.get_component_rich_style("answer-view--cursor")
        if line.cells is None:
            segments = [Segment(t, base + s if s else base) for t, s in line.parts]
        else:
            segments = self._change(line, width, base)
        return Strip(segments).extend_cell_length(width, base).crop(0, width)

    def _shortened_name(self, name: str, room: int) -> str:
        """`name` cut to `room` cells, still distinct from the other names listed."""
        forms = self._shortened.get(room)
        if forms is None:
            names = [line.cells[6] for line in self.lines if line.cells and len(line.cells) > 6]
            forms = self._shortened[room] = shorten_distinct(names, room)
        return forms.get(name) or shorten_middle(name, room)

    def _change(self, line: Line, width: int, base: Style) -> list[Segment]:
        palette = self._palette
        glyph, size, interval, p, verdict, marks, name, note = line.cells or [""] * 8
        w = self._widths
        if line.node is None:  # the column heads
            style = name_style = base + Style(dim=True)
        else:
            style = base + palette.style(line.verdict) if palette else base
            name_style = base
        numbers = f"{size:>{w[1]}} {interval:<{w[2]}}  {p:<{w[3]}}  {verdict:<{w[4]}}  "
        marks = f"{marks:<{w[5]}}  " if w[5] else ""
        room = max(8, width - 5 - len(numbers) - len(marks) - len(note))
        warning = base + palette.warning_style if palette else base
        return [
            Segment(f"   {glyph} ", style),
            Segment(numbers, style),
            Segment(marks, warning),
            Segment(self._shortened_name(name, room), name_style),
            Segment(note, base + Style(dim=True)),
        ]
