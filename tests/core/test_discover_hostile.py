"""Discovery against hostile folders: names that are not UTF-8, huge iteration numbers,
links out of the given folders, and entries that are not regular files."""

from __future__ import annotations

import os
import socket
import sys

import pytest

from tuibench.ingest.load import load

CSV = "benchmark,metric,value\nb,t,1\nb,t,2\n"
_written = [0]


def _csv(path, text=CSV):
    """Each file's bytes differ (2, 2.0, 2.00...): identical copies would be read once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if text == CSV:
        _written[0] += 1
        text = CSV[:-1] + "." + "0" * _written[0] + "\n"
    path.write_text(text)
    return path


def _problems(rs) -> dict[str, str]:
    return {os.path.basename(p.path): p.reason for p in rs.problems}


def _printable(rs) -> None:
    """Every name and path that reaches a person encodes as UTF-8 (strict)."""
    for s in (rs.root, *(p.path for p in rs.problems), *(f.path for f in rs.files)):
        s.encode("utf-8")
    for info in rs.systems:
        info.name.encode("utf-8")
        info.path.encode("utf-8")
    for f in rs.files:
        for p in f.problems:
            p.path.encode("utf-8")


needs_bytes_names = pytest.mark.skipif(
    sys.platform in ("darwin", "win32"), reason="the file system refuses names that are not UTF-8"
)


@needs_bytes_names
def test_folder_names_that_are_not_utf8_load_with_replacement_characters(tmp_path):
    root = os.fsencode(tmp_path)
    _csv(tmp_path / "a" / "d.csv")
    for raw in (b"caf\xe9", b"caf\xe8"):  # both become 'caf\ufffd': kept apart
        os.makedirs(os.path.join(root, raw))
        with open(os.path.join(root, raw, b"d.csv"), "w") as fh:
            fh.write(CSV + "b,t,3\n" * (raw[-1] % 2))  # not copies of each other
    rs = load([tmp_path])
    assert sorted(rs.system_names) == ["a", "caf\\xe9", "caf\ufffd"]  # \xe8 comes first
    assert rs.samples.height == 7
    reasons = [p.reason for p in rs.problems]
    assert reasons == [
        "the name is not valid UTF-8; the system is shown as 'caf\ufffd'",
        "the name is not valid UTF-8; the system is shown as 'caf\\\\xe9'",
    ]
    assert {p.path for p in rs.problems} == {str(tmp_path / "caf\ufffd")}
    _printable(rs)


@needs_bytes_names
def test_file_and_path_names_that_are_not_utf8(tmp_path):
    raw = os.path.join(os.fsencode(tmp_path), b"run\xff.csv")
    with open(raw, "w") as fh:
        fh.write(CSV)
    rs = load([os.fsdecode(raw)])  # a lone file is one system named after it
    assert rs.system_names == ["run\ufffd"]
    assert rs.samples.height == 2
    assert [p.reason for p in rs.problems] == [
        "the name is not valid UTF-8; the system is shown as 'run\ufffd'"
    ]
    _printable(rs)
    other = _csv(tmp_path / "other.csv")
    rs = load([os.fsdecode(raw), other])  # several paths: each one system
    assert rs.system_names == ["other", "run\ufffd"]
    _printable(rs)


def test_iteration_beyond_64_bits_is_a_problem_and_the_rest_loads(tmp_path):
    _csv(tmp_path / "a" / "iter-1" / "d.csv")
    _csv(tmp_path / "a" / f"iter-{2**63}" / "d.csv")
    _csv(tmp_path / "a" / f"iter-{2**63 - 1}" / "d.csv")
    _csv(tmp_path / "b" / "iter-99999999999999999999999" / "d.csv")
    _csv(tmp_path / "b" / "iter-2" / "d.csv")
    rs = load([tmp_path])
    assert sorted(set(rs.samples["iteration"])) == [1, 2, 2**63 - 1]
    probs = _problems(rs)
    assert set(probs) == {f"iter-{2**63}", "iter-99999999999999999999999"}
    assert all("iteration number is too large" in r for r in probs.values())


def test_link_to_root_of_the_machine_is_not_followed(tmp_path):
    _csv(tmp_path / "a" / "d.csv")
    os.symlink("/", tmp_path / "a" / "everything")
    rs = load([tmp_path])
    assert len(rs.files) == 1
    assert _problems(rs)["everything"] == (
        "symbolic link to /, outside the given folders; not followed "
        "(give that folder as a path to include it)"
    )


def test_links_out_of_the_given_folders_are_not_followed(tmp_path):
    root, outside = tmp_path / "results", tmp_path / "elsewhere"
    _csv(root / "a" / "d.csv")
    _csv(outside / "x" / "d.csv")
    os.symlink(outside, root / "a" / "more")  # inside a system
    os.symlink(outside / "x", root / "b")  # a system folder that is a link out
    os.symlink(root / "a", root / "c")  # a link to another system: one system
    os.symlink(root, root / "a" / "up")  # back up the walk: a loop
    rs = load([root])
    assert rs.system_names == ["a"]
    probs = _problems(rs)
    assert probs["c"] == f"the same folder as system 'a' (a symbolic link to {root / 'a'}); " + (
        "counted once, as that system"
    )
    assert probs["more"].startswith(f"symbolic link to {outside}, outside the given folders")
    assert probs["b"].startswith(f"symbolic link to {outside / 'x'}, outside the given folders")
    assert probs["up"] == f"symbolic link loop: points back to {root}; not followed"
    # Given as paths, the same folders are read.
    rs = load([root / "a", outside / "x"])
    assert rs.system_names == ["a", "x"]


def test_fifos_sockets_and_devices_are_not_regular_files(tmp_path):
    folder = tmp_path / "a"
    _csv(folder / "d.csv")
    os.mkfifo(folder / "pipe.csv")
    os.symlink("/dev/null", folder / "null.csv")
    os.symlink(tmp_path / "missing.csv", folder / "gone.csv")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(folder / "sock"))
        rs = load([folder])
    finally:
        sock.close()
    assert len(rs.files) == 1 and rs.samples.height == 2
    assert _problems(rs) == {
        "pipe.csv": "not a regular file but a named pipe (FIFO); not read",
        "null.csv": "not a regular file but a symbolic link to a character device; not read",
        "sock": "not a regular file but a socket; not read",
        "gone.csv": "broken symbolic link",
    }
    rs = load([folder / "pipe.csv", folder / "d.csv"])  # given directly: same words
    assert _problems(rs) == {"pipe.csv": "not a regular file but a named pipe (FIFO); not read"}
    assert rs.system_names == ["d"]
