"""An Analysis without its samples, and back: what reopening unchanged results shows first.

`parts` gives an Analysis's results as polars frames and numpy arrays, with the U tests
and shifts of every reference computed so far. `Restored` is an Analysis made of those: it
compares against any stored reference without a sample. What needs the samples (the U
test or shift against a reference not stored) builds the whole Analysis from `rs` on first
use, once, in the thread that asks; its numbers are the same (same code, same files, same
options: what the cache's key holds).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import numpy as np
import polars as pl

from tuibench.analysis.compare.against import gather_reference, utest_shift
from tuibench.analysis.compare.analysis import Analysis, compare_arrays
from tuibench.analysis.compare.comparison import Comparison
from tuibench.analysis.compare.summary import BootstrapData
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet

FRAMES = ("groups", "duplicates")  # `iterations`, needed by no comparison, is not kept
ARRAYS = ("_pooled", "_row_start", "_row_n")
BOOT = ("row", "label", "y")


def complete(analysis: Analysis, stop: Callable[[], bool] | None = None) -> None:
    """Compute the U tests and the shift against every system, so that all of them are
    stored (`prepare_references` does the U tests). Ends early once `stop()` is true."""
    analysis.prepare_references(stop)
    names = analysis.rs.system_names
    for r, name in enumerate(names):
        if stop is not None and stop():
            return
        if name not in analysis._shifts:
            x = gather_reference(analysis._a, r, name)
            rows = analysis.sorted_rows()
            analysis._shifts[name] = utest_shift(x, rows, analysis._row_start, analysis._row_n)


def parts(
    analysis: Analysis, shown: Comparison | None = None
) -> tuple[dict[str, pl.DataFrame], dict[str, np.ndarray], str]:
    """The frames and arrays `Restored` is made of, and what the comparison `shown` (kept
    whole, with its summary when computed) was made for ("" without one)."""
    frames = {name: getattr(analysis, name) for name in FRAMES}
    made_for = ""
    if shown is not None and shown.source is not None:
        made_for = _made_for(shown.reference, shown.options)
        frames["shown"], frames["shown_layout"] = _without_copies(shown.source.rows, analysis)
        summary = shown.source.cache.get(_summary_key(shown.options))
        if summary is not None:
            frames["shown_summary"] = summary
    arrays = {name: np.asarray(getattr(analysis, name)) for name in ARRAYS}
    for name in BOOT:
        arrays[f"boot_{name}"] = getattr(analysis._boot, name)
    names = analysis.rs.system_names
    for r, p in list(analysis._utest_p.items()):
        arrays[f"utest_{r}"] = p
    for ref, shift in list(analysis._shifts.items()):
        arrays[f"shift_{names.index(ref)}"] = shift
    return frames, arrays, made_for


def _without_copies(rows: pl.DataFrame, analysis: Analysis) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A comparison's rows without the columns that are the groups' own, gathered by `_row`
    (names, centres, intervals, iteration values: most of the bytes), and the layout that
    puts them back (`_with_copies`). A column is left out only if equal, value for value."""
    groups, at = analysis.groups, rows["_row"]
    copied = [
        c
        for c in rows.columns
        if c != "_row" and c in groups.columns and rows[c].equals(groups[c].gather(at))
    ]
    layout = pl.DataFrame({"column": rows.columns, "copied": [c in copied for c in rows.columns]})
    return rows.drop(copied), layout


def _with_copies(rows: pl.DataFrame, layout: pl.DataFrame, groups: pl.DataFrame) -> pl.DataFrame:
    at = rows["_row"]
    copied = layout.filter("copied")["column"].to_list()
    return rows.with_columns(groups[c].gather(at) for c in copied).select(
        layout["column"].to_list()
    )


def _made_for(reference: str, options: AnalysisOptions) -> str:
    return repr((reference, options.analysis_key(), options.comparison_key()))


def _summary_key(options: AnalysisOptions) -> tuple:
    return ("summary", options.trust_single_iteration)  # Comparison.summary's


class _Once(Future):
    """A value computed on the first `result()` (from any thread), then kept."""

    def __init__(self, make: Callable[[], Any]) -> None:
        super().__init__()
        self._make, self._lock, self._value = make, threading.Lock(), None

    def result(self, timeout: float | None = None) -> Any:
        with self._lock:
            if self._value is None:
                self._value = self._make()
            return self._value


class Restored(Analysis):
    """An Analysis read back from `parts`, without the samples until something needs them."""

    def __init__(
        self,
        rs: ResultSet,
        options: AnalysisOptions,
        frames: dict[str, pl.DataFrame],
        arrays: dict[str, np.ndarray],
        made_for: str = "",
    ) -> None:
        # Not Analysis.__init__: everything it computes is read back.
        self.rs, self.options, self.timings = rs, options, {}
        self.groups, self.duplicates = (frames[n] for n in FRAMES)
        # Not `compare`'s own: a comparison is made anew for another reference or option.
        self._pooled, self._row_start, self._row_n = (arrays[n] for n in ARRAYS)
        self._boot = BootstrapData(*(arrays[f"boot_{n}"] for n in BOOT))
        self._a = compare_arrays(self.groups)
        names = rs.system_names
        self._utest_p = {int(k[6:]): v for k, v in arrays.items() if k.startswith("utest_")}
        self._shifts = {names[int(k[6:])]: v for k, v in arrays.items() if k.startswith("shift_")}
        self.read_whole = not self.needs_samples  # every reference's tests were stored
        rows = frames.get("shown")
        if rows is not None:
            rows = _with_copies(rows, frames["shown_layout"], self.groups)
        self._shown = (made_for, rows, frames.get("shown_summary"))
        self._whole = _Once(lambda: Analysis(rs, options))
        self._ranked = _Once(lambda: self._whole.result()._ranked.result())

    def compare(self, reference: str, options: AnalysisOptions | None = None) -> Comparison:
        """The comparison stored for this reference and options as it was, else computed."""
        options = self.options_for(options)
        made_for, rows, summary = self._shown
        if rows is None or made_for != _made_for(reference, options):
            return super().compare(reference, options)
        cmp = self.comparison_of(reference, options, rows)
        if summary is not None and cmp.source is not None:
            cmp.source.cache[_summary_key(options)] = summary
        return cmp

    @property
    def iterations(self) -> pl.DataFrame:
        return self._whole.result().iterations

    @iterations.setter
    def iterations(self, value: pl.DataFrame) -> None:
        raise AttributeError("the iterations of a restored analysis are its whole one's")

    def sorted_rows(self) -> np.ndarray:
        return self._whole.result().sorted_rows()

    @property
    def needs_samples(self) -> bool:
        """Whether some reference's U test or shift is not stored (they need the samples)."""
        n = len(self.rs.system_names)
        return len(self._utest_p) < n or len(self._shifts) < n
