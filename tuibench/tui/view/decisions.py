"""`tuibench decide`'s verdicts in the explorer (`--decide`, `--follow`): per metric whether
the iterations so far settle it, and how many more would likely (core/stopping.py).

No Textual here. The decision is the same as `tuibench decide` gives at the explorer's
alpha and threshold (2 % when no threshold is set, decide's default).
"""

from __future__ import annotations

import polars as pl

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.columns import METRIC

DEFAULT_THRESHOLD = 2.0  # percent: `tuibench decide --threshold`'s default
# The tree's marks. Not "…", which reads as a name cut short.
DECIDED, UNDECIDED = "✓", "◌"
# What settles a metric; `inconclusive` (a last look that could not) does not. The explorer
# sets no maximum of iterations, so it meets only these, `undecided` and `n/a` (nothing to
# decide: kept, so that the tree marks it too).
SETTLED = ("worse", "better", "changed", "same")


class MetricDecisions:
    """`decide_rows` over every metric against one reference, kept per metric."""

    def __init__(self, analysis: Analysis, reference: str, alpha: float, threshold: float | None):
        from tuibench.analysis.stopping import decide_rows

        self.threshold = DEFAULT_THRESHOLD if threshold is None else threshold
        self.alpha = alpha
        self.decision = decide_rows(analysis.groups, reference, alpha, self.threshold)
        rows = self.decision.rows.filter(pl.col("verdict") != "n/a")
        per = rows.group_by(METRIC).agg(pl.col("verdict").is_in(SETTLED).all().alias("done"))
        self.decided = {(b, m): bool(d) for b, m, d in per.iter_rows()}
        self._rows = self.decision.rows  # n/a rows too: the metric's view says why

    def mark(self, key: tuple[str, str]) -> str | None:
        """✓ when every system of the metric is decided, ◌ while one is not; None: no
        system could be decided at all (a side lacks it, or its values are not positive)."""
        done = self.decided.get(key)
        return None if done is None else DECIDED if done else UNDECIDED

    def lines(self, benchmark: str, metric: str) -> list[tuple[str, str]]:
        """(system, `decided: worse` | `undecided: about N more iterations`) per system."""
        from tuibench.output.stopping import verdict_words

        part = self._rows.filter((pl.col("benchmark") == benchmark) & (pl.col("metric") == metric))
        out = []
        for r in part.iter_rows(named=True):
            words = verdict_words(r)
            settled = r["verdict"] in SETTLED
            out.append((r["system"], f"decided: {words}" if settled else words))
        return out

    def signature(self) -> pl.DataFrame:
        """benchmark, metric, and the decided verdicts of every system in one string."""
        return _signature(self.decision.rows)


def _signature(rows: pl.DataFrame) -> pl.DataFrame:
    pairs = pl.concat_str([pl.col("system"), pl.col("verdict").fill_null("")], separator="=")
    return rows.group_by(METRIC).agg(pairs.sort().str.join("|").alias("sig"))


def changed_verdicts(
    old: pl.DataFrame, new: pl.DataFrame, old_decided: pl.DataFrame | None = None, new_decided=None
) -> set[tuple[str, str]]:
    """Metrics whose verdicts differ between two comparisons' rows (and decisions): those a
    reload marks until they are seen. A metric new since then counts when it has a verdict
    other than `same`."""
    before, after = _signature(old), _signature(new)
    if old_decided is not None and new_decided is not None:
        before = before.join(old_decided.rename({"sig": "d"}), on=METRIC, how="left")
        after = after.join(new_decided.rename({"sig": "d"}), on=METRIC, how="left")
        before = before.select(*METRIC, pl.concat_str("sig", "d", separator="#", ignore_nulls=True))
        after = after.select(*METRIC, pl.concat_str("sig", "d", separator="#", ignore_nulls=True))
    both = after.join(before.rename({"sig": "was"}), on=METRIC, how="left")
    new_metric = pl.col("was").is_null() & pl.col("sig").str.contains("=(worse|better)")
    moved = both.filter((pl.col("was") != pl.col("sig")) | new_metric)
    return {(b, m) for b, m in moved.select(METRIC).iter_rows()}
