"""Everything the user chooses in the explorer, and the places of the benchmark tree.

`ViewState` holds every choice (reference, alpha, filter, sort, marks, ...); `Session` in
session.py turns it into what is shown. Neither polars nor Textual here: this module is
imported before any result is loaded, so the first frame appears at once.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tuibench.model.options import DEFAULT_ANALYSIS, AnalysisOptions, ViewOptions
from tuibench.util.globs import has_glob, matches

if TYPE_CHECKING:
    from tuibench.analysis.compare import Comparison
    from tuibench.present.tables import Table

# Orders of the tree and the summary tables, cycled by the sort key; then one per system
# other than the reference: "system:<name>", by that system's gain, worst first.
SORTS = ("natural", "worst", "name")
SORT_LABELS = {"natural": "natural order", "worst": "worst regression first", "name": "by name"}


SHORT_SORT_LABELS = {"natural": "natural order", "worst": "worst first", "name": "by name"}

# Metrics a group's table shows on screen, in the current order: formatting every cell of
# 200,000 metrics took 5 s on the UI thread. Marks, exports and copies take every row.
VIEW_ROWS = 2_000


def sort_label(sort: str, short: bool = False) -> str:
    """The order in words; `short` for the footer."""
    if sort.startswith("system:"):
        gain = f"by {sort[len('system:') :]}'s gain"
        return gain if short else gain + ", worst first"
    return (SHORT_SORT_LABELS if short else SORT_LABELS).get(sort, sort)


def sort_keys(systems: list[str], reference: str) -> list[str]:
    """Every order the sort key cycles through."""
    return [*SORTS, *(f"system:{s}" for s in systems if s != reference)]


@dataclass(frozen=True)
class Node:
    """A place in the benchmark tree: the root, a benchmark (or a group of them), a metric.

    `parts` is the benchmark name split on `/`; joining them gives the name back exactly.
    """

    parts: tuple[str, ...] = ()
    metric: str | None = None

    @property
    def benchmark(self) -> str:
        return "/".join(self.parts)

    @property
    def is_metric(self) -> bool:
        return self.metric is not None

    @property
    def is_root(self) -> bool:
        return not self.parts and self.metric is None

    @property
    def parent(self) -> Node | None:
        if self.metric is not None:
            return Node(self.parts)
        return Node(self.parts[:-1]) if self.parts else None

    def covers(self, benchmark: str) -> bool:
        """Whether `benchmark` is this node or lies below it."""
        if not self.parts:
            return True
        name = self.benchmark
        return benchmark == name or benchmark.startswith(name + "/")

    def title(self) -> str:
        """Plain text naming the node, for messages and titles."""
        if self.metric is not None:
            return f"{self.benchmark} {self.metric}"
        return self.benchmark or "all benchmarks"

    @staticmethod
    def of_metric(benchmark: str, metric: str) -> Node:
        return Node(tuple(benchmark.split("/")), metric)


@dataclass(frozen=True)
class Mark:
    """A table marked for export, as it was when marked."""

    node: Node
    reference: str
    alpha: float
    table: Table = field(compare=False)
    cmp: Comparison | None = field(default=None, compare=False)  # behind the table: exports
    whole: Comparison | None = field(default=None, compare=False)  # every metric: the counts

    @property
    def label(self) -> str:
        return f"{self.table.title}  (vs {self.reference}, alpha {self.alpha:g})"


# The header's short name of each iteration value (`--iteration-value`).
ITERATION_LABELS = {
    "subselection": "subsel",
    "mean": "mean",
    "median": "median",
    "trimmed": "trimmed",
}


@dataclass
class ViewState:
    """Every choice the user makes in the explorer; nothing else changes what is shown."""

    reference: str = ""
    options: AnalysisOptions = DEFAULT_ANALYSIS  # what the numbers depend on
    significant_only: bool = False
    sort: str = SORTS[0]
    filter_text: str = ""
    marks: list[Mark] = field(default_factory=list)
    percent: str = "gain"  # sizes as the gain (positive = better) or the signed change
    answer_first: bool = True  # the root shows the answer; False: the mmtests table

    @classmethod
    def first(cls, reference: str, options: AnalysisOptions, view: ViewOptions) -> ViewState:
        """The state of the first screen, from the command line."""
        return cls(reference=reference, options=options, percent=view.percent)

    def with_options(self, options: AnalysisOptions) -> ViewState:
        return dataclasses.replace(self, options=options)

    def status(self) -> list[tuple[str, str]]:
        """(label, value) pairs that the header always shows."""
        o = self.options
        value = ITERATION_LABELS.get(o.iteration_value, o.iteration_value)
        return [("ref", self.reference), ("α", f"{o.alpha:g}"), ("it", value)]

    def option_labels(self) -> list[tuple[str, str]]:
        """(label, value) pairs for the header: the choices that differ from the default
        (`f` and `s` are in the footer, always)."""
        items = []
        o = self.options
        if o.fdr:
            items.append(("", "FDR"))
        if o.threshold is not None:
            items.append(("", f"±{o.threshold:g}% margin"))  # short: in sight at 80 columns
        if self.percent == "change":
            items.append(("", "signed change"))
        if o.trust_single_iteration:
            items.append(("", "single iterations counted"))
        if self.filter_text:
            items.append(("filter", self.filter_text))
        if self.marks:
            items.append(("marked", str(len(self.marks))))
        return items


def filter_glob(text: str) -> str | None:
    """The filter as a glob (`core/globs.py`: case-sensitive, the whole name) when it holds
    `*`, `?` or `[`, else None. A glob matches a benchmark's name (as --benchmark does) or a
    metric's `benchmark/metric`."""
    text = text.strip()
    return text if has_glob(text) else None


def name_regex(text: str) -> str | None:
    """The filter without wildcards as a regular expression finding it anywhere in
    `benchmark/metric`, or None for no filter or a glob (`filter_glob`).

    Case-insensitive; every character stands for itself (ASCII punctuation is written as
    `\\xHH`, which Python's `re` and the regex engine of polars read alike).
    """
    text = text.strip()
    if not text or has_glob(text):
        return None

    def one(ch: str) -> str:
        return f"\\x{ord(ch):02X}" if ch.isascii() and not ch.isalnum() else ch

    return "(?is)" + "".join(one(ch) for ch in text)


def name_matcher(text: str) -> Callable[[str, str], bool]:
    """The filter as a test of one name (the explorer filters with polars)."""
    if (glob := filter_glob(text)) is not None:
        return lambda benchmark, metric: (
            matches(benchmark, glob) or matches(f"{benchmark}/{metric}", glob)
        )
    regex = name_regex(text)
    if regex is None:
        return lambda benchmark, metric: True
    pattern = re.compile(regex)
    return lambda benchmark, metric: pattern.search(f"{benchmark}/{metric}") is not None
