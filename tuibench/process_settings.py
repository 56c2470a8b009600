"""Settings of the process, made before polars and numpy load: allocators and threads.

Each is measured (the comments say on what) and each yields to a value the user set in
the environment. `cli` applies them; nothing else should. One more is an act, not a setting:
`heap_trimmer`, which the explorer calls once work is done (idle_gc.py, a view's worker).
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Callable

# polars' allocator (jemalloc) keeps freed pages for seconds, where numpy's allocations
# cannot reuse them: at 10^7 samples the text columns of a file read once stayed resident
# beside the analysis (peak 1.25 to 1.54 GB; with pages returned after 0.1 s, 1.0 to 1.15 GB
# at the same speed). Read when polars loads, so set before any command imports it. A value
# given by the user stands; polars' own default, which a process started from one that
# imported polars inherits, does not.
POLARS_JEMALLOC_DEFAULT = "dirty_decay_ms:500,muzzy_decay_ms:1000"


def return_freed_pages() -> None:
    """jemalloc gives freed pages back after 0.1 s (unless the user set it)."""
    if os.environ.get("_RJEM_MALLOC_CONF", "") not in ("", POLARS_JEMALLOC_DEFAULT):
        return
    os.environ["_RJEM_MALLOC_CONF"] = "dirty_decay_ms:100,muzzy_decay_ms:0"
    # Under `ulimit -v` address space is the budget: jemalloc then gives back what it
    # freed instead of keeping it mapped (a report mapped 8 GB with it kept, 4.35 without).
    from tuibench.util.memory_limits import address_space_limited

    if address_space_limited():
        os.environ["_RJEM_MALLOC_CONF"] += ",retain:false"


# glibc's malloc (numpy's arrays) maps every allocation above 32 MB afresh and unmaps it when
# freed: each temporary of 10^7 values costs page faults on zeroed pages, and a 10 M-sample
# report spent 1.3 to 1.9 s of its 3.3 s in the kernel. Serving them from the heap and keeping
# freed memory for the next ones: 2.7 to 2.9 s, the same peak (the arrays alive at the peak
# are the same). For `report` only: a one-shot process (the explorer would keep its
# largest heap for good). Settings the user gave (environment) stand.
GLIBC_MALLOC_SETTINGS = ("MALLOC_MMAP_MAX_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")
# mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_MMAP_MAX, M_ARENA_MAX = -1, -3, -4, -8
# Worker threads' arrays and the JSON writer's blocks came from arenas of their own, whose
# heaps are unmapped when they empty: one arena for all keeps that memory for the next
# ones too (200,000 metrics: 0.9 M page faults to 0.7 M, peak 1.54-1.67 GB to 1.47-1.52 GB;
# 10^7 samples in 2 metrics: 0.54 M to 0.45 M, 0.85-0.97 GB to 0.74-0.78 GB). A
# MALLOC_ARENA_MAX the user set stands. glibc fixes the number of arenas when a second
# thread first allocates: `reuse_freed_heap` must come before any thread starts.

# The explorer lives on, so freed memory must go back. glibc raises its mmap threshold to
# the size of each large block freed (up to 32 MB): the explorer's later temporaries of a
# few MB then came from the heaps of its worker threads and stayed there. A fixed
# threshold keeps each block above it mapped on its own and unmapped when freed: at a
# million metrics x 2 systems the peak was 5.5-5.6 GB against 5.7-5.9 GB (two runs of
# each, alternated, benchmarks/bench_farm_explorer.py's explorer); at 20,000 metrics no
# array reaches it.
EXPLORER_MMAP_THRESHOLD = 4 << 20
# Below that threshold, glibc gives the top of a heap back as soon as more than 128 KB of
# it is free, and the next block of a few MB faults in zeroed pages again: at 20,000
# metrics x 2 systems the load, analysis and first session took 93,000-127,000 page faults
# and 0.84-0.97 s in a bare process; with up to 8 MB kept, 73,000-85,000 and 0.82-0.86 s.
# In the explorer (startup_timeline.py --wide, six alternated pairs) the analysis and the
# first session took 40 ms less each, the first frame with results 1.59 s against 1.68
# (medians). At a million metrics the peak was 3,618 MiB against 3,606 (32 MB kept: 3,783,
# a freed top kept in each thread's heap). What stays is given back when the explorer is
# idle (`heap_trimmer`).
EXPLORER_TRIM_THRESHOLD = 8 << 20


def _mallopt():
    """glibc's mallopt, or None (another C library, or the user set malloc's settings)."""
    if any(k in os.environ for k in GLIBC_MALLOC_SETTINGS) or "glibc.malloc" in os.environ.get(
        "GLIBC_TUNABLES", ""
    ):
        return None
    import ctypes

    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return None
        return ctypes.CDLL(None).mallopt
    except (ValueError, OSError, AttributeError):  # no such name here: not glibc
        return None


def reuse_freed_heap() -> bool:
    """Large allocations from glibc's heap, freed memory kept; whether it was set."""
    mallopt = _mallopt()
    if mallopt is None:
        return False
    kept = bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, 1 << 30))
    if kept and "MALLOC_ARENA_MAX" not in os.environ:
        mallopt(M_ARENA_MAX, 1)
    return kept


def return_freed_heap() -> bool:
    """Large allocations mapped on their own and returned when freed, the heaps' free tops
    kept up to a bound until the idle trim (the explorer); whether it was set."""
    mallopt = _mallopt()
    if mallopt is None or not mallopt(M_MMAP_THRESHOLD, EXPLORER_MMAP_THRESHOLD):
        return False
    return bool(mallopt(M_TRIM_THRESHOLD, EXPLORER_TRIM_THRESHOLD))


@functools.cache
def heap_trimmer() -> Callable[[], object] | None:
    """glibc's `malloc_trim(0)`: the free pages inside its heaps given back to the system
    (None under another C library, or where the user set malloc's settings). Below
    EXPLORER_MMAP_THRESHOLD blocks come from the heaps, and what they free stays there: the
    explorer at a million metrics held 0.45-0.5 GB of it at rest (a trim took 39 ms; with
    nothing to give back, 0.3 ms)."""
    if _mallopt() is None:
        return None
    import ctypes

    trim = ctypes.CDLL(None).malloc_trim
    return lambda: trim(0)


def numpy_settings() -> None:
    """BLAS on one thread and no transparent huge pages (see `cli.run`), unless set."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


def pause_collection() -> None:
    """The explorer: no cyclic garbage collection while it imports Textual, polars, numpy and
    its own modules, which make many objects and no garbage (the collector took about 12 %
    of their CPU time, 50 ms before the first frame with results). The loading thread turns
    it on again once it has imported what it needs (`resume_collection`)."""
    gc.disable()


def resume_collection() -> None:
    """The collector on again after the imports `pause_collection` was for. What they made
    is frozen first: the young generation held all of it (125,000 objects), and the first
    collection after `enable` took 70 ms."""
    gc.freeze()
    gc.enable()
