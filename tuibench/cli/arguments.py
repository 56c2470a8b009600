"""The command line's arguments: types that refuse bad values, the parsers, and the
options built once from them (`analysis_options`, `view_options`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import NoReturn

from tuibench.cli.console import EXIT_USAGE
from tuibench.model.options import AnalysisOptions, ViewOptions

MAX_SEED = 2**64 - 1  # the draws take the seed as a 64-bit word


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2 with the reason on stderr
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _alpha(text: str) -> float:
    from tuibench.model.options import alpha_problem

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


class _NoCache(argparse.Action):
    """`--no-cache`: this process neither reads nor writes the cache of loaded results."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from tuibench.ingest.reuse import cache

        cache.turn_off()
        setattr(namespace, self.dest, True)


class _TrimAlias(argparse.Action):
    """--trim-outliers: --iteration-value trimmed under its old name."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        namespace.iteration_value = "trimmed"


def analysis_options(args: argparse.Namespace) -> AnalysisOptions:
    """The options that change numbers, built once from any command's arguments (those a
    command does not take keep their defaults)."""
    names = {f.name for f in dataclasses.fields(AnalysisOptions)}
    return AnalysisOptions(**{k: v for k, v in vars(args).items() if k in names})


def view_options(args: argparse.Namespace) -> ViewOptions:
    """How the explorer shows results, from its arguments."""
    return ViewOptions(
        reference=args.reference,
        percent=args.percent,
        export_dir=args.export_dir,
        theme=args.theme,
        mouse=not args.no_mouse,
        follow=args.follow,
        decide=args.decide,
    )


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


def _cache_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-cache",
        action=_NoCache,
        nargs=0,
        default=False,
        help="neither use nor write the cache of loaded results (in the user's cache folder)",
    )


def report_parser() -> argparse.ArgumentParser:
    from tuibench.output.formats import FORMATS

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
    _cache_option(p)
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
    p.add_argument(
        "--follow",
        action="store_true",
        help="load result files added or grown while the benchmarks run, once complete "
        "(R reloads by hand without it); implies --decide",
    )
    p.add_argument(
        "--decide",
        action="store_true",
        help="mark each metric decided or undecided as `tuibench decide` does, and say in "
        "its view how many more iterations would likely settle it",
    )
    _cache_option(p)
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
        "worse; 1: a regression is decided; 3: something is undecided (run more); 4: none "
        "undecided, none worse, but something inconclusive at --max-iterations (stop).",
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
        "fixed-sample verdict: worse, better, same within +/-PCT %%, or inconclusive "
        "(default: none)",
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
    _cache_option(p)
    return p
