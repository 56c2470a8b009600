"""Where exported tables go: suggested file names and the targets that are refused.

No Textual here. The text itself always comes from `tuibench.core.export.render`.
"""

from __future__ import annotations

import re
from pathlib import Path

from tuibench.core.output_formats import EXTENSIONS
from tuibench.core.output_paths import refusal, resolve  # noqa: F401 (the dialog's checks)
from tuibench.tui.state import Mark, Node

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_STEM = 120


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


def with_extension(name: str, fmt: str) -> str:
    """Swap a known export extension for the one of `fmt` (keep any other suffix)."""
    known = {f".{ext}" for ext in EXTENSIONS.values()}
    path = Path(name)
    if path.suffix in known:
        return str(path.with_suffix(f".{EXTENSIONS[fmt]}"))
    return f"{name}.{EXTENSIONS[fmt]}"


def default_path(export_dir: str, name: str) -> str:
    """The path shown in the dialog: relative as the user gave the folder."""
    if export_dir in ("", "."):
        return name
    return str(Path(export_dir) / name)
