"""The answer first: per system against the reference, how many metrics got worse, better
or stayed the same, and the significant changes, worst first.

Headless (no Textual): the explorer's first screen, the HTML report and the Markdown copies
all show this. `build_answer(cmp)` gathers it in a few vectorised polars steps; only the
listed changes become Python objects. `answer_lines()` renders one line per item.

Sizes are gains by default (positive = better, as mmtests prints them); `percent="change"`
shows the signed change (positive = a bigger number) instead. A metric whose direction
nothing states has no gain: it is counted apart ("unknown direction"), never guessed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from tuibench.analysis.compare.frames import reference_rows
from tuibench.present.chance import FROM as CHANCE_FROM
from tuibench.present.chance import about
from tuibench.present.tables import fmt_p, fmt_pct, pct_decimals
from tuibench.util.text import printable

if TYPE_CHECKING:
    from tuibench.analysis.compare import Comparison

METRIC = ["benchmark", "metric"]

# Verdicts listed as changes, and their order: regressions, then changes whose direction is
# unknown, then improvements.
LISTED = {"worse": 0, "changed": 1, "better": 2}
SAME = ("same", "equivalent")


@dataclass(frozen=True)
class Change:
    """One significant change of one system against the reference."""

    benchmark: str
    metric: str
    unit: str | None
    verdict: str  # worse | better | changed (significant, direction unknown)
    size: float | None  # gain (positive = better) or change (positive = bigger), a fraction
    low: float | None  # the size's 95 % interval, a fraction
    high: float | None
    p: float | None  # Welch's p, or its Benjamini-Hochberg adjustment under FDR
    single_iteration: bool  # a side has one iteration: a test of one process
    counted: bool = True  # False: one iteration and not trusted, so not worse nor better
    flags: tuple[str, ...] = ()  # warnings that travel with the verdict: FLAGS' keys
    no_ratio: bool = False  # no ratio of centres (a reference not above 0): no interval

    @property
    def name(self) -> str:
        return f"{self.benchmark} {self.metric}"

    @property
    def glyph(self) -> str:
        """▼ ▲ ?, or ~ for a change seen on one iteration's samples that is not counted."""
        return GLYPH.get(self.verdict, " ") if self.counted else "~"

    @property
    def meaning(self) -> str:
        """The colour meaning: the verdict, or `single` when not counted."""
        return self.verdict if self.counted else "single"

    def tag(self, short: bool = False) -> str:
        """What the verdict word alone does not say: one iteration, and whether it counts
        (`short`: where the ~ glyph, its colour and the counts line say that)."""
        if not self.single_iteration:
            return ""
        return "(one iteration)" if self.counted or short else "(one iteration, not counted)"


@dataclass(frozen=True)
class SystemAnswer:
    """One non-reference system against the reference."""

    system: str
    worse: int
    better: int
    same: int
    other: int  # inconclusive under a threshold
    missing: int  # nothing to compare (verdict n/a): no reference value, no centre, no test
    unknown: int  # direction unknown (no gain): counted apart
    single_iteration: int  # metrics where a side has one iteration
    single_counted: bool  # whether those count as worse / better (--trust-single-iteration)
    geomean: float | None  # per-system summary: above 1 is better
    geomean_low: float | None
    geomean_high: float | None
    geomean_note: str | None  # why there is no interval (compare/summary.NO_INTERVAL)
    # The metrics the geometric mean is over, and those of the system it leaves out (one
    # iteration on a side, duplicates, constants, ...): over the whole comparison, whatever
    # the filter; `filtered`: the counts cover fewer metrics (say what the geomean is over).
    geomean_over: int | None
    geomean_left_out: int
    filtered: bool
    changes: list[Change]  # listed, worst first (at most `limit`)
    listed_total: int  # how many significant changes there are in all
    flagged: dict[str, int] = field(default_factory=dict)  # FLAGS' key: metrics so marked
    tests: int = 0  # counted tests (with a p-value): what chance alone flags is alpha x tests

    @property
    def more(self) -> int:
        return self.listed_total - len(self.changes)

    @property
    def nothing_compared(self) -> bool:
        """No metric of the system was set against the reference (none in common, or none
        with values on both sides): every count but `missing` is 0, which is not "no
        change"."""
        counts = (self.worse, self.better, self.same, self.other, self.unknown)
        return not any(counts) and not self.single_iteration


@dataclass(frozen=True)
class Answer:
    reference: str
    alpha: float
    fdr: bool
    threshold: float | None
    percent: str  # "gain" | "change"
    systems: list[SystemAnswer] = field(default_factory=list)  # best first


# Warnings that travel with a verdict: (mark on the change's line, what the header says).
FLAGS = {
    "fragile": ("!", "not robust: with per-iteration medians the verdict differs"),
    "two": ("2it", "from two iterations on a side: a wide interval, a weak test"),
    "direction": ("dir", "named like a throughput but judged lower-is-better"),
}
# Names that say "throughput" (mmtests marks every op of a test with one direction, so a
# throughput op may come marked lower-is-better).
THROUGHPUT_NAME = r"(?i)(^|[^a-z])(tput|ops|bw|bandwidth|per_?sec|throughput)([^a-z]|$)"


def _flag_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """The non-reference rows of `frame` (which holds each metric's reference row beside
    them) with `_fragile`, `_two`, `_direction`, from the rows' own fields (the notes'
    wording may change): robust, both sides' iterations, direction and name."""

    def col(name: str) -> pl.Expr:  # rows built by hand may lack a field: no warning then
        return pl.col(name) if name in frame.columns else pl.lit(None)

    # Each row's reference's iterations, by position (a join on the names hashed them all).
    others = np.flatnonzero(~frame["is_reference"].fill_null(False).to_numpy())
    at = reference_rows(frame)[others]
    rows = frame[pl.Series(others)]
    ref_its: pl.Expr = pl.lit(None)
    if "iterations" in frame.columns:
        ref_its = pl.when(pl.Series(at >= 0)).then(frame["iterations"].gather(np.maximum(at, 0)))
    rows = rows.with_columns(ref_its.alias("_ref_its"))
    fewest = pl.min_horizontal(col("iterations"), "_ref_its")
    named = pl.col("metric").str.contains(THROUGHPUT_NAME)
    return rows.with_columns(
        (col("robust") == False).fill_null(False).alias("_fragile"),  # noqa: E712
        (fewest == 2).fill_null(False).alias("_two"),
        ((pl.col("better") == "lower") & named).fill_null(False).alias("_direction"),
    )


# The rows' columns the answer reads: filters and joins copy these, not the 45 of a row
# (0.8 GB at a million metrics).
_READ = (
    *METRIC,
    "system",
    "unit",
    "is_reference",
    "verdict",
    "significant",
    "p_welch",
    "p_adjusted",
    "better",
    "gain",
    "change",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "single_iteration",
    "iterations",
    "robust",
)


def _read(rows: pl.DataFrame) -> pl.DataFrame:
    return rows.select(c for c in _READ if c in rows.columns)


def _size_columns(rows: pl.DataFrame, percent: str) -> pl.DataFrame:
    """`_size`, `_low`, `_high`: gain or change with its 95 % interval (from the ratio's).
    Where the direction is unknown there is no gain: the signed change stands in (its `?`
    glyph says so), as the tables show it."""
    lo, hi = pl.col("ratio_ci_low") - 1, pl.col("ratio_ci_high") - 1
    if percent == "change":
        size = pl.col("change")
        low, high = lo, hi
    else:
        higher, lower = pl.col("better") == "higher", pl.col("better") == "lower"
        size = pl.when(higher | lower).then(pl.col("gain")).otherwise(pl.col("change"))
        low = pl.when(higher).then(lo).when(lower).then(-hi).otherwise(lo)
        high = pl.when(higher).then(hi).when(lower).then(-lo).otherwise(hi)
    return rows.with_columns(
        pl.col("gain").cast(pl.Float64).alias("_gain"),
        size.cast(pl.Float64).alias("_size"),
        low.cast(pl.Float64).alias("_low"),
        high.cast(pl.Float64).alias("_high"),
        (pl.col("ratio").is_null() & pl.col("change").is_not_null()).alias("_no_ratio"),
    )


def _lacking(rows: pl.DataFrame) -> tuple[dict[str, int], int]:
    """Per system, the reference's metrics it has no row of (none of its own values): not
    compared either, as a metric the reference lacks is (a benchmark that crashed or was
    dropped in the new build must not go unsaid); and how many metrics the reference has
    (what a system without any row lacks)."""
    is_ref = rows["is_reference"].fill_null(False).to_numpy()
    with_ref = reference_rows(rows) >= 0  # by position: no join on the names
    others = rows["system"].filter(pl.Series(~is_ref))
    have = pl.DataFrame({"system": others, "_has": with_ref[~is_ref]})
    counts = have.group_by("system").agg(pl.col("_has").sum())
    total = int(is_ref.sum())
    return {s: total - int(n) for s, n in counts.iter_rows()}, total


def _certain() -> pl.Expr:
    """How far from zero the size's 95 % interval lies: the bound nearest zero, as a
    magnitude; 0 when the interval holds zero or is unbounded."""
    low, high = pl.col("_low"), pl.col("_high")
    apart = (low * high > 0).fill_null(False)
    return pl.when(apart).then(pl.min_horizontal(low.abs(), high.abs())).otherwise(0.0)


def build_answer(
    cmp: Comparison,
    percent: str | None = None,
    limit: int | None = None,
    summary: pl.DataFrame | None = None,
    whole: Comparison | None = None,
) -> Answer:
    """The answer of a comparison (already filtered as the caller wants it).

    percent: "gain" or "change" (default: the comparison's own choice).
    limit: list at most this many changes per system (all when None); `listed_total` still
    counts them all.
    summary: `cmp.summary()` when the caller has it already (it covers every metric of the
    unfiltered comparison, so a filtered copy may pass the original's).
    whole: the comparison the counts are over when `cmp` holds only some of its rows (the
    significant ones, those a filter shows): a count over the listed rows alone reads
    "0 same" beside changes that stood among many metrics.
    """
    percent = percent or cmp.percent
    p_col = "p_adjusted" if cmp.options.fdr else "p_welch"
    # `cmp` holds whole metrics (each listed metric's reference row too), as `whole` does.
    rows = _size_columns(_flag_columns(_read(cmp.rows)), percent)
    unknown = ~pl.col("better").is_in(["lower", "higher"]).fill_null(False)
    verdict = pl.col("verdict")
    # Not compared (n/a: no reference value, no test) whatever a side's iterations: only
    # what was compared is "from one iteration", and counts only when trusted.
    single = pl.col("single_iteration").fill_null(False) & (verdict != "n/a")
    counted = cmp.counted() | (verdict == "n/a")
    counted_rows = rows
    if whole is not None:
        counted_rows = _flag_columns(_read(whole.rows))
    counts = counted_rows.group_by("system").agg(
        *(pl.col(f"_{flag}").sum().alias(f"_{flag}") for flag in FLAGS),
        (pl.col("p_welch").is_not_null() & counted).sum().alias("_tests"),  # as the header
        ((verdict == "worse") & ~unknown & counted).sum().alias("worse"),
        ((verdict == "better") & ~unknown & counted).sum().alias("better"),
        (verdict.is_in(SAME) & ~unknown & counted).sum().alias("same"),
        (~verdict.is_in(["worse", "better", *SAME, "n/a"]) & ~unknown & counted)
        .sum()
        .alias("other"),
        ((verdict == "n/a") & ~unknown & counted).sum().alias("missing"),
        unknown.sum().alias("unknown"),
        single.sum().alias("single"),
    )
    by_system = {r["system"]: r for r in counts.iter_rows(named=True)}
    lacking, reference_metrics = _lacking((whole if whole is not None else cmp).rows)
    if summary is None:
        summary = cmp.summary()
    per_system = {r["system"]: r for r in summary.iter_rows(named=True)}
    counted_cmp = whole if whole is not None else cmp
    source = cmp.source
    over_more = source is not None and counted_cmp.rows.height < source.rows.height

    # Regressions, then unknown directions, then improvements; in each, what a single
    # iteration shows (not counted unless trusted) after what counts, and the largest size
    # the change certainly has first: the bound of its interval nearest zero (a large but
    # noisy change may be small), then the size itself.
    listed = rows.filter(pl.col("significant") & verdict.is_in(list(LISTED))).with_columns(
        verdict.replace_strict(LISTED, return_dtype=pl.Int8).alias("_group"),
        _certain().alias("_certain"),
        pl.col("_size").abs().alias("_order"),
        single.alias("_single"),
        counted.alias("_counted"),
    )
    listed = listed.sort(
        ["system", "_group", "_counted", "_certain", "_order"],
        descending=[False, False, True, True, True],
        nulls_last=True,
        maintain_order=True,
    )
    totals = dict(listed.group_by("system").agg(pl.len()).iter_rows())
    if limit is not None:
        listed = listed.group_by("system", maintain_order=True).head(limit)
    changes: dict[str, list[Change]] = {}
    fields = ["system", *METRIC, "unit", "verdict", "_size", "_low", "_high", p_col]
    fields += ["_single", "_counted", "_no_ratio", *(f"_{flag}" for flag in FLAGS)]
    for row in listed.select(fields).iter_rows():
        system, bench, metric, unit, v, size, low, high, p, single, count, no_ratio = row[:12]
        flags = tuple(flag for flag, on in zip(FLAGS, row[12:], strict=True) if on)
        changes.setdefault(system, []).append(
            Change(
                bench,
                metric,
                unit,
                v,
                size,
                low,
                high,
                p,
                bool(single),
                bool(count),
                flags,
                bool(no_ratio),
            )
        )

    answers = []
    for system in cmp.systems:
        if system == cmp.reference:
            continue
        c = by_system.get(system, {})
        s = per_system.get(system, {})
        answers.append(
            SystemAnswer(
                system=system,
                worse=int(c.get("worse", 0)),
                better=int(c.get("better", 0)),
                same=int(c.get("same", 0)),
                other=int(c.get("other", 0)),
                missing=int(c.get("missing", 0)) + lacking.get(system, reference_metrics),
                unknown=int(c.get("unknown", 0)),
                single_iteration=int(c.get("single", 0)),
                single_counted=cmp.options.trust_single_iteration,
                geomean=s.get("geomean_ratio"),
                geomean_low=s.get("geomean_ci_low"),
                geomean_high=s.get("geomean_ci_high"),
                geomean_note=s.get("geomean_ci_note"),
                geomean_over=s.get("metrics"),
                geomean_left_out=int(s.get("left_out") or 0),
                filtered=over_more,
                changes=changes.get(system, []),
                listed_total=int(totals.get(system, 0)),
                flagged={flag: int(c.get(f"_{flag}", 0)) for flag in FLAGS},
                tests=int(c.get("_tests", 0)),
            )
        )
    order = {name: i for i, name in enumerate(cmp.systems)}
    answers.sort(key=lambda a: (a.geomean is None, -(a.geomean or 0.0), order[a.system]))
    return Answer(
        cmp.reference, cmp.options.alpha, cmp.options.fdr, cmp.options.threshold, percent, answers
    )


# -- text -----------------------------------------------------------------------------------
# `?` for a change of unknown direction, as the tables mark it (◆ marks a change point).
GLYPH = {"worse": "▼", "better": "▲", "changed": "?"}


def limited(answer: Answer, limit: int) -> Answer:
    """`answer` listing at most `limit` changes per system (`more` counts the others): what
    `build_answer(..., limit=limit)` gives, from an answer built without a limit."""
    systems = [replace(a, changes=a.changes[:limit]) for a in answer.systems]
    return replace(answer, systems=systems)


def size_parts(change: Change) -> tuple[str, str]:
    """(`-6.5%`, `[-8.1%, -4.9%]`): the size and its 95 % interval, in percent."""
    if change.size is None:
        return "n/a", ""
    d = pct_decimals(change.size, change.low, change.high)
    size = fmt_pct(change.size, d, missing="n/a")
    if change.low is None or change.high is None:  # no ratio, or Fieller's is unbounded
        return size, "[no interval]" if change.no_ratio else "[unbounded]"
    return size, f"[{fmt_pct(change.low, d, 'n/a')}, {fmt_pct(change.high, d, 'n/a')}]"


def fmt_size(change: Change) -> str:
    """`-6.5% [-8.1%, -4.9%]`: the size and its 95 % interval, in percent."""
    return " ".join(p for p in size_parts(change) if p)


def counts_text(a: SystemAnswer, reference: str) -> str:
    """`patched vs base: ▼8 worse · ▲2 better · 101 same` (+ what is counted apart)."""
    parts = [f"▼{a.worse} worse", f"▲{a.better} better", f"{a.same} same"]
    if a.other:
        parts.append(f"{a.other} undecided")
    if a.missing:
        parts.append(f"{a.missing} not compared")
    if a.unknown:
        parts.append(f"{a.unknown} of unknown direction")
    if a.single_iteration:
        parts.append(f"{a.single_iteration} {single_words(a)}")
    return f"{printable(a.system)} vs {printable(reference)}: " + " · ".join(parts)


def single_words(a: SystemAnswer) -> str:
    """After the count of metrics with one iteration on a side: apart from the counts
    before it, or (--trust-single-iteration) among them, not more metrics."""
    return "of these from one iteration" if a.single_counted else "from one iteration, not counted"


def flag_marks(c: Change) -> str:
    """`! 2it`: the marks of the change's warnings (the header says what they mean)."""
    return " ".join(FLAGS[flag][0] for flag in c.flags)


def chance_text(a: SystemAnswer, answer: Answer) -> str:
    """`28 comparisons: about 1.4 expected by chance`, where that many tests make it
    likely that some flags are chance (never under FDR, which controls it)."""
    expected = answer.alpha * a.tests
    if answer.fdr or a.tests < CHANCE_FROM:
        return ""
    alpha = answer.alpha
    return f"{a.tests} comparisons: about {about(expected)} expected by chance at alpha {alpha:g}"


def warning_lines(a: SystemAnswer, answer: Answer) -> list[str]:
    """What the verdicts of `a` must be read with, one short line each (they fit 80
    columns): `! 2 not robust: ...`, `28 comparisons: about 1.4 expected by chance`."""
    lines = [
        f"{mark} {a.flagged[flag]} {what}"
        for flag, (mark, what) in FLAGS.items()
        if a.flagged.get(flag)
    ]
    if chance := chance_text(a, answer):
        lines.append(chance)
    return lines


def change_text(c: Change) -> str:
    """`▼ db/read tps  -6.5% [-8.1%, -4.9%]  p 0.001  worse`."""
    tag = f"  {t}" if (t := c.tag()) else ""
    marks = f"  {m}" if (m := flag_marks(c)) else ""
    p = fmt_p(c.p, short=True)
    return f"{c.glyph} {printable(c.name)}  {fmt_size(c)}  {p}  {c.verdict}{marks}{tag}"


def _short_reasons() -> dict[str, str]:
    """Why a geomean has no interval, in words that keep the answer's header within the
    pane of a 120-column explorer (the summary's note says it whole)."""
    from tuibench.analysis.compare.summary import NO_INTERVAL

    return {
        NO_INTERVAL["runs"]: "< 3 runs",
        NO_INTERVAL["aligned"]: "uneven runs",
        NO_INTERVAL["positive"]: "a value ≤ 0",
    }


_WHY_SHORT = _short_reasons()


def geomean_text(a: SystemAnswer, scope: bool = True) -> str:
    """`geomean 0.984 [0.967, 1.002]` (above 1 is better), or '' when undefined; without an
    interval, the reason in a few words (the summary's note says it whole); `over 21
    metrics (7 left out)` when the counts beside it cover fewer (a filter), unless `scope` is False
    (the explorer says it on a line of its own: `scope_text`)."""
    if a.geomean is None:
        return ""
    over = f" over {over_words(a)}" if scope and a.filtered else ""
    if a.geomean_low is None or a.geomean_high is None:
        why = _WHY_SHORT.get(a.geomean_note or "", "")
        return f"geomean {a.geomean:.3f}{over}" + (f" (no interval: {why})" if why else "")
    return f"geomean {a.geomean:.3f} [{a.geomean_low:.3f}, {a.geomean_high:.3f}]{over}"


def scope_text(a: SystemAnswer) -> str:
    """What the geometric mean is over, when more than the counts ('' otherwise)."""
    if a.geomean is None or not a.filtered:
        return ""
    return f"geomean over {over_words(a)}, whatever the filter"


def over_words(a: SystemAnswer) -> str:
    """`21 metrics (7 left out)`: what the geometric mean is over."""
    left = f" ({a.geomean_left_out} left out)" if a.geomean_left_out else ""
    return f"{a.geomean_over} metric{'s' if a.geomean_over != 1 else ''}{left}"


def legend(answer: Answer) -> str:
    what = "gain (positive = better)" if answer.percent == "gain" else "change (signed)"
    test = "Welch's t-test on the per-iteration values"
    test += ", Benjamini-Hochberg adjusted" if answer.fdr else ""
    text = (
        f"Sizes: {what} of the centre against {printable(answer.reference)}, with its 95% "
        f"interval (Fieller's method); significant when p < {answer.alpha:g} ({test}). "
        "Geomean: of the ratios, above 1 is better."
    )
    if any(c.verdict == "changed" for a in answer.systems for c in a.changes):
        text += " ?: nothing says which way is better; the size is the signed change."
    text += " Listed by the size each change certainly has (its interval's bound nearest 0)."
    if answer.threshold is not None:
        text += f" Listed only beyond a practical margin of ±{answer.threshold:g}%."
    return text


def places(ranking: Sequence[tuple[str, float | None]]) -> dict[str, int]:
    """Each system's place in `ranking` (best first by geometric mean, the reference at 1):
    a system without a geometric mean (nothing compared) is not ranked, not ranked last."""
    ranked = [name for name, geomean in ranking if geomean is not None]
    return {name: i for i, name in enumerate(ranked, 1)}


def ranking_items(
    ranking: Sequence[tuple[str, float | None]], reference: str
) -> list[tuple[str, str, str]]:
    """(`#1 ` or '' when not ranked, the name, what stands after it) of each system of the
    ranking line, in its order."""
    place = places(ranking)
    # Enough decimals that two places never read the same geomean (0.994 and 0.994)
    values = [g for name, g in ranking if g is not None and name != reference]
    digits = 3
    while digits < 6 and any(
        f"{a:.{digits}f}" == f"{b:.{digits}f}" and a != b for a, b in itertools.pairwise(values)
    ):
        digits += 1
    items = []
    for name, geomean in ranking:
        rank = f"#{place[name]} " if name in place else ""
        what = "reference" if name == reference else "not ranked" if geomean is None else ""
        items.append((rank, name, what or f"{geomean:.{digits}f}"))
    return items


def quiet_text(a: SystemAnswer, threshold: float | None = None) -> str:
    """What stands under a system's counts (which name it and the reference) where no
    change is listed: under a threshold, significant changes inside its margin may be."""
    if a.nothing_compared:
        return "Nothing compared: no metric has values on both sides."
    if threshold is not None:
        return f"No change beyond the practical margin of ±{threshold:g}%."
    return "No significant change."


def answer_lines(answer: Answer) -> list[str]:
    """The answer as plain text, one line per item."""
    if not answer.systems:
        return [f"Only {printable(answer.reference)}: nothing to compare it with."]
    lines = []
    for a in answer.systems:
        head = counts_text(a, answer.reference)
        g = geomean_text(a)
        lines.append(f"{head} · {g}" if g else head)
        lines.extend("  " + w for w in warning_lines(a, answer))
        lines.extend("  " + change_text(c) for c in a.changes)
        if a.more:
            lines.append(f"  … {a.more} more significant change{'s' if a.more != 1 else ''}")
        elif a.nothing_compared:  # the tables after it show what was compared
            lines.append("  " + quiet_text(a))
    lines.append(legend(answer))
    return lines
