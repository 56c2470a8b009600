"""What the explorer's series and scaling views show, computed headless once per analysis.

`SeriesModel.build` runs the whole series analysis (seconds for 50 systems x 20,000
metrics: the explorer calls it in a worker); the per-node tables are then cheap lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from tuibench.analysis.series.changepoints import ChangePoints, detect
from tuibench.analysis.series.data import METRIC, SeriesData, series_data
from tuibench.analysis.series.ranking import rank_metrics, ranking_lines
from tuibench.analysis.series.scaling import curves, families, log_axis
from tuibench.present.numbers import scale_for
from tuibench.present.series_display import magnitude, size_header, step_size
from tuibench.present.tables import Table, fmt_p, fmt_ratio_change

if TYPE_CHECKING:
    from tuibench.analysis.compare import Analysis


def _shared_prefix(names: list[str]) -> int:
    """Length of the prefix all names share, up to and including its last separator
    (`-`, `_`, `/` or a space; not `.`, which is inside version numbers)."""
    if len(names) < 2:
        return 0
    shortest = min(names, key=len)
    same = next((i for i, ch in enumerate(shortest) if any(n[i] != ch for n in names)), None)
    prefix = shortest[: len(shortest) if same is None else same]
    cut = max(prefix.rfind(c) for c in "-_/ ") + 1
    return cut if all(len(n) > cut for n in names) else 0


def _step_cell(step: dict, percent: str, narrow: bool) -> str:
    """`◆ -9.9% [-10.9%, -9.0%]  p 0.002`; narrow: the interval on a second line."""
    size = step_size(step, percent)
    p = f"p {fmt_p(step['p_split'])}"
    if not narrow or " [" not in size:
        return f"◆ {size}  {p}"
    centre, interval = size.split(" [", 1)
    return f"◆ {centre}  {p}\n  [{interval}"


@dataclass
class SeriesModel:
    analysis: Analysis
    alpha: float
    percent: str  # "gain" | "change": how sizes read
    data: SeriesData
    changes: ChangePoints
    families: pl.DataFrame
    by_metric: dict[tuple[str, str], list[dict]]
    rankings: dict[tuple[str, str], str]  # per metric: "A > {B, C} > D"

    @classmethod
    def build(cls, analysis, alpha: float = 0.05, percent: str = "gain") -> SeriesModel:
        data = series_data(analysis)
        cp = detect(data, alpha)
        by_metric: dict[tuple[str, str], list[dict]] = {}
        for r in cp.changes.iter_rows(named=True):
            by_metric.setdefault((r["benchmark"], r["metric"]), []).append(r)
        names = data.keys["benchmark"].unique(maintain_order=True).to_list()
        lines = ranking_lines(rank_metrics(analysis, data, alpha))
        rankings = {(b, m): t for b, m, t in lines.select(*METRIC, "ranking").iter_rows()}
        return cls(analysis, alpha, percent, data, cp, families(names), by_metric, rankings)

    def _nothing_tested(self) -> str:
        """Where no metric could be tested (a series needs three systems with the metric):
        not "the data do not show", which would claim a test."""
        return (
            f"No change point tested: a series needs three systems or more with a metric "
            f"({len(self.systems)} here); the answer compares them in full."
        )

    @property
    def systems(self) -> list[str]:
        return self.data.systems

    def marks(self) -> dict[tuple[str, str], str]:
        """Per metric with change points: the first system of each new level, without the
        prefix every system shares (`linux-6.10` among `linux-6.*` reads `6.10`)."""
        cut = _shared_prefix(self.systems)
        return {k: ",".join(r["system"][cut:] for r in v) for k, v in self.by_metric.items()}

    # -- one metric along the series ----------------------------------------------------
    def metric_rows(self, benchmark: str, metric: str) -> list[dict]:
        """Per system in series order (those with the metric): centre, interval, level, step."""
        g = self.analysis.groups.filter(
            (pl.col("benchmark") == benchmark) & (pl.col("metric") == metric)
        ).select("system", "iterations", "center", "ci_low", "ci_high")
        by_system = {r["system"]: r for r in g.iter_rows(named=True)}
        steps = {r["system"]: r for r in self.by_metric.get((benchmark, metric), [])}
        rows, level = [], 1
        for position, system in enumerate(self.systems):
            r = by_system.get(system)
            if r is None:
                continue
            step = steps.get(system)
            if step is not None:
                level += 1
            rows.append({**r, "position": position, "level": level, "step": step})
        return rows

    def metric_table(
        self, benchmark: str, metric: str, unit: str = "", narrow: bool = False
    ) -> Table:
        """The metric along the series; `narrow`: a step's interval on a line of its own
        below its size and p, so that the table fits 80 columns with no cell cut."""
        rows = self.metric_rows(benchmark, metric)
        scale = scale_for([r["center"] for r in rows], unit)
        out, marks = [], {}
        for r in rows:
            step = r["step"]
            out.append(
                [
                    r["position"] + 1,
                    r["system"],
                    r["iterations"],
                    scale.text(r["center"]),
                    scale.interval(r["ci_low"], r["ci_high"]),
                    r["level"],
                    "" if step is None else _step_cell(step, self.percent, narrow),
                ]
            )
            if step is not None and step["verdict"] in ("better", "worse"):
                marks[(len(out) - 1, 6)] = step["verdict"]
        n = len(self.by_metric.get((benchmark, metric), []))
        ranking = self.rankings.get((benchmark, metric))
        notes = [
            f"{n} change point(s) (◆: the first system at a new level; the step is against "
            "the level before it, with its 95 % interval, a gain positive when better; p: "
            "the adjusted p with which it was found, the systems' levels being the unit)."
            if n
            else self._nothing_tested()
            if not self.changes.tested
            else "No change point: the data do not show this metric changing level along "
            f"the series (alpha {self.alpha:g}, false change points controlled over "
            f"{self.changes.tested} metrics).",
        ]
        if ranking:
            together = (
                " (in braces: systems the data cannot tell apart: intervals overlap and "
                f"Welch's p is not below {self.alpha:g})"
                if "{" in ranking
                else ""
            )
            notes.append(f"Ranked: {ranking}{together}.")
        return Table(
            f"{benchmark} {metric} along the series",
            ["#", "System", "Iters", "Centre", "95% CI", "Level", "Step"],
            out,
            notes,
            marks,
            numeric={0, 2, 3, 5},
            slug="series",
        )

    # -- a group: its metrics' change points, largest first ---------------------------
    def changes_under(self, benchmark_prefix: str) -> list[dict]:
        def covers(b: str) -> bool:
            return (
                not benchmark_prefix
                or b == benchmark_prefix
                or b.startswith(benchmark_prefix + "/")
            )

        found = [r for (b, _), v in self.by_metric.items() if covers(b) for r in v]
        return sorted(found, key=magnitude, reverse=True)

    def group_table(self, benchmark_prefix: str) -> tuple[Table, list[tuple[str, str]]]:
        """The change points below a group, largest first, and the metric of each row."""
        found = self.changes_under(benchmark_prefix)
        out, marks, keys = [], {}, []
        for r in found:
            out.append(
                [
                    f"{r['benchmark']} {r['metric']}",
                    f"{r['previous']} -> {r['system']}",
                    step_size(r, self.percent),
                    fmt_p(r["p_split"]),
                    r["verdict"] + (" (last)" if r["at_last"] else ""),
                ]
            )
            keys.append((r["benchmark"], r["metric"]))
            if r["verdict"] in ("better", "worse"):
                marks[(len(out) - 1, 2)] = r["verdict"]
        where = benchmark_prefix or "all benchmarks"
        notes = [
            f"{len(found)} change point(s) under {where}, largest step first, over "
            f"{len(self.systems)} systems in series order. enter: the metric along the series."
            if found
            else self._nothing_tested()
            if not self.changes.tested
            else f"No change point under {where}: the data do not show any of its metrics "
            f"changing level along the {len(self.systems)} systems in series order (alpha "
            f"{self.alpha:g}, false change points controlled over {self.changes.tested} "
            "metrics). Changes against the reference are in the answer."
        ]
        table = Table(
            f"Change points under {where}",
            ["Metric", "Step", size_header(self.percent), "p", "Verdict"],
            out,
            notes,
            marks,
            numeric={3},
            slug="changes",
        )
        return table, keys

    # -- scaling ------------------------------------------------------------------------
    def families_of(self, benchmark: str) -> list[tuple[str, str]]:
        f = self.families.filter(pl.col("benchmark") == benchmark)
        return list(f.select("family", "parameter").iter_rows())

    def curve(self, cmp, family: str, parameter: str, metric: str) -> pl.DataFrame:
        fam = self.families.filter(
            (pl.col("family") == family) & (pl.col("parameter") == parameter)
        )
        return curves(cmp.filter(metric=metric), fam).filter(pl.col("metric") == metric)

    def scaling_table(self, cmp, family: str, parameter: str, metric: str) -> Table:
        c = self.curve(cmp, family, parameter, metric)
        scale = scale_for(c["center"].to_list(), c["unit"][0] if c.height else None)
        out, marks = [], {}
        for r in c.sort("value", maintain_order=True).iter_rows(named=True):
            ref = r["is_reference"]
            size = (
                "reference"
                if ref
                else fmt_ratio_change(
                    r["ratio"], r["ratio_ci_low"], r["ratio_ci_high"], r["better"], self.percent
                )
            )
            out.append(
                [
                    f"{r['value']:g}",
                    r["system"],
                    scale.text(r["center"]),
                    scale.interval(r["ci_low"], r["ci_high"]),
                    size,
                    "" if ref else fmt_p(r["p_adjusted" if cmp.options.fdr else "p_welch"]),
                    r["verdict"],
                ]
            )
            if r["verdict"] in ("better", "worse"):
                marks[(len(out) - 1, 4)] = r["verdict"]
        values = c["value"].unique().to_list()
        axis = "logarithmic" if log_axis(values) else "linear"
        notes = [
            f"{family}: {metric} against {parameter} ({len(values)} values, {axis} axis). "
            f"{size_header(self.percent).split()[0]}: against {cmp.reference} at the same value "
            "(a gain is positive when better), with its 95 % interval and Welch's p"
            + (
                ", adjusted by Benjamini-Hochberg over every row as the verdicts are."
                if cmp.options.fdr
                else "."
            )
        ]
        return Table(
            f"{family} {metric} by {parameter}",
            [
                parameter,
                "System",
                "Centre",
                "95% CI",
                size_header(self.percent),
                "p (BH)" if cmp.options.fdr else "p",
                "Verdict",
            ],
            out,
            notes,
            marks,
            numeric={0, 2, 5},
            slug="scaling",
        )
