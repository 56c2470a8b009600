"""ResultSet + reference + options -> the comparison table.

`Analysis` does everything that does not depend on the reference, once per load: the outlier
fences (and the trim, when asked), the per-iteration values, the per-system centres,
intervals, noise figures and variance components, and the Mann-Whitney U statistics of every
pair of systems. `Analysis.compare()` only gathers every row's reference and runs the
vectorised tests on moments, so a reference switch is cheap.
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from tuibench.core import stats
from tuibench.core.model import ResultSet

GROUP = ["system", "benchmark", "metric"]
METRIC = ["benchmark", "metric"]

# Columns of a comparison row, in order (the JSON row keys of `tuibench report`).
ROW_COLUMNS = [
    "benchmark",
    "metric",
    "unit",
    "better",
    "mean_kind",
    "system",
    "is_reference",
    "iterations",
    "samples",
    "iteration_values",
    "center",
    "ci_low",
    "ci_high",
    "change",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "p_welch",
    "p_adjusted",
    "significant",
    "ci_overlap",
    "p_utest",
    "utest_min_p",
    "verdict",
    "rsd",
    "rsd_flag",
    "outliers_low",
    "outliers_high",
    "outliers_extreme",
    "trimmed",
    "center_raw",
    "change_raw",
    "rsd_raw",
    "var_within",
    "var_between",
    "iterations_needed",
    "note",
]

RSD_NOISY, RSD_VERY_NOISY = 10.0, 25.0  # percent (Goldilocks' yellow and red)

# Per-system summary columns (the `summary` list of `tuibench report --format json`).
SUMMARY_COLUMNS = [
    "system",
    "metrics",
    "left_out",
    "geomean_ratio",
    "geomean_ci_low",
    "geomean_ci_high",
    "better",
    "worse",
    "same",
]


def _rle_groups(df: pl.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Group id of every row and the start row of each group, for a frame sorted by keys."""
    ids = df.select(pl.struct(keys).rle_id()).to_series().to_numpy().astype(np.int64)
    if len(ids) == 0:
        return ids, ids
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    return ids, starts


def _reciprocal(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """1/x where `where` (NaN for non-positive x there), x elsewhere."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(where, np.where(x > 0, 1.0 / x, np.nan), x)


class Analysis:
    """Reference-independent statistics of a ResultSet.

    trim_outliers: drop, before anything else is computed, every sample outside the mild
    Tukey fences (1.5 IQR) of its own iteration; the rows then also carry the centre, change
    and RSD of the untrimmed samples (`center_raw`, `change_raw`, `rsd_raw`).
    """

    def __init__(
        self,
        rs: ResultSet,
        subselections: int = 100,
        seed: int = 0,
        trim_outliers: bool = False,
    ):
        if subselections < 1:
            raise ValueError("subselections must be at least 1")
        self.rs = rs
        self.subselections = subselections
        self.seed = seed
        self.trim_outliers = trim_outliers
        self.timings: dict[str, float] = {}  # seconds per phase, for benchmarks/
        clock = time.perf_counter()
        self.iterations = self._iterations()
        self.timings["iterations"] = time.perf_counter() - clock
        clock = time.perf_counter()
        self.groups = self._groups()
        self.timings["systems"] = time.perf_counter() - clock
        clock = time.perf_counter()
        self._pairs()
        self.timings["u-test pairs"] = time.perf_counter() - clock
        clock = time.perf_counter()
        stats.iterations_needed(np.zeros(0), 0.05)  # solve the default power table now
        self.timings["power table"] = time.perf_counter() - clock
        # The samples are not needed once everything above is computed.
        del self._raw, self._values, self._sample_iter

    # -- step 1: outliers, then one robust value per iteration ----------------------------
    def _iterations(self) -> pl.DataFrame:
        samples = self.rs.samples
        it_keys = [*GROUP, "iteration"]
        ids, starts = _rle_groups(samples, it_keys)
        counts = np.diff(np.r_[starts, len(ids)]).astype(np.int64)
        keys = samples.select(it_keys)[starts] if len(starts) else samples.select(it_keys)
        keys = keys.join(
            self.rs.metrics.select(*METRIC, "mean_kind"),
            on=METRIC,
            how="left",
            maintain_order="left",
        )
        hmean = (keys["mean_kind"] == "hmean").to_numpy()
        values = samples["value"].to_numpy()
        low, high, n_low, n_high, n_ext = stats.tukey(values, starts, counts)
        out = {"outliers_low": n_low, "outliers_high": n_high, "outliers_extreme": n_ext}
        self._hmean_it = hmean
        self._raw = (values, ids, starts, counts)
        if self.trim_outliers:
            keep = (values >= np.repeat(low, counts)) & (values <= np.repeat(high, counts))
            values, ids = values[keep], ids[keep]
            counts = counts - n_low - n_high
            starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64) if len(starts) else starts
        v = stats.iteration_values(values, starts, counts, hmean, self.subselections, self.seed)
        self._sample_iter = ids  # iteration index of every analysed sample
        self._values = values
        self._it_starts, self._it_counts = starts, counts
        return keys.drop("mean_kind").with_columns(
            pl.Series("samples", counts, dtype=pl.Int64),
            pl.Series("value", v, dtype=pl.Float64),
            *(pl.Series(k, a, dtype=pl.Int64) for k, a in out.items()),
        )

    # -- step 2: centre, interval and noise per system ------------------------------------
    def _centres(
        self, v: np.ndarray, x: np.ndarray, sample_group: np.ndarray, gid: np.ndarray, ng: int
    ) -> dict[str, np.ndarray]:
        """Centre and interval from iteration values `v` and samples `x` (any sample set)."""
        hmean = self._hmean_g
        with np.errstate(divide="ignore", invalid="ignore"):
            y = np.where(hmean[gid], 1.0 / v, v)  # the scale on which means are arithmetic
        k, y_mean, y_var = stats.group_moments(y, gid, ng)
        # Raw samples on the same scale: the interval for one iteration, and Welch's
        # fallback when either side has a single iteration.
        h_s = hmean[sample_group]
        xs = _reciprocal(x, h_s)
        n_s, s_mean, s_var = stats.group_moments(xs, sample_group, ng)
        lo_it, hi_it = stats.t_interval(y_mean, y_var, k)
        lo_s, hi_s = stats.t_interval(y_mean, s_var, n_s)  # centred on the iteration value
        one = k == 1
        lo_y, hi_y = np.where(one, lo_s, lo_it), np.where(one, hi_s, hi_it)
        with np.errstate(divide="ignore", invalid="ignore"):
            centre = np.where(hmean, 1.0 / y_mean, y_mean)
            # Reciprocals reverse the order; a non-positive lower bound means unbounded.
            ci_low = np.where(hmean, np.where(hi_y > 0, 1.0 / hi_y, np.nan), lo_y)
            ci_high = np.where(hmean, np.where(lo_y > 0, 1.0 / lo_y, np.inf), hi_y)
        nonpos = stats.group_sums(h_s & ~(x > 0), sample_group, ng) > 0
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

    def _groups(self) -> pl.DataFrame:
        it = self.iterations
        gid, gstarts = _rle_groups(it, GROUP)
        ng = len(gstarts)
        keys = it.select(GROUP)[gstarts] if ng else it.select(GROUP)
        keys = keys.join(self.rs.metrics, on=METRIC, how="left", maintain_order="left")
        self._hmean_g = hmean = (keys["mean_kind"] == "hmean").to_numpy()

        x = self._values
        sample_group = gid[self._sample_iter] if ng else np.zeros(0, np.int64)
        c = self._centres(it["value"].to_numpy(), x, sample_group, gid, ng)
        one, n_s = c["k"] == 1, c["n_s"]

        # Noise: RSD of the samples, outliers, variance components (on the measured values).
        it_n, it_mean, it_var = stats.group_moments(x, self._sample_iter, len(gid))
        rsd = stats.relative_sd(*stats.pooled_moments(it_n, it_mean, it_var, gid, ng))
        var_within, var_between, inv_n = stats.variance_components(it_n, it_mean, it_var, gid, ng)
        out = {
            k: stats.group_sums(it[k].to_numpy(), gid, ng)
            for k in ("outliers_low", "outliers_high", "outliers_extreme")
        }
        if self.trim_outliers:  # the same figures from every sample, for comparison
            raw_values, raw_iter, raw_starts, raw_counts = self._raw
            raw_group = gid[raw_iter] if ng else np.zeros(0, np.int64)
            _, m_r, v_r = stats.group_moments(raw_values, raw_group, ng)
            rsd_raw = stats.relative_sd(m_r, v_r)
            v_raw = stats.iteration_values(
                raw_values, raw_starts, raw_counts, self._hmean_it, self.subselections, self.seed
            )
            centre_raw = self._centres(v_raw, raw_values, raw_group, gid, ng)["centre"]
        else:
            rsd_raw, centre_raw = rsd, c["centre"]

        nonpos, ci_high = c["nonpos"], c["ci_high"]
        note = _notes(
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
        )
        values_list = it.group_by(GROUP, maintain_order=True).agg(
            pl.col("value").alias("iteration_values"),
            pl.col("samples").sum().alias("samples"),
        )
        frame = (
            keys.with_columns(
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
                note.alias("_note"),
            )
            .with_columns(values_list["iteration_values"], values_list["samples"])
            # Rows by metric in natural order, then by system: every table's order. The
            # Enum codes are that order; names leave the core as plain strings.
            .sort(*(pl.col(c).to_physical() for c in ("benchmark", "metric", "system")))
            .with_columns(pl.col(c).cast(pl.String) for c in GROUP)
        )
        m_id, _ = _rle_groups(frame, METRIC)
        names = self.rs.system_names
        s_id = (
            frame["system"].replace_strict(
                {n: i for i, n in enumerate(names)}, default=-1, return_dtype=pl.Int64
            )
        ).to_numpy()
        frame = frame.with_columns(pl.Series("_m", m_id), pl.Series("_s", s_id))
        # Everything compare() reads, as numpy once.
        wanted = ("center", "ci_low", "iterations", "mean_kind", "center_raw")
        wanted += ("var_within", "var_between")
        self._a = {
            col: frame[col].to_numpy()
            for col in frame.columns
            if (col.startswith("_") and col != "_note") or col in wanted
        }
        self._gid, self._gstarts = gid, gstarts
        return frame

    # -- Mann-Whitney U of every pair of systems, per metric -------------------------------
    def _pairs(self) -> None:
        a = self._a
        g = a["_g"]  # frame row -> group id in sample order
        ng, s = len(g), max(1, len(self.rs.system_names))
        nm = int(a["_m"].max()) + 1 if ng else 0
        counts = np.zeros(ng, dtype=np.int64)
        first = np.zeros(ng, dtype=np.int64)
        if ng:
            n_per_group = np.bincount(self._gid, weights=self._it_counts, minlength=ng)
            counts = n_per_group[g].astype(np.int64)
            first = self._it_starts[self._gstarts][g]  # first sample of every group
        # The analysed samples rearranged metric by metric (rows are in that order).
        new_starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
        idx = np.repeat(first - new_starts, counts) + np.arange(int(counts.sum()))
        labels = np.repeat(a["_s"].astype(np.int8 if s < 128 else np.int64), counts)
        blocks = np.bincount(a["_m"], weights=counts, minlength=nm).astype(np.int64)
        bstarts = np.r_[0, np.cumsum(blocks)[:-1]].astype(np.int64)
        u, n, tie = stats.mwu_pairs(self._values[idx], labels, bstarts, blocks, s)
        self._utest_p = stats.mwu_pvalue(u, n[:, :, None], n[:, None, :], tie)
        self._pooled = n

    # -- step 3: against the reference ---------------------------------------------------
    def compare(
        self,
        reference: str,
        alpha: float = 0.05,
        fdr: bool = False,
        threshold: float | None = None,
    ) -> Comparison:
        """Every row against `reference`.

        fdr: significance (the marks and verdicts) from the Benjamini-Hochberg adjusted Welch
        p-values over all non-reference rows instead of the raw ones. threshold: a practical
        margin in percent (2 means +/-2 %); verdicts are then worse, better, equivalent or
        inconclusive from the ratio's 95 % interval (see `decide`).
        """
        if reference not in self.rs.system_names:
            raise ValueError(
                f"unknown reference system {reference!r}; systems are: "
                + ", ".join(self.rs.system_names)
            )
        if threshold is not None and not threshold > 0:
            raise ValueError(f"threshold must be a positive percentage, not {threshold}")
        g, a = self.groups, self._a
        r = self.rs.system_names.index(reference)
        nrow = g.height
        m, s = a["_m"], a["_s"]
        ref_of_metric = np.full(int(m.max()) + 1 if nrow else 0, -1, dtype=np.int64)
        is_ref = s == r
        ref_of_metric[m[is_ref]] = np.flatnonzero(is_ref)
        ref = ref_of_metric[m] if nrow else np.zeros(0, np.int64)
        exists = ref >= 0
        ref = np.where(exists, ref, 0)

        def refv(col: str) -> np.ndarray:
            return np.where(exists, a[col].astype(np.float64)[ref], np.nan)

        centre, rcentre = a["center"].astype(float), refv("center")
        has_ref = ~np.isnan(rcentre)
        other = ~is_ref & has_ref
        k, rk = a["iterations"].astype(float), np.nan_to_num(refv("iterations"), nan=0)
        # Iteration values on both sides, unless either has one iteration: raw samples then.
        use_s = (k < 2) | (rk < 2)
        m1 = np.where(use_s, a["_s_mean"], a["_y_mean"])
        v1 = np.where(use_s, a["_s_var"], a["_y_var"])
        n1 = np.where(use_s, a["_s_n"], k).astype(float)
        m2 = np.where(use_s, refv("_s_mean"), refv("_y_mean"))
        v2 = np.where(use_s, refv("_s_var"), refv("_y_var"))
        n2 = np.where(use_s, refv("_s_n"), rk).astype(float)
        p, df = stats.welch(m1, v1, n1, m2, v2, n2)
        p = np.where(other, p, np.nan)

        with np.errstate(divide="ignore", invalid="ignore"):
            change = np.where(rcentre != 0, (centre - rcentre) / rcentre, np.nan)
            raw_ref = refv("center_raw")
            change_raw = np.where(raw_ref != 0, (a["center_raw"] - raw_ref) / raw_ref, np.nan)
        change = np.where(is_ref & ~np.isnan(centre), 0.0, change)
        change_raw = np.where(is_ref & ~np.isnan(a["center_raw"]), 0.0, change_raw)

        # Ratio of centres with Fieller's interval, on the scale where means are arithmetic:
        # Amean: y = value, ratio = y / y_ref; Hmean: y = 1/value, ratio = y_ref / y.
        hmean = a["mean_kind"] == "hmean"
        y, ry = a["_y_mean"], refv("_y_mean")
        with np.errstate(divide="ignore", invalid="ignore"):
            vm1 = v1 / n1  # variance of each side's mean (same choice of values as Welch)
            vm2 = v2 / n2
        num, den = np.where(hmean, ry, y), np.where(hmean, y, ry)
        vnum, vden = np.where(hmean, vm2, vm1), np.where(hmean, vm1, vm2)
        r_lo, r_hi, unbounded = stats.fieller(num, vnum, den, vden, df)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(rcentre > 0, centre / rcentre, np.nan)
        defined = other & ~np.isnan(ratio)
        r_lo, r_hi = np.where(defined, r_lo, np.nan), np.where(defined, r_hi, np.nan)
        unbounded &= defined
        ratio = np.where(is_ref & (centre > 0), 1.0, np.where(defined, ratio, np.nan))

        # Do the two 95 % intervals overlap (mmtests' reading)?
        lo1, hi1, lo2, hi2 = a["ci_low"], a["_hi"], refv("ci_low"), refv("_hi")
        known = other & ~np.isnan(lo1) & ~np.isnan(hi1) & ~np.isnan(lo2) & ~np.isnan(hi2)
        with np.errstate(invalid="ignore"):
            apart = (np.maximum(lo1, lo2) > np.minimum(hi1, hi2)).astype(float)
        overlap = np.where(known, 1.0 - apart, np.nan)

        # Mann-Whitney U on the pooled samples (precomputed for every pair of systems).
        present = other & exists
        p_u = np.where(present, self._utest_p[m, s, r] if nrow else p, np.nan)
        n_u1 = self._pooled[m, s] if nrow else p
        n_u2 = self._pooled[m, r] if nrow else p
        min_p = np.where(present, stats.mwu_min_p(n_u1, n_u2), np.nan)

        # Iterations per system to detect the change (or the threshold) with power 0.8.
        with np.errstate(divide="ignore", invalid="ignore"):
            if threshold is None:
                delta = np.abs(y - ry)
            else:
                t = threshold / 100
                delta = np.abs(ry) * np.where(hmean, t / (1 + t), t)
            # Pooled across-iteration variance; a side with one iteration lends none.
            va, vb = a["_y_var"], refv("_y_var")
            sides = (~np.isnan(va)).astype(float) + (~np.isnan(vb))
            pooled = np.sqrt((np.nan_to_num(va) + np.nan_to_num(vb)) / sides)
            d = delta / pooled
        d = np.where(delta == 0, 0.0, np.where(pooled == 0, np.inf, d))
        needed = np.where(other, stats.iterations_needed(d, alpha), np.nan)
        needed[np.isinf(needed)] = np.nan
        between_dominates = a["var_between"] >= a["var_within"] * a["_inv_n"]
        hint = other & ~(p < alpha) & (needed > np.maximum(k, rk)) & between_dominates
        hint &= a["var_between"] > 0

        samples_for = stats.mwu_samples_for(alpha)
        zero_var = (v1 == 0) & (v2 == 0) & other
        notes = _notes(
            (~is_ref & ~has_ref, f"the reference {reference} has no results for this metric"),
            (other & use_s & ~np.isnan(p), "one iteration on a side: Welch's test on raw samples"),
            (~is_ref & has_ref & np.isnan(p) & ~np.isnan(centre), "too few values for a test"),
            (zero_var & (p == 0), "no variation on either side: the difference is exact"),
            (zero_var & (p == 1), "identical constant values on both sides"),
            (has_ref & (rcentre == 0) & ~is_ref, "reference centre is zero: no relative change"),
            (
                min_p >= alpha,
                pl.format(
                    "the U test cannot reach p < {} with {} and {} samples (smallest p {}); "
                    "it needs at least {} per side",
                    pl.lit(f"{alpha:g}"),
                    pl.col("n1"),
                    pl.col("n2"),
                    pl.col("min_p").round_sig_figs(2),
                    pl.lit(samples_for),
                ),
            ),
            (
                unbounded,
                "ratio interval unbounded: the denominator's interval includes zero",
            ),
            (
                hint,
                pl.format(
                    "about {} iterations per system would detect this change; add "
                    "iterations, not samples per iteration (the spread is between iterations)",
                    pl.col("needed"),
                ),
            ),
            data={
                "n1": n_u1.astype(np.int64),
                "n2": n_u2.astype(np.int64),
                "min_p": min_p,
                "needed": np.nan_to_num(needed).astype(np.int64),
            },
        )
        rows = g.with_columns(
            pl.Series("is_reference", is_ref),
            pl.Series("change", change),
            pl.Series("ratio", ratio),
            pl.Series("ratio_ci_low", r_lo),
            pl.Series("ratio_ci_high", r_hi),
            pl.Series("p_welch", p),
            pl.Series("ci_overlap", overlap).fill_nan(None).cast(pl.Boolean),
            pl.Series("p_utest", p_u),
            pl.Series("utest_min_p", min_p),
            pl.when(pl.col("rsd").is_nan())
            .then(None)
            .when(pl.col("rsd") > RSD_VERY_NOISY)
            .then(pl.lit("very-noisy"))
            .when(pl.col("rsd") > RSD_NOISY)
            .then(pl.lit("noisy"))
            .otherwise(pl.lit("ok"))
            .alias("rsd_flag"),
            pl.lit(self.trim_outliers).alias("trimmed"),
            pl.Series("change_raw", change_raw),
            pl.Series("iterations_needed", needed).fill_nan(None).cast(pl.Int64),
            _join_notes(g["_note"], notes),
        ).with_columns(
            # NaN is "undefined": null, so that it never reads as a number.
            pl.col(c).fill_nan(None)
            for c in (
                "center",
                "ci_low",
                "ci_high",
                "change",
                "ratio",
                "ratio_ci_low",
                "ratio_ci_high",
                "p_welch",
                "p_utest",
                "utest_min_p",
                "rsd",
                "center_raw",
                "change_raw",
                "rsd_raw",
                "var_within",
                "var_between",
            )
        )
        # Reference first within each metric, then the systems in their order.
        order = np.argsort(m * 2 + ~is_ref, kind="stable")
        rows = rows[order]
        systems = [reference] + [x for x in self.rs.system_names if x != reference]
        rows = decide(
            rows.with_columns(
                pl.lit(None, pl.Float64).alias("p_adjusted"),
                pl.lit(False).alias("significant"),
                pl.lit("", pl.String).alias("verdict"),
            ).select(ROW_COLUMNS),
            alpha,
            fdr,
            threshold,
        )
        return Comparison(reference, alpha, systems, rows, fdr, threshold, self.trim_outliers)


def decide(rows: pl.DataFrame, alpha: float, fdr: bool, threshold: float | None) -> pl.DataFrame:
    """p_adjusted, significant and verdict of `rows` (the family: every non-reference row).

    Without a threshold: significant when p < alpha (p_adjusted under fdr); the verdict is
    `better` or `worse` by the metric's direction when significant, else `same`.
    With a threshold t % (margin 1 - t/100 .. 1 + t/100 on the ratio of centres), from the
    ratio's 95 % interval: `worse` or `better` when the change is significant and the whole
    interval lies beyond the margin on that side; `equivalent` when the whole interval lies
    inside the margin; `inconclusive` otherwise (it crosses a margin, or is undefined).
    """
    is_ref = rows["is_reference"].to_numpy()
    p = rows["p_welch"].fill_null(np.nan).to_numpy()
    p_adj = stats.bh_adjust(np.where(is_ref, np.nan, p))
    used = p_adj if fdr else p
    significant = ~is_ref & (used < alpha)
    higher = (rows["better"] == "higher").to_numpy()
    change = rows["change"].fill_null(np.nan).to_numpy()
    if threshold is None:
        improved = np.where(higher, change > 0, change < 0)
        verdict = np.where(significant, np.where(improved, "better", "worse"), "same")
    else:
        t = threshold / 100
        lo = rows["ratio_ci_low"].fill_null(np.nan).to_numpy()
        hi = rows["ratio_ci_high"].fill_null(np.nan).to_numpy()
        up, down = lo > 1 + t, hi < 1 - t
        inside = (lo >= 1 - t) & (hi <= 1 + t)
        worse = significant & np.where(higher, down, up)
        better = significant & np.where(higher, up, down)
        verdict = np.where(
            worse,
            "worse",
            np.where(better, "better", np.where(inside, "equivalent", "inconclusive")),
        )
    verdict = np.where(is_ref, "reference", verdict)
    return rows.with_columns(
        pl.Series("p_adjusted", p_adj).fill_nan(None),
        pl.Series("significant", significant),
        pl.Series("verdict", verdict, dtype=pl.String),
    )


def _notes(*conds: tuple[np.ndarray, str | pl.Expr], data: dict | None = None) -> pl.Series:
    """Join the texts whose condition holds, per row; null where none does.

    A text may be a polars expression over the columns in `data` (one value per row).
    """
    n = len(conds[0][0]) if conds else 0
    cols = {f"_c{i}": np.asarray(mask, dtype=bool) for i, (mask, _) in enumerate(conds)}
    frame = pl.DataFrame({**cols, **(data or {})}, height=n)
    parts = [
        pl.when(pl.col(f"_c{i}")).then(text if isinstance(text, pl.Expr) else pl.lit(text))
        for i, (_, text) in enumerate(conds)
    ]
    joined = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    return frame.select(pl.when(joined != "").then(joined).alias("note")).to_series()


def _join_notes(first: pl.Series, second: pl.Series) -> pl.Series:
    joined = pl.concat_str([pl.col("a"), pl.col("b")], separator="; ", ignore_nulls=True)
    return (
        pl.DataFrame({"a": first, "b": second})
        .select(pl.when(joined != "").then(joined).alias("note"))
        .to_series()
    )


@dataclass
class Comparison:
    reference: str
    alpha: float
    systems: list[str]
    rows: pl.DataFrame  # ROW_COLUMNS, grouped by benchmark and metric, systems in order
    fdr: bool = False
    threshold: float | None = None  # percent
    trim_outliers: bool = False

    def filter(
        self,
        benchmark: str | None = None,
        metric: str | None = None,
        only_significant: bool = False,
    ) -> Comparison:
        """The rows of matching benchmarks and metrics.

        The kept rows are the family of the false discovery rate: p_adjusted, significant
        and verdict are recomputed over them. `only_significant` then keeps the metrics
        where some system is significant, without changing that family (a family chosen by
        its own results would make the adjustment meaningless).
        """
        rows = self.rows
        if benchmark:
            rows = rows.filter(_glob(pl.col("benchmark"), benchmark))
        if metric:
            rows = rows.filter(_glob(pl.col("metric"), metric))
        rows = decide(rows, self.alpha, self.fdr, self.threshold)
        if only_significant:
            hit = rows.filter(pl.col("significant")).select(METRIC).unique()
            rows = rows.join(hit, on=METRIC, how="semi", maintain_order="left")
        return dataclasses.replace(self, rows=rows)

    @property
    def regressions(self) -> int:
        return int((self.rows["verdict"] == "worse").sum())

    def summary(self) -> pl.DataFrame:
        """Per non-reference system: the geometric mean of its ratios to the reference.

        Over the metrics both the system and the reference have in these rows (with a
        positive ratio); `left_out` counts the others (only one side has them, or the ratio
        is undefined). Ratios are oriented so that above 1 is better (reference / system for
        lower-is-better metrics). The 95 % interval is a Student t interval on the log
        ratios across metrics. better / worse / same count the verdicts of the metrics used
        (same: every other verdict).
        """
        rows = self.rows
        ref_metrics = rows.filter(pl.col("is_reference")).select(METRIC)
        oriented = (
            pl.when(pl.col("better") == "higher")
            .then(pl.col("ratio").log())
            .otherwise(-pl.col("ratio").log())
        )
        usable = ~pl.col("is_reference") & (pl.col("ratio") > 0) & pl.col("ratio").is_finite()
        used = rows.filter(usable).with_columns(oriented.alias("_l"))
        per = used.group_by("system").agg(
            pl.len().alias("metrics"),
            pl.col("_l").mean().alias("_mean"),
            pl.col("_l").std().alias("_sd"),
            (pl.col("verdict") == "better").sum().alias("better"),
            (pl.col("verdict") == "worse").sum().alias("worse"),
        )
        others = rows.filter(~pl.col("is_reference"))
        own = others.group_by("system").agg(pl.len().alias("_rows"))
        with_ref = others.join(ref_metrics, on=METRIC, how="semi").group_by("system").agg(pl.len())
        n_ref = ref_metrics.height
        out = []
        for system in self.systems[1:]:
            p = per.filter(pl.col("system") == system)
            n_rows = _first(own.filter(pl.col("system") == system), "_rows", 0)
            n_both = _first(with_ref.filter(pl.col("system") == system), "len", 0)
            union = n_ref + n_rows - n_both
            if p.height:
                k, mean, sd, better, worse = p.row(0)[1:]
            else:
                k, mean, sd, better, worse = 0, None, None, 0, 0
            lo = hi = None
            if k >= 2 and sd is not None:
                half = float(stats.t_quantile(0.975, np.array([k - 1.0]))[0]) * sd / np.sqrt(k)
                lo, hi = float(np.exp(mean - half)), float(np.exp(mean + half))
            out.append(
                {
                    "system": system,
                    "metrics": int(k),
                    "left_out": int(union - k),
                    "geomean_ratio": None if mean is None else float(np.exp(mean)),
                    "geomean_ci_low": lo,
                    "geomean_ci_high": hi,
                    "better": int(better),
                    "worse": int(worse),
                    "same": int(k - better - worse),
                }
            )
        schema = {
            c: pl.String if c == "system" else pl.Float64 if c.startswith("geomean") else pl.Int64
            for c in SUMMARY_COLUMNS
        }
        return pl.DataFrame(out, schema=schema)


def _first(df: pl.DataFrame, col: str, default: int) -> int:
    return int(df[col][0]) if df.height else default


def _glob(col: pl.Expr, pattern: str) -> pl.Expr:
    """Shell-style glob (`*`, `?`) over the whole name, as a polars expression."""
    regex = "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)
    return col.str.contains(f"^{regex}$")
