"""`tuibench report --format html`: one self-contained page that answers the comparison.

The page holds, in order: a header (systems, reference, alpha, options, date, version), the
answer (per system the counts, then the significant changes worst first), the per-system
summary, every comparison row in a table that sorts and filters in the page, and one inline
SVG plot per metric (per-iteration values and each system's 95 % interval). Styles and the
small script are inlined from `report_assets/`; a Content-Security-Policy forbids every
network request, so the file opens offline and attached to a pull request.

Verdicts are words (with a glyph) as well as colours, so the page prints in black and white.
Every name from the data is shown through `printable` and HTML-escaped.

At scale the plots are bounded (`MAX_PLOTS`): every metric gets one while there are few;
beyond that the metrics with a significant change come first (worst first), then the others
in order, and the page says how many have no plot. The table always holds every row.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

from tuibench.analysis.best import GLYPH as BEST
from tuibench.analysis.best import LEGEND, best_systems
from tuibench.analysis.compare import Comparison
from tuibench.output.shareable import (
    ABSENT_NOTE,
    Shareable,
    by_metric,
    gain_value,
    scope,
    verdict_words,
)
from tuibench.present.answer import (
    GLYPH,
    Answer,
    build_answer,
    counts_text,
    flag_marks,
    fmt_size,
    geomean_text,
    legend,
    limited,
    quiet_text,
    warning_lines,
)
from tuibench.present.numbers import Scale, scale_for
from tuibench.present.tables import (
    ABSENT_WORDS,
    MEAN_LABEL,
    P_METHOD,
    SIZE_METHOD,
    centre_method,
    direction_words,
    fmt_p,
    size_cell,
    size_word,
    uncounted,
    with_absent,
)
from tuibench.util.text import printable

MAX_PLOTS = 300  # SVG plots per page: enough to read, small enough to open quickly
LISTED_PER_SYSTEM = 50  # significant changes listed in the answer, per system
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)
VERDICT_GLYPH = GLYPH | {"reference": "●", "single": "~"}  # single: one iteration, not counted
ITERATION_VALUE = {
    "subselection": "median of the means of random subsets of its samples (mmtests' method)",
    "mean": "the mean of its samples",
    "median": "the median of its samples",
    "trimmed": "the mean of its samples inside the 1.5 IQR Tukey fences",
}


def esc(s: object) -> str:
    """A name or any text from the data, safe in HTML text and attribute values."""
    return html.escape(printable("" if s is None else str(s)), quote=True)


def _asset(name: str) -> str:
    return resources.files("tuibench.output").joinpath("report_assets", name).read_text("utf-8")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tuibench")
    except PackageNotFoundError:
        return "unknown"


@dataclass
class _Metric:
    """One metric's rows, in system order (the reference first)."""

    index: int
    benchmark: str
    metric: str
    unit: str | None
    better: str | None
    mean_kind: str | None
    rows: list[dict]

    @property
    def name(self) -> str:
        return f"{self.benchmark} {self.metric}"

    @property
    def anchor(self) -> str:
        return f"m-{self.index}"

    @property
    def scale(self) -> Scale:
        """How this metric's values are shown (one scale for all its systems)."""
        return scale_for([r["center"] for r in self.rows], self.unit)


def _metrics(cmp: Comparison) -> list[_Metric]:
    """The rows grouped by metric, in the comparison's order (rows come grouped)."""
    out: list[_Metric] = []
    for rows in by_metric(cmp):
        for r in rows:
            r["words"] = verdict_words(r, cmp)  # the verdict as the page writes it
        r = rows[0]
        key = (r["benchmark"], r["metric"])
        out.append(_Metric(len(out), *key, r["unit"], r["better"], r["mean_kind"], rows))
    return out


def plotted(metrics: list[_Metric], answer: Answer) -> tuple[set[int], str]:
    """Which metrics get a plot, and the note that says so when not all of them do.
    `answer`: every significant change listed (no limit per system)."""
    if len(metrics) <= MAX_PLOTS:
        return {m.index for m in metrics}, ""
    by_name = {(m.benchmark, m.metric): m.index for m in metrics}
    chosen: list[int] = []
    seen: set[int] = set()
    # Worst first across systems: regressions of every system, then the other changes.
    changes = [c for a in answer.systems for c in a.changes]
    changes.sort(key=lambda c: {"worse": 0, "changed": 1, "better": 2}.get(c.verdict, 3))
    changed = {by_name.get((c.benchmark, c.metric)) for c in changes} - {None}
    for c in changes:
        i = by_name.get((c.benchmark, c.metric))
        if i is not None and i not in seen and len(chosen) < MAX_PLOTS:
            chosen.append(i)
            seen.add(i)
    significant = len(chosen)
    for m in metrics:
        if len(chosen) >= MAX_PLOTS:
            break
        if m.index not in seen:
            chosen.append(m.index)
            seen.add(m.index)
    rest = "" if significant == len(chosen) else ", then others by name"
    note = (
        f"Plots for {len(chosen)} of {len(metrics)} metrics (a page of thousands of plots "
        f"would not open quickly): {significant} of the {len(changed)} with a significant "
        f"change, the worst first{rest}; they are shown in the table's order. The table holds "
        "every metric; narrow the report with --benchmark or --metric to plot the others."
    )
    return seen, note


# -- the page -------------------------------------------------------------------------------
def html_report(share: Shareable, generated: datetime | None = None) -> str:
    cmp = share.cmp
    percent = cmp.percent
    metrics = _metrics(cmp)
    # Past MAX_PLOTS the plots are chosen among every significant change, not those listed
    every = build_answer(
        cmp,
        percent=percent,
        limit=None if len(metrics) > MAX_PLOTS else LISTED_PER_SYSTEM,
        whole=share.whole,
    )
    answer = limited(every, LISTED_PER_SYSTEM)
    with_plot, plot_note = plotted(metrics, every)
    when = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    title = share.title or f"Comparison against {cmp.reference}"
    parts = [
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        f'<meta name="generator" content="tuibench {esc(_version())}">',
        f"<title>tuibench: {esc(title)}</title>",
        f"<style>\n{_asset('report.css')}</style>",
        "</head>",
        "<body>",
        _header(share, title, when),
        "<main>",
        _answer_section(answer, metrics, with_plot, scope(share)),
        _systems_section(answer),
        _table_section(cmp, metrics, with_plot, percent),
        _plots_section(metrics, with_plot, plot_note, cmp),
        "</main>",
        f"<footer>Written by tuibench {esc(_version())} on {esc(when)}.</footer>",
        f"<script>\n{_asset('report.js')}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _header(share: Shareable, title: str, when: str) -> str:
    cmp = share.cmp
    systems = ", ".join(
        esc(s) + (" <em>(reference)</em>" if s == cmp.reference else "") for s in cmp.systems
    )
    test = "Welch's t-test on the per-iteration values"
    if cmp.options.fdr:
        test += ", Benjamini-Hochberg adjusted over every row (false discovery rate)"
    facts = [
        ("systems", systems),
        ("reference", esc(cmp.reference)),
        ("alpha", esc(f"{cmp.options.alpha:g}")),
        ("test", esc(test)),
        (
            "practical threshold",
            esc(f"±{cmp.options.threshold:g}%") if cmp.options.threshold is not None else "off",
        ),
        (
            "iteration value",
            esc(ITERATION_VALUE.get(cmp.options.iteration_value, cmp.options.iteration_value)),
        ),
        (
            "single iterations",
            "trusted like any other"
            if cmp.options.trust_single_iteration
            else "never worse or better",
        ),
        ("sizes", "gain (positive = better)" if cmp.percent == "gain" else "signed change"),
        *((esc(k), esc(v)) for k, v in share.facts),
        ("written", esc(when)),
        ("tuibench", esc(_version())),
    ]
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    heads = "".join(f'<p class="warning">{esc(line)}</p>\n' for line in share.heads)
    return f'<header>\n<h1>{esc(title)}</h1>\n{heads}<dl class="facts">{items}</dl>\n</header>'


def _verdict_html(verdict: str, words: str | None = None) -> str:
    glyph = VERDICT_GLYPH.get(verdict, "")
    mark = f'<span aria-hidden="true">{glyph}</span> ' if glyph else ""
    return f'<span class="verdict {_cls(verdict)}">{mark}{esc(words or verdict)}</span>'


def _cls(verdict: str | None) -> str:
    return {"n/a": "na"}.get(verdict or "", verdict or "")


def _answer_section(
    answer: Answer, metrics: list[_Metric], with_plot: set[int], notes: Sequence[str] = ()
) -> str:
    by_name = {(m.benchmark, m.metric): m for m in metrics}
    out = ['<section id="answer" aria-labelledby="answer-h">', '<h2 id="answer-h">The answer</h2>']
    out += [f'<p class="note">{esc(note)}</p>' for note in notes]
    if not answer.systems:
        out.append(f"<p>Only {esc(answer.reference)}: nothing to compare it with.</p>")
    for a in answer.systems:
        g = geomean_text(a)
        head = counts_text(a, answer.reference) + (f" · {g}" if g else "")
        out.append(f'<h3 class="system-line">{html.escape(head)}</h3>')
        warnings = warning_lines(a, answer)
        if warnings:
            items = "".join(f"<li>{esc(w)}</li>" for w in warnings)
            out.append(f'<ul class="warnings">{items}</ul>')
        if not a.changes:
            out.append(f"<p>{quiet_text(a, answer.threshold)}</p>")
            continue
        out.append('<ol class="changes">')
        for c in a.changes:
            m = by_name.get((c.benchmark, c.metric))
            name = esc(c.name)
            if m is not None and m.index in with_plot:
                name = f'<a href="#{m.anchor}">{name}</a>'
            single = f" {esc(c.tag())}" if c.single_iteration else ""
            if marks := flag_marks(c):
                single = f' <span class="flags">{esc(marks)}</span>' + single
            verdict = _verdict_html(c.verdict) if c.counted else _verdict_html("single", c.verdict)
            out.append(
                f'<li class="{_cls(c.meaning)}">{verdict} {name} '
                f'<span class="size">{esc(fmt_size(c))}</span> '
                f'<span class="p">{esc(fmt_p(c.p, short=True))}</span>{single}</li>'
            )
        out.append("</ol>")
        if a.more:
            out.append(
                f"<p>… and {a.more} more significant change{'s' if a.more != 1 else ''}: "
                'sort <a href="#rows-h">the table</a> by verdict or size.</p>'
            )
    out.append(f'<p class="note">{html.escape(legend(answer))}</p>')
    out.append("</section>")
    return "\n".join(out)


def _systems_section(answer: Answer) -> str:
    if not answer.systems:
        return ""
    head = ["system", "worse", "better", "same", "undecided", "not compared", "unknown direction"]
    head += ["one iteration", "geomean [95% CI]", "geomean over", "left out"]
    rows = []
    for a in answer.systems:
        g = "-" if a.geomean is None else f"{a.geomean:.3f}"
        if a.geomean is not None and a.geomean_low is not None and a.geomean_high is not None:
            g += f" [{a.geomean_low:.3f}, {a.geomean_high:.3f}]"
        cells: list[object] = [a.worse, a.better, a.same, a.other, a.missing, a.unknown]
        cells += [a.single_iteration, g, a.geomean_over or 0, a.geomean_left_out]
        rows.append(
            f"<tr><th scope=row>{esc(a.system)}</th>"
            + "".join(f'<td class="num">{esc(str(v))}</td>' for v in cells)
            + "</tr>"
        )
    return "\n".join(
        [
            '<section id="systems" aria-labelledby="systems-h">',
            f'<h2 id="systems-h">Per system against {esc(answer.reference)}</h2>',
            '<div class="scroll">',
            '<table class="summary">',
            "<thead><tr>" + "".join(f"<th scope=col>{h}</th>" for h in head) + "</tr></thead>",
            "<tbody>",
            *rows,
            "</tbody></table>",
            "</div>",
            '<p class="note">Counts of metrics by verdict. undecided: inconclusive under the '
            "practical threshold. not compared: no value of the reference, or none of the "
            "system's own (a benchmark missing in one of them), or no centre, or no test. "
            "unknown direction: nothing says whether lower or higher is better, so neither "
            "worse nor better is claimed. "
            "geomean: geometric mean of the ratios of centres, oriented so that above 1 is "
            "better, with a 95% Welch t interval on the suite summaries of each side's "
            "iterations (the geometric mean of each run of the suite); none with fewer than 3 "
            "iterations on a side, or iterations that are not runs of every metric. It is over "
            "the metrics in 'geomean over', of the whole comparison: it leaves out ('left "
            "out') metrics only one side has, without a ratio, of unknown direction, with one "
            "iteration on a side, duplicates of another metric of the same benchmark and "
            "constants, so its metrics are not those the counts beside it cover.</p>",
            "</section>",
        ]
    )


# -- the table ------------------------------------------------------------------------------
COLUMNS = [  # (heading, sort type)
    ("benchmark", "text"),
    ("metric", "text"),
    ("system", "text"),
    ("n", "num"),
    ("centre", "num"),
    ("95% CI", "num"),
    ("size", "num"),  # gain or change [95% CI]: the heading is set per page
    ("p", "num"),
    ("verdict", "verdict"),
    ("note", "text"),
]


# Fixed column widths: the browser lays the table out without measuring every cell, so
# opening, sorting and filtering stay quick with tens of thousands of rows.
COLGROUP = (
    "<colgroup>"
    + "".join(
        f'<col style="width:{w}">'
        for w in ("12%", "8%", "8%", "5%", "8%", "11%", "16%", "6%", "10%", "16%")
    )
    + "</colgroup>"
)


def _num_attr(x: float | None) -> str:
    return "" if x is None or not math.isfinite(x) else f' data-v="{x:.6g}"'


def _table_section(
    cmp: Comparison, metrics: list[_Metric], with_plot: set[int], percent: str
) -> str:
    p_key = "p_adjusted" if cmp.options.fdr else "p_welch"
    heads = []
    for i, (name, kind) in enumerate(COLUMNS):
        if name == "size":
            name = f"{size_word(percent)} [95% CI]"
        if name == "p":
            name = "p (BH)" if cmp.options.fdr else "p Welch"
        heads.append(
            f'<th scope="col" aria-sort="none"><button type="button" data-col="{i}" '
            f'data-type="{kind}">{esc(name)}<span class="arrow" aria-hidden="true"></span>'
            "</button></th>"
        )
    body = []
    singles = False  # a row of one iteration, not counted: its filter option then
    best = best_systems(cmp)
    for m in metrics:
        scale = m.scale
        metric_cell = esc(m.metric)
        if m.index in with_plot:
            metric_cell = f'<a href="#{m.anchor}">{metric_cell}</a>'
        for system, r in with_absent(cmp, m.rows):
            if r is None:  # the system has no values of the metric
                body.append(
                    f'<tr class="{_cls("n/a")}"><td>{esc(m.benchmark)}</td><td>{metric_cell}</td>'
                    f'<td>{esc(system)}</td><td class="num" data-v="0">0</td>'
                    + '<td class="num"></td>' * 4
                    + f"<td>{_verdict_html('n/a', ABSENT_WORDS)}</td><td>{ABSENT_NOTE}</td></tr>"
                )
                continue
            ref = r["is_reference"]
            ci = esc(scale.interval(r["ci_low"], r["ci_high"]))
            size = "" if ref else esc(size_cell(r, percent))
            size_v = None if ref else gain_value(r, percent)
            p = None if ref else r[p_key]
            n = f"{r['iterations']}×{_per_iteration(r)}"
            # a change on one iteration's samples that is not counted: filtered apart
            shown = "single" if uncounted(r, cmp) else r["verdict"]
            singles |= shown == "single"
            body.append(
                f'<tr class="{_cls(shown)}">'
                f"<td>{esc(m.benchmark)}</td>"
                f"<td>{metric_cell}</td>"
                f"<td>{esc(r['system'])}{_best_mark(best, m, r)}</td>"
                f'<td class="num" data-v="{r["iterations"]}">{n}</td>'
                f'<td class="num"{_num_attr(r["center"])}>{esc(scale.text(r["center"]))}</td>'
                f'<td class="num"{_num_attr(r["ci_low"])}>{ci}</td>'
                f'<td class="num"{_num_attr(size_v)}>{size}</td>'
                f'<td class="num"{_num_attr(p)}>{"" if ref else fmt_p(p)}</td>'
                f"<td>{_verdict_html(shown, r['words'])}</td>"
                f"<td>{esc(r['note'] or '')}</td>"
                "</tr>"
            )
    verdicts = [v for v in ("worse", "better", "changed", "same", "equivalent", "inconclusive")]
    verdicts += ["n/a", "reference"]
    label = {"n/a": ABSENT_WORDS}  # as the rows and the counts name it
    options = "".join(
        f'<option value="{_cls(v)}">{esc(label.get(v, v))}</option>' for v in verdicts
    )
    if singles:
        options += '<option value="single">one iteration, not counted</option>'

    return "\n".join(
        [
            '<section id="table" aria-labelledby="rows-h">',
            '<h2 id="rows-h">Every comparison</h2>',
            '<div class="controls" role="search">',
            '<label for="filter">Filter</label> <input type="search" id="filter" '
            'placeholder="benchmark, metric, system…" autocomplete="off">',
            '<label for="verdict-filter">Verdict</label> <select id="verdict-filter">'
            f'<option value="">any</option>{options}</select>',
            f'<output id="shown" aria-live="polite">{len(body)} rows</output>',
            '<button type="button" id="show-all" hidden>Show all rows</button>',
            "</div>",
            "<noscript><p>Sorting and filtering need JavaScript; the table below is "
            "complete without it.</p></noscript>",
            '<div class="scroll">',  # a narrow screen scrolls the table, not the page
            '<table id="rows" class="rows">',
            "<caption>Every system against "
            f"{esc(cmp.reference)}, one row per metric and system. Column headings sort "
            "(press again to reverse). "
            + esc(_methods(cmp))
            + (f" {esc(LEGEND)}" if best else "")
            + "</caption>",
            COLGROUP,
            "<thead><tr>" + "".join(heads) + "</tr></thead>",
            "<tbody>",
            *body,
            "</tbody></table>",
            "</div>",
            "</section>",
        ]
    )


def _methods(cmp: Comparison) -> str:
    """What made each column's number."""
    p = P_METHOD + (", Benjamini-Hochberg adjusted" if cmp.options.fdr else "")
    return (
        f"{centre_method(cmp)} {size_word(cmp.percent)}: from the ratio of the centres, with its "
        f"{SIZE_METHOD}. p: {p}."
    )


def _per_iteration(r: dict) -> str:
    its, n = r["iterations"], r["samples"]
    if not its:
        return "0"
    return str(n // its) if n % its == 0 else f"~{n / its:.1f}"


# -- the plots ------------------------------------------------------------------------------
W, H = 560, 230
LEFT, RIGHT, TOP, BOTTOM = 70, 12, 12, 46


def _finite(x: object) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def _best_mark(best: dict, m: _Metric, r: dict) -> str:
    """` ★` after the metric's best system (analysis/best.py), with its meaning on hover."""
    if best.get((m.benchmark, m.metric)) != r["system"]:
        return ""
    return f' <span title="{esc(LEGEND)}">{BEST}</span>'


def _plots_section(metrics: list[_Metric], with_plot: set[int], note: str, cmp: Comparison) -> str:
    out = [
        '<section id="plots" aria-labelledby="plots-h">',
        '<h2 id="plots-h">Per metric</h2>',
        '<p class="note">Dots: the per-iteration values of each system. Bar: the 95% '
        "interval of the system's centre, with a tick at the centre. The verdict is written "
        "under each system.</p>",
    ]
    if note:
        out.append(f'<p class="note" id="plot-note">{html.escape(note)}</p>')
    out += [_figure(m) for m in metrics if m.index in with_plot]
    out.append("</section>")
    return "\n".join(out)


def _figure(m: _Metric) -> str:
    direction = direction_words(m.better)
    mean = MEAN_LABEL.get(m.mean_kind or "", m.mean_kind or "")
    ticks = _ticks(m)
    # The axis in the unit its ticks read best in (`(µs)`), the ticks told apart.
    scale = scale_for(ticks, m.unit)
    caption = f"{scale.named(m.name)}: {mean}, {direction}"
    return (
        f'<figure id="{m.anchor}" class="plot">'
        f"<figcaption>{esc(caption)}</figcaption>"
        f"{_svg(m, caption, ticks, [scale.number(t) for t in ticks])}</figure>"
    )


def _ticks(m: _Metric) -> list[float]:
    ys = [v for r in m.rows for v in (r["iteration_values"] or []) if _finite(v)]
    ys += [r[c] for r in m.rows for c in ("ci_low", "ci_high", "center") if _finite(r[c])]
    if not ys:
        return []
    lo, hi = min(ys), max(ys)
    pad = (hi - lo) * 0.08 or abs(hi) * 0.01 or 1.0
    lo, hi = lo - pad, hi + pad
    return [lo + (hi - lo) * i / 4 for i in range(5)]


def _svg(m: _Metric, caption: str, ticks: list[float], labels: list[str]) -> str:
    label = esc(f"Per-iteration values and 95% intervals of {caption}")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="{label}">'
    )
    if not ticks:
        return head + f'<text x="{W / 2}" y="{H / 2}" class="axis">no values</text></svg>'
    lo, hi = ticks[0], ticks[-1]
    plot_h = H - TOP - BOTTOM

    def y(v: float) -> str:
        return f"{TOP + (hi - v) / (hi - lo) * plot_h:.1f}"

    parts = [head]
    for t, text in zip(ticks, labels, strict=True):
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{W - RIGHT}" y1="{y(t)}" y2="{y(t)}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{y(t)}" text-anchor="end" '
            f'dominant-baseline="middle">{text}</text>'
        )
    n = len(m.rows)
    col = (W - LEFT - RIGHT) / n
    for i, r in enumerate(m.rows):
        cx = LEFT + col * (i + 0.5)
        parts.append(f'<g class="sys {_cls(r["verdict"])}"><title>{_point_title(r, m)}</title>')
        values = [v for v in r["iteration_values"] or [] if _finite(v)]
        k = len(values)
        spread = min(col * 0.35, 60)
        for j, v in enumerate(values):
            x = cx - spread - 4 + (spread * j / (k - 1) if k > 1 else spread / 2)
            parts.append(f'<circle class="dot" cx="{x:.1f}" cy="{y(v)}" r="3"/>')
        bx = cx + 8
        if _finite(r["ci_low"]) and _finite(r["ci_high"]):
            parts.append(
                f'<line class="bar" x1="{bx:.1f}" x2="{bx:.1f}" '
                f'y1="{y(r["ci_low"])}" y2="{y(r["ci_high"])}"/>'
            )
        if _finite(r["center"]):
            parts.append(
                f'<line class="centre" x1="{bx - 7:.1f}" x2="{bx + 7:.1f}" '
                f'y1="{y(r["center"])}" y2="{y(r["center"])}"/>'
            )
        name = printable(r["system"])
        room = max(4, int(col / 7))
        shown = name if len(name) <= room else name[: room - 1] + "…"
        parts.append(
            f'<text class="label" x="{cx:.1f}" y="{H - BOTTOM + 18}" '
            f'text-anchor="middle">{html.escape(shown)}</text>'
            f'<text class="word" x="{cx:.1f}" y="{H - BOTTOM + 34}" '
            f'text-anchor="middle">{esc(r["words"])}</text></g>'
        )
    parts.append(
        f'<line class="axis-line" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}"/></svg>'
    )
    return "".join(parts)


def _point_title(r: dict, m: _Metric) -> str:
    text = f"{r['system']}: centre {m.scale.text(r['center'])}, verdict {r['verdict']}"
    return esc(text)
