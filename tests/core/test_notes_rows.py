"""`frames.notes` joins only the rows and conditions that hold, once per pattern of fixed
texts, and `frames.join_notes` once per distinct pair: the same notes as joining every row
with every condition (the plain polars expressions they replace)."""

import numpy as np
import polars as pl
import pytest

from tuibench.analysis.compare.frames import join_notes, notes


def _every_row(*conds, data=None) -> pl.Series:
    """The plain way: every condition's text made for every row, then joined."""
    n = len(conds[0][0])
    cols = {f"_c{i}": np.asarray(m, dtype=bool) for i, (m, _) in enumerate(conds)}
    frame = pl.DataFrame({**cols, **(data or {})}, height=n)
    parts = [
        pl.when(pl.col(f"_c{i}")).then(t if isinstance(t, pl.Expr) else pl.lit(t))
        for i, (_, t) in enumerate(conds)
    ]
    joined = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    return frame.select(pl.when(joined != "").then(joined).alias("note")).to_series()


@pytest.mark.parametrize("share", [0.0, 0.001, 0.3, 1.0])
def test_notes_are_those_of_every_row(share):
    rng = np.random.default_rng(7)
    n = 5000
    masks = [rng.random(n) < share for _ in range(3)]
    masks.append(np.zeros(n, dtype=bool))  # never holds
    name = pl.Series([f"bench-{i}" if i % 9 else None for i in range(n)])
    count = np.arange(n, dtype=np.int64)
    conds = (
        (masks[0], "a fixed text"),
        (masks[1], pl.format("{} has {} samples", pl.col("_b"), pl.col("k"))),
        (masks[2], ""),  # an empty text: no note by itself
        (masks[3], pl.format("never {}", pl.col("_b"))),
    )
    data = {"_b": name, "k": count}
    got = notes(*conds, data=data)
    want = _every_row(*conds, data=data)
    assert got.name == "note" and got.dtype == pl.String and got.len() == n
    assert got.equals(want)
    assert got.null_count() == n if share == 0 else got.null_count() < n


def test_no_condition_and_no_rows():
    assert notes((np.zeros(0, dtype=bool), "x")).len() == 0
    got = notes((np.zeros(3, dtype=bool), "x"))
    assert got.dtype == pl.String and got.null_count() == 3


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_fixed_texts_only(share):
    """Every pattern of fixed texts (an empty one among them) as joining every row."""
    rng = np.random.default_rng(11)
    n = 4000
    conds = tuple(
        (rng.random(n) < share, text) for text in ("first", "", "second; with a separator", "x")
    )
    got = notes(*conds)
    assert got.equals(_every_row(*conds))
    assert got.len() == n and got.dtype == pl.String


def _plain_join(first: pl.Series, second: pl.Series) -> pl.Series:
    """The plain way: both joined on every row."""
    joined = pl.concat_str([pl.col("a"), pl.col("b")], separator="; ", ignore_nulls=True)
    frame = pl.DataFrame({"a": first, "b": second})
    return frame.select(pl.when(joined != "").then(joined).alias("note")).to_series()


@pytest.mark.parametrize("distinct", [1, 3, 2000])
def test_join_notes_is_the_plain_join(distinct):
    rng = np.random.default_rng(distinct)
    n = 6000
    pool = ["", "a note", "another; note", *(f"note {i}" for i in range(distinct))]

    def column() -> pl.Series:
        values = [pool[i] for i in rng.integers(0, min(len(pool), distinct + 3), n)]
        return pl.Series(values, dtype=pl.String).scatter(np.flatnonzero(rng.random(n) < 0.3), None)

    first, second = column(), column()
    got = join_notes(first, second)
    assert got.name == "note" and got.equals(_plain_join(first, second))
    nulls = pl.repeat(None, n, dtype=pl.String, eager=True)
    assert join_notes(first, nulls).equals(_plain_join(first, nulls))
    assert join_notes(nulls, nulls).null_count() == n
    assert join_notes(nulls[:0], nulls[:0]).len() == 0
