"""A reopen's first frame (tui/terminal/first_frame.py): kept under a key of where it was
drawn, shown only for the very files it showed, only when it fills the screen with
printable text."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.terminal import first_frame

SAMPLE = Path(__file__).resolve().parents[2] / "sample_runs"
SIZE = (20, 2)


def lines(text: str = "x") -> list:
    return [[(text * 20, "bold #ff0000 on #000000")], [("a" * 10, ""), ("b" * 10, "dim")]]


def test_a_frame_decodes_as_it_was_encoded():
    payload = first_frame.encode(lines(), SIZE, b"\x01\x02")
    frame = first_frame.decode(payload, SIZE)
    assert frame is not None and frame["files"] == "0102"
    assert [[tuple(seg) for seg in line] for line in frame["lines"]] == lines()


@pytest.mark.parametrize(
    "frame, size",
    [
        (lines(), (21, 2)),  # another size
        (lines(), (20, 3)),
        (lines()[:1], SIZE),  # a line short
        ([[("x" * 19, "")], lines()[1]], SIZE),  # a line narrower than the screen
        ([[("\x1b" + "x" * 20, "")], lines()[1]], SIZE),  # a control character (no cell)
        ([[("x" * 20 + "\x07", "")], lines()[1]], SIZE),
        ([[("x" * 20, 3)], lines()[1]], SIZE),  # a style that is not text
    ],
)
def test_a_frame_that_does_not_fill_the_screen_with_text_is_not_shown(frame, size):
    payload = first_frame.encode(frame, (len(frame[0][0][0]), len(frame)), b"")
    payload = payload.replace(b'"size": [', f'"size": [{size[0]}, {size[1]}], "was": ['.encode())
    assert first_frame.decode(payload, size) is None


def test_the_key_holds_everything_the_first_screen_depends_on_besides_the_files(monkeypatch):
    paths, options, view = ["sample_runs"], AnalysisOptions(), ViewOptions()
    key = first_frame.where(paths, options, view, (80, 24))
    assert key == first_frame.where(paths, options, view, (80, 24))
    others = [
        first_frame.where(paths, options, view, (81, 24)),
        first_frame.where(["./sample_runs"], options, view, (80, 24)),
        first_frame.where(paths, dataclasses.replace(options, alpha=0.01), view, (80, 24)),
        first_frame.where(paths, options, dataclasses.replace(view, percent="change"), (80, 24)),
    ]
    monkeypatch.setenv("TERM", "vt100-other")
    others.append(first_frame.where(paths, options, view, (80, 24)))
    monkeypatch.setenv("TEXTUAL_THEME", "another")
    others.append(first_frame.where(paths, options, view, (80, 24)))
    assert len({key, *others}) == len(others) + 1


def test_the_files_digest_changes_with_any_file(tmp_path, monkeypatch):
    monkeypatch.setenv("TUIBENCH_WATCH", "off")
    runs = tmp_path / "runs"
    shutil.copytree(SAMPLE, runs)
    before = first_frame.files_digest([runs])
    assert before is not None and before == first_frame.files_digest([runs])
    one = next(p for p in runs.rglob("*.json"))
    stat = one.stat()
    os.utime(one, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    touched = first_frame.files_digest([runs])
    (runs / "linux-6.9" / "notes.txt").write_text("new\n")
    added = first_frame.files_digest([runs])
    assert len({before, touched, added}) == 3


def test_too_many_files_are_not_checked_before_the_first_frame(tmp_path, monkeypatch):
    monkeypatch.setenv("TUIBENCH_WATCH", "off")
    monkeypatch.setattr(first_frame, "FILES_UP_TO", 3)
    assert first_frame.files_digest([SAMPLE]) is None


def test_a_stored_frame_is_taken_only_for_the_same_files(tmp_path, monkeypatch):
    monkeypatch.setenv("TUIBENCH_WATCH", "off")
    monkeypatch.setattr(first_frame, "TAKE_WAIT", 10.0)
    monkeypatch.setattr(first_frame, "_size", lambda: SIZE)
    runs = tmp_path / "runs"
    shutil.copytree(SAMPLE, runs)
    options, view = AnalysisOptions(), ViewOptions()

    first_frame.start([runs], options, view)  # nothing stored yet
    assert first_frame.take() is None
    key = first_frame.key_for(SIZE)
    assert key is not None and first_frame.key_for((21, 2)) is None
    files = first_frame.files_digest([runs])
    assert files is not None
    thread = first_frame.stored_at(key, first_frame.encode(lines(), SIZE, files))
    thread.join()

    first_frame.start([runs], options, view)
    frame = first_frame.take()
    assert frame is not None and frame["lines"][0][0][0] == "x" * 20
    assert first_frame.take() is None  # once

    (runs / "linux-6.9" / "notes.txt").write_text("new\n")
    first_frame.start([runs], options, view)
    assert first_frame.take() is None
