"""A whole load kept in the cache (cache.py): reopening unchanged results reads one entry.

The key is everything a load depends on besides the code (which the store checks): what
discovery found (units, systems and their system.toml, problems, files set aside), the
identity of every result file and of tuibench.toml (path, size, modification and change
times, inode, device) and the reading switches. Any file touched, added or removed gives
another key, so a stale entry is never read; entries of keys no longer asked for age out.

A ResultSet is stored as JSON (systems, files, problems: each problem once, so that a
file's problems stay the very objects of the whole list, as `inspect` expects) and Arrow
IPC (its frames). Loads that depend on the machine (memory limits) are not stored.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import struct
from typing import Any

import polars as pl

from tuibench.ingest import small_files
from tuibench.ingest.discover import Discovery
from tuibench.ingest.reuse import cache, identity
from tuibench.model.problems import Problem
from tuibench.model.results import FileRecord, ResultSet
from tuibench.model.set_aside import SetAside
from tuibench.model.systems import SystemInfo

KIND = "load"
FRAMES = ("samples", "metrics", "notes")
# A ResultSet with other fields (a newer model) is not cached until this module knows them.
FIELDS = {
    *FRAMES,
    "systems",
    "problems",
    "files",
    "root",
    "set_aside",
    "configured_reference",
    "first_by_name",
}
# Loads this small are quicker to redo than to store and check.
MIN_SAMPLES = 100_000
MIN_FILES = 1_000
# Problems that depend on this machine, not on the files: such a load is not stored.
MACHINE = ("too large to load here", "not enough memory")


def key(found: Discovery, files: bytes | None = None) -> bytes | None:
    """The key of loading what `found` found, or None: not cacheable (the cache is off, a
    file cannot be stat'ed, or the cache folder lies inside the results). `files`: the
    files' digest (`identity.files`) if already taken."""
    if not identity.cacheable(found):
        return None
    return load_identity(found, files)


def load_identity(found: Discovery, files: bytes | None = None) -> bytes | None:
    """A digest of what loading `found` depends on besides the code (the files and the
    reading switches); None when a file cannot be stat'ed."""
    digest = identity.files(found) if files is None else files
    return None if digest is None else cache.digest(small_files.BATCHED, digest)


def neighbours(found: Discovery) -> dict[str, bytes]:
    """Per folder, a digest of the identities of every file discovery found in it (read or
    set aside). A reader may read files beside its own, in its folder or the one above
    (shellpack.yaml, benchmarks.json): what it gave is current while these digests and
    the file's own identity are."""
    by_folder: dict[str, list] = {}
    paths = [str(u.path) for u in found.units] + [a.path for a in found.set_aside]
    for p in paths:
        by_folder.setdefault(os.path.dirname(p), []).append((p, identity.file_key(p)))
    return {d: cache.digest(sorted(v, key=lambda pk: pk[0])) for d, v in by_folder.items()}


def get(k: bytes) -> ResultSet | None:
    payload = cache.Store().get(KIND, k)
    if payload is None:
        return None
    try:
        return decode(payload)
    except Exception:  # passed the checksum yet unreadable (a bug): load as without cache
        return None


def put(k: bytes, rs: ResultSet, units: int) -> None:
    """Store `rs` if it is worth it and does not depend on this machine."""
    if not worth_storing(rs, units):
        return
    try:
        payload = encode(rs)
    except Exception:  # a frame IPC cannot hold (a bug): the load stands, uncached
        return
    if payload is not None:
        cache.Store().put(KIND, k, payload)


def worth_storing(rs: ResultSet, units: int) -> bool:
    """Whether a load of `units` files giving `rs` is worth a cache entry: large enough, and
    not depending on this machine."""
    if rs.samples.height < MIN_SAMPLES and units < MIN_FILES:
        return False
    return not machine_dependent(rs)


def machine_dependent(rs: ResultSet) -> bool:
    """Whether a problem of `rs` depends on this machine (memory), not on the files."""
    return any(m in p.reason for p in rs.problems for m in MACHINE)


# -- ResultSet <-> bytes: a JSON part, then each frame as Arrow IPC, each with its length --
_LEN = struct.Struct("<Q")


def encode(rs: ResultSet) -> bytes | None:
    if {f.name for f in dataclasses.fields(rs)} != FIELDS:
        return None
    table: dict[int, int] = {}  # id(problem) -> index in `problems`
    problems: list[Problem] = []

    def index(ps: list[Problem]) -> list[int]:
        for p in ps:
            if id(p) not in table:
                table[id(p)] = len(problems)
                problems.append(p)
        return [table[id(p)] for p in ps]

    doc = {
        "problems_shown": index(rs.problems),
        "files": [{**_fields(f, skip="problems"), "problems": index(f.problems)} for f in rs.files],
        "systems": [_fields(s) for s in rs.systems],
        "set_aside": [_fields(a) for a in rs.set_aside],
        "root": rs.root,
        "configured_reference": rs.configured_reference,
        "first_by_name": rs.first_by_name,
    }
    doc["problems"] = [_fields(p) for p in problems]
    parts = [json.dumps(doc).encode()]
    for name in FRAMES:
        buf = io.BytesIO()
        # One chunk, LZ4: a quarter of the bytes, read back as fast as uncompressed.
        getattr(rs, name).rechunk().write_ipc(buf, compression="lz4")
        parts.append(buf.getvalue())
    return b"".join(_LEN.pack(len(p)) + p for p in parts)


def decode(payload: bytes | memoryview) -> ResultSet:
    parts, at = [], 0
    while at < len(payload):
        (n,) = _LEN.unpack_from(payload, at)
        parts.append(bytes(payload[at + 8 : at + 8 + n]))
        at += 8 + n
    doc = json.loads(parts[0])
    problems = [Problem(**p) for p in doc["problems"]]
    files = [
        FileRecord(**{**f, "problems": [problems[i] for i in f["problems"]]}) for f in doc["files"]
    ]
    frames = {name: pl.read_ipc(b) for name, b in zip(FRAMES, parts[1:], strict=True)}
    return ResultSet(
        **frames,
        systems=[SystemInfo(**s) for s in doc["systems"]],
        problems=[problems[i] for i in doc["problems_shown"]],
        files=files,
        root=doc["root"],
        set_aside=[SetAside(**a) for a in doc["set_aside"]],
        configured_reference=doc["configured_reference"],
        first_by_name=doc["first_by_name"],
    )


def _fields(obj: Any, skip: str = "") -> dict:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name != skip}
