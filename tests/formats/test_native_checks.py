"""The native reader's row checks on names (coded as Categorical): against a plain loop."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.ingest.formats import native

NAMES = st.sampled_from(["a", " a", "a\t", "b", "", "  ", None])
UNITS = st.sampled_from(["ms", " ms", "", None])


def _strip(v: str | None) -> str | None:
    return None if v is None else v.strip()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAMES, NAMES, UNITS, st.sampled_from(["LOWER", "higher ", None])),
                min_size=1, max_size=30), st.booleans())  # fmt: skip
def test_names_are_stripped_empty_ones_refused_or_null(rows, coded):
    raw = pl.DataFrame(
        rows, schema=["benchmark", "metric", "unit", "better"], orient="row"
    ).with_columns(pl.lit("1").alias("value"))
    if coded:  # a Parquet file written from Categorical columns reads back as Categorical
        raw = raw.with_columns(pl.col("benchmark", "metric", "unit", "better").cast(pl.Categorical))
    frame, bad = native._checked(raw, 2)
    want, bad_lines = [], []
    for line, (b, m, u, d) in enumerate(rows, start=2):
        b, m, u, d = _strip(b), _strip(m), _strip(u) or None, _strip(d)
        d = d.lower() if d else None
        if not b or not m:
            bad_lines.append(line)
        else:
            want.append({"benchmark": b, "metric": m, "unit": u, "better": d})
    got = frame.select(pl.col("benchmark", "metric", "unit", "better").cast(pl.String))
    assert got.to_dicts() == want
    assert (bad["__line"].to_list() if bad.height else []) == bad_lines
