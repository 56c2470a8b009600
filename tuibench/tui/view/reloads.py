"""The explorer's loads and reloads: what stays of the last one is kept for the next.

`Reloads(paths)` keeps an `ingest.incremental.Loader` (only new or changed files are read;
when the results only grew, the new files' rows are merged into the loaded ones) and the
last analysis, whose per-iteration figures a grown load reuses (`compare/growing.py`).
Every number is the one a fresh load and analysis give (tests/tui/test_tui_reloads.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.growing import Known
from tuibench.ingest.incremental import Loader
from tuibench.ingest.load import Progress
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet


class Reloads:
    def __init__(self, paths: list[str | Path]) -> None:
        self.paths = list(paths)
        self.loader = Loader(self.paths)
        self.analysis: Analysis | None = None
        self._known: Known | None = None  # what the next analysis may reuse

    def load(
        self, progress: Progress | None = None, complete: Mapping[str, int] | None = None
    ) -> ResultSet:
        """The results as they are now (unchanged files are not read again)."""
        before = self.loader.result
        rs = self.loader.load(progress, complete)
        growth, last = self.loader.growth, self.analysis
        self._known = None
        if growth is not None and last is not None and last.rs is before:
            self._known = Known(last.iterations, growth.source, last.options)
        return rs

    def analyse(self, rs: ResultSet, options: AnalysisOptions) -> Analysis:
        """The analysis of `rs` (the last `load`'s), reusing what the last one computed."""
        last = self.analysis
        if last is not None and last.rs is rs and last.options == options:
            return last
        self.analysis = Analysis(rs, options, self._known if rs is self.loader.result else None)
        self._known = None
        return self.analysis
