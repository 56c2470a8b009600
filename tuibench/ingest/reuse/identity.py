"""The identity of results on disk, without reading them and without polars: each file's
path, size, modification and change times, inode and device, and what discovery found.

The load's cache (load_cache.py) keys its entries by it, and the explorer's replayed first
frame (tui/terminal/first_frame.py) checks it before polars is imported.
"""

from __future__ import annotations

import os
from pathlib import Path

from tuibench.ingest.discover import Discovery
from tuibench.ingest.reuse import cache


def file_key(path: Path | str) -> tuple | None:
    """What identifies a file's content without reading it; None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def files(found: Discovery) -> bytes | None:
    """A digest of the files `found` names and of what discovery made of them; None when
    a file cannot be stat'ed."""
    units = []
    for u in found.units:
        k = file_key(u.path)
        if k is None:
            return None
        units.append((u.system, os.fsencode(u.path), u.iteration, u.rank, k))
    config = (os.fsencode(found.config), file_key(found.config)) if found.config else None
    # Readers also read files beside theirs (shellpack.yaml, asv's benchmarks.json,
    # Criterion's benchmark.json), which discovery sets aside: their identities count too.
    aside = [(a.path, file_key(a.path)) for a in found.set_aside]
    return cache.digest(
        found.root,
        found.roots,
        units,
        [repr(s) for s in found.systems],
        [repr(p) for p in found.problems],
        [repr(a) for a in found.set_aside],
        aside,
        config,
    )


def cacheable(found: Discovery) -> bool:
    """Whether what `found` found may be cached: the cache is on and its folder does not
    lie inside the results (nothing is ever written there)."""
    if not cache.enabled():
        return False
    folder = cache.folder()
    if folder is None:  # no cache folder: nothing is written anywhere
        return True
    where = os.path.realpath(folder)
    folders = {os.path.dirname(u.path) for u in found.units}  # few distinct ones
    tops = {*found.roots, *(os.path.realpath(d or ".") for d in folders)}
    return not any(os.path.commonpath([where, t]) == t for t in tops)
