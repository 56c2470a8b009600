"""Render a Table as csv, tsv, markdown, latex, json, html or text.

`tuibench report` and the explorer's exports and copies render their tables here; the HTML
report (html_report.py) lays out its own page around the same tables.
"""

from __future__ import annotations

import html
import io
import json
import math
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import orjson
import polars as pl

from tuibench.analysis.compare import Comparison
from tuibench.model.problems import Problem
from tuibench.output.formats import EXTENSIONS, FORMATS  # noqa: F401 (re-exported)
from tuibench.output.writing import write_atomic  # noqa: F401 (re-exported)
from tuibench.present.tables import Table
from tuibench.util.text import printable
from tuibench.util.worker import ahead, in_worker


def render(table: Table | list[Table], fmt: str) -> str:
    tables = table if isinstance(table, list) else [table]
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "json":
        docs = [_json_doc(t) for t in tables]
        return json_text(docs[0] if len(docs) == 1 else docs)
    render_one = {
        "text": _text,
        "csv": _csv,
        "tsv": _tsv,
        "markdown": _markdown,
        "latex": _latex,
        "html": _html,
    }[fmt]
    sep = "\n" if fmt in ("csv", "tsv") else "\n\n"
    return sep.join(render_one(t) for t in tables)


Made = str | Table | list[Table]


def render_output(
    fmt: str,
    human: Callable[[], Made],
    json: Callable[[], str],
    data: Callable[[], Made] | None = None,
    html: Callable[[], Made] | None = None,
) -> str:
    """The one dispatch of a whole output (a report, the series, a decision, an export)
    over `FORMATS`: `json()` for json; `data()`, the table of one row per record, for csv
    and tsv; `html()` for html; `human()`, the tables people read, otherwise (and where
    no `data` or `html` is given). Only the chosen one is made; tables are rendered."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "json":
        return json()
    chosen = {"csv": data, "tsv": data, "html": html}.get(fmt) or human
    made = chosen()
    return made if isinstance(made, str) else render(made, fmt)


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    return str(v)


def _shown(v: object) -> str:
    """A cell for a person to read: names from result files cannot drive a terminal."""
    return printable(_cell(v))


def _text(t: Table) -> str:
    cells = [[_shown(v) for v in row] for row in t.rows]
    columns = [printable(c) for c in t.columns]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]

    def line(values: list[str]) -> str:
        out = []
        for i, v in enumerate(values):
            out.append(v.rjust(widths[i]) if i in t.numeric else v.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [printable(t.title)] if t.title else []
    lines += [line(columns), "  ".join("-" * w for w in widths)]
    lines += [line(r) for r in cells]
    lines += ["", *map(printable, t.notes)] if t.notes else []
    return "\n".join(lines) + "\n"


# A spreadsheet runs a cell that starts with one of these as a formula (`=HYPERLINK(...)`
# in a benchmark name would run on opening the file): such a text cell gets a leading `'`,
# which spreadsheets show as text. Numbers keep their sign (`-3.5` stays a number).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _spreadsheet_safe(cell: str) -> str:
    if cell.startswith(_FORMULA_START) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def _field(cell: str, delimiter: str) -> str:
    """One CSV/TSV field, quoted when it holds the delimiter, a quote, CR or LF (the csv
    module leaves a lone CR unquoted, and every reader then splits the row there)."""
    if delimiter in cell or '"' in cell or "\r" in cell or "\n" in cell:
        return '"' + cell.replace('"', '""') + '"'
    return cell


def _delimited(t: Table, delimiter: str) -> str:
    def line(cells: list[str]) -> str:
        return delimiter.join(_field(_spreadsheet_safe(c), delimiter) for c in cells) + "\n"

    return line(list(t.columns)) + "".join(line([_cell(v) for v in row]) for row in t.rows)


def _csv(t: Table) -> str:
    return _delimited(t, ",")


def _tsv(t: Table) -> str:
    return _delimited(t, "\t")


# Markdown punctuation that could format a name (`__init__` in bold, `<script>` as raw HTML)
# or end a table cell is backslash-escaped, as CommonMark allows for any ASCII punctuation,
# so the rendered text is the name itself. Brackets stay (intervals read `[a, b]`); a link is
# prevented by escaping the `(` after a `]`.
_MD_SPECIAL = re.compile(r"([\\|*_`<>~])")


def md_escape(s: str) -> str:
    """A name or text as literal Markdown (control characters shown escaped)."""
    return _MD_SPECIAL.sub(r"\\\1", printable(s)).replace("](", "]\\(")


def _markdown(t: Table) -> str:
    head = "| " + " | ".join(md_escape(c) for c in t.columns) + " |"
    rule = "|" + "|".join("---:" if i in t.numeric else "---" for i in range(len(t.columns))) + "|"
    body = ["| " + " | ".join(md_escape(_cell(v)) for v in row) + " |" for row in t.rows]
    parts = [f"**{md_escape(t.title)}**", "", head, rule, *body] if t.title else [head, rule, *body]
    if t.notes:
        parts += ["", *(md_escape(n) for n in t.notes)]
    return "\n".join(parts) + "\n"


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "µ": r"\textmu{}",  # the micro sign of `µs`, and the Greek mu some files write
    "μ": r"\textmu{}",
    "★": r"$\star$",  # the best system's mark
    "±": r"$\pm$",
}


def _latex_escape(s: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in printable(s))


def _latex(t: Table) -> str:
    spec = "".join("r" if i in t.numeric else "l" for i in range(len(t.columns)))
    lines = [
        f"% {_latex_escape(t.title)}" if t.title else "",
        f"\\begin{{tabular}}{{{spec}}}",
        "\\hline",
        " & ".join(_latex_escape(c) for c in t.columns) + r" \\",
        "\\hline",
    ]
    lines += [" & ".join(_latex_escape(_cell(v)) for v in row) + r" \\" for row in t.rows]
    lines += ["\\hline", "\\end{tabular}"]
    lines += [f"% {_latex_escape(n)}" for n in t.notes]
    return "\n".join(line for line in lines if line) + "\n"


def _html(t: Table) -> str:
    def e(s: str) -> str:
        return html.escape(printable(s))

    out = ["<table>"]
    if t.title:
        out.append(f"  <caption>{e(t.title)}</caption>")
    out.append("  <thead><tr>" + "".join(f"<th>{e(c)}</th>" for c in t.columns) + "</tr></thead>")
    out.append("  <tbody>")
    for r, row in enumerate(t.rows):
        cells = []
        for c, v in enumerate(row):
            cls = t.marks.get((r, c))
            attr = f' class="{cls}"' if cls else ""
            align = ' style="text-align:right"' if c in t.numeric else ""
            cells.append(f"<td{attr}{align}>{e(_cell(v))}</td>")
        out.append("    <tr>" + "".join(cells) + "</tr>")
    out.append("  </tbody>")
    out.append("</table>")
    out += [f"<p>{e(n)}</p>" for n in t.notes]
    return "\n".join(out) + "\n"


def json_text(value: object) -> str:
    """The one writer of a JSON document held as Python values (a table, a report of a few
    shareables, the series): indented by two, ASCII, every undefined number as null.
    Documents with rows by the thousand go through `json_lines` instead."""
    return json.dumps(json_value(value), indent=2, allow_nan=False) + "\n"


def json_value(v: object) -> object:
    """`v` with every NaN or infinity (also inside lists and dicts) as None."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, list | tuple):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    return v


def _json_doc(t: Table) -> dict:
    return {
        "title": t.title,
        "columns": t.columns,
        "rows": [dict(zip(t.columns, (json_value(v) for v in row), strict=True)) for row in t.rows],
        "notes": t.notes,
    }


def _records(frame: pl.DataFrame) -> list[dict]:
    """Rows as dicts, every non-finite float (also inside lists) as None: vectorised, no
    Python call per value."""

    def finite(col: pl.Expr) -> pl.Expr:
        return pl.when(col.is_finite()).then(col)

    exprs = []
    for name, dtype in frame.schema.items():
        if dtype.is_float():
            exprs.append(finite(pl.col(name)))
        elif isinstance(dtype, pl.List) and dtype.inner.is_float():
            exprs.append(pl.col(name).list.eval(finite(pl.element())))
    return (frame.with_columns(exprs) if exprs else frame).to_dicts()


def _settings(cmp: Comparison) -> dict:
    """What a JSON report says before its rows: the comparison's options and systems."""
    return {
        "reference": cmp.reference,
        "alpha": cmp.options.alpha,
        "fdr": cmp.options.fdr,
        "threshold": cmp.options.threshold,
        "trim_outliers": cmp.options.trimmed,
        "iteration_value": cmp.options.iteration_value,
        "trust_single_iteration": cmp.options.trust_single_iteration,
        "systems": cmp.systems,
    }


def report_document(cmp: Comparison, problems: list[Problem]) -> dict:
    """The JSON report as Python values (`report_json` is its text): the options, every row,
    the per-system summary, the problems. Undefined numbers (NaN, infinities) are None."""
    return {
        **_settings(cmp),
        "rows": _records(cmp.rows),
        "summary": _records(cmp.summary()),
        "problems": [p.to_dict() for p in problems],
    }


def report_json(cmp: Comparison, problems: list[Problem]) -> str:
    """`tuibench report --format json`: `report_document` as text, indented, with one line
    per row, summary row and problem (`report_json_parts` as one string)."""
    return b"".join(report_json_parts(cmp, problems)).decode()


def report_json_parts(cmp: Comparison, problems: list[Problem]) -> Iterable[bytes | memoryview]:
    """`report_json`'s UTF-8 text in pieces, to be written one after the other. polars
    writes the rows itself (NaN and infinities as null): turning 20,000 rows into Python
    dicts first took three times as long. At 200,000 metrics the rows are 480 MB: made
    ROWS_AT_ONCE at a time, in threads of their own while the caller writes the ones
    before (never decoded, joined or encoded again: each a copy, and 1 s)."""
    summary = in_worker(cmp.summary)  # in numpy, beside the rows' conversion
    parts = json_lines_parts(
        _settings(cmp), {"rows": cmp.rows, "summary": summary.result}, problems
    )
    return ahead(parts) if cmp.rows.height > ROWS_AT_ONCE else list(parts)


def json_lines(
    head: dict,
    frames: dict[str, pl.DataFrame | Callable[[], pl.DataFrame]],
    problems: list[Problem],
) -> str:
    """`json_lines_parts` as one string."""
    return b"".join(json_lines_parts(head, frames, problems)).decode()


def json_lines_parts(
    head: dict,
    frames: dict[str, pl.DataFrame | Callable[[], pl.DataFrame]],
    problems: list[Problem],
) -> Iterator[bytes | memoryview]:
    """The one writer of a JSON document with rows by the thousand (`report --format json`,
    `decide`), in UTF-8 pieces: `head`'s values indented, then each frame (made when its
    turn comes, when a function) and the problems as arrays of one line per row. Undefined
    numbers are null."""
    yield b"{\n"
    sep = b""
    for k, v in head.items():
        yield sep + f"  {_json(k)}: {_json(v).replace(chr(10), chr(10) + '  ')}".encode()
        sep = b",\n"
    for key, frame in frames.items():
        rows = frame if isinstance(frame, pl.DataFrame) else frame()
        yield sep + f"  {_json(key)}: ".encode()
        yield from _ndjson_parts(rows)
        sep = b",\n"
    problem_lines = _one_per_line([_json(p.to_dict(), indent=False) for p in problems])
    yield sep + f'  "problems": {problem_lines}'.encode()
    yield b"\n}\n"


def _json(value: object, indent: bool = True) -> str:
    """JSON text; indented, every line break is orjson's (strings hold none raw)."""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else None).decode()


def _ndjson(frame: pl.DataFrame) -> str:
    """The rows as `_one_per_line` lays them out (`_ndjson_parts` as one string)."""
    return b"".join(_ndjson_parts(frame)).decode()


ROWS_AT_ONCE = 5_000  # rows made into JSON by one call (6 MB at 200,000 metrics: blocks of
# 24 MB were fresh pages each time, 80,000 page faults for the 480 MB document)
_NEXT_ROW = b",\n    "


def _ndjson_parts(frame: pl.DataFrame) -> Iterator[bytes | memoryview]:
    """The rows as `_one_per_line` lays them out, from polars' lines by one replace: a
    string per row, split and joined, took as long as writing them (at 200,000 metrics).
    JSON text holds no raw line feed, and no other character ends a line here (splitting
    on U+2028 in a name broke the document). The last line's separator is cut off by a
    view, not a copy."""
    if not frame.height:
        yield b"[]"
        return
    yield b"[\n    "
    starts = range(0, frame.height, ROWS_AT_ONCE)
    for lo, lines in zip(starts, _made_ahead(frame, starts), strict=True):
        yield lines if lo + ROWS_AT_ONCE < frame.height else memoryview(lines)[: -len(_NEXT_ROW)]
    yield b"\n  ]"


def _lines(frame: pl.DataFrame, lo: int) -> bytes:
    """ROWS_AT_ONCE rows from `lo` as JSON lines, each followed by `_NEXT_ROW`."""
    buf = io.BytesIO()
    frame.slice(lo, ROWS_AT_ONCE).write_ndjson(buf)
    return buf.getvalue().replace(b"\n", _NEXT_ROW)


MAKERS = 2  # threads making rows' text at once: polars releases the GIL (2x on 2 cores)


def _made_ahead(frame: pl.DataFrame, starts: range) -> Iterator[bytes]:
    """`_lines` of every start, in order, made by MAKERS threads at most MAKERS + 1 blocks
    ahead of the caller (memory: a few blocks, never the whole document)."""
    if len(starts) < 2:
        yield from (_lines(frame, lo) for lo in starts)
        return
    with ThreadPoolExecutor(MAKERS, thread_name_prefix="tuibench-json") as pool:
        pending: deque[Future[bytes]] = deque()
        try:
            for lo in starts:
                pending.append(pool.submit(_lines, frame, lo))
                if len(pending) > MAKERS:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:  # a caller that stops early: the blocks not started are not made
            for f in pending:
                f.cancel()


def _one_per_line(items: list[str]) -> str:
    """A JSON array of the items' texts, one per line, one level deep in the document."""
    return "[\n    " + ",\n    ".join(items) + "\n  ]" if items else "[]"
