"""Iteration labels of the summary's bootstrap: a dense rank per system, as polars ranks."""

import numpy as np
import polars as pl

from tuibench.analysis.compare.summary import _dense_labels


def ranked(it):
    dense = pl.col("iteration").rank("dense").over("system") - 1
    return it.select(dense.cast(pl.Int64)).to_series().to_numpy()


def frame(systems, iterations):
    return pl.DataFrame(
        {"system": pl.Series(systems).cast(pl.Enum(["b", "a", "c"])), "iteration": iterations}
    )


def test_labels_as_polars_ranks_them():
    rng = np.random.default_rng(4)
    n = 20_000
    systems = rng.choice(["a", "b", "c"], n)
    iterations = rng.choice([-3, 0, 2, 5, 9, 40], n)  # gaps, a negative, systems unequal
    it = frame(systems, iterations)
    np.testing.assert_array_equal(_dense_labels(it), ranked(it))


def test_iterations_far_apart_take_polars_rank():
    it = frame(["a", "a", "b", "b"], [0, 10**12, 7, 3])
    np.testing.assert_array_equal(_dense_labels(it), [0, 1, 1, 0])
    np.testing.assert_array_equal(_dense_labels(it), ranked(it))
