"""t quantiles of one df for every row are solved once: the same bits as solving each."""

import numpy as np
import pytest

from tuibench.stats import special, t_quantile


@pytest.mark.parametrize("df", [1.0, 2.0, 4.0, 9.0, 29.0, 7.3, 1e6])
@pytest.mark.parametrize("q", [0.975, 0.995, 0.6])
def test_one_df_solved_once_gives_every_bit(df, q):
    d = np.full(5000, df)
    d[::7] = 0.5  # below 1: NaN, left out
    got = t_quantile(q, d)
    assert np.isnan(got[::7]).all()
    keep = d >= 1
    np.testing.assert_array_equal(got[keep], special.stdtrit(d[keep], q))


def test_several_dfs_solved_together_as_before():
    d = np.repeat([2.0, 3.0, 11.5], 1000)
    np.testing.assert_array_equal(t_quantile(0.975, d), special.stdtrit(d, 0.975))
