"""A bootstrap of per-system summaries that resamples whole iterations.

An iteration (one run of the suite) measures every metric at once, so its metrics move
together: resampling iteration labels jointly across metrics keeps that dependence, where
resampling each metric apart would count derived metrics as independent evidence.
"""

from __future__ import annotations

import numpy as np


def joint_weights(labels: int, b: int, rng: np.random.Generator) -> np.ndarray:
    """B x L resampling counts: each row draws L iteration labels with replacement."""
    draws = rng.integers(0, labels, size=(b, labels))
    w = np.zeros((b, labels))
    np.add.at(w, (np.repeat(np.arange(b), labels), draws.ravel()), 1.0)
    return w


def resampled_means(y: np.ndarray, present: np.ndarray, w: np.ndarray) -> np.ndarray:
    """B x M means of the iteration values y (L x M; 0 where absent) under weights w (B x L).

    A metric with none of its iterations drawn in a replicate gets NaN there.
    """
    # Matrix products: call inside `one_blas_thread` (threaded BLAS on these small products
    # took 2.5x the wall time at 10 M samples; einsum, 4x that of one thread).
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # huge values: inf
        total = w @ y
        # Every metric with every iteration: the count is the row's total.
        count = w.sum(axis=1, keepdims=True) if present.all() else w @ present
        return total / count
