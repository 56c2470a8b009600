"""The explorer's loads and reloads: what stays of the last one is kept for the next.

`Reloads(paths)` keeps an `ingest.incremental.Loader` (only new or changed files are read;
when the results only grew, the new files' rows are merged into the loaded ones) and the
last analysis, of which a grown load recomputes only what the new files touch
(`compare/spliced.py`), also in the comparisons the session still holds at the reload.
Every number is the one a fresh load and analysis give (tests/tui/test_tui_reloads.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.spliced import Remembering, spliced
from tuibench.ingest.appending import Growth, Iterations
from tuibench.ingest.discover import Discovery
from tuibench.ingest.incremental import Loader
from tuibench.ingest.load import Progress
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet

# Samples, and iterations, up to which every iteration's figures are kept for a reload to
# reuse (48 bytes an iteration, 80 with their keys: at a million metrics of 2 systems and 3
# iterations, 6 M iterations, 446 MiB, and their samples 343 MiB more, kept by
# `reopen.drop_samples` with them). Past either a reload analyses everything again
# (`spliced` needs them).
FIGURES_KEPT_UP_TO = 12_000_000
ITERATIONS_KEPT_UP_TO = 2_000_000


class Reloads:
    def __init__(self, paths: Sequence[str | Path]) -> None:
        self.paths = list(paths)
        self.loader = Loader(self.paths)
        self.analysis: Analysis | None = None
        self._growth: Growth | None = None  # how the last load grew from the analysed one

    def load(
        self,
        progress: Progress | None = None,
        complete: Mapping[str, int] | None = None,
        found: Discovery | None = None,
        later: bool = False,
        identity: bytes | None = None,
    ) -> ResultSet:
        """The results as they are now (unchanged files are not read again); `found`: a
        discovery of them just made, with its `identity` if taken; `later`: the cache
        written later (`Loader.load`)."""
        before = self.loader.result
        rs = self.loader.load(progress, complete, found, later, identity)
        growth, last = self.loader.growth, self.analysis
        self._growth = None
        if growth is not None and last is not None and last.rs is before:
            self._growth = growth
        return rs

    def analyse(
        self,
        rs: ResultSet,
        options: AnalysisOptions,
        samples_read: Callable[[bool], object] | None = None,
    ) -> Analysis:
        """The analysis of `rs` (the last `load`'s), reusing what the last one computed;
        `samples_read` as `Analysis` calls it (not when spliced)."""
        last = self.analysis
        if last is not None and last.rs is rs and last.options == options:
            return last
        g, self._growth = self._growth, None
        grown = None
        if g is not None and last is not None and rs is g.rs:
            it = g.iterations
            grown = spliced(last, rs, it.keys, it.start, it.count, g.source, options)
        self.analysis = grown or Remembering(
            rs,
            options,
            keep_figures=rs.samples.height <= FIGURES_KEPT_UP_TO,
            figures_up_to=ITERATIONS_KEPT_UP_TO,
            samples_read=samples_read,
        )
        # The next merge finds the iterations here (without the figures: in the samples).
        if rs is self.loader.result and "samples" in self.analysis.iterations.columns:
            self.loader.know_iterations(rs, Iterations.of_table(self.analysis.iterations))
        return self.analysis
