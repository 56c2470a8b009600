"""The commands: `report`, `decide`, `inspect` and the explorer."""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
from collections.abc import Iterable
from pathlib import Path

from tuibench import process_settings
from tuibench.cli.arguments import analysis_options, view_options
from tuibench.cli.console import (
    EXIT_INCONCLUSIVE,
    EXIT_OK,
    EXIT_REGRESSION,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    emit,
    say,
)


def _reference_of(rs, args: argparse.Namespace) -> str | None:
    """The reference to compare against, or None (said on stderr) when nothing loaded or
    the one asked for is not a system."""
    if rs.empty:
        say("tuibench: nothing could be loaded from " + " ".join(args.paths))
        return None
    reference = args.reference or rs.default_reference
    if reference not in rs.system_names:
        say(
            f"tuibench: unknown reference {reference!r}; systems are: " + ", ".join(rs.system_names)
        )
        return None
    return reference


def _missing_paths(paths: list[str]) -> bool:
    """Say which given paths do not exist. A mistyped system path is a usage error, not a
    problem to load around: a report of the other systems alone would pass a CI gate."""
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        say("tuibench: no such file or folder: " + ", ".join(missing))
    return bool(missing)


def _print_problems(problems: list) -> None:
    """Each problem on a line; past a few hundred, the first ones and counts by kind."""
    from tuibench.present.problem_summary import summarise

    summary = summarise(problems)
    for p in summary.listed:
        say(f"tuibench: problem: {p}")
    for line in summary.lines():
        say(f"tuibench: {line}")


def _print_set_aside(items: list) -> None:
    from tuibench.model.set_aside import set_aside_line

    if line := set_aside_line(items):
        say(f"tuibench: {line} (`tuibench inspect PATH` lists them)")


def _linked(output: str, rs) -> str | None:
    """A file the results link to is theirs, also when the link was refused (outside)."""
    real = os.path.realpath(output)
    for p in rs.problems:
        if os.path.islink(p.path) and os.path.realpath(p.path) == real:
            return f"{p.path} in the results links to it: tuibench never writes over results"
    return None


def _output_refusal(output: str, paths: list[str], files: list | None = None) -> str | None:
    from tuibench.output.paths import output_refusal

    return output_refusal(output, paths, input_files=[f.path for f in files or ()])


def _nothing_matches(cmp, benchmark: str | None, metric: str | None) -> str | None:
    """What --benchmark/--metric matched nothing of, or None: an empty table is no answer."""
    if cmp.rows.height or not (benchmark or metric):
        return None
    if benchmark and metric:
        what = f"no metric matches both --benchmark {benchmark!r} and --metric {metric!r}"
    elif benchmark:
        what = f"no benchmark matches --benchmark {benchmark!r}"
    else:
        what = f"no metric matches --metric {metric!r}"
    return what + " (`tuibench inspect PATH` lists what was read)"


def _reference_note(rs, args: argparse.Namespace) -> list[str]:
    """What the report's header says when the reference is first only by its name."""
    from tuibench.analysis.reference import chosen_by_name, reference_note

    reference = args.reference or rs.default_reference
    if not chosen_by_name(rs, reference, args.reference):
        return []
    return reference_note(rs, reference)


def _answer_heads(cmp, whole) -> list[str]:
    """Each system's counts as the answer gives them (the Markdown and HTML reports' too),
    then what its verdicts must be read with (not robust, two iterations, a direction its
    name contradicts, chance)."""
    from tuibench.present.answer import build_answer, counts_text, warning_lines

    answer = build_answer(cmp, limit=0, whole=whole)
    lines = []
    for a in answer.systems:
        lines += [counts_text(a, answer.reference), *(f"  {w}" for w in warning_lines(a, answer))]
    return lines


def report(args: argparse.Namespace) -> int:
    process_settings.reuse_freed_heap()  # before any thread allocates (one arena)
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.output.export import render, report_json_parts, write_atomic
    from tuibench.output.paths import means_stdout
    from tuibench.present.systems_table import system_summary_table
    from tuibench.present.tables import summary_table

    if _missing_paths(args.paths):
        return EXIT_USAGE
    if args.output is not None and means_stdout(args.output):
        args.output = None  # `-` and /dev/stdout: standard output, never a path to resolve
    if args.output is not None and (why := _output_refusal(args.output, args.paths)):
        say(f"tuibench: will not write {args.output}: {why}")
        return EXIT_USAGE
    rs = load(args.paths)
    _print_problems(rs.problems)
    _print_set_aside(rs.set_aside)
    if args.output is not None and (
        why := _output_refusal(args.output, args.paths, rs.files) or _linked(args.output, rs)
    ):
        say(f"tuibench: will not write {args.output}: {why}")
        return EXIT_USAGE
    reference = _reference_of(rs, args)
    if reference is None:
        return EXIT_USAGE
    analysis = Analysis(rs, analysis_options(args))
    cmp = analysis.compare(reference).reference_first()  # the tables' order
    cmp = dataclasses.replace(cmp, percent=args.percent)
    if args.benchmark or args.metric:  # unfiltered, the rows and their verdicts stand
        cmp = cmp.filter(args.benchmark, args.metric)
    if why := _nothing_matches(cmp, args.benchmark, args.metric):
        say(f"tuibench: {why}")
        return EXIT_USAGE
    matching = cmp  # the series' family: every matching metric, whatever changed
    if args.only_significant:  # the family stays the matching rows: see Comparison.filter
        cmp = cmp.filter(only_significant=True)
    series = None
    text: str | Iterable[bytes | memoryview]
    if args.series:
        from tuibench.output.series_report import render_series, series_report

        series = series_report(analysis, matching, args.alpha)
        text = render_series(series, args.format, rs.problems)
    elif args.format == "json":
        text = report_json_parts(cmp, rs.problems)
    elif args.format != "text":  # csv, tsv, markdown, latex, html: as the explorer exports
        from tuibench.output.rendering import render_shareable
        from tuibench.output.shareable import Shareable, run_facts

        facts = run_facts(args.paths, args.subselections, args.seed)
        whole = matching if args.only_significant else None  # counts over every metric
        share = Shareable(cmp, "", facts=facts, whole=whole, heads=_reference_note(rs, args))
        text = render_shareable(share, args.format)
    else:
        tables = [summary_table(cmp, extra_stats=args.stats)]
        if len(cmp.systems) > 1 and cmp.rows.height:
            tables.append(system_summary_table(cmp))
        heads = [*_reference_note(rs, args), *_answer_heads(cmp, matching)]
        text = "".join(f"{line}\n" for line in heads) + ("\n" if heads else "")
        text += render(tables, args.format)
    if args.output is not None:
        try:
            path = write_atomic(Path(args.output), text, overwrite=True)
        except OSError as exc:
            say(f"tuibench: cannot write {args.output}: {exc}")
            return EXIT_USAGE
        say(f"tuibench: wrote {path}")
    else:
        emit(text)
    if args.fail_on_regression and series is not None and series.regressions:
        say(f"tuibench: {series.regressions} worse level(s) starting at the last system")
        return EXIT_REGRESSION
    if args.fail_on_regression and series is None and cmp.regressions:
        say(f"tuibench: {cmp.regressions} significant regression(s)")
        return EXIT_REGRESSION
    return EXIT_OK


def decide(args: argparse.Namespace) -> int:
    from tuibench.analysis.compare import Analysis
    from tuibench.analysis.stopping import decide_rows
    from tuibench.ingest.load import load
    from tuibench.output.stopping import render_decision, summary_line

    if _missing_paths(args.paths):
        return EXIT_USAGE
    rs = load(args.paths)
    _print_problems(rs.problems)
    _print_set_aside(rs.set_aside)
    reference = _reference_of(rs, args)
    if reference is None:
        return EXIT_USAGE
    analysis = Analysis(rs, analysis_options(args))
    dec = decide_rows(analysis.groups, reference, args.alpha, args.threshold, args.max_iterations)
    if not dec.rows.height:  # nothing decided is no reason to stop a loop
        say(f"tuibench: nothing to compare with {reference!r}: decide needs a second system")
        return EXIT_USAGE
    emit(render_decision(dec, args.format, rs.problems))
    say(f"tuibench: vs {reference}: {summary_line(dec)}")
    if dec.regressions:
        return EXIT_REGRESSION
    if dec.undecided:  # run more: those still to come may settle it
        return EXIT_UNDECIDED
    return EXIT_INCONCLUSIVE if dec.inconclusive else EXIT_OK


def _iterations_of(f) -> str:
    """A file's iterations, per system when it holds several (each its own iterations)."""
    if f.systems < 2:
        return f"{f.iterations} iteration(s)"
    most, fewest = f.iterations, f.fewest_iterations
    count = f"{fewest}-{most}" if fewest != most else f"{most}"
    return f"{count} iteration(s) per system, {f.systems} systems"


def inspect(args: argparse.Namespace) -> int:
    from tuibench.ingest.load import load
    from tuibench.model.set_aside import CONFIGURATION, set_aside_line
    from tuibench.util.text import printable

    def out(line: str) -> None:  # every line holds names: show them escaped
        emit(printable(line) + "\n")

    if _missing_paths(args.paths):
        return EXIT_USAGE
    rs = load(args.paths)
    by_system: dict[str, list] = {}
    for f in rs.files:
        by_system.setdefault(f.system, []).append(f)
    for name in [*rs.system_names, *(s for s in by_system if s not in rs.system_names)]:
        files = by_system.get(name, [])
        info = next((s for s in rs.systems if s.name == name), None)
        desc = f" — {info.description}" if info and info.description else ""
        out(f"{name}{desc}")
        if info and info.metadata:
            out("  " + ", ".join(f"{k}: {v}" for k, v in list(info.metadata.items())[:8]))
        for f in files:
            out(f"  {f.path}")
            out(
                f"    {f.format}: {f.benchmarks} benchmark(s), {f.metrics} metric(s), "
                f"{_iterations_of(f)}, {f.samples} sample(s) in all"
            )
            for p in f.problems:
                where = f" line {p.line}" if p.line else ""
                where += f" at {p.where}" if p.where else ""
                out(f"    problem{where}: {p.reason}")
    file_problems = {id(p) for f in rs.files for p in f.problems}
    others = [p for p in rs.problems if id(p) not in file_problems]
    if others:
        out("other problems")
        for p in others:
            out(f"  {p}")
    settings = [a for a in rs.set_aside if a.kind == CONFIGURATION]
    aside_files = [a for a in rs.set_aside if a.kind != CONFIGURATION]
    for heading, items in (("settings", settings), ("set aside, not results", aside_files)):
        if items:
            out(heading)
            for a in items:
                out(f"  {a.path}: {a.reason}")
    total = rs.samples.height
    # Settings are read (listed above), not set aside: the count is of the others.
    aside = f", {len(aside_files)} set aside" if aside_files else ""
    if aside and (line := set_aside_line(rs.set_aside)):
        aside += f" ({line})"
    out(
        f"{len(rs.system_names)} system(s), {len(rs.files)} file(s), {total} sample(s), "
        f"{len(rs.problems)} problem(s){aside}"
    )
    return EXIT_OK if total else EXIT_USAGE


def _is_terminal() -> bool:
    """Keys come from stdin and the screen goes to stdout: both must be a terminal that can
    draw (TERM=dumb cannot)."""
    try:
        ttys = sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False
    return ttys and os.environ.get("TERM") != "dumb"


ESCDELAY_MS = 10  # as tmux (3.5 on) waits after an escape by default


def _picture(session, rs, view) -> bytes | None:
    """The first screen's picture, made in load_ahead's child (tui/content/picture.py)."""
    from tuibench.tui.content.picture import encoded

    return encoded(session, rs, view)


def explore(args: argparse.Namespace) -> int:
    if _missing_paths(args.paths):  # said here, before the screen is taken
        return EXIT_USAGE
    if not _is_terminal():
        say(
            "tuibench: the explorer needs a terminal; for a table on stdout use "
            f"`{shlex.join(['tuibench', 'report', *args.paths])}`"
        )
        return EXIT_USAGE
    # A lone escape: Textual waits ESCDELAY ms for the rest of a key's sequence (100 by
    # default, read when Textual loads). A key's bytes arrive together, even over SSH;
    # 10 ms makes escape act at once. The user's ESCDELAY wins.
    os.environ.setdefault("ESCDELAY", str(ESCDELAY_MS))
    options = analysis_options(args)
    process_settings.pause_collection()  # until the loading thread has its modules
    process_settings.return_freed_heap()
    from tuibench.tui.terminal import first_frame
    from tuibench.tui.view import load_ahead, read_ahead

    shown = view_options(args)
    # --decide / --follow show their decisions first: no picture of the answer for them
    picture = None if shown.decide or shown.follow else _picture
    load_ahead.start(args.paths, options, shown, picture)  # before any thread starts
    read_ahead.start(args.paths, options)  # the cache is read while Textual loads
    first_frame.start(args.paths, options, shown)  # a reopen's frame, checked meanwhile
    from tuibench.tui.app import run

    return run(list(args.paths), options, shown)
