"""The command line sets polars' allocator to return freed pages soon (peak memory at 10^7
samples), unless the user configured it; polars' own default inherited from a parent
process is not the user's choice."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SHOW = "import tuibench.cli, os; print(os.environ['_RJEM_MALLOC_CONF'])"
OURS = "dirty_decay_ms:100,muzzy_decay_ms:0"


@pytest.mark.parametrize(
    ("given", "want"),
    [
        (None, OURS),
        ("dirty_decay_ms:500,muzzy_decay_ms:1000", OURS),  # what importing polars sets
        ("narenas:2", "narenas:2"),
    ],
)
def test_allocator_setting(given, want):
    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    if given is not None:
        env["_RJEM_MALLOC_CONF"] = given
    out = subprocess.run(
        [sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == want


def test_polars_default_is_still_what_polars_sets():
    """If polars changes its default, the check above no longer recognises it."""
    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
    show = "import polars, os; print(os.environ['_RJEM_MALLOC_CONF'])"
    out = subprocess.run(
        [sys.executable, "-c", show], env=env, capture_output=True, text=True, check=True
    )
    from tuibench.process_settings import POLARS_JEMALLOC_DEFAULT

    assert out.stdout.strip() == POLARS_JEMALLOC_DEFAULT


GLIBC = (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
@pytest.mark.parametrize(
    ("given", "want"),
    [
        ({}, "True"),
        ({"MALLOC_TRIM_THRESHOLD_": "131072"}, "False"),
        ({"GLIBC_TUNABLES": "glibc.malloc.mmap_max=2"}, "False"),
    ],
)
@pytest.mark.parametrize("setting", ["reuse_freed_heap", "return_freed_heap"])
def test_malloc_settings_yield_to_the_users(given, want, setting):
    """`report` serves large arrays from glibc's heap and keeps freed memory; the explorer
    maps them on their own and returns them when freed; neither where the user's
    environment says how malloc should behave."""
    from tuibench.process_settings import GLIBC_MALLOC_SETTINGS

    unset = (*GLIBC_MALLOC_SETTINGS, "GLIBC_TUNABLES")
    env = {k: v for k, v in os.environ.items() if k not in unset} | given
    show = f"import tuibench.process_settings as c; print(c.{setting}())"
    out = subprocess.run(
        [sys.executable, "-c", show], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == want


KEPT = """
import ctypes, os, sys
import tuibench.process_settings as c
if sys.argv[1] == "explorer":
    assert c.return_freed_heap()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]

page, statm = os.sysconf("SC_PAGE_SIZE"), os.open("/proc/self/statm", os.O_RDONLY)

def rss():  # nothing read through malloc: a block above the freed ones would pin them
    return int(os.pread(statm, 200, 0).split()[1]) * page

n = c.EXPLORER_TRIM_THRESHOLD // (1 << 20) - 2  # MB: less than is kept
blocks = [libc.malloc(1 << 20) for _ in range(n)]  # below the mmap threshold: the heap
for b in blocks:
    ctypes.memset(b, 1, 1 << 20)
before = rss()
for b in reversed(blocks):
    libc.free(b)
freed = before - rss()
c.heap_trimmer()()
print(n, freed >> 20, (before - rss()) >> 20)
"""


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
@pytest.mark.parametrize(("setting", "kept"), [("explorer", True), ("default", False)])
def test_explorer_keeps_freed_heap_until_trimmed(setting, kept):
    """The explorer keeps what it frees at the top of a heap (below EXPLORER_TRIM_THRESHOLD)
    for the next blocks, which then need no fresh pages, and gives it back at the idle trim;
    glibc's default gives it back at once."""
    from tuibench.process_settings import GLIBC_MALLOC_SETTINGS

    unset = (*GLIBC_MALLOC_SETTINGS, "GLIBC_TUNABLES")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    out = subprocess.run(
        [sys.executable, "-c", KEPT, setting], env=env, capture_output=True, text=True, check=True
    )
    n, freed_at_once, freed_after_trim = map(int, out.stdout.split())
    assert freed_after_trim >= n - 1  # the n MB are back once trimmed, either way
    assert (freed_at_once < 2) == kept
