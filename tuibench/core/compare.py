"""ResultSet + reference + options -> the comparison table.

`Analysis` does everything that does not depend on the reference, once per load: the
per-iteration values and the per-system centres and intervals. `Analysis.compare()` only
pairs every row with its reference row and runs the vectorised tests, so a reference switch
is cheap.
"""

from __future__ import annotations

import re
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
    "p_welch",
    "significant",
    "verdict",
    "note",
]


def _rle_groups(df: pl.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Group id of every row and the start row of each group, for a frame sorted by keys."""
    ids = df.select(pl.struct(keys).rle_id()).to_series().to_numpy().astype(np.int64)
    if len(ids) == 0:
        return ids, ids
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    return ids, starts


class Analysis:
    """Reference-independent statistics of a ResultSet."""

    def __init__(self, rs: ResultSet, subselections: int = 100, seed: int = 0):
        if subselections < 1:
            raise ValueError("subselections must be at least 1")
        self.rs = rs
        self.subselections = subselections
        self.seed = seed
        self.iterations = self._iterations()
        self.groups = self._groups()

    # -- step 1: one robust value per iteration ------------------------------------------
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
        v = stats.iteration_values(values, starts, counts, hmean, self.subselections, self.seed)
        self._sample_iter = ids  # iteration index of every sample
        self._values = values
        return keys.drop("mean_kind").with_columns(
            pl.Series("samples", counts, dtype=pl.Int64),
            pl.Series("value", v, dtype=pl.Float64),
        )

    # -- step 2: centre and interval per system -------------------------------------------
    def _groups(self) -> pl.DataFrame:
        it = self.iterations
        gid, gstarts = _rle_groups(it, GROUP)
        ng = len(gstarts)
        keys = it.select(GROUP)[gstarts] if ng else it.select(GROUP)
        keys = keys.join(self.rs.metrics, on=METRIC, how="left", maintain_order="left")
        hmean = (keys["mean_kind"] == "hmean").to_numpy()

        v = it["value"].to_numpy()
        h_it = hmean[gid] if ng else np.zeros(0, bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = np.where(h_it, 1.0 / v, v)  # the scale on which means are arithmetic
        k, y_mean, y_var = stats.group_moments(y, gid, ng)

        # Raw samples on the same scale: the interval for one iteration, and Welch's
        # fallback when either side has a single iteration.
        sample_group = gid[self._sample_iter] if ng else np.zeros(0, np.int64)
        x = self._values
        h_s = hmean[sample_group] if ng else np.zeros(0, bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            xs = np.where(h_s, np.where(x > 0, 1.0 / x, np.nan), x)
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

        nonpos = (
            np.bincount(sample_group, weights=(h_s & ~(x > 0)).astype(float), minlength=ng) > 0
            if ng
            else np.zeros(0, bool)
        )
        notes = _notes(
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
        return (
            keys.with_columns(
                pl.Series("iterations", k.astype(np.int64)),
                pl.Series("center", np.where(nonpos, np.nan, centre)),
                pl.Series("ci_low", np.where(nonpos, np.nan, ci_low)),
                pl.Series("ci_high", np.where(nonpos | np.isinf(ci_high), np.nan, ci_high)),
                pl.Series("_y_mean", y_mean),
                pl.Series("_y_var", y_var),
                pl.Series("_s_n", n_s),
                pl.Series("_s_mean", s_mean),
                pl.Series("_s_var", s_var),
                pl.Series("_note", notes, dtype=pl.String),
            )
            .with_columns(values_list["iteration_values"], values_list["samples"])
            # Rows by metric in natural order, then by system: every table's order. The
            # Enum codes are that order; names leave the core as plain strings.
            .sort(*(pl.col(c).to_physical() for c in ("benchmark", "metric", "system")))
            .with_columns(pl.col(c).cast(pl.String) for c in GROUP)
        )

    # -- step 3: against the reference ---------------------------------------------------
    def compare(self, reference: str, alpha: float = 0.05) -> Comparison:
        if reference not in self.rs.system_names:
            raise ValueError(
                f"unknown reference system {reference!r}; systems are: "
                + ", ".join(self.rs.system_names)
            )
        g = self.groups
        ref = g.filter(pl.col("system") == reference).select(
            *METRIC,
            *(
                pl.col(c).alias(f"_ref{c}")
                for c in ("center", "iterations", "_y_mean", "_y_var", "_s_n", "_s_mean", "_s_var")
            ),
        )
        j = g.join(ref, on=METRIC, how="left", maintain_order="left")
        a = {
            c: j[c].to_numpy()
            for c in j.columns
            if c.startswith("_") or c in ("center", "iterations", "better")
        }
        is_ref = (j["system"] == reference).to_numpy()
        has_ref = ~np.isnan(a["_refcenter"].astype(float))
        # Iteration values on both sides, unless either has one iteration: raw samples then.
        use_s = (a["iterations"] < 2) | (np.nan_to_num(a["_refiterations"], nan=0) < 2)
        m1 = np.where(use_s, a["_s_mean"], a["_y_mean"])
        v1 = np.where(use_s, a["_s_var"], a["_y_var"])
        n1 = np.where(use_s, a["_s_n"], a["iterations"]).astype(float)
        m2 = np.where(use_s, a["_ref_s_mean"], a["_ref_y_mean"])
        v2 = np.where(use_s, a["_ref_s_var"], a["_ref_y_var"])
        n2 = np.where(use_s, a["_ref_s_n"], a["_refiterations"]).astype(float)
        p, _df = stats.welch(m1, v1, n1, m2, v2, n2)
        p = np.where(is_ref | ~has_ref, np.nan, p)

        centre, rcentre = a["center"].astype(float), a["_refcenter"].astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            change = np.where(rcentre != 0, (centre - rcentre) / rcentre, np.nan)
        change = np.where(is_ref & ~np.isnan(centre), 0.0, change)
        significant = ~is_ref & (p < alpha)
        higher = a["better"] == "higher"
        improved = np.where(higher, change > 0, change < 0)
        verdict = np.where(
            is_ref,
            "reference",
            np.where(significant, np.where(improved, "better", "worse"), "same"),
        )
        zero_var = (v1 == 0) & (v2 == 0) & ~is_ref & has_ref
        notes = _notes(
            (~is_ref & ~has_ref, f"the reference {reference} has no results for this metric"),
            (
                ~is_ref & has_ref & use_s & ~np.isnan(p),
                "one iteration on a side: Welch's test on raw samples",
            ),
            (~is_ref & has_ref & np.isnan(p) & ~np.isnan(centre), "too few values for a test"),
            (zero_var & (p == 0), "no variation on either side: the difference is exact"),
            (zero_var & (p == 1), "identical constant values on both sides"),
            (has_ref & (rcentre == 0) & ~is_ref, "reference centre is zero: no relative change"),
        )
        rows = j.with_columns(
            pl.Series("is_reference", is_ref),
            pl.Series("change", change),
            pl.Series("p_welch", p),
            pl.Series("significant", significant),
            pl.Series("verdict", verdict, dtype=pl.String),
            _join_notes(j["_note"], notes),
        ).with_columns(
            # NaN is "undefined": null, so that it never reads as a number.
            pl.col(c).fill_nan(None)
            for c in ("center", "ci_low", "ci_high", "change", "p_welch")
        )
        # Reference first within each metric, then the systems in their order.
        rows = rows.with_columns(pl.struct(METRIC).rle_id().alias("_m")).sort(
            "_m", pl.col("is_reference").not_(), maintain_order=True
        )
        systems = [reference] + [s for s in self.rs.system_names if s != reference]
        return Comparison(reference, alpha, systems, rows.select(ROW_COLUMNS))


def _notes(*conds: tuple[np.ndarray, str]) -> list[str | None]:
    """Join the texts whose condition holds, per row; None where none does."""
    if not conds:
        return []
    n = len(conds[0][0])
    out: list[str | None] = [None] * n
    for mask, text in conds:
        for i in np.flatnonzero(mask):
            out[i] = text if out[i] is None else f"{out[i]}; {text}"
    return out


def _join_notes(first: pl.Series, second: list[str | None]) -> pl.Series:
    s2 = pl.Series("b", second, dtype=pl.String)
    return (
        pl.DataFrame({"a": first, "b": s2})
        .select(
            pl.concat_str([pl.col("a"), pl.col("b")], separator="; ", ignore_nulls=True)
            .replace("", None)
            .alias("note")
        )
        .to_series()
    )


@dataclass
class Comparison:
    reference: str
    alpha: float
    systems: list[str]
    rows: pl.DataFrame  # ROW_COLUMNS, grouped by benchmark and metric, systems in order

    def filter(
        self,
        benchmark: str | None = None,
        metric: str | None = None,
        only_significant: bool = False,
    ) -> Comparison:
        rows = self.rows
        if benchmark:
            rows = rows.filter(_glob(pl.col("benchmark"), benchmark))
        if metric:
            rows = rows.filter(_glob(pl.col("metric"), metric))
        if only_significant:
            hit = rows.filter(pl.col("significant")).select(METRIC).unique()
            rows = rows.join(hit, on=METRIC, how="semi", maintain_order="left")
        return Comparison(self.reference, self.alpha, self.systems, rows)

    @property
    def regressions(self) -> int:
        return int((self.rows["verdict"] == "worse").sum())


def _glob(col: pl.Expr, pattern: str) -> pl.Expr:
    """Shell-style glob (`*`, `?`) over the whole name, as a polars expression."""
    regex = "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)
    return col.str.contains(f"^{regex}$")
