"""Small text helpers of the explorer's widgets (plain strings, no Rich measuring)."""

from __future__ import annotations


def shorten_middle(text: str, width: int) -> str:
    """`text` in at most `width` cells, cut in the middle: both ends of a hierarchical name
    tell rows apart (`pgbench/…/clients:8 tps`). Names are assumed one cell per character."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = (width - 1) * 2 // 5
    tail = width - 1 - head
    return text[:head] + "…" + text[len(text) - tail :]


def shorten_distinct(texts: list[str], width: int) -> dict[str, str]:
    """Each text longer than `width` -> its shortened form, keeping distinct texts distinct:
    where cutting in the middle makes two alike (`fio/randwri…k/qd:1 throughput` twice), the
    cut moves, or a window around where they differ is shown (`…rite/16k/qd…`)."""
    long = sorted({t for t in texts if len(t) > width})
    short = {t: shorten_middle(t, width) for t in long}
    alike: dict[str, list[str]] = {}
    for t in long:
        alike.setdefault(short[t], []).append(t)
    for group in alike.values():
        if len(group) > 1 and width > 2:
            short.update(_apart(group, width))
    return short


def _apart(group: list[str], width: int) -> dict[str, str]:
    """Shortened forms of `group` (texts one middle cut made alike) that tell them apart."""
    default = (width - 1) * 2 // 5
    for head in sorted(range(width), key=lambda h: abs(h - default)):
        forms = {t: _cut(t, head, width) for t in group}
        if len(set(forms.values())) == len(group):
            return forms
    # The difference lies too deep in the middle for one cut: a window around where it
    # first differs from another. In sorted order the common prefix only shrinks away from
    # a text, so that other is the first or the last (not every pair: a filter's 450 alike
    # names were 200,000 pairs a frame).
    forms = {}
    ends = (min(group), max(group))
    for t in group:
        at = min(_first_difference(t, u) for u in ends if u != t)
        start = min(max(0, at - 1 - (width - 3) // 2), len(t) - width)
        end = start + width - 1  # the last cell's index in t
        first = "…" if start > 0 else t[0]
        last = "…" if end < len(t) - 1 else t[end]
        forms[t] = first + t[start + 1 : end] + last
    return forms


def _cut(text: str, head: int, width: int) -> str:
    tail = width - 1 - head
    return text[:head] + "…" + (text[len(text) - tail :] if tail else "")


def _first_difference(a: str, b: str) -> int:
    pairs = enumerate(zip(a, b, strict=False))
    return next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))


def compact_cell(cell: str, reference: bool) -> str:
    """An mmtests cell for a narrow screen: `38.4 *  -6.53%*` -> `38.4 -6.5%*`
    (`tables.compact_change`); the reference's `(  0.00%)` is dropped. A cell of another
    shape is kept as it is."""
    from tuibench.present.tables import compact_change  # polars: after the first frame

    value, _, change = cell.partition(" ")
    short = compact_change(change) if value and change else None
    if short is None:
        return cell
    return value if reference else f"{value} {short}"


def text_width(text: str) -> int:
    """Cells taken by `text`: its length when ASCII (no Rich measuring), else Rich's count."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)
