"""Where exported tables go: suggested file names and the targets that are refused.

No Textual here. The text itself always comes from `tuibench.output.export.render`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from tuibench.output.formats import EXTENSIONS
from tuibench.output.paths import (  # noqa: F401 (the dialog's checks)
    means_stdout,
    output_refusal,
    refusal,
    resolve,
)
from tuibench.tui.view.state import Mark, Node

if TYPE_CHECKING:
    from tuibench.analysis.compare import Comparison
    from tuibench.output.shareable import Shareable

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_STEM = 120
LARGE_COPY = 100_000  # bytes: many terminals drop OSC 52 payloads larger than this


def safe_name(text: str) -> str:
    """Only letters, digits, `.`, `_` and `-`; no leading dot or dash; never empty."""
    name = _UNSAFE.sub("_", text).strip("._-")
    name = re.sub(r"_{2,}", "_", name)
    return name[:MAX_STEM].rstrip("._-") or "table"


def suggest_name(node: Node, reference: str, fmt: str) -> str:
    """`pgbench_ro_clients_8-tps-vs-linux-6.9.csv` for a metric, `...-summary-...` else."""
    if node.is_metric:
        stem = f"{safe_name(node.benchmark)}-{safe_name(node.metric or '')}"
    elif node.is_root:
        stem = "summary"
    else:
        stem = f"{safe_name(node.benchmark)}-summary"
    return f"{stem}-vs-{safe_name(reference)}.{EXTENSIONS[fmt]}"


def suggest_marked_name(marks: list[Mark], fmt: str) -> str:
    references = {m.reference for m in marks}
    stem = f"marked-{len(marks)}-tables"
    if len(references) == 1:
        stem += f"-vs-{safe_name(references.pop())}"
    return f"{stem}.{EXTENSIONS[fmt]}"


# Extensions people type, beyond the ones the formats are written with.
_TYPED = {"markdown": "markdown", "htm": "html", "text": "text", "latex": "latex"}


def format_of(name: str) -> str | None:
    """The format a typed file name asks for by its extension (`x.md`: markdown), if any."""
    ext = Path(name.strip()).suffix.lower().lstrip(".")
    by_extension = {e: f for f, e in EXTENSIONS.items()} | _TYPED
    return by_extension.get(ext)


def with_extension(name: str, fmt: str) -> str:
    """Swap a known export extension for the one of `fmt` (keep any other suffix)."""
    if format_of(name) == fmt:
        return name
    known = {f".{ext}" for ext in EXTENSIONS.values()} | {f".{ext}" for ext in _TYPED}
    path = Path(name)
    if path.suffix in known:
        return str(path.with_suffix(f".{EXTENSIONS[fmt]}"))
    return f"{name}.{EXTENSIONS[fmt]}"


def default_path(export_dir: str, name: str) -> str:
    """The path shown in the dialog: relative as the user gave the folder."""
    if export_dir in ("", "."):
        return name
    return str(Path(export_dir) / name)


def shareable(
    node: Node,
    cmp: Comparison,
    title: str,
    facts: list[tuple[str, str]],
    whole: Comparison | None = None,
    heads: list[str] | None = None,
) -> Shareable:
    """What an export or a copy of `node` holds: `cmp` is its comparison (the metrics below
    it, as the summary shows them), `whole` every metric below it (the counts' scope);
    `heads`: lines said first (the filter it was made under)."""
    from tuibench.output.shareable import Shareable

    metric = (node.benchmark, node.metric) if node.metric is not None else None
    return Shareable(cmp, title, metric, facts, whole, heads or [])


def filter_line(filter_text: str, answer: bool = False) -> list[str]:
    """What a copy or export made under the name filter must say: which filter, and what
    it narrowed (the answer's counts; an export's tables, whose counts are over every
    metric)."""
    if not filter_text:
        return []
    what = (
        "the counts and changes are of the metrics it keeps (the geomean is over every metric)"
        if answer
        else "the tables list only the metrics it keeps"
    )
    return [f"Filter {filter_text!r}: {what}."]


def marked_shareables(marks: list[Mark], facts: list[tuple[str, str]]) -> list[Shareable]:
    """The marked tables as they were marked (a mark keeps its comparison)."""
    return [
        shareable(m.node, m.cmp, m.table.title, facts, m.whole) for m in marks if m.cmp is not None
    ]


def copy_notice(label: str, text: str) -> str:
    """Where a copy went, and what to do when nothing arrived."""
    lines = text.count("\n") or 1
    size = len(text.encode())
    large = (
        f" At {size // 1024} KB it may be beyond what your terminal accepts."
        if size > LARGE_COPY
        else ""
    )
    return (
        f"Copied {label} ({lines} line{'s' if lines > 1 else ''}) to your clipboard through "
        "the terminal (OSC 52). Nothing arrived? The terminal (or tmux: set-clipboard on) "
        f"must allow OSC 52;{large} press e to write it to a file instead."
    )
