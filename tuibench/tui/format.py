"""Small text helpers of the explorer's widgets (plain strings, no Rich measuring)."""

from __future__ import annotations

import re


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


_CELL = re.compile(
    r"^(?P<value>\S+) (?P<open>[(*~?])(?P<q>\?)?\s*(?P<size>[+-]?[\d.]+|n/a)%?(?P<close>[)*~?])$"
)


def compact_cell(cell: str, reference: bool) -> str:
    """An mmtests cell for a narrow screen: `38.4 *  -6.53%*` -> `38.4 -6.5%*`; the
    reference's `(  0.00%)` is dropped. A cell of another shape is kept as it is."""
    m = _CELL.match(cell)
    if m is None:
        return cell
    if reference:
        return m["value"]
    size = m["size"]
    if size == "n/a":
        return f"{m['value']} n/a"
    pct = f"{float(size):+.1f}%"
    mark = {"*": "*", "~": "~", "?": "?"}.get(m["close"], "")
    if m["q"]:
        mark = mark or "?"
    return f"{m['value']} {pct}{mark}"


def text_width(text: str) -> int:
    """Cells taken by `text`: its length when ASCII (no Rich measuring), else Rich's count."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)
