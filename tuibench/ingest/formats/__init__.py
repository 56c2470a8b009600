"""Format detection: every file is recognised by its content, not only its extension.

`read_file(path)` reads one file (small native files are read in batches by
small_files.py, with the same rows and problems). It reads the head of the file once, decides
whether it is Parquet, JSON or text, and offers it to the readers in `JSON_READERS` or
`TEXT_READERS` in order. Whatever goes wrong becomes a Problem; nothing raises.
"""

from __future__ import annotations

import importlib
import lzma
import os
import zlib
from pathlib import Path
from types import ModuleType

from tuibench.ingest.formats import base
from tuibench.ingest.formats.base import (
    HEAD_BYTES,
    XZ_MAGIC,
    ZSTD_MAGIC,
    JsonError,
    ReadResult,
    TooLarge,
    cap_problems,
    compression,
    empty_frame,
    load_json,
    open_binary,
)
from tuibench.ingest.formats.json_stream import stream_list
from tuibench.ingest.opening import open_regular
from tuibench.model.problems import Problem
from tuibench.model.set_aside import empty_is_problem, kind_of
from tuibench.util import memory_limits

# Order matters: the first reader whose check accepts the content wins.
JSON_READERS = [
    "gbench",
    "pyperf",
    "nanobench",
    "hyperfine",
    "pytest_benchmark",
    "criterion",
    "mmtests",
    "asv",
    "jmh",
]
TEXT_READERS = ["native", "gotest", "catch2", "gbench_csv", "summaries", "mmtests"]

NATIVE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".csv.gz", ".tsv.gz")

# Where each reader lives: JSON documents, and text (lines, CSV, XML); mmtests reads both.
PACKAGES = {
    **dict.fromkeys(
        (
            "gbench",
            "pyperf",
            "nanobench",
            "hyperfine",
            "pytest_benchmark",
            "criterion",
            "asv",
            "jmh",
        ),
        "json_readers",
    ),
    **dict.fromkeys(("gotest", "catch2", "gbench_csv", "mmtests"), "text_readers"),
}

_modules: dict[str, ModuleType] = {}


def _reader(name: str) -> ModuleType:
    """A reader module, imported on first use so a run pays only for the formats it meets."""
    if name not in _modules:
        package = f"{__name__}.{PACKAGES[name]}" if name in PACKAGES else __name__
        _modules[name] = importlib.import_module(f"{package}.{name}")
    return _modules[name]


def _fail(path: Path, reason: str, line: int | None = None, fmt: str = "") -> ReadResult:
    return ReadResult(empty_frame(), [Problem(str(path), reason, line=line)], format=fmt)


def _not_results(path: Path, kind: str, reason: str) -> ReadResult:
    """A file looked at and found to hold no results: set aside, counted, no problem."""
    return ReadResult(empty_frame(), set_aside=(kind, reason))


def read_head(path: Path) -> bytes:
    """The first HEAD_BYTES of the file, decompressed when it is gzip, zstd or xz."""
    with open_regular(path) as fh:
        raw = fh.read(HEAD_BYTES)
    kind = _COMPRESSED.get(raw[:2]) or _COMPRESSED.get(raw[:4]) or _COMPRESSED.get(raw[:6])
    if kind:
        try:
            with open_binary(path) as fh:
                return fh.read(HEAD_BYTES)
        except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError) as exc:
            raise OSError(f"{kind} file is damaged: {exc}") from exc
    return raw


_COMPRESSED = {b"\x1f\x8b": "gzip", ZSTD_MAGIC: "zstd", XZ_MAGIC: "xz"}


_CONTROL = bytes([*range(9), *range(14, 32)])  # control bytes other than tab and line ends


def _looks_binary(head: bytes) -> bool:
    if b"\x00" in head:
        return True
    sample = head[:4096]
    if not sample:
        return False
    bad = len(sample) - len(sample.translate(None, _CONTROL))
    return bad / len(sample) > 0.05


def read_file(path: Path) -> ReadResult:
    """Read one result file in whatever known format it is in."""
    replaced = base.replaced_count()
    try:
        result = _read_file(path)
    except TooLarge as exc:
        result = _fail(path, str(exc))
    except MemoryError:
        result = _fail(path, "not enough memory to read it (too large for this machine)")
    except Exception as exc:  # a reader bug must not stop the rest of the data loading
        # One short line: polars appends the whole expression (600-900 characters).
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        result = _fail(path, f"could not be read ({type(exc).__name__}: {first})")
    if base.replaced_count() > replaced and result.set_aside is None:
        result.problems.append(Problem(str(path), NOT_UTF8))
    result.problems = cap_problems(result.problems, path)
    _check_size(path, result)
    return result


NOT_UTF8 = (
    "not valid UTF-8: such bytes were read as U+FFFD, so names holding them are not the "
    "names written; save the file as UTF-8"
)


def _check_size(path: Path, result: ReadResult) -> None:
    """A file read up to the size it had when found, that has grown since: say so (it was
    probably still being written)."""
    size = getattr(path, "size", None)
    try:
        now = os.stat(path).st_size
    except OSError:
        return
    if size is not None and now > size:
        result.problems.append(
            Problem(
                str(path),
                f"grew from {size} to {now} bytes while it was read (still being written?); "
                f"only its first {size} bytes were read",
            )
        )


def _read_file(path: Path) -> ReadResult:
    try:
        head = read_head(path)
    except PermissionError:
        return _fail(path, "permission denied: the file cannot be read")
    except OSError as exc:
        return _fail(path, f"cannot be read: {exc.strerror or exc}")
    if not head.strip():
        if empty_is_problem(path.name):
            return _fail(path, "empty file: no results in it")
        return _not_results(path, "empty", "empty file")
    if head[:4] == b"PAR1":
        native = _reader("native")
        assert native is not None  # a reader of this package, always there
        result = native.read(path)
        result.format = native.NAME
        return result
    if _looks_binary(head):
        kind = kind_of(path.name, "binary")
        return _not_results(path, kind, "binary data in no known format (not Parquet or JSON)")

    text = head.decode("utf-8", errors="replace")
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] in "{[":
        native = _reader("native")
        if native.sniff(path, text):  # JSON Lines in the native format
            result = native.read(path)
            result.format = native.NAME
            return result
        return _read_json(path)

    for name in TEXT_READERS:
        mod = _reader(name)
        if hasattr(mod, "sniff") and mod.sniff(path, text):
            result = mod.read(path)
            result.format = mod.NAME
            return result
    native = _reader("native")
    assert native is not None
    if path.name.lower().endswith(NATIVE_SUFFIXES):
        # Named like a native file but no reader claimed it: let the native reader say
        # exactly what is wrong (a missing column) instead of "unknown format".
        result = native.read(path)
        result.format = native.NAME
        return result
    kind = kind_of(path.name)
    return _not_results(path, kind, f"{kind}: text in no known result format")


# Larger (or compressed) Google Benchmark files are read entry by entry.
STREAM_BYTES = 16 * 2**20


# Peak memory of a report per byte of an uncompressed JSON file: 2.8 measured (a 600 MB
# Google Benchmark file, read entry by entry); the object tree of a whole file, 1.5.
JSON_MEMORY_PER_BYTE = 4


def _read_json(path: Path) -> ReadResult:
    size = getattr(path, "size", None)
    size = os.path.getsize(path) if size is None else size
    if not compression(path) and (why := memory_limits.too_large(size * JSON_MEMORY_PER_BYTE)):
        return _fail(path, f"{why} (split it, or load it on a larger machine)")
    if size >= STREAM_BYTES or compression(path):
        try:
            result = _stream_gbench(path)
        except JsonError as exc:
            return _fail(path, exc.reason, line=exc.line)
        if result is not None:
            return result
    try:
        obj = load_json(path)
    except JsonError as exc:
        return _fail(path, exc.reason, line=exc.line)
    for name in JSON_READERS:
        mod = _reader(name)
        if hasattr(mod, "matches_json") and mod.matches_json(obj):
            result = mod.read_json(obj, path)
            result.format = mod.NAME
            return result
    if isinstance(obj, dict):
        keys = ", ".join(list(obj)[:6]) or "none"
        what = f"a JSON object with keys {keys}"
    else:
        what = f"a JSON {type(obj).__name__}"
    return _fail(path, f"{what}: not a result file of any known tool")


def _stream_gbench(path: Path) -> ReadResult | None:
    """A large Google Benchmark file (its `context` comes before `benchmarks`, as the
    library writes it), read without building the whole object tree."""
    gbench = _reader("gbench")
    assert gbench is not None  # a reader of this package, always there
    parts = stream_list(path, "benchmarks", lambda head: isinstance(head.get("context"), dict))
    if parts is None:
        return None
    head, entries = parts
    result = gbench.read_entries(head, entries, path)
    result.format = gbench.NAME
    return result


def known_formats() -> list[str]:
    return [_reader(name).NAME for name in dict.fromkeys(["native", *JSON_READERS, *TEXT_READERS])]
