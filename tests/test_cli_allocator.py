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
