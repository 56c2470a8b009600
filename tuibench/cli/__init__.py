"""Command line: `tuibench PATH...` (the explorer), `tuibench report`, `tuibench inspect`.

Textual is imported only when the explorer starts, so `report` and `inspect` run headless.
"""

from __future__ import annotations

import os
import sys

from tuibench import process_settings
from tuibench.cli.arguments import (
    analysis_options,
    decide_parser,
    explorer_parser,
    inspect_parser,
    report_parser,
    view_options,
)
from tuibench.cli.commands import decide, explore, inspect, report
from tuibench.cli.console import (
    EXIT_INCONCLUSIVE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_REGRESSION,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    StdoutError,
    abandon_stdout,
    flush_stdout,
    interrupt_once,
    one_line,
    quiet_thread_interrupts,
    say,
)

process_settings.return_freed_pages()  # before any command imports polars


def main(argv: list[str] | None = None) -> int:
    """Run a command; whatever goes wrong, one line on stderr and an exit code a CI gate can
    trust: 1 only ever means "regression found", an error is 2."""
    try:
        code = _dispatch(argv)
        flush_stdout()  # a full disk or a closed pipe shows here, not at interpreter exit
        return code
    except StdoutError as exc:
        abandon_stdout()
        say(f"tuibench: cannot write to standard output: {one_line(exc.__cause__ or exc)}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        abandon_stdout()
        say("tuibench: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        abandon_stdout()
        return EXIT_USAGE
    except MemoryError:
        abandon_stdout()
        say("tuibench: out of memory (the results are too large for this machine)")
        return EXIT_USAGE
    except OSError as exc:
        abandon_stdout()
        say(f"tuibench: {one_line(exc)}")
        return EXIT_USAGE
    except Exception as exc:  # a bug: still one line, and never exit 1
        abandon_stdout()
        say(f"tuibench: internal error: {type(exc).__name__}: {one_line(exc)}")
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
    process_settings.numpy_settings()
    # polars answers SIGINT in whichever thread runs a query: one interrupt, told once.
    quiet_thread_interrupts()
    interrupt_once()
    os._exit(main())


def _dispatch(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "report":
        return report(report_parser().parse_args(argv[1:]))
    if argv and argv[0] == "inspect":
        return inspect(inspect_parser().parse_args(argv[1:]))
    if argv and argv[0] == "decide":
        return decide(decide_parser().parse_args(argv[1:]))
    return explore(explorer_parser().parse_args(argv))


__all__ = [
    "EXIT_INCONCLUSIVE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_REGRESSION",
    "EXIT_UNDECIDED",
    "EXIT_USAGE",
    "analysis_options",
    "decide_parser",
    "explorer_parser",
    "inspect_parser",
    "main",
    "report_parser",
    "run",
    "view_options",
]
