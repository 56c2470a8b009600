"""mmtests' summary statistics of the pooled samples, and its significance rule.

As `bin/lib/MMTests/Stat.pm` and `Summarise.pm` compute them over every sample of every
iteration pooled, sorted best first (ascending for lower-is-better, descending otherwise):
- the mean: arithmetic (`Amean`) or harmonic (`Hmean`, for higher-is-better);
- the standard deviation: the sample one (n - 1) for Amean; for Hmean the harmonic one,
  sqrt(sum (1/x - 1/hmean)^2 * hmean^4 / n);
- CoeffVar: 100 * SD / mean; Min, Max;
- BAmean.95 / BHmean.95: the mean (of the same kind) of the best int(0.95 n) samples (at
  least one);
- the interval of the mean (`meanci`): mean -/+ qnorm(0.975) * SD (the spread of the samples,
  not of the mean: it does not shrink with more samples);
- `cidiff` (Compare.pm): the difference of the means over the sum of the two half-widths,
  (reference - system) / (hw_reference + hw_system); mmtests stars a cell when |cidiff| > 1.
"""

from __future__ import annotations

import numpy as np

from tuibench.stats import special
from tuibench.stats.moments import segment_moments, segment_sums

Z975 = float(special.ndtri(0.975))  # R's qnorm(0.975)


def pooled_spread(
    sorted_values: np.ndarray, starts: np.ndarray, counts: np.ndarray, hmean: np.ndarray,
    higher: np.ndarray, moments: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:  # fmt: skip
    """mmtests' Min, Max, mean, SD, CoeffVar and B-mean.95 of every group.

    sorted_values: every group's samples, ascending within the group (starts, counts; the
    groups tile the array). hmean: per group, the harmonic kind; higher: per group, best
    first means descending. moments: the mean and sample variance of every group on the
    scale where its mean is arithmetic (reciprocals for Hmean), when the caller has them.
    """
    x = np.asarray(sorted_values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    n = np.asarray(counts, dtype=np.int64)
    hmean = np.asarray(hmean, dtype=bool)
    nf = n.astype(np.float64)
    has = n > 0
    first, last = np.where(has, starts, 0), np.where(has, starts + n - 1, 0)
    vmin = np.where(has, x[first] if len(x) else np.nan, np.nan)
    vmax = np.where(has, x[last] if len(x) else np.nan, np.nan)
    if moments is None:  # on the scale on which the mean is arithmetic
        _, ym, var = segment_moments(x, starts, n, reciprocal=hmean)
    else:
        ym, var = moments
    # Sorted ascending: a non-positive sample is the first, a NaN the last.
    nonpos = hmean & has & (~(vmin > 0) | np.isnan(vmax))
    # The best int(0.95 n) samples are contiguous: the lowest for lower-is-better, else the
    # highest.
    keep = np.maximum(1, (n * 95) // 100)
    top = np.asarray(higher, dtype=bool)
    best = np.where(top, starts + n - keep, starts)
    bsum = segment_sums(x, best, np.where(has, keep, 0), reciprocal=hmean)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(hmean, 1.0 / ym, ym)
        ss = var * (nf - 1)
        sd = np.where(hmean, np.sqrt(ss * mean**4 / nf), np.sqrt(var))
        sd = np.where(n > 1, sd, np.nan)
        cv = np.where(mean != 0, 100.0 * sd / mean, 0.0)
        bm = bsum / keep
        bmean = np.where(hmean, 1.0 / bm, bm)
    bad = nonpos | ~has
    nan = np.nan
    return {
        "min": vmin,
        "max": vmax,
        "mean": np.where(bad, nan, mean),
        "sd": np.where(bad, nan, sd),
        "coeffvar": np.where(bad, nan, cv),
        "bmean95": np.where(bad, nan, bmean),
    }


def cidiff(
    mean: np.ndarray, sd: np.ndarray, ref_mean: np.ndarray, ref_sd: np.ndarray
) -> np.ndarray:
    """mmtests' cidiff of a system against the reference; NaN where an SD is undefined.

    Half-widths qnorm(0.975) * SD; (reference - system) / (sum of half-widths), or the plain
    difference when both half-widths are zero (as Compare.pm does).
    """
    diff = ref_mean - mean
    cisum = Z975 * ref_sd + Z975 * sd
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(cisum == 0, diff, diff / cisum)
    return np.where(np.isnan(sd) | np.isnan(ref_sd), np.nan, out)
