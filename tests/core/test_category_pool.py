"""The blanks check on a Categorical pool, against the names in it."""

from __future__ import annotations

import gc

import polars as pl

from tuibench.ingest.formats.category_pool import pool_has_blanks


def local(names: list[str], pool: str) -> pl.Series:
    return pl.Series(names, dtype=pl.Categorical(pl.Categories(pool)))


def expected(s: pl.Series) -> bool:
    return bool(s.dtype.categories.to_series().str.contains(r"^\s|\s$").any())


def test_the_same_answer_as_the_pool_as_text() -> None:
    for names in (["a", "b"], ["a", "b "], ["\u00a0x"], ["x\n"], ["", "y"], []):
        s = local(names, f"pool-{names!r}")
        assert pool_has_blanks(s.dtype) is expected(s)


def test_names_added_and_a_pool_freed_and_made_again() -> None:
    clean = local(["a", "b c", "d"], "reused")
    assert not pool_has_blanks(clean.dtype)
    local(["e", " f"], "reused")
    assert pool_has_blanks(clean.dtype)
    # polars frees an unused pool and hands its codes out again.
    del clean
    gc.collect()
    again = local(["g", "h\t"], "reused")
    assert pool_has_blanks(again.dtype) is expected(again) is True
