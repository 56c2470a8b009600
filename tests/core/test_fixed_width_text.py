"""A String column as numpy fixed-width text: the same array, values and width, as
converting every value (`fill_null("").to_numpy().astype(str)`)."""

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.analysis.compare.frames import fixed_width_text


def every_value(s: pl.Series) -> np.ndarray:
    return s.fill_null("").to_numpy().astype(str)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["", "amean", "hmean", " x", "é\u2028"]))))
def test_as_every_value_converted(values):
    s = pl.Series("k", values, dtype=pl.String)
    got, want = fixed_width_text(s), every_value(s)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("values", [[], [None, None], ["lower", None, "higher", "lower"]])
def test_edges(values):
    s = pl.Series("k", values, dtype=pl.String)
    got, want = fixed_width_text(s), every_value(s)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
