"""The analysis of results that grew, made from the previous analysis and the changed part.

After a reload that only added files (`ingest/appending.py`), every figure of a system and
metric whose samples are as they were is the previous analysis's: it depends on that
group's samples only. So only the groups the new files touch are analysed (an `Analysis`
of their samples, whose kept iterations are reused too: compare/growing.py) and their rows
are spliced in among the kept ones, in the order a full analysis gives them; their sorted
samples stay where each analysis keeps them (analysis/row_samples.py). What involves two
groups is patched where one of them changed: the U test's p-values and the shifts against
a reference the previous analysis had asked for are computed again for those pairs only;
another reference ranks every metric afresh (as any analysis does, once).

A comparison the previous analysis made and the explorer still holds is spliced the same
way (`GrownAnalysis.compare`): only the rows whose own or reference group changed are
compared again, and what spans every row (`decide`'s adjustment) is computed again.

Everything else that spans groups (the duplicate metrics, the summary's runs) is computed
again from the spliced iterations: it is small. The numbers are those of a fresh analysis
(tests/core/test_incremental_growth.py, test_spliced_comparison.py,
tests/tui/test_tui_reloads.py).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare.against import Against, gather_reference
from tuibench.analysis.compare.analysis import Analysis
from tuibench.analysis.compare.comparison import Comparison
from tuibench.analysis.compare.decide import decide
from tuibench.analysis.compare.duplicates import duplicate_metrics
from tuibench.analysis.compare.growing import Known
from tuibench.analysis.compare.summary import BootstrapData
from tuibench.analysis.row_samples import RowSamples
from tuibench.model.options import AnalysisOptions
from tuibench.model.results import ResultSet
from tuibench.util.worker import in_worker

# The changed pairs' U tests and shifts are computed in two threads past this many
# samples on their changed side (a quarter of a million: 40 ms each).
SPLIT_PAIRS = 250_000

# Rows taken as slices while they are at most this many runs (`_taken`).
SLICED_RUNS = 64

# A comparison is spliced from a previous one while at most this share of its rows
# changed (a new iteration of the reference changes every row against it).
SPLICE_SHARE = 0.5


def spliced(
    old: Analysis,
    rs: ResultSet,
    keys: np.ndarray,
    start: np.ndarray,
    count: np.ndarray,
    source: np.ndarray,
    options: AnalysisOptions,
) -> Analysis | None:
    """The analysis of `rs`, whose iterations are at `start` (`count` samples, names and
    iteration `keys`) and were `source` among `old`'s iterations (-1: new); None when the
    previous one cannot serve (other per-iteration options)."""
    if not Known(old.iterations, source, old.options).fits(options, len(source)):
        return None
    edge = np.r_[True, (keys[1:, :3] != keys[:-1, :3]).any(axis=1)] if len(keys) else keys[:, 0]
    gid = np.cumsum(edge) - 1  # every iteration's group, in sample order
    ng = int(gid[-1]) + 1 if len(gid) else 0
    touched = np.zeros(ng, dtype=bool)
    touched[gid[source < 0]] = True
    inside = touched[gid]  # iterations of the groups analysed again
    part = _slices(rs.samples, start[inside], count[inside])
    sub = Analysis(
        ResultSet(part, rs.metrics, rs.systems, notes=rs.notes),
        options,
        Known(old.iterations, source[inside], old.options, part=True, counts=count[inside]),
        keep_figures=True,
    )
    out = GrownAnalysis.__new__(GrownAnalysis)
    out.rs, out.options, out.timings, out._known = rs, options, {}, None
    out._made = weakref.WeakValueDictionary()
    # The previous comparisons still held now (the session being replaced holds them):
    # kept until asked for again, such as the references the new session switches to.
    out._previous = old._held() if isinstance(old, Remembering) else {}
    at = np.where(inside, old.iterations.height + np.cumsum(inside) - 1, source)
    out.iterations = _taken(pl.concat([old.iterations, sub.iterations], rechunk=False), at)
    out._gid = gid
    _splice_rows(out, old, sub, keys[edge], touched, gid, source)
    # The U tests and shifts against the references a comparison was made for start now,
    # in a worker (the screen asks for one of them), beside the rest.
    out._patching = {
        r: in_worker(out._patched, r)
        for r, name in enumerate(rs.system_names)
        if r in old._utest_p and name in old._shifts
    }
    # Needed by the comparison's summary only: in workers, beside the U tests.
    out._duplicates = in_worker(duplicate_metrics, out.iterations, rs.metrics)
    out._pending_boot = in_worker(BootstrapData.build, out.iterations, out._a, gid)
    return out


class Remembering(Analysis):
    """An Analysis that remembers the comparisons it made while they are in use: weakly,
    as long as their holder (the explorer's session) keeps them. A grown analysis splices
    its own from them (`GrownAnalysis.compare`)."""

    _made: weakref.WeakValueDictionary  # (reference, comparison options) -> Comparison
    _making = threading.Lock()  # comparisons are made in workers too (other references)

    def compare(self, reference: str, options: AnalysisOptions | None = None) -> Comparison:
        cmp = super().compare(reference, options)
        self._remember(cmp)
        return cmp

    def _remember(self, cmp: Comparison) -> None:
        with self._making:
            if not hasattr(self, "_made"):  # made by Analysis.__init__
                self._made = weakref.WeakValueDictionary()
            self._made[cmp.reference, cmp.options.comparison_key()] = cmp

    def _held(self) -> dict[tuple, Comparison]:
        """The comparisons made and still held somewhere."""
        with self._making:
            return dict(getattr(self, "_made", {}).items())


class GrownAnalysis(Remembering):
    """An Analysis spliced from a previous one (`spliced`); asks the previous analysis's
    tests against a reference for the changed pairs only, and splices a comparison the
    previous analysis made (and something still holds) from its rows that did not change.

    Per row, a comparison depends only on the row and its metric's reference row (their
    figures, the U test of the pair, their sample counts). What spans the rows is
    `decide`'s (the Benjamini-Hochberg adjustment: p_adjusted, and under --fdr every
    verdict and note that follow), run again over every row here; the counts, the chance
    figures and the per-system summary are computed from each new Comparison. A variance
    prior fitted over the suite (stats/variance_prior.py) is used only by the series,
    computed afresh from each analysis: nothing of it is spliced."""

    _old_row: np.ndarray  # per row: its row in the previous analysis, -1 when analysed again
    _old_nrow: int  # rows of the previous analysis
    _previous: dict[tuple, Comparison]  # the previous analysis's, until spliced (`_made`)
    _old_p: dict[int, np.ndarray]  # the previous U tests' p-values, by reference position
    _old_shifts: dict[str, np.ndarray]
    _duplicates: Future
    _pending_boot: Future  # the summary's BootstrapData
    _patching: dict[int, Future]  # `_patched` by reference position, started early
    _samples: RowSamples  # every row's sorted samples, where they are (row_samples.py)
    _joining: threading.Lock

    @property  # an attribute of Analysis, here joined when first asked for
    def _sorted(self) -> np.ndarray:  # type: ignore[override]
        """Every row's sorted samples in one array (rows one after another)."""
        with self._joining:
            samples = self._samples
            if len(samples.arrays) > 1 or not np.array_equal(samples.start, self._row_start):
                values = samples.joined()
                self._samples = RowSamples.whole(values, self._row_start, self._row_n)
            return self._samples.arrays[0]

    @property  # computed in a worker (`spliced`)
    def _boot(self) -> BootstrapData:  # type: ignore[override]
        return self._pending_boot.result()

    @property  # computed in a worker (`spliced`)
    def duplicates(self) -> pl.DataFrame:
        return self._duplicates.result()

    @duplicates.setter
    def duplicates(self, value: pl.DataFrame) -> None:
        self._duplicates = Future()
        self._duplicates.set_result(value)

    def _utest_against(self, r: int) -> np.ndarray:
        if r not in self._utest_p and r in self._old_p:
            self._patch(r)
        return super()._utest_against(r)

    def _patch(self, r: int) -> None:
        """Keep the U tests and the shift against system r patched (`_patched`: from the
        worker started early, or computed now)."""
        pending = self._patching.pop(r, None)
        p, shift = pending.result() if pending is not None else self._patched(r)
        if p is not None:
            self._utest_p.setdefault(r, p)
        if shift is not None:
            self._shifts.setdefault(self.rs.system_names[r], shift)

    def _patched(self, r: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The previous analysis's U tests' p-values and shifts against system r (None
        where it had none), those of the pairs where a side changed computed again (in two
        threads when they are many: the comparison waits for them)."""
        name = self.rs.system_names[r]
        a = self._a
        x = gather_reference(a, r, name)
        new = self._old_row < 0
        rows = np.flatnonzero((new | (x.exists & new[x.ref])) & ~x.is_ref)
        want = (r in self._old_p, name in self._old_shifts)
        halves = [rows]
        if self._row_n[rows].sum() > SPLIT_PAIRS:
            halves = np.array_split(rows, 2)
            other = in_worker(self._pairs_again, x, halves[1], *want)
        got = [self._pairs_again(x, halves[0], *want)]
        if len(halves) > 1:
            got.append(other.result())
        p = shift = None
        if want[0]:
            p = self._old_p[r].copy()
            p[a["_m"][rows], a["_s"][rows]] = np.concatenate([u for u, _ in got])
        if want[1]:
            shift = np.full(len(new), np.nan)
            shift[~new] = self._old_shifts[name][self._old_row[~new]]
            shift[rows] = np.concatenate([h for _, h in got])
        return p, shift

    def _pairs_again(self, x: Against, rows: np.ndarray, utest: bool, shift: bool) -> tuple:
        """The U test's p-value (if `utest`) and shift (if `shift`) of each row against
        its reference row, from one gather of their samples (each pair's two sides one
        after the other)."""
        n = self._row_n
        ref = x.ref[rows]
        n1, n2 = n[rows], np.where(x.exists[rows], n[ref], 0)  # no reference row: none
        pn = np.stack([n1, n2], axis=1).ravel()
        values, first = self._samples.of(np.stack([rows, ref], axis=1).ravel(), pn)
        p = h = None
        if utest:
            # Both sides are sorted already: the ranking merges them.
            labels = np.repeat(np.tile(np.array([0, 1], dtype=np.int8), len(rows)), pn)
            ranked = stats.RankedBlocks.build(values, labels, first[0::2], n1 + n2, 2, runs=True)
            u, tie = ranked.against(1)
            p = stats.mwu_pvalue(u[:, 0], n1.astype(np.float64), n2.astype(np.float64), tie[:, 0])
        if shift:
            h = _shifts(values, first[0::2], n1, first[1::2], n2, x.other[rows])
        return p, h

    def compare(self, reference: str, options: AnalysisOptions | None = None) -> Comparison:
        if reference not in self._shifts and reference in self._old_shifts:
            self._patch(self.rs.system_names.index(reference))
        options = self.options_for(options)
        before = self._previous.pop((reference, options.comparison_key()), None)
        decided = self._spliced_rows(before, options) if before is not None else None
        if decided is None:
            return super().compare(reference, options)
        cmp = self.comparison_of(reference, options, decided)
        self._remember(cmp)
        return cmp

    def _spliced_rows(self, before: Comparison, options: AnalysisOptions) -> pl.DataFrame | None:
        """The decided rows of the comparison `before` would be now: its rows that did not
        change, the others compared again (`undecided`), in the groups' order; None when
        most rows changed (a whole comparison is then as quick)."""
        old = before.source.rows if before.source is not None else None
        if old is None or before.options != options or old.height != self._old_nrow:
            return None
        r = self.rs.system_names.index(before.reference)
        x = gather_reference(self._a, r, before.reference)
        new = self._old_row < 0
        changed = new | (x.exists & new[x.ref])
        if changed.sum() > SPLICE_SHARE * len(changed):
            return None
        need = changed.copy()
        need[x.ref[changed & x.exists]] = True  # each changed row's reference, to gather
        part = self.undecided(before.reference, options, np.flatnonzero(need))
        part = part.filter(pl.Series(changed[part["_row"].to_numpy()]))  # not the references
        if not options.fdr:  # a row's significance, verdict and note are its own
            part = decide(part, options.alpha, options.fdr, options.threshold)
        # The groups' order (as `undecided` gives it): each row from the previous rows
        # (through its row there) or from the part (through its own), one gather.
        order = np.arange(len(changed))
        at_old = np.empty(old.height, dtype=np.int64)
        at_old[old["_row"].to_numpy()] = np.arange(old.height)
        at_part = np.zeros(len(changed), dtype=np.int64)
        at_part[part["_row"].to_numpy()] = np.arange(part.height)
        take = np.where(
            changed[order],
            old.height + at_part[order],
            at_old[np.maximum(self._old_row[order], 0)],
        )
        both = pl.concat([old, part.select(old.columns)], rechunk=True)  # one chunk: quicker
        rows = both[pl.Series(take)].with_columns(pl.Series("_row", order, dtype=pl.Int64))
        if options.fdr:  # significance from adjusted p-values: any verdict may move
            return decide(rows, options.alpha, options.fdr, options.threshold)
        return rows.with_columns(_adjusted(rows))


def _adjusted(rows: pl.DataFrame) -> pl.Series:
    """`decide`'s p_adjusted: Benjamini-Hochberg over every judged row (not the
    reference, not n/a), from each row's Welch p-value."""
    judged = ~rows["is_reference"].to_numpy() & ~rows["_na"].to_numpy()
    p = np.where(judged, rows["p_welch"].fill_null(np.nan).to_numpy(), np.nan)
    return pl.Series("p_adjusted", stats.bh_adjust(p)).fill_nan(None)


def _taken(frame: pl.DataFrame, at: np.ndarray) -> pl.DataFrame:
    """The rows `at` of `frame`: as slices where they are a few runs of rows that follow
    one another (a new iteration of one system: its iterations, between two runs of the
    others'), else one gather (a gather of 200,000 iterations kept two cores busy)."""
    cut = np.r_[True, at[1:] != at[:-1] + 1] if len(at) else np.zeros(0, dtype=bool)
    if cut.sum() > SLICED_RUNS:
        return frame[pl.Series(at)]
    first = np.flatnonzero(cut)
    return _slices(frame, at[first], np.diff(np.r_[first, len(at)]))


def _slices(frame: pl.DataFrame, start: np.ndarray, count: np.ndarray) -> pl.DataFrame:
    """The rows start[i] .. start[i] + count[i], in order, as one frame: runs that follow
    one another are one slice (a gather from the merged rows, kept in many chunks, took
    half a second at 10^7 samples)."""
    if not len(start):
        return frame.clear()
    cut = np.r_[True, start[1:] != start[:-1] + count[:-1]]
    size = np.add.reduceat(count, np.flatnonzero(cut))
    parts = [frame.slice(int(a), int(b)) for a, b in zip(start[cut], size, strict=True)]
    # Few chunks: a single slice of merged rows would keep thousands of them (concat
    # returns it as it is), and each select over it then cost 15 ms a column.
    part = pl.concat(parts)
    return part.rechunk() if part.n_chunks() > 16 else part


def _splice_rows(
    out: GrownAnalysis,
    old: Analysis,
    sub: Analysis,
    group_keys: np.ndarray,
    touched: np.ndarray,
    gid: np.ndarray,
    source: np.ndarray,
) -> None:
    """The rows (`groups`, `_a`, every row's sorted samples, the U tests' layout) of the
    kept groups from `old`, of the others from `sub`, in a full analysis's order."""
    ng = len(touched)
    # The kept groups' rows in `old`: through any of their iterations.
    first_it = np.r_[0, np.flatnonzero(np.diff(gid)) + 1] if ng else gid
    old_row_of_group = np.empty(len(old._a["_g"]), dtype=np.int64)
    old_row_of_group[old._a["_g"]] = np.arange(len(old._a["_g"]))
    kept_groups = np.flatnonzero(~touched)
    old_rows = old_row_of_group[old._gid[source[first_it[kept_groups]]]]
    sub_groups = np.flatnonzero(touched)[sub._a["_g"]]  # sub's rows -> groups here
    group = np.r_[kept_groups, sub_groups]
    m_id = _metric_ids(out.rs.metrics, group_keys[group])
    s_id = np.r_[old._a["_s"][old_rows], sub._a["_s"]]
    order = np.lexsort((s_id, m_id))
    nrow = len(order)
    fixed = {
        "_g": group[order],
        "_m": m_id[order],
        "_s": s_id[order],
        "_row": np.arange(nrow, dtype=np.int64),
    }
    # Each row's place among old's rows followed by sub's: one gather of each.
    at = np.r_[old_rows, len(old_row_of_group) + np.arange(len(sub_groups))][order]
    both = pl.concat([old.groups, sub.groups], how="vertical_relaxed")
    out.groups = both[pl.Series(at)].with_columns(
        pl.Series(k, v, dtype=pl.Int64) for k, v in fixed.items()
    )
    out._a = {k: np.concatenate([old._a[k], sub._a[k]])[at] for k in old._a}
    out._a.update(fixed)
    out._old_row = np.r_[old_rows, np.full(len(sub_groups), -1)][order]
    out._old_nrow = len(old_row_of_group)
    # Every row's samples, sorted: where the two analyses keep them, not copied (until
    # something needs them in one array: `_sorted`), unless too scattered.
    kept = old._samples if isinstance(old, GrownAnalysis) else _whole(old)
    out._samples = RowSamples.spliced([kept, _whole(sub)], at)
    n = out._samples.n
    out._row_start = np.r_[0, np.cumsum(n)[:-1]].astype(np.int64)
    out._row_n = n
    out._joining = threading.Lock()
    if out._samples.too_scattered():
        out._sorted  # noqa: B018  # joined now, letting the replaced samples go
    s = max(1, len(out.rs.system_names))
    nm = int(fixed["_m"].max()) + 1 if nrow else 0
    cell = fixed["_m"] * s + fixed["_s"]
    out._pooled = np.bincount(cell, weights=n, minlength=nm * s).reshape(nm, s)
    out._utest_p, out._shifts = {}, {}
    out._old_p, out._old_shifts = dict(old._utest_p), dict(old._shifts)
    out._ranked = _Later(lambda: _ranked(out, s, nm))  # type: ignore[assignment]


def _ranked(out: GrownAnalysis, s: int, nm: int) -> stats.RankedBlocks:
    """Every metric's samples ranked (for a reference not asked for before)."""
    a, n = out._a, out._row_n
    labels = np.repeat(a["_s"].astype(np.int8 if s < 128 else np.int64), n)
    blocks = np.bincount(a["_m"], weights=n, minlength=nm).astype(np.int64)
    bstarts = np.r_[0, np.cumsum(blocks)[:-1]].astype(np.int64)
    return stats.RankedBlocks.build(out._sorted, labels, bstarts, blocks, s, runs=True)


def _whole(analysis: Analysis) -> RowSamples:
    return RowSamples.whole(analysis._sorted, analysis._row_start, analysis._row_n)


def _metric_ids(metrics: pl.DataFrame, keys: np.ndarray) -> np.ndarray:
    """Each group's metric: its place in the catalogue (natural order of the name codes)."""
    b = metrics["benchmark"].to_physical().to_numpy().astype(np.int64)
    m = metrics["metric"].to_physical().to_numpy().astype(np.int64)
    wide = int(max(m.max(initial=0), keys[:, 2].max(initial=0))) + 1
    return np.searchsorted(b * wide + m, keys[:, 1] * wide + keys[:, 2]).astype(np.int64)


def _shifts(values, start, n, ref_start, ref_n, other: np.ndarray) -> np.ndarray:
    """`against.utest_shift` of rows whose samples and reference's are in `values`."""
    ok = other & (ref_n > 0)
    shift, _ = stats.hodges_lehmann(values, start[ok], n[ok], ref_start[ok], ref_n[ok])
    ref_median = stats.group_medians(values, ref_start[ok], ref_n[ok])
    out = np.full(len(n), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        out[ok] = np.where(ref_median != 0, shift / np.abs(ref_median), np.nan)
    return out


class _Later:
    """A value computed when first asked for (in the asking thread), then kept: the full
    ranking, needed only for a reference the previous analysis had not asked for."""

    def __init__(self, make: Callable[[], stats.RankedBlocks]) -> None:
        self._make: Callable[[], stats.RankedBlocks] | None = make
        self._value: stats.RankedBlocks | None = None
        self._lock = threading.Lock()

    def result(self) -> stats.RankedBlocks:
        with self._lock:
            if self._value is None:
                assert self._make is not None
                self._value, self._make = self._make(), None
            return self._value
