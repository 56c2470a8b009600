"""Whether any name coded so far in a Categorical pool has surrounding blanks.

Categorical columns share polars' categories (the global pool unless told otherwise); when
no name in a column's pool has blanks, the column has none and need not be stripped.
`Categories.to_series()` builds the pool's strings one by one in Python (0.06 s for each
file at 20,000 names); here polars turns the pool's codes into its names. (The pool is
looked at whole each time: polars frees a pool nobody uses and hands its codes out again,
so what was seen at a code before says nothing.)
"""

from __future__ import annotations

import numpy as np
import polars as pl


def pool_has_blanks(dtype: pl.Categorical) -> bool:
    """Whether some name in `dtype`'s pool begins or ends with white space."""
    cats = dtype.categories
    try:
        # No public count of the codes handed out (to_series() is the slow path).
        upper = int(cats._categories.num_cats_upper_bound())
    except AttributeError:  # a polars without it
        return blanks(cats.to_series())
    codes = pl.Series(np.arange(upper), dtype=cats.physical())
    # A code reserved by a concurrent query may have no name yet: null, as in to_series().
    return blanks(codes.cat.to(dtype, strict=False).cast(pl.String))


def blanks(names: pl.Series) -> bool:
    return bool(names.str.contains(r"^\s|\s$").any())
