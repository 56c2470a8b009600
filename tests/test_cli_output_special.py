"""`report --output` and the export's writer never replace what is not a regular file.

As root an atomic rename replaces anything, `/dev/null` included: devices, FIFOs, sockets
and folders are refused with the reason (exit 2). `-` and `/dev/stdout` are standard
output. A folder of the results reached by another path (a bind mount) is refused too.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tuibench.cli import main
from tuibench.output.writing import NotRegularFile, write_atomic

ROOT = os.geteuid() == 0


@pytest.fixture
def results(tmp_path, make_system) -> Path:
    root = tmp_path / "results"
    for system, value in (("base", 10.0), ("new", 11.0)):
        make_system(root, system, [("b", "m", i, value + i / 10) for i in range(3)])
    return root


def _identity(path: Path) -> tuple:
    st = os.lstat(path)
    return stat.S_IFMT(st.st_mode), st.st_ino, st.st_rdev


def _refused(capsys, results: Path, target: Path, words: str) -> None:
    before = _identity(target)
    assert main(["report", str(results), "--output", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"tuibench: will not write {target}: ")
    assert words in err[0]
    assert _identity(target) == before  # the same inode, kind and device numbers


def test_dev_null_is_never_replaced(results, capsys):
    null = Path("/dev/null")
    rdev = os.stat(null).st_rdev
    _refused(capsys, results, null, "is a character device, not a regular file")
    with pytest.raises(NotRegularFile):
        write_atomic(null, "x", overwrite=True)
    st = os.stat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == rdev


def test_a_link_to_a_device_is_refused(tmp_path, results, capsys):
    link = tmp_path / "out.txt"
    link.symlink_to("/dev/null")
    _refused(capsys, results, link, "is a character device")
    assert link.is_symlink()


@pytest.mark.skipif(not ROOT, reason="making a device node needs root")
def test_a_character_device_of_our_own_is_refused(tmp_path, results, capsys):
    dev = tmp_path / "null2"
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod is not permitted here")
    _refused(capsys, results, dev, "is a character device")
    assert os.stat(dev).st_rdev == os.makedev(1, 3)


def test_a_fifo_is_refused_without_blocking(tmp_path, results, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _refused(capsys, results, fifo, "is a named pipe (FIFO)")
    with pytest.raises(NotRegularFile, match="named pipe"):
        write_atomic(fifo, "x", overwrite=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_is_refused(tmp_path, results, capsys):
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        _refused(capsys, results, path, "is a socket")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_folder_is_refused(tmp_path, results, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    _refused(capsys, results, folder, "is a folder")
    with pytest.raises(NotRegularFile, match="folder"):
        write_atomic(folder, "x", overwrite=True)


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_dash_and_dev_stdout_are_standard_output(results, capsys, name):
    assert main(["report", str(results), "--format", "csv", "--output", name]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("benchmark,metric,") and out.count("\n") == 3
    assert err == ""
    assert not Path(name).exists() or name != "-"


def test_dev_stdout_is_standard_output_in_a_pipe(results):
    """In a pipe /dev/stdout resolves to `pipe:[N]`, a name no file has."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tuibench",
            "report",
            str(results),
            "--format",
            "csv",
            "--output",
            "/dev/stdout",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("benchmark,metric,") and out.stderr == ""


def test_dev_stderr_in_a_pipe_is_refused_by_its_own_name(results):
    out = subprocess.run(
        [sys.executable, "-m", "tuibench", "report", str(results), "--output", "/dev/stderr"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("tuibench: will not write /dev/stderr: /dev/stderr is a named")
    assert "pipe:[" not in out.stderr


@pytest.fixture
def bind_mount(tmp_path, results):
    """`tmp_path/alias` bind-mounted on the results folder (skipped where not permitted)."""
    alias = tmp_path / "alias"
    alias.mkdir()
    done = subprocess.run(
        ["mount", "--bind", str(results), str(alias)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"mount --bind is not permitted here: {done.stderr.decode().strip()}")
    yield alias
    subprocess.run(["umount", str(alias)], check=True)


def test_output_through_a_bind_mount_of_the_results_is_refused(results, bind_mount, capsys):
    for target in (bind_mount / "t.txt", bind_mount / "base" / "new" / "t.txt"):
        assert main(["report", str(results), "--output", str(target)]) == 2
        err = capsys.readouterr().err
        assert "is inside the results folder" in err and "bind mount" in err
    assert sorted(p.name for p in results.iterdir()) == ["base", "new"]
    assert sorted(p.name for p in (results / "base").iterdir()) == ["data.csv"]


def test_a_regular_file_is_still_replaced(tmp_path, results, capsys):
    target = tmp_path / "out.txt"
    target.write_text("old")
    assert main(["report", str(results), "--output", str(target)]) == 0
    assert "Comparison against base" in target.read_text()
