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
