"""What the commands say: standard output, one-line errors on stderr, exit codes."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterable

EXIT_OK, EXIT_REGRESSION, EXIT_USAGE = 0, 1, 2

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

EXIT_UNDECIDED = 3  # `decide`: run more iterations
# `decide`: the last look (--max-iterations) left something inconclusive. Not 3: a loop
# that runs another round on 3 would look again past the last look (more false alarms).
EXIT_INCONCLUSIVE = 4


class StdoutError(Exception):
    """Writing to stdout failed (not a closed pipe): e.g. `> /dev/full`."""


def emit(text: str | Iterable[bytes | memoryview]) -> None:
    """Write `text`, or UTF-8 pieces of it (a JSON report), to standard output."""
    if sys.stdout is None:  # started with stdout closed
        raise StdoutError("it is closed")
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
        raise StdoutError from exc


def flush_stdout() -> None:
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StdoutError from exc


def one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def abandon_stdout() -> None:
    """Drop what is still buffered for stdout, which failed or was closed, so that the
    interpreter's final flush neither fails again nor prints a traceback."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (tests)
        pass


def say(message: str) -> None:
    """One line for a person on stderr; names in it are data and shown escaped."""
    from tuibench.util.text import printable

    if sys.stderr is None:  # started with stderr closed: print() would use stdout
        return
    with contextlib.suppress(OSError):  # stderr is gone too: the exit code is all that is left
        print(printable(message), file=sys.stderr, flush=True)


def quiet_thread_interrupts() -> None:
    """No traceback from a thread that a SIGINT interrupted. polars stops a running query on
    SIGINT in whichever thread runs it, raising KeyboardInterrupt there, and passes the
    signal on; the main thread then does what an interrupt means (the explorer leaves, a
    report says "interrupted"). Printed as well, the thread's traceback would land on the
    screen the explorer is restoring. Other exceptions are printed as before."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if not issubclass(args.exc_type, KeyboardInterrupt):
            previous(args)

    threading.excepthook = hook


def interrupt_once() -> None:
    """One SIGINT, one KeyboardInterrupt. A query that polars runs when SIGINT comes raises
    one, and polars passes the signal on to Python's handler, which raised a second inside
    the handling of the first: `report` ended with a traceback and killed by the signal.
    Python's handler is replaced only where it is in place (a process started with SIGINT
    ignored keeps ignoring it)."""

    def on_sigint(_signum: int, _frame: object) -> None:
        if not isinstance(sys.exc_info()[1], KeyboardInterrupt):  # polars' is being handled
            raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_sigint)
