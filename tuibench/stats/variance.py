"""Kalibera-Jones variance components: within and between iterations."""

from __future__ import annotations

import numpy as np

from tuibench.stats.moments import group_moments


def variance_components(
    it_n: np.ndarray, it_mean: np.ndarray, it_var: np.ndarray, group: np.ndarray, ngroups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kalibera-Jones variance components per group, from per-iteration moments.

    Within: the pooled within-iteration variance of the samples (sum of squares over the
    iterations' own means, over sum(n_i - 1)). Between: the variance of the iteration means
    (ddof 1) minus the part the within variance explains, var_within * mean(1/n_i), floored
    at 0. Also returns mean(1/n_i), so that the within part of an iteration mean's variance
    is var_within * mean(1/n_i). NaN where undefined (no sample pairs; fewer than two
    iterations for the between part).
    """
    ss = np.where(it_n > 1, (it_n - 1) * np.nan_to_num(it_var), 0.0)
    df = np.bincount(group, weights=np.maximum(it_n - 1, 0), minlength=ngroups)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = np.bincount(group, weights=ss, minlength=ngroups) / df
        within[df == 0] = np.nan
        k, _, var_means = group_moments(it_mean, group, ngroups)
        inv_n = np.bincount(group, weights=1.0 / it_n, minlength=ngroups) / k
        between = np.maximum(0.0, var_means - within * inv_n)
    between[np.isnan(var_means) | np.isnan(within)] = np.nan
    return within, between, inv_n
