"""One or several shareables (what an export or a copy holds) in any output format: the
dispatch behind the explorer's exports and copies and `report --format`.

It sits above shareable.py and html_report.py, which it joins: the HTML page is built from
shareables, so the dispatch cannot live beside them without an import circle.
"""

from __future__ import annotations

import dataclasses

from tuibench.output.export import json_text, md_escape, render, render_output, report_document
from tuibench.output.html_report import html_report
from tuibench.output.shareable import Shareable, merged, scope, system_lines
from tuibench.present.tables import (
    Table,
    rows_table,
)
from tuibench.util.text import printable


def render_shareable(items: Shareable | list[Shareable], fmt: str) -> str:
    """The text of one or several shareables in `fmt` (any of `FORMATS`)."""
    items = items if isinstance(items, list) else [items]

    def html() -> str:
        return html_report(merged(items))

    def json() -> str:
        docs = [report_document(s.cmp, []) for s in items]
        return json_text(docs[0] if len(docs) == 1 else docs)

    return render_output(
        fmt, lambda: _human(items, fmt), json, data=lambda: _stacked_rows(items), html=html
    )


def _human(items: list[Shareable], fmt: str) -> str:
    """Text, Markdown or LaTeX: each item's title and per-system lines, then its tables."""
    parts = []
    for s in items:
        first, *rest = s.human_tables()
        untitled = dataclasses.replace(first, title="")
        lines = [*s.heads, *system_lines(s.cmp, s.whole), *scope(s)]
        lead = _title(first.title, fmt) + _lead(lines, fmt)
        parts.append(lead + render([untitled, *rest], fmt))
    return "\n\n".join(parts) if fmt != "text" else "\n".join(parts)


def _stacked_rows(items: list[Shareable]) -> Table:
    """Every row of every item under one header, as `tuibench report --format csv` has it."""
    first = rows_table(items[0].cmp)
    rest = [row for s in items[1:] for row in rows_table(s.cmp).rows]
    return dataclasses.replace(first, rows=first.rows + rest)


def _title(title: str, fmt: str) -> str:
    """The title above the per-system line, as `render` would have put it on the table."""
    if fmt == "markdown":
        return f"**{md_escape(title)}**\n\n"
    if fmt == "latex":
        return f"% {printable(title)}\n"

    return f"{printable(title)}\n\n"


def _lead(lines: list[str], fmt: str) -> str:
    if not lines:
        return ""
    if fmt == "markdown":
        return "".join(f"{md_escape(line)}  \n" for line in lines) + "\n"
    if fmt == "latex":
        return "".join(f"% {line}\n" for line in lines)

    return "\n".join(lines) + "\n\n"
