"""The terminal is always restored: signals, ctrl+c and quitting while files load, checked on
the bytes a real explorer process writes to a pseudo-terminal."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

import struct  # noqa: E402

# Real processes on a pty: timing on a busy machine can fail a run that is right; a rerun
# tells a flake from a fault (a real fault fails every time).
pytestmark = pytest.mark.flaky(reruns=2)

ENTER = b"\x1b[?1049h"  # alternate screen on
RESTORE = (
    b"\x1b[?1049l",  # alternate screen off
    b"\x1b[?25h",  # cursor shown
    b"\x1b[?1000l",  # mouse tracking off (buttons, any motion, SGR encoding)
    b"\x1b[?1003l",
    b"\x1b[?1006l",
)
SLOW_LOAD = (  # every file takes 0.4 s to read: loading 120 files would take 48 s
    "import time, tuibench.ingest.load as load\n"
    "import tuibench.ingest.incremental as incremental, tuibench.ingest.small_files as small\n"
    "read = load.read_file\n"
    "load.read_file = incremental.read_file = lambda path: (time.sleep(0.4), read(path))[1]\n"
    "small.BATCHED = False  # each file on its own, through read_file (the explorer's)\n"
    "import tuibench.tui.view.load_ahead as ahead\n"
    "ahead.FORK_UP_TO = -1  # the explorer loads them itself (load_ahead.py's child gives up)\n"
    "from tuibench.cli import main\n"
    "raise SystemExit(main())\n"
)
# The first open's child (load_ahead.py) reads slowly: each file 5 s, then a mark.
SLOW_CHILD = (
    "import os, sys, time, tuibench.ingest.load as load, tuibench.ingest.incremental as inc\n"
    "read, explorer, mark = load.read_file, os.getpid(), sys.argv.pop()\n"
    "def slow(path):\n"
    "    time.sleep(5)\n"
    "    if os.getpid() != explorer: open(mark, 'w').close()\n"
    "    return read(path)\n"
    "load.read_file = inc.read_file = slow\n"
    "import tuibench.ingest.small_files as small\n"
    "small.BATCHED = False\n"
    "from tuibench.cli import main\n"
    "raise SystemExit(main())\n"
)


class Terminal:
    """A process on the slave side of a pty; everything it writes is collected."""

    def __init__(
        self,
        args: list[str],
        env: dict | None = None,
        stdin_tty: bool = True,
        controlling: bool = True,
    ):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

        def controlling_terminal() -> None:
            os.setsid()
            if stdin_tty and controlling:
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            args,
            stdin=slave if stdin_tty else subprocess.DEVNULL,
            stdout=slave,
            stderr=slave,
            env=_as_users_run_it({**os.environ, "TERM": "xterm-256color", **(env or {})}),
            preexec_fn=controlling_terminal,
        )
        os.close(slave)
        self.master: int | None = master
        self.out = bytearray()
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Never left blocked in read(): closing the master while a read is under way does
        not hang the terminal up until that read returns (which, with an idle explorer,
        is never), so `hang_up` stops the reading first."""
        while not self._stop.is_set():
            try:
                if not select.select([self.master], [], [], 0.05)[0]:
                    continue
                chunk = os.read(self.master, 65536)
            except (OSError, TypeError, ValueError):
                return
            if not chunk:
                return
            self.out.extend(chunk)

    def wait_for(self, text: bytes, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while text not in self.out:
            if time.monotonic() > end or self.proc.poll() is not None:
                raise AssertionError(f"{text!r} never shown: {bytes(self.out[-500:])!r}")
            time.sleep(0.05)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def hang_up(self) -> None:
        self._stop.set()
        self._reader.join()
        os.close(self.master)
        self.master = None

    def finish(self, timeout: float = 30.0) -> tuple[int, float]:
        start = time.monotonic()
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"still running {timeout} s later") from None
        took = time.monotonic() - start
        self._reader.join(2)
        if self.master is not None:
            os.close(self.master)
        return code, took

    def assert_restored(self) -> None:
        after = bytes(self.out[self.out.rfind(ENTER) :])
        missing = [seq for seq in RESTORE if seq not in after]
        assert not missing, f"not restored: {missing}; last bytes {after[-300:]!r}"


def _as_users_run_it(env: dict) -> dict:
    """Without PYTHONUNBUFFERED, which some shells and test runners set: the explorer's
    output is buffered as users run it."""
    return {k: v for k, v in env.items() if k != "PYTHONUNBUFFERED"}


def explorer(path: Path, **kw) -> Terminal:
    return Terminal([sys.executable, "-m", "tuibench", str(path)], **kw)


@pytest.fixture
def results(tmp_path, make_system) -> Path:
    for system, value in (("base", 10.0), ("new", 11.0)):
        rows = [
            ("bench", "metric", i, value + i / 10 + s / 100) for i in range(3) for s in range(3)
        ]
        make_system(tmp_path, system, rows)
    return tmp_path


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signals_restore_the_terminal_and_exit(results, sig):
    term = explorer(results)
    term.wait_for(b"metric")
    term.proc.send_signal(sig)
    code, _ = term.finish()
    assert code == 128 + sig
    term.assert_restored()
    assert b"Traceback" not in term.out


def test_ctrl_c_quits_cleanly(results):
    term = explorer(results)
    term.wait_for(b"metric")
    term.type(b"\x03")
    code, _ = term.finish()
    assert code == 0
    term.assert_restored()
    assert b"Traceback" not in term.out


def test_ctrl_c_quits_from_a_text_field_too(results):
    term = explorer(results)
    term.wait_for(b"metric")
    term.type(b"a")  # the alpha dialog: its text field would take ctrl+c as copy
    term.wait_for(b"Significance level")
    term.type(b"\x03")
    code, _ = term.finish()
    assert code == 0
    term.assert_restored()


def test_a_closed_terminal_ends_the_explorer(results):
    term = explorer(results)
    term.wait_for(b"metric")
    term.hang_up()  # the kernel sends SIGHUP, and the terminal is gone
    code, _ = term.finish()
    assert code == 128 + signal.SIGHUP


def test_a_terminal_closed_without_a_hang_up_ends_the_explorer(results):
    """Not its controlling terminal (as under a supervisor or setsid): closing it sends no
    SIGHUP, and the explorer must not spin on end-of-file until killed."""
    term = explorer(results, controlling=False)
    term.wait_for(b"metric")
    term.hang_up()
    code, took = term.finish()
    assert code == 128 + signal.SIGHUP
    assert took < 10, f"took {took:.1f} s to notice"


def test_nothing_is_written_while_idle_even_in_the_filter(results):
    """Over SSH every frame costs: an idle explorer writes nothing (no blinking cursor)."""
    term = explorer(results)
    term.wait_for(b"metric")
    term.type(b"/")  # the filter field, focused, with its cursor
    time.sleep(1.5)  # the filter's frames written out
    before = len(term.out)
    time.sleep(2.0)
    assert bytes(term.out[before:]) == b""
    term.type(b"\x1b")  # out of the filter (alone: escape then q at once reads as alt+q)
    time.sleep(0.5)
    term.type(b"q")
    assert term.finish()[0] == 0


def test_the_screen_is_drawn_again_at_once_after_suspend_and_resume(results):
    term = explorer(results)
    term.wait_for(b"metric")
    time.sleep(1.0)  # the first frames written out
    term.proc.send_signal(signal.SIGTSTP)  # as ctrl+z in a shell, or `kill -TSTP`
    time.sleep(0.5)
    before = len(term.out)
    term.proc.send_signal(signal.SIGCONT)  # `fg`
    end = time.monotonic() + 10
    while b"metric" not in term.out[before:]:  # no key typed
        assert time.monotonic() < end, f"not redrawn: {bytes(term.out[before:])!r}"
        time.sleep(0.05)
    term.type(b"q")
    assert term.finish()[0] == 0


@pytest.mark.parametrize("how", ["q", "sigterm"])
def test_quitting_while_files_load_exits_at_once(tmp_path, make_system, how):
    for i in range(60):
        for system in ("base", "new"):
            make_system(tmp_path / system, f"part{i}", [("b", "m", 0, 1.0)])
    term = Terminal([sys.executable, "-c", SLOW_LOAD, str(tmp_path)])
    term.wait_for(b" / 120 files")
    if how == "q":
        term.type(b"q")
    else:
        term.proc.send_signal(signal.SIGTERM)
    code, took = term.finish()
    assert code == (0 if how == "q" else 128 + signal.SIGTERM)
    # Generous for a busy machine; what matters is that it does not wait for the load.
    assert took < 15, f"took {took:.1f} s to quit; the load alone takes 48 s"
    term.assert_restored()


def test_quitting_while_the_first_opens_child_loads_ends_it_too(tmp_path, make_system):
    """The child that loads small results on their first open (load_ahead.py) ends with the
    explorer: quitting does not leave it reading."""
    if not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the child is forked only with two cores")
    make_system(tmp_path / "results" / "base", "run", [("b", "m", 0, 1.0)])
    make_system(tmp_path / "results" / "new", "run", [("b", "m", 0, 1.0)])
    mark = tmp_path / "the child read a file"
    term = Terminal([sys.executable, "-c", SLOW_CHILD, str(tmp_path / "results"), str(mark)])
    term.wait_for(b"Loading")
    term.type(b"q")
    code, took = term.finish()
    assert code == 0 and took < 5
    term.assert_restored()
    time.sleep(6)  # the child's first read would have ended by now
    assert not mark.exists()


def test_stdin_that_is_not_a_terminal_is_refused(results):
    term = explorer(results, stdin_tty=False)
    code, _ = term.finish()
    assert code == 2
    assert b"the explorer needs a terminal" in term.out
    assert ENTER not in term.out


def test_a_dumb_terminal_is_refused(results):
    term = explorer(results, env={"TERM": "dumb"})
    code, _ = term.finish()
    assert code == 2
    assert b"the explorer needs a terminal" in term.out
    assert ENTER not in term.out


def test_stdout_that_is_not_a_terminal_says_the_same(results):
    proc = subprocess.run(
        [sys.executable, "-m", "tuibench", str(results)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("tuibench: the explorer needs a terminal")


def test_load_lets_the_cancel_exception_through(results):
    from tuibench.ingest.load import LoadCancelled, load

    seen = []

    def progress(done: int, total: int, path: str) -> None:
        seen.append(done)
        raise LoadCancelled

    with pytest.raises(LoadCancelled):
        load([results], progress=progress)
    assert seen == [0]  # stopped at the first file


CRASH_ON_HELP = (
    "from tuibench.tui.app import TuibenchApp\n"
    "def boom(self):\n"
    "    raise RuntimeError('a bug\\nsecond line')\n"
    "TuibenchApp.action_help = boom\n"
    "from tuibench.cli import main\n"
    "raise SystemExit(main())\n"
)


def test_a_bug_in_the_explorer_is_one_line_and_exit_2(results):
    term = Terminal([sys.executable, "-c", CRASH_ON_HELP, str(results)])
    term.wait_for(b"metric")
    term.type(b"?")
    code, _ = term.finish()
    assert code == 2
    term.assert_restored()
    after = bytes(term.out[term.out.rfind(b"\x1b[?1049l") :])
    assert b"Traceback" not in after
    assert b"tuibench: internal error: RuntimeError: a bug" in after
    assert b"second line" not in after
