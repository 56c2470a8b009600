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
    from tuibench.cli import POLARS_JEMALLOC_DEFAULT

    assert out.stdout.strip() == POLARS_JEMALLOC_DEFAULT
