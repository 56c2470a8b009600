"""ResultSet + reference + options -> the comparison table.

`Analysis` does everything that does not depend on the reference, once per load: the outlier
fences (and the trim, when asked), the per-iteration values, the per-system centres,
intervals, noise figures and variance components, and the Mann-Whitney U statistics of every
pair of systems. `Analysis.compare()` only gathers every row's reference and runs the
vectorised tests on moments, so a reference switch is cheap.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from concurrent.futures import Future

import numpy as np
import polars as pl

from tuibench import stats
from tuibench.analysis.compare.against import gather_reference, utest_shift
from tuibench.analysis.compare.columns import GROUP, METRIC, PRIVATE_COLUMNS, ROW_COLUMNS
from tuibench.analysis.compare.comparison import Comparison
from tuibench.analysis.compare.decide import decide
from tuibench.analysis.compare.duplicates import DIGITS, duplicate_metrics
from tuibench.analysis.compare.frames import (
    fixed_width_text,
    group_lists,
    harmonic,
    notes,
    rle_groups,
    with_reader_notes,
)
from tuibench.analysis.compare.growing import Known, iteration_figures
from tuibench.analysis.compare.parts import RowSource, rows_against
from tuibench.analysis.compare.summary import BootstrapData, SummarySource
from tuibench.model.options import DEFAULT_ANALYSIS, AnalysisOptions
from tuibench.model.results import ResultSet
from tuibench.stats.samples.blocks import groups_in_order
from tuibench.util.worker import in_worker


def _group_spans(it_counts: np.ndarray, gid: np.ndarray, ng: int) -> tuple[np.ndarray, np.ndarray]:
    """First sample and sample count of every group, from its iterations' counts."""
    counts = np.bincount(gid, weights=it_counts, minlength=ng).astype(np.int64)
    return np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64) if ng else counts, counts


def _overflowed(centre: np.ndarray, *spreads: np.ndarray) -> np.ndarray:
    """Rows whose centre or spread went infinite or undefined through overflow."""
    out = np.isinf(centre)
    for a in spreads:
        out |= np.isinf(a)
    return out


def compare_arrays(groups: pl.DataFrame) -> dict[str, np.ndarray]:
    """Everything compare() reads of the groups' frame, as numpy once; words as fixed-width
    strings, null as "" (Python strings were about 60 bytes a row: 0.25 GB at a million)."""
    wanted: tuple[str, ...] = ("center", "ci_low", "iterations", "mean_kind", "center_raw")
    wanted += ("var_within", "var_between", "better", "outliers_low", "outliers_high")
    return {
        s.name: fixed_width_text(s) if s.dtype == pl.String else s.to_numpy()
        for s in groups.iter_columns()
        if (s.name.startswith("_") and s.name != "_note") or s.name in wanted
    }


class Analysis:
    """Reference-independent statistics of a ResultSet.

    iteration_value: what stands for an iteration (`stats.ITERATION_VALUES`):
    `subselection` (the median of B subselection means, mmtests' method), `mean`, `median`,
    or `trimmed` (the mean of the samples inside the iteration's mild Tukey fences, 1.5 IQR;
    every other figure then also comes from the kept samples, and the rows carry the centre,
    change and RSD of all samples beside: `center_raw`, `change_raw`, `rsd_raw`).
    Its options' `analysis_key()` part is used here; the rest is the default of `compare`.
    """

    _gid: np.ndarray  # every iteration's group (`_groups_unordered`)
    _gstarts: np.ndarray  # every group's first iteration
    keeps_figures = True  # the iterations' figures kept (`keep_figures`; read back: as made)

    # Values near the float range overflow in sums and squares: they become NaN or inf and a
    # row note (not numpy warnings on stderr).
    @np.errstate(all="ignore")
    def __init__(
        self,
        rs: ResultSet,
        options: AnalysisOptions = DEFAULT_ANALYSIS,
        known: Known | None = None,
        keep_figures: bool = False,
        figures_up_to: int | None = None,
        samples_read: Callable[[bool], object] | None = None,
    ):
        """`known`: a previous analysis's iterations, kept where the same (compare/growing.py).
        `keep_figures`: keep every iteration's figures (median, rounding, outliers) for a later
        grown analysis (the explorer's reloads); else only what comparisons and summary read.
        `figures_up_to`: keep them only for that many iterations or fewer (`keeps_figures`
        says whether they were kept). `samples_read(keeps_figures)`: called once `rs.samples`
        is read for good (the explorer frees them); then, without the figures kept, the
        iterations are let go of too once the duplicates and the summary's data are made
        from them (0.36 GB at a million metrics): no comparison reads them, nor a reload
        without their figures (it analyses everything again)."""
        if not 1 <= options.subselections <= stats.MAX_SUBSELECTIONS:
            raise ValueError(
                f"subselections must be between 1 and {stats.MAX_SUBSELECTIONS}, "
                f"not {options.subselections}"
            )
        if options.iteration_value not in stats.ITERATION_VALUES:
            raise ValueError(
                f"unknown iteration value {options.iteration_value!r}; choose one of "
                + ", ".join(stats.ITERATION_VALUES)
            )
        self.rs = rs
        self.options = options
        self.timings: dict[str, float] = {}  # seconds per phase, for benchmarks/
        self._known = known
        self.keeps_figures = keep_figures  # and few enough iterations (`_iterations`)
        clock = time.perf_counter()
        self.iterations = self._iterations(samples_read, figures_up_to)
        self.timings["iterations"] = time.perf_counter() - clock
        whole = known is None or not known.part  # a part's rows are spliced (spliced.py)
        # Duplicate metrics need only the iterations' plain means: in a worker, beside.
        dup = in_worker(duplicate_metrics, self.iterations, self.rs.metrics) if whole else None
        clock = time.perf_counter()
        self.groups = self._groups()
        self.timings["systems and u-test layout"] = time.perf_counter() - clock
        clock = time.perf_counter()
        if dup is not None:
            self.duplicates = dup.result()
            self._boot = BootstrapData.build(self.iterations, self._a, self._gid)
        self.timings["summary data"] = time.perf_counter() - clock
        # Nor the iterations' figures in the rows (48 of 84 bytes an iteration: 0.5 GB at
        # 10^7): the samples and their spans were let go of in `_groups`.
        if not self.keeps_figures:
            self.iterations = self.iterations.select(*GROUP, "iteration", "value", "mean_raw")
            if whole and samples_read is not None:  # the explorer's: nothing reads them now
                self.iterations, self._gid = self.iterations.clear(), np.zeros(0, np.int64)

    # -- step 1: outliers, then one robust value per iteration ----------------------------
    def _iterations(
        self,
        samples_read: Callable[[bool], object] | None = None,
        figures_up_to: int | None = None,
    ) -> pl.DataFrame:
        samples = self.rs.samples
        it_keys = [*GROUP, "iteration"]
        if self._known is not None and self._known.counts is not None:
            starts, counts = self._known.spans()  # a part's: known (spliced.py)
        else:
            starts = rle_groups(samples, it_keys)[1]  # not the ids: one int64 a sample
            counts = np.diff(np.r_[starts, samples.height]).astype(np.int64)
        keys = samples.select(it_keys)[starts] if len(starts) else samples.select(it_keys)
        if figures_up_to is not None and len(starts) > figures_up_to:
            self.keeps_figures = False
        hmean = harmonic(keys, self.rs.metrics)
        values = samples["value"].to_numpy()
        del samples  # before the kernels: `samples_read` may free the frame
        if samples_read is not None:
            samples_read(self.keeps_figures)
        kind = self.options.iteration_value
        if self._known is not None and self._known.fits(self.options, len(starts)):
            return self._known_iterations(keys, values, starts, counts, hmean)
        if kind == "subselection":  # the costliest step: in a worker, while the rest runs
            self._pending = in_worker(
                stats.iteration_values,
                values,
                starts,
                counts,
                hmean,
                self.options.subselections,
                self.options.seed,
            )
        # Beside the chosen value, always: the median (is the verdict robust?; from the same
        # sort as the fences) and the plain mean of every sample (the untrimmed centre;
        # finding duplicate metrics).
        # The sort for the fences also leaves each iteration's samples sorted: `_groups`
        # sorts these runs into its groups' order in place (long runs merged: sort_within).
        self._runs = np.empty(len(values))
        fences = stats.tukey_and_medians(values, starts, counts, sorted_out=self._runs)
        low, high, n_low, n_high, n_ext, median = fences
        out = {"outliers_low": n_low, "outliers_high": n_high, "outliers_extreme": n_ext}
        self._hmean_it = hmean
        self._raw = (values, starts, counts)
        mean_raw = stats.iteration_means(values, starts, counts, hmean)
        if kind == "trimmed":
            keep = (values >= np.repeat(low, counts)) & (values <= np.repeat(high, counts))
            values = values[keep]
            counts = counts - n_low - n_high
            starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64) if len(starts) else starts
            v = stats.iteration_means(values, starts, counts, hmean)
        elif kind == "mean":
            v = mean_raw
        elif kind == "median":
            v = median
        if kind != "subselection":
            self._pending = Future()
            self._pending.set_result(v)
        self._values = values  # the analysed samples, iteration after iteration
        self._it_starts, self._it_counts = starts, counts
        # The value of every iteration joins them in `_with_values`.
        return keys.with_columns(
            pl.Series("samples", counts, dtype=pl.Int64),
            pl.Series("rounding", self._rounding(), dtype=pl.Float64),
            pl.Series("median", median, dtype=pl.Float64),
            pl.Series("mean_raw", mean_raw, dtype=pl.Float64),
            *(pl.Series(k, a, dtype=pl.Int64) for k, a in out.items()),
        )

    def _known_iterations(self, keys, values, starts, counts, hmean) -> pl.DataFrame:
        """`_iterations` reducing only the iterations `_known` lacks (compare/growing.py)."""
        assert self._known is not None
        self._pending, got = iteration_figures(
            values, starts, counts, hmean, self.options, self._known, self._rounding_of
        )
        self._hmean_it, self._raw, self._values = hmean, (values, starts, counts), values
        self._it_starts, self._it_counts = starts, counts
        return keys.with_columns(
            pl.Series("samples", counts, dtype=pl.Int64),
            *(pl.Series(k, got[k], dtype=pl.Float64) for k in ("rounding", "median", "mean_raw")),
            *(
                pl.Series(k, got[k], dtype=pl.Int64)
                for k in ("outliers_low", "outliers_high", "outliers_extreme")
            ),
        )

    def _rounding(self) -> np.ndarray:
        return self._rounding_of(*self._raw)

    @staticmethod
    def _rounding_of(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """How far printing may have moved each iteration's mean, relative
        (`stats.iteration_rounding`). Bounds a sample's error when a producer prints a fixed
        number of decimals (Go's MB/s) or of significant digits, and so the error of a mean,
        arithmetic or harmonic (`duplicate_metrics`, which floors it at 10^-DIGITS: below
        that only a bound is computed)."""
        return stats.iteration_rounding(values, starts, counts, 10.0**-DIGITS)

    # -- step 2: centre, interval and noise per system ------------------------------------
    def _sample_moments(
        self, x: np.ndarray, starts: np.ndarray, counts: np.ndarray
    ) -> dict[str, np.ndarray]:
        """Count, mean and variance of every group's samples `x` (contiguous, tiling x) on
        the scale where the mean is arithmetic, and whether an Hmean group has a
        non-positive (or NaN) sample."""
        hmean = self._hmean_g
        n, mean, var = stats.segment_moments(x, starts, counts, reciprocal=hmean)
        nonpos = hmean & ~(stats.segment_min(x, starts, counts) > 0)
        return {"n": n, "mean": mean, "var": var, "nonpos": nonpos}

    def _centres(
        self, v: np.ndarray, samples: dict[str, np.ndarray], gid: np.ndarray, ng: int
    ) -> dict[str, np.ndarray]:
        """Centre and interval from iteration values `v` and the moments of the samples
        (`_sample_moments`, of any sample set)."""
        hmean = self._hmean_g
        with np.errstate(divide="ignore", invalid="ignore"):
            y = np.where(hmean[gid], 1.0 / v, v)  # the scale on which means are arithmetic
        k, y_mean, y_var = stats.group_moments(y, gid, ng)
        # Raw samples on the same scale: the interval for one iteration, and Welch's
        # fallback when either side has a single iteration. A non-positive sample has no
        # reciprocal: the moments are undefined.
        nonpos = samples["nonpos"]
        n_s = samples["n"]
        s_mean = np.where(nonpos, np.nan, samples["mean"])
        s_var = np.where(nonpos, np.nan, samples["var"])
        lo_it, hi_it = stats.t_interval(y_mean, y_var, k)
        lo_s, hi_s = stats.t_interval(y_mean, s_var, n_s)  # centred on the iteration value
        one = k == 1
        lo_y, hi_y = np.where(one, lo_s, lo_it), np.where(one, hi_s, hi_it)
        with np.errstate(divide="ignore", invalid="ignore"):
            centre = np.where(hmean, 1.0 / y_mean, y_mean)
            # Reciprocals reverse the order; a non-positive lower bound means unbounded.
            ci_low = np.where(hmean, np.where(hi_y > 0, 1.0 / hi_y, np.nan), lo_y)
            ci_high = np.where(hmean, np.where(lo_y > 0, 1.0 / lo_y, np.inf), hi_y)
        return {
            "k": k,
            "y_mean": y_mean,
            "y_var": y_var,
            "n_s": n_s,
            "s_mean": s_mean,
            "s_var": s_var,
            "centre": np.where(nonpos, np.nan, centre),
            "ci_low": np.where(nonpos, np.nan, ci_low),
            "ci_high": np.where(nonpos, np.nan, ci_high),  # inf: unbounded above
            "nonpos": nonpos,
        }

    def _it_centre(self, v: np.ndarray, gid: np.ndarray, ng: int) -> dict[str, np.ndarray]:
        """Mean and variance of iteration values on the arithmetic scale, and the centre."""
        hmean = self._hmean_g
        with np.errstate(divide="ignore", invalid="ignore"):
            y = np.where(hmean[gid], 1.0 / v, v)
            _, y_mean, y_var = stats.group_moments(y, gid, ng)
            centre = np.where(hmean, 1.0 / y_mean, y_mean)
        return {"y_mean": y_mean, "y_var": y_var, "centre": centre}

    def _with_values(self) -> pl.DataFrame:
        """The iterations with their values (waiting for the worker that computes them)."""
        v = self._pending.result()
        del self._pending
        it = self.iterations
        return it.insert_column(
            it.columns.index("samples") + 1, pl.Series("value", v, dtype=pl.Float64)
        )

    def _groups(self) -> pl.DataFrame:
        """Per system and metric: centre, interval, noise and what compare() reads, one row
        each, in every table's order (`_row_layout`)."""
        frame, order, m_id, s_id = self._groups_unordered()
        # The samples, their spans and their sorted copy are read no more (`_sorted` holds
        # what the tests need): let go of before the frame is copied into the rows' order,
        # where they were the explorer's peak at a million metrics (0.5 GB more).
        del self._ordered, self._raw, self._values, self._it_starts, self._it_counts
        del self._gstarts
        # Rows by metric in natural order, then by system: every table's order (the Enum
        # codes are that order); names leave the core as strings. Column by column, each
        # let go of once taken: both frames at once were a peak at a million metrics.
        frame = pl.DataFrame([frame.drop_in_place(c).gather(order) for c in list(frame.columns)])
        frame = frame.with_columns(pl.col(c).cast(pl.String) for c in GROUP)
        frame = with_reader_notes(frame, self.rs.notes)
        frame = frame.with_columns(
            pl.Series("_m", m_id),
            pl.Series("_s", s_id),
            pl.Series("_row", np.arange(frame.height, dtype=np.int64)),
        )
        self._a = compare_arrays(frame)
        return frame

    def _groups_unordered(self) -> tuple[pl.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
        """The groups' frame in the groups' order (its arrays owned by it alone once this
        returns), the rows' order, and each row's metric id and system position."""
        it = self.iterations
        gid, gstarts = rle_groups(it, GROUP)
        ng = len(gstarts)
        keys = it.select(GROUP)[gstarts] if ng else it.select(GROUP)
        keys = keys.join(self.rs.metrics, on=METRIC, how="left", maintain_order="left")
        self._hmean_g = hmean = (keys["mean_kind"] == "hmean").to_numpy()

        # Every group's samples are contiguous (iterations are, in group order).
        x, it_starts, it_counts = self._values, self._it_starts, self._it_counts
        s_starts, s_counts = _group_spans(it_counts, gid, ng)
        raw_values, _, raw_it_counts = self._raw
        r_starts, r_counts = _group_spans(raw_it_counts, gid, ng)
        # Every group's samples sorted, once: mmtests' statistics, the medians and the U
        # test's shift (in `_pairs`).
        runs = self.__dict__.pop("_runs", None)  # not when the iterations were known
        if runs is not None:
            self._ordered = stats.sort_within(runs, r_starts, r_counts, runs=raw_it_counts)
        else:
            self._ordered = stats.sort_within(raw_values, r_starts, r_counts)
        # The rows' order (by metric, then system) needs only the names.
        self._gid, self._gstarts = gid, gstarts
        order, m_id, s_id = self._row_layout(keys)
        raw = self._sample_moments(self._ordered, r_starts, r_counts)
        # Untrimmed, the analysed samples are every sample: their moments are the same.
        sampled = self._sample_moments(x, s_starts, s_counts) if self.options.trimmed else raw
        # Noise: RSD of the samples, outliers, variance components (on the measured values).
        it_n, it_mean, it_var = stats.segment_moments(x, it_starts, it_counts)
        # The U tests' ranking starts now, in a worker beside the rest of this step: after
        # the moments, since the temporaries of both at once were the explorer's peak.
        self._pairs(order, m_id, s_id)
        self.iterations = it = self._with_values()
        c = self._centres(it["value"].to_numpy(), sampled, gid, ng)
        one, n_s = c["k"] == 1, c["n_s"]

        rsd = stats.relative_sd(*stats.pooled_moments(it_n, it_mean, it_var, gid, ng))
        var_within, var_between, inv_n = stats.variance_components(it_n, it_mean, it_var, gid, ng)
        out = {
            k: stats.group_sums(it[k].to_numpy(), gid, ng)
            for k in ("outliers_low", "outliers_high", "outliers_extreme")
        }
        if self.options.trimmed:  # the same figures from every sample, for comparison
            _, m_r, v_r = stats.segment_moments(raw_values, r_starts, r_counts)
            rsd_raw = stats.relative_sd(m_r, v_r)
            centre_raw = self._it_centre(it["mean_raw"].to_numpy(), gid, ng)["centre"]
            centre_raw = np.where(c["nonpos"], np.nan, centre_raw)
        else:
            rsd_raw, centre_raw = rsd, c["centre"]
        med = self._it_centre(it["median"].to_numpy(), gid, ng)
        higher = (keys["better"] == "higher").fill_null(False).to_numpy()
        moments = (raw["mean"], raw["var"])
        spread = stats.pooled_spread(self._ordered, r_starts, r_counts, hmean, higher, moments)

        nonpos, ci_high = c["nonpos"], c["ci_high"]
        # 80 % of two samples is one: each subset is a single sample, so the iteration's value
        # is (nearly always) one of its two samples, picked by the draw.
        pairs = stats.group_sums((it["samples"] == 2).to_numpy(), gid, ng) > 0
        pairs &= self.options.iteration_value == "subselection"
        note = notes(
            (
                pairs,
                "two samples in an iteration: a subselection of 80 % keeps one of them, so "
                "that iteration's value is one sample; --iteration-value mean uses both",
            ),
            (one & (n_s == 1), "one iteration with one sample: no interval and no test"),
            (
                one & (n_s > 1),
                "one iteration: interval from its samples, which understates run-to-run variation",
            ),
            (hmean & nonpos, "non-positive values: the harmonic mean is undefined"),
            (
                hmean & ~nonpos & np.isinf(ci_high),
                "interval too wide for a harmonic mean: upper bound unbounded",
            ),
            (
                ~nonpos
                & _overflowed(c["centre"], c["y_mean"], c["y_var"], c["s_mean"], c["s_var"], rsd),
                "values too large for 64-bit floats (or, for a harmonic mean, too small): "
                "the mean or variance overflows, so the centre, interval or test is undefined",
            ),
        )
        # Each group's iterations are contiguous: grouped by its id, not hashed by its names.
        values_list = group_lists("iteration_values", it["value"], gstarts)
        frame = keys.with_columns(
            pl.Series("iterations", c["k"].astype(np.int64)),
            pl.Series("center", c["centre"]),
            pl.Series("ci_low", c["ci_low"]),
            pl.Series("ci_high", np.where(np.isinf(ci_high), np.nan, ci_high)),
            pl.Series("rsd", rsd),
            *(pl.Series(k, a, dtype=pl.Int64) for k, a in out.items()),
            pl.Series("center_raw", centre_raw),
            pl.Series("rsd_raw", rsd_raw),
            pl.Series("var_within", var_within),
            pl.Series("var_between", var_between),
            pl.Series("_inv_n", inv_n),
            pl.Series("_hi", ci_high),  # with inf kept, for the overlap of intervals
            pl.Series("_y_mean", c["y_mean"]),
            pl.Series("_y_var", c["y_var"]),
            pl.Series("_s_n", c["n_s"]),
            pl.Series("_s_mean", c["s_mean"]),
            pl.Series("_s_var", c["s_var"]),
            pl.Series("_g", np.arange(ng, dtype=np.int64)),
            pl.Series("_y_mean_med", med["y_mean"]),
            pl.Series("_y_var_med", med["y_var"]),
            pl.Series("_center_med", np.where(c["nonpos"], np.nan, med["centre"])),
            *(pl.Series(f"_mm_{k}", a) for k, a in spread.items()),
            note.alias("_note"),
        ).with_columns(values_list, pl.Series("samples", s_counts, dtype=pl.Int64))
        return frame, order, m_id, s_id

    def _row_layout(self, keys: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows' order (every table's: metric in natural order, then system; the Enum
        codes are that order) as group ids, and each row's metric id and system position."""
        b, m, sy = (keys[c].to_physical().to_numpy() for c in ("benchmark", "metric", "system"))
        order = np.lexsort((sy, m, b))
        b, m = b[order], m[order]
        m_id = np.cumsum(np.r_[True, (b[1:] != b[:-1]) | (m[1:] != m[:-1])]) - 1
        names = {n: i for i, n in enumerate(self.rs.system_names)}
        systems = keys["system"].dtype
        assert isinstance(systems, pl.Enum)  # the system column is an Enum
        position = np.array([names.get(n, -1) for n in systems.categories])
        s_id = position[sy[order]] if len(order) else np.zeros(0, dtype=np.int64)
        return order, m_id[: len(order)].astype(np.int64), s_id.astype(np.int64)

    # -- Mann-Whitney U of every pair of systems, per metric -------------------------------
    def _pairs(self, g: np.ndarray, m_id: np.ndarray, s_id: np.ndarray) -> None:
        """g: frame row -> group id in sample order; m_id, s_id: every row's metric id and
        system position (`_row_layout`)."""
        ng, s = len(g), max(1, len(self.rs.system_names))
        nm = int(m_id.max()) + 1 if ng else 0
        counts = np.zeros(ng, dtype=np.int64)
        first = np.zeros(ng, dtype=np.int64)
        if ng:
            n_per_group = np.bincount(self._gid, weights=self._it_counts, minlength=ng)
            counts = n_per_group[g].astype(np.int64)
            first = self._it_starts[self._gstarts][g]  # first sample of every group
        # The analysed samples rearranged metric by metric (rows are in that order).
        new_starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
        labels = np.repeat(s_id.astype(np.int8 if s < 128 else np.int64), counts)
        blocks = np.bincount(m_id, weights=counts, minlength=nm).astype(np.int64)
        bstarts = np.r_[0, np.cumsum(blocks)[:-1]].astype(np.int64)
        # Every row's samples, sorted within the row: medians and the U test's shift.
        # Untrimmed, a row's samples are its group's, sorted already (`_groups`).
        if self.options.trimmed:
            idx = np.repeat(first - new_starts, counts)
            idx += np.arange(len(idx))  # in place: one array of a sample's size less at once
            self._sorted = stats.sort_within(self._values[idx], new_starts, counts)
            del idx  # before the ranking's worker begins
        else:
            self._sorted = groups_in_order(self._ordered, first, new_starts, counts, g)
        # Sorted once, in a worker while the summary data and a comparison's other tests are
        # computed; the U tests against a reference are computed when it is first asked for
        # (`_utest_against`): a report needs one reference's pairs, not every pair. Each
        # metric's block is its rows' sorted runs, merged (10^7 samples in two metrics:
        # 0.7 s instead of 1.2 s).
        if self._known is None or not self._known.part:
            self._ranked = in_worker(
                stats.RankedBlocks.build, self._sorted, labels, bstarts, blocks, s, True
            )
        self._utest_p: dict[int, np.ndarray] = {}
        # Samples per metric and system (the ranking's own count, without waiting for it).
        cell = m_id * s + s_id
        self._pooled = np.bincount(cell, weights=counts, minlength=nm * s).reshape(nm, s)
        self._shifts: dict[str, np.ndarray] = {}
        self._row_start, self._row_n = new_starts, counts

    def sorted_rows(self) -> np.ndarray:
        """Every row's samples, sorted within the row (rows one after another)."""
        return self._sorted

    def prepare_references(self, stop: Callable[[], bool] | None = None) -> None:
        """Compute and keep the U tests against every system (for an explorer: each first
        switch to a reference would otherwise pay for them). From the last system: the
        first is the default reference, which the first comparison computes. Ends early
        once `stop()` is true (quitting: 10,000 systems take minutes)."""
        for r in reversed(range(len(self.rs.system_names))):
            if stop is not None and stop():
                return
            self._utest_against(r)

    def _utest_against(self, r: int) -> np.ndarray:
        """p-values of the U test of every system against system r, metrics x systems."""
        if r not in self._utest_p:
            n = self._pooled
            u, tie = self._ranked.result().against(r)
            self._utest_p[r] = stats.mwu_pvalue(u, n, n[:, r : r + 1], tie)
        return self._utest_p[r]

    # -- step 3: against the reference ---------------------------------------------------
    @np.errstate(all="ignore")
    def compare(
        self,
        reference: str,
        options: AnalysisOptions | None = None,
    ) -> Comparison:
        """Every row against `reference`, with the comparison part of `options` (the
        analysis's own by default; its per-iteration part is always the analysis's).

        fdr: significance (the marks and verdicts) from the Benjamini-Hochberg adjusted Welch
        p-values over all non-reference rows instead of the raw ones. threshold: a practical
        margin in percent (2 means +/-2 %); verdicts are then worse, better, equivalent or
        inconclusive from the ratio's 95 % interval (see `decide`).
        trust_single_iteration: count rows where a side has one iteration as better or worse
        (in `regressions` and the summary) like any other; by default they are set apart.
        """
        if reference not in self.rs.system_names:
            raise ValueError(
                f"unknown reference system {reference!r}; systems are: "
                + ", ".join(self.rs.system_names)
            )
        options = self.options_for(options)
        rows = self.undecided(reference, options)
        rows = decide(rows, options.alpha, options.fdr, options.threshold)
        return self.comparison_of(reference, options, rows)

    @np.errstate(all="ignore")
    def undecided(
        self, reference: str, options: AnalysisOptions, only: np.ndarray | None = None
    ) -> pl.DataFrame:
        """The rows against `reference` in the tables' order, before `decide`. `only`:
        those rows only (ascending, with their metrics' reference rows; the shifts against
        `reference` known), for a comparison spliced from a previous one (spliced.py)."""
        a, groups = self._a, self.groups
        if only is not None:
            a, groups = {k: v[only] for k, v in a.items()}, groups[pl.Series(only)]
        r = self.rs.system_names.index(reference)
        # The costliest step in a worker, beside the others (the second core).
        shift_job = None
        if reference not in self._shifts:  # kept per reference
            every = gather_reference(self._a, r, reference)
            rows_at = (self.sorted_rows(), self._row_start, self._row_n)
            shift_job = in_worker(utest_shift, every, *rows_at)
            del every

        def shift() -> np.ndarray:
            if shift_job is not None:
                self._shifts[reference] = shift_job.result()
            return self._shifts[reference] if only is None else self._shifts[reference][only]

        # The first time, the ranking for the U tests may still be running (`_pairs`).
        utest_p = self._utest_against(r)
        o = self.options
        src = RowSource(a, groups, utest_p, self._pooled, o.trimmed, o.iteration_value)
        return rows_against(src, r, reference, options.alpha, options.threshold, shift)

    def options_for(self, given: AnalysisOptions | None) -> AnalysisOptions:
        """This analysis's options with the comparison part of `given`."""
        given = given or self.options
        return dataclasses.replace(
            self.options,
            alpha=given.alpha,
            fdr=given.fdr,
            threshold=given.threshold,
            trust_single_iteration=given.trust_single_iteration,
        )

    def comparison_of(
        self, reference: str, options: AnalysisOptions, rows: pl.DataFrame
    ) -> Comparison:
        """The Comparison of decided `rows` (ROW_COLUMNS and PRIVATE_COLUMNS)."""
        systems = [reference] + [n for n in self.rs.system_names if n != reference]
        return Comparison(
            reference,
            systems,
            rows.select(ROW_COLUMNS),
            options,
            source=SummarySource(rows, self._boot, self.duplicates),
            private=rows.select(*GROUP, *PRIVATE_COLUMNS),
        )
