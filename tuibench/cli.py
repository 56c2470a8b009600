"""Command line: `tuibench PATH...` (the explorer), `tuibench report`, `tuibench inspect`.

Textual is imported only when the explorer starts, so `report` and `inspect` run headless.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shlex
import sys
from pathlib import Path

# polars' allocator (jemalloc) keeps freed pages for seconds, where numpy's allocations
# cannot reuse them: at 10^7 samples the text columns of a file read once stayed resident
# beside the analysis (peak 1.25 to 1.54 GB; with pages returned after 0.1 s, 1.0 to 1.15 GB
# at the same speed). Read when polars loads, so set before any command imports it. A value
# given by the user stands; polars' own default, which a process started from one that
# imported polars inherits, does not.
POLARS_JEMALLOC_DEFAULT = "dirty_decay_ms:500,muzzy_decay_ms:1000"
if os.environ.get("_RJEM_MALLOC_CONF", "") in ("", POLARS_JEMALLOC_DEFAULT):
    os.environ["_RJEM_MALLOC_CONF"] = "dirty_decay_ms:100,muzzy_decay_ms:0"
    # Under `ulimit -v` address space is the budget: jemalloc then gives back what it
    # freed instead of keeping it mapped (a report mapped 8 GB with it kept, 4.35 without).
    from tuibench.core.memory_limits import address_space_limited

    if address_space_limited():
        os.environ["_RJEM_MALLOC_CONF"] += ",retain:false"

# glibc's malloc (numpy's arrays) maps every allocation above 32 MB afresh and unmaps it when
# freed: each temporary of 10^7 values costs page faults on zeroed pages, and a 10 M-sample
# report spent 1.3 to 1.9 s of its 3.3 s in the kernel. Serving them from the heap and keeping
# freed memory for the next ones: 2.7 to 2.9 s, the same peak (the arrays alive at the peak
# are the same). For `report` only: a one-shot process (the explorer would keep its
# largest heap for good). Settings the user gave (environment) stand.
GLIBC_MALLOC_SETTINGS = ("MALLOC_MMAP_MAX_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")
M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4  # mallopt parameters (malloc.h)


def _reuse_freed_heap() -> bool:
    """Large allocations from glibc's heap, freed memory kept; whether it was set."""
    if any(k in os.environ for k in GLIBC_MALLOC_SETTINGS) or "glibc.malloc" in os.environ.get(
        "GLIBC_TUNABLES", ""
    ):
        return False
    import ctypes

    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
        mallopt = ctypes.CDLL(None).mallopt
    except (ValueError, OSError, AttributeError):  # no such name here: not glibc
        return False
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, 1 << 30))


EXIT_OK, EXIT_REGRESSION, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_UNDECIDED = 3  # `decide`: run more iterations


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2 with the reason on stderr
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _alpha(text: str) -> float:
    from tuibench.core.options import alpha_problem

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text}") from None
    if why := alpha_problem(v):
        raise argparse.ArgumentTypeError(f"{why}, not {text}")
    return v


def _percent(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text}") from None
    if not 0 < v < 100:
        raise argparse.ArgumentTypeError(f"threshold must be between 0 and 100 (%), not {text}")
    return v


def _name(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def _whole(text: str) -> int:
    """A whole number, said so when it is not (argparse would name this function)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text}") from None


def _positive(text: str) -> int:
    v = _whole(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return v


MAX_SUBSELECTIONS = 10_000  # = stats.MAX_SUBSELECTIONS (not imported: numpy is slow to load)


def _subselections(text: str) -> int:
    v = _positive(text)
    if v > MAX_SUBSELECTIONS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_SUBSELECTIONS:,} (the time taken grows with B), not {text}"
        )
    return v


MAX_SEED = 2**64 - 1  # the draws take the seed as a 64-bit word


def _seed(text: str) -> int:
    v = _whole(text)
    if not 0 <= v <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2^64 - 1, not {text}")
    return v


STATS = ("min", "max", "stddev", "coeffvar", "bmean95")


def _stat_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in STATS]
    if bad:
        raise argparse.ArgumentTypeError(
            f"unknown statistic(s) {', '.join(bad)}; choose from {','.join(STATS)}"
        )
    return names


class _TrimAlias(argparse.Action):
    """--trim-outliers: --iteration-value trimmed under its old name."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        namespace.iteration_value = "trimmed"
        namespace.trim_outliers = True


def _reference_of(rs, args: argparse.Namespace) -> str | None:
    """The reference to compare against, or None (said on stderr) when nothing loaded or
    the one asked for is not a system."""
    if rs.empty:
        _say("tuibench: nothing could be loaded from " + " ".join(args.paths))
        return None
    reference = args.reference or rs.default_reference
    if reference not in rs.system_names:
        _say(
            f"tuibench: unknown reference {reference!r}; systems are: " + ", ".join(rs.system_names)
        )
        return None
    return reference


def _reference_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reference",
        type=_name,
        metavar="NAME",
        help="system to compare against (default: the first system)",
    )


def _subselection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--subselections",
        type=_subselections,
        default=100,
        metavar="B",
        help="subselections per iteration for the robust value (default 100, at most 10,000)",
    )
    p.add_argument("--seed", type=_seed, default=0, help="seed of the subselections (default 0)")


def _stat_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="results folder (one sub-folder per system), a tidy file with a "
        "system column, or several paths, each one system",
    )
    _reference_option(p)
    p.add_argument("--alpha", type=_alpha, default=0.05, help="significance level (default 0.05)")
    _subselection_options(p)
    p.add_argument(
        "--fdr",
        action="store_true",
        help="judge significance on Benjamini-Hochberg adjusted p-values (false discovery "
        "rate over all compared rows) instead of raw Welch p-values",
    )
    p.add_argument(
        "--threshold",
        type=_percent,
        metavar="PCT",
        help="practical margin in percent: verdicts become worse, better, equivalent or "
        "inconclusive from the change's 95%% interval against +/-PCT (default: off)",
    )
    p.add_argument(
        "--iteration-value",
        choices=["subselection", "mean", "median", "trimmed"],
        default="subselection",
        help="what stands for an iteration: subselection (median of subset means, "
        "mmtests' method; default), mean, median (robust to outlying samples), or trimmed "
        "(the mean inside the 1.5 IQR Tukey fences)",
    )
    p.set_defaults(trim_outliers=False)
    p.add_argument(
        "--trim-outliers",
        action=_TrimAlias,
        nargs=0,
        help="the same as --iteration-value trimmed: drop samples outside the 1.5 IQR Tukey "
        "fences of their iteration before computing anything (the untrimmed centre is "
        "kept beside)",
    )
    p.add_argument(
        "--percent",
        choices=["gain", "change"],
        default="gain",
        help="sizes as the gain (positive = better, as mmtests prints them; default) or the "
        "signed change (positive = a bigger number)",
    )
    p.add_argument(
        "--trust-single-iteration",
        action="store_true",
        help="count significant changes where a side has a single iteration as better or "
        "worse (by default they are marked and left out of the counts, the summary and "
        "--fail-on-regression: a test on one process's samples raises false alarms)",
    )


def report_parser() -> argparse.ArgumentParser:
    from tuibench.core.output_formats import FORMATS

    p = _Parser(
        prog="tuibench report",
        description="Compare every system against a "
        "reference and print the table (headless: for scripts and CI).",
    )
    _stat_options(p)
    p.add_argument("--benchmark", type=_name, metavar="GLOB", help="only benchmarks matching GLOB")
    p.add_argument("--metric", type=_name, metavar="GLOB", help="only metrics matching GLOB")
    p.add_argument(
        "--only-significant",
        action="store_true",
        help="only metrics where some system changed significantly",
    )
    p.add_argument(
        "--stats",
        type=_stat_list,
        default=[],
        metavar="LIST",
        help="add mmtests' spread rows to the text-layout tables, comma-separated from "
        "min,max,stddev,coeffvar,bmean95",
    )
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout (`-`: stdout)")
    p.add_argument(
        "--fail-on-regression",
        action="store_true",
        help="exit 1 when some change is significantly worse (with --series: when the "
        "last system starts a significantly worse level)",
    )
    p.add_argument(
        "--series",
        action="store_true",
        help="treat the systems, in their order, as a series: list where each metric "
        "changed level (change points) and rank the systems",
    )
    return p


def explorer_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tuibench",
        description="Explore benchmark results in the terminal. "
        "Also: `tuibench report` (headless table), `tuibench inspect` (what was read).",
    )
    _stat_options(p)
    p.add_argument(
        "--export-dir",
        metavar="DIR",
        default=".",
        help="where exported tables go (default: the current directory)",
    )
    p.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    p.add_argument("--theme", metavar="NAME", help="Textual theme (e.g. textual-light)")
    return p


def inspect_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tuibench inspect",
        description="Show, per system, each file with its "
        "detected format, what it holds, and every problem.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    return p


def decide_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tuibench decide",
        description="Say, for each metric and system against the reference, whether the "
        "iterations so far settle it (worse, better, same within +/-PCT %) or how many more "
        "would likely; valid when asked after every iteration. Exit 0: all decided, none "
        "worse; 1: a regression is decided; 3: something is undecided (run more).",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    _reference_option(p)
    p.add_argument("--alpha", type=_alpha, default=0.05, help="error rate (default 0.05)")
    p.add_argument(
        "--threshold",
        type=_percent,
        default=2.0,
        metavar="PCT",
        help="practical margin: `same` when the ratio's interval is within +/-PCT %% (default 2)",
    )
    p.add_argument(
        "--max-iterations",
        type=_positive,
        metavar="N",
        help="once a system of a metric has N iterations, its undecided rows get a "
        "fixed-sample verdict (default: none)",
    )
    p.add_argument(
        "--iteration-value",
        choices=["subselection", "mean", "median", "trimmed"],
        default="subselection",
        help="what stands for an iteration (as in `tuibench report`; default subselection)",
    )
    _subselection_options(p)
    p.add_argument(
        "--format", choices=("text", "markdown", "json"), default="text", help="(default text)"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Run a command; whatever goes wrong, one line on stderr and an exit code a CI gate can
    trust: 1 only ever means "regression found", an error is 2."""
    try:
        code = _dispatch(argv)
        _flush_stdout()  # a full disk or a closed pipe shows here, not at interpreter exit
        return code
    except _StdoutError as exc:
        _abandon_stdout()
        _say(f"tuibench: cannot write to standard output: {_one_line(exc.__cause__ or exc)}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _abandon_stdout()
        _say("tuibench: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        _abandon_stdout()
        return EXIT_USAGE
    except MemoryError:
        _abandon_stdout()
        _say("tuibench: out of memory (the results are too large for this machine)")
        return EXIT_USAGE
    except OSError as exc:
        _abandon_stdout()
        _say(f"tuibench: {_one_line(exc)}")
        return EXIT_USAGE
    except Exception as exc:  # a bug: still one line, and never exit 1
        _abandon_stdout()
        _say(f"tuibench: internal error: {type(exc).__name__}: {_one_line(exc)}")
        return EXIT_USAGE


def run() -> None:
    """The `tuibench` command: `main`, then out without the interpreter's teardown. `main`
    has flushed stdout (a failure to is told and sets the code) and stderr is written line
    by line; freeing every module, array and polars' thread pool one by one took 50 ms of
    a 0.35 s report, and more with large results, for nothing anyone sees.

    Two numpy settings, unless the user gave them (both read when numpy loads, after this):
    - BLAS on one thread: the statistics make many small matrix products, where a second
      BLAS thread only spins (`stats.one_blas_thread` holds it to one for large inputs in
      process too);
    - no transparent huge pages asked for large arrays: where the kernel compacts memory
      to find them (`defrag` set to `madvise`, the usual setting) a page fault can stall,
      and a 10 M-sample report took 2.26 to 2.74 s run to run with them, 2.35 to 2.46 s
      without (user time the same)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    os._exit(main())


class _StdoutError(Exception):
    """Writing to stdout failed (not a closed pipe): e.g. `> /dev/full`."""


def _emit(text: str | list[bytes | memoryview]) -> None:
    """Write `text`, or UTF-8 pieces of it (a JSON report), to standard output."""
    if sys.stdout is None:  # started with stdout closed
        raise _StdoutError("it is closed")
    try:
        if isinstance(text, str):
            sys.stdout.write(text)
        elif (binary := getattr(sys.stdout, "buffer", None)) is not None:
            sys.stdout.flush()
            binary.writelines(text)
        else:
            sys.stdout.write(b"".join(text).decode())
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _StdoutError from exc


def _flush_stdout() -> None:
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _StdoutError from exc


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _abandon_stdout() -> None:
    """Drop what is still buffered for stdout, which failed or was closed, so that the
    interpreter's final flush neither fails again nor prints a traceback."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (tests)
        pass


def _dispatch(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "report":
        return report(report_parser().parse_args(argv[1:]))
    if argv and argv[0] == "inspect":
        return inspect(inspect_parser().parse_args(argv[1:]))
    if argv and argv[0] == "decide":
        return decide(decide_parser().parse_args(argv[1:]))
    return explore(explorer_parser().parse_args(argv))


def _say(message: str) -> None:
    """One line for a person on stderr; names in it are data and shown escaped."""
    from tuibench.core.text import printable

    if sys.stderr is None:  # started with stderr closed: print() would use stdout
        return
    with contextlib.suppress(OSError):  # stderr is gone too: the exit code is all that is left
        print(printable(message), file=sys.stderr, flush=True)


def _missing_paths(paths: list[str]) -> bool:
    """Say which given paths do not exist. A mistyped system path is a usage error, not a
    problem to load around: a report of the other systems alone would pass a CI gate."""
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        _say("tuibench: no such file or folder: " + ", ".join(missing))
    return bool(missing)


def _print_problems(problems: list) -> None:
    """Each problem on a line; past a few hundred, the first ones and counts by kind."""
    from tuibench.core.problem_summary import summarise

    summary = summarise(problems)
    for p in summary.listed:
        _say(f"tuibench: problem: {p}")
    for line in summary.lines():
        _say(f"tuibench: {line}")


def _print_set_aside(items: list) -> None:
    from tuibench.core.set_aside import set_aside_line

    if line := set_aside_line(items):
        _say(f"tuibench: {line} (`tuibench inspect PATH` lists them)")


def _linked(output: str, rs) -> str | None:
    """A file the results link to is theirs, also when the link was refused (outside)."""
    real = os.path.realpath(output)
    for p in rs.problems:
        if os.path.islink(p.path) and os.path.realpath(p.path) == real:
            return f"{p.path} in the results links to it: tuibench never writes over results"
    return None


def _output_refusal(output: str, paths: list[str], files: list | None = None) -> str | None:
    from tuibench.core.output_paths import output_refusal

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
    from tuibench.core.reference import chosen_by_name, reference_note

    reference = args.reference or rs.default_reference
    if not chosen_by_name(rs, reference, args.reference):
        return []
    return reference_note(rs, reference)


def _warnings(cmp, whole) -> list[str]:
    """What the verdicts of each system must be read with (not robust, two iterations, a
    direction its name contradicts, chance), as the answer says it."""
    from tuibench.core.answer import build_answer, warning_lines
    from tuibench.core.text import printable

    answer = build_answer(cmp, limit=0, whole=whole)
    lines = []
    for a in answer.systems:
        if said := warning_lines(a, answer):
            head = printable(f"{a.system} vs {answer.reference}:")
            lines += [head, *(f"  {w}" for w in said)]
    return lines


def report(args: argparse.Namespace) -> int:
    from tuibench.core.compare import Analysis
    from tuibench.core.export import render, report_json_parts, write_atomic
    from tuibench.core.load import load
    from tuibench.core.output_paths import means_stdout
    from tuibench.core.tables import rows_table, summary_table, system_summary_table

    if _missing_paths(args.paths):
        return EXIT_USAGE
    if args.output is not None and means_stdout(args.output):
        args.output = None  # `-` and /dev/stdout: standard output, never a path to resolve
    if args.output is not None and (why := _output_refusal(args.output, args.paths)):
        _say(f"tuibench: will not write {args.output}: {why}")
        return EXIT_USAGE
    _reuse_freed_heap()
    rs = load(args.paths)
    _print_problems(rs.problems)
    _print_set_aside(rs.set_aside)
    if args.output is not None and (
        why := _output_refusal(args.output, args.paths, rs.files) or _linked(args.output, rs)
    ):
        _say(f"tuibench: will not write {args.output}: {why}")
        return EXIT_USAGE
    reference = _reference_of(rs, args)
    if reference is None:
        return EXIT_USAGE
    analysis = Analysis(rs, args.subselections, args.seed, iteration_value=args.iteration_value)
    args.trim_outliers = args.iteration_value == "trimmed"
    cmp = analysis.compare(
        reference,
        args.alpha,
        fdr=args.fdr,
        threshold=args.threshold,
        trust_single_iteration=args.trust_single_iteration,
    )
    cmp = dataclasses.replace(cmp, percent=args.percent)
    if args.benchmark or args.metric:  # unfiltered, the rows and their verdicts stand
        cmp = cmp.filter(args.benchmark, args.metric)
    if why := _nothing_matches(cmp, args.benchmark, args.metric):
        _say(f"tuibench: {why}")
        return EXIT_USAGE
    matching = cmp  # the series' family: every matching metric, whatever changed
    if args.only_significant:  # the family stays the matching rows: see Comparison.filter
        cmp = cmp.filter(only_significant=True)
    series = None
    if args.series:
        from tuibench.core.series.report import render_series, series_report

        series = series_report(analysis, matching, args.alpha)
        text = render_series(series, args.format, rs.problems)
    elif args.format == "json":
        text = report_json_parts(cmp, rs.problems)
    elif args.format in ("csv", "tsv"):
        text = render(rows_table(cmp), args.format)
    elif args.format in ("markdown", "latex", "html"):
        from tuibench.core.shareable import Shareable, render_shareable, run_facts

        facts = run_facts(args.paths, args.subselections, args.seed)
        whole = matching if args.only_significant else None  # counts over every metric
        share = Shareable(cmp, "", facts=facts, whole=whole, heads=_reference_note(rs, args))
        text = render_shareable(share, args.format)
    else:
        tables = [summary_table(cmp, extra_stats=args.stats)]
        if len(cmp.systems) > 1 and cmp.rows.height:
            tables.append(system_summary_table(cmp))
        heads = [*_reference_note(rs, args), *_warnings(cmp, matching)]
        text = "".join(f"{line}\n" for line in heads) + ("\n" if heads else "")
        text += render(tables, args.format)
    if args.output is not None:
        try:
            path = write_atomic(Path(args.output), text, overwrite=True)
        except OSError as exc:
            _say(f"tuibench: cannot write {args.output}: {exc}")
            return EXIT_USAGE
        _say(f"tuibench: wrote {path}")
    else:
        _emit(text)
    if args.fail_on_regression and series is not None and series.regressions:
        _say(f"tuibench: {series.regressions} worse level(s) starting at the last system")
        return EXIT_REGRESSION
    if args.fail_on_regression and series is None and cmp.regressions:
        _say(f"tuibench: {cmp.regressions} significant regression(s)")
        return EXIT_REGRESSION
    return EXIT_OK


def decide(args: argparse.Namespace) -> int:
    from tuibench.core.compare import Analysis
    from tuibench.core.load import load
    from tuibench.core.stopping import decide_rows
    from tuibench.core.stopping_output import render_decision, summary_line

    if _missing_paths(args.paths):
        return EXIT_USAGE
    rs = load(args.paths)
    _print_problems(rs.problems)
    _print_set_aside(rs.set_aside)
    reference = _reference_of(rs, args)
    if reference is None:
        return EXIT_USAGE
    analysis = Analysis(rs, args.subselections, args.seed, iteration_value=args.iteration_value)
    dec = decide_rows(analysis.groups, reference, args.alpha, args.threshold, args.max_iterations)
    if not dec.rows.height:  # nothing decided is no reason to stop a loop
        _say(f"tuibench: nothing to compare with {reference!r}: decide needs a second system")
        return EXIT_USAGE
    _emit(render_decision(dec, args.format, rs.problems))
    _say(f"tuibench: vs {reference}: {summary_line(dec)}")
    if dec.regressions:
        return EXIT_REGRESSION
    return EXIT_UNDECIDED if dec.undecided else EXIT_OK


def inspect(args: argparse.Namespace) -> int:
    from tuibench.core.load import load
    from tuibench.core.set_aside import set_aside_line
    from tuibench.core.text import printable

    def out(line: str) -> None:  # every line holds names: show them escaped
        _emit(printable(line) + "\n")

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
                f"{f.iterations} iteration(s), {f.samples} sample(s) in all"
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
    if rs.set_aside:
        out("set aside, not results")
        for a in rs.set_aside:
            out(f"  {a.path}: {a.reason}")
    total = rs.samples.height
    aside = f", {len(rs.set_aside)} set aside" if rs.set_aside else ""
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


ESCDELAY_MS = 25


def explore(args: argparse.Namespace) -> int:
    if _missing_paths(args.paths):  # said here, before the screen is taken
        return EXIT_USAGE
    if not _is_terminal():
        _say(
            "tuibench: the explorer needs a terminal; for a table on stdout use "
            f"`{shlex.join(['tuibench', 'report', *args.paths])}`"
        )
        return EXIT_USAGE
    # A lone escape: Textual waits ESCDELAY ms for the rest of a key's sequence (100 by
    # default, read when Textual loads). A key's bytes arrive together, even over SSH;
    # 25 ms makes escape act at once. The user's ESCDELAY wins.
    os.environ.setdefault("ESCDELAY", str(ESCDELAY_MS))
    from tuibench.tui.app import run

    args.trim_outliers = args.iteration_value == "trimmed"
    return run(args)
