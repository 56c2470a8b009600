"""The analysis of results that grew by new files, reusing the previous analysis.

What stands for an iteration (its value, median, plain mean, outliers and rounding) depends
on that iteration's samples only, and is the costliest part of an analysis (a sort and the
subselections of every iteration). After a reload that only added files
(`ingest/appending.py`), the iterations loaded before keep theirs: only the new iterations'
samples are gathered and reduced, with the same functions, so every number is the one a
fresh `Analysis` gives (tests/core/test_growing.py). The steps per system and metric, the
U tests and the comparison run as in any analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.model.options import AnalysisOptions
from tuibench.stats.samples.blocks import one_blas_thread
from tuibench.util.worker import in_worker

# An iteration's figures a grown analysis takes from the previous one (and `samples`,
# where a merge finds the loaded iterations: ingest/appending.py).
FIGURES = (
    "samples",
    "value",
    "rounding",
    "median",
    "mean_raw",
    "outliers_low",
    "outliers_high",
    "outliers_extreme",
)


@dataclass
class Known:
    """The previous analysis's iterations, and for each iteration now its row there (-1: a
    new iteration)."""

    iterations: pl.DataFrame
    source: np.ndarray
    options: AnalysisOptions
    # Only some groups, whose rows compare/spliced.py puts among others: no ranking of
    # the metrics' samples, duplicates or summary runs (they span every group).
    part: bool = False
    # A part's iterations' sample counts, in order (its samples are the iterations one
    # after another): no pass over the samples to find where each begins.
    counts: np.ndarray | None = None

    def fits(self, options: AnalysisOptions, iterations: int) -> bool:
        """Whether its figures are those `options` give (trimmed iterations: all samples'
        moments change with the fences, computed afresh)."""
        return (
            options.analysis_key() == self.options.analysis_key()
            and not options.trimmed
            and len(self.source) == iterations
            and set(FIGURES) <= set(self.iterations.columns)  # kept (`keep_figures`)
        )

    def spans(self) -> tuple[np.ndarray, np.ndarray]:
        """First sample and count of every iteration of the part (`counts`)."""
        assert self.counts is not None
        counts = np.asarray(self.counts, dtype=np.int64)
        return np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64), counts


def iteration_figures(
    values: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    hmean: np.ndarray,
    options: AnalysisOptions,
    known: Known,
    rounding: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
) -> tuple[Future, dict[str, np.ndarray]]:
    """(the iterations' values, pending; the other figures by column), reducing only the
    new iterations. `rounding`: the analysis's own (values, starts, counts) -> rounding."""
    new = np.flatnonzero(known.source < 0)
    n = counts[new]
    first = np.r_[0, np.cumsum(n)[:-1]].astype(np.int64)
    x = values[np.repeat(starts[new] - first, n) + np.arange(int(n.sum()))]
    kind = options.iteration_value
    size = len(values)  # BLAS threads as a full analysis of these samples would use them
    if kind == "subselection":
        pending = in_worker(
            _subselected, x, first, n, hmean[new], options.subselections, options.seed, size
        )
    _, _, n_low, n_high, n_ext, median = stats.tukey_and_medians(x, first, n)
    mean_raw = stats.iteration_means(x, first, n, hmean[new])
    fresh = {
        "rounding": rounding(x, first, n),
        "median": median,
        "mean_raw": mean_raw,
        "outliers_low": n_low,
        "outliers_high": n_high,
        "outliers_extreme": n_ext,
    }
    figures = {k: _merged(known, k, a, new) for k, a in fresh.items()}
    if kind != "subselection":
        pending = Future()
        pending.set_result(median if kind == "median" else mean_raw)
    done: Future = Future()

    def merge(f: Future) -> None:
        try:
            done.set_result(_merged(known, "value", f.result(), new))
        except BaseException as exc:  # raised again by `.result()`
            done.set_exception(exc)

    pending.add_done_callback(merge)
    return done, figures


def _subselected(x, starts, counts, hmean, b, seed, size) -> np.ndarray:
    with one_blas_thread(size):
        return stats.iteration_values(x, starts, counts, hmean, b, seed)


def _merged(known: Known, column: str, fresh: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The column for every iteration: the kept ones' from the previous analysis, the new
    ones' from `fresh`."""
    before = known.iterations[column].to_numpy()
    out = np.empty(len(known.source), dtype=np.result_type(before.dtype, fresh.dtype))
    kept = known.source >= 0
    out[kept] = before[known.source[kept]]
    out[new] = fresh
    return out
