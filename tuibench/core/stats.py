"""Vectorised statistics over many groups at once (numpy/scipy only: no polars, no I/O).

Groups are contiguous runs in flat arrays, described by `starts` and `counts`. Every
function works on all groups in one go; the only Python loops are over distinct group
sizes (a handful), never over groups.

The method (DESIGN.md, "Statistics"):
1. per iteration, the median of B subselection means (80 % of the samples, without
   replacement), of the mean kind (arithmetic, or harmonic for rates);
2. per system, the mean of those values with a Student t interval across iterations
   (on reciprocals for harmonic means);
3. against the reference, Welch's t-test with Welch-Satterthwaite degrees of freedom.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

SUBSET_FRACTION = 0.8
CHUNK = 1 << 22  # gathered elements per block: bounds memory on huge inputs
SORT_CHUNK = 1 << 20  # elements per block of rows sorted at once: small enough to reuse memory

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: a stable, well-spread hash of uint64 values."""
    with np.errstate(over="ignore"):
        x = (x + _GOLDEN).astype(np.uint64)
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
        return x ^ (x >> np.uint64(31))


def subset_size(n: int | np.ndarray) -> int | np.ndarray:
    return np.maximum(1, np.floor(SUBSET_FRACTION * np.asarray(n) + 1e-9).astype(np.int64))


@lru_cache(maxsize=256)
def selection_matrix(n: int, b: int, seed: int) -> np.ndarray:
    """B x n matrix of 0/1: row j selects a uniformly random subset of floor(0.8 n) samples.

    Depends only on (n, B, seed), never on what else is loaded.
    """
    m = int(subset_size(n))
    rng = np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, n, b])
    picks = np.argsort(rng.random((b, n)), axis=1)[:, :m]
    sel = np.zeros((b, n))
    np.put_along_axis(sel, picks, 1.0, axis=1)
    sel.flags.writeable = False
    return sel


def group_shift(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray, seed: int
) -> np.ndarray:
    """A per-group rotation in [0, n) derived from the seed and the group's own values.

    Rotating a group's samples before applying the shared selection matrix gives each group
    its own subsets, while keeping every number a function of that group's data only.
    """
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    h = _mix(bits ^ _mix(np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)))
    with np.errstate(over="ignore"):
        total = np.add.reduceat(h, starts) if len(starts) else h[:0]
    return (_mix(total) % counts.astype(np.uint64)).astype(np.int64)


def iteration_values(
    values: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    hmean: np.ndarray,
    b: int = 100,
    seed: int = 0,
) -> np.ndarray:
    """The robust value of every iteration: median of `b` subselection means.

    values: all samples, each iteration's samples contiguous; starts/counts: one entry per
    iteration; hmean: per iteration, True for the harmonic mean. An Hmean iteration with a
    non-positive sample has no harmonic mean: NaN (the caller says why).
    """
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    hmean = np.asarray(hmean, dtype=bool)
    out = np.empty(len(starts))
    if len(starts) == 0:
        return out
    per_sample_h = np.repeat(hmean, counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(per_sample_h, np.where(values > 0, 1.0 / values, np.nan), values)
    shift = group_shift(values, starts, counts, seed)

    single = counts == 1
    out[single] = values[starts[single]]
    out[single & hmean & ~(values[starts] > 0)] = np.nan
    for n in np.unique(counts[counts > 1]):
        idx = np.flatnonzero(counts == n)
        sel_t = selection_matrix(int(n), b, seed).T  # n x B
        m = float(subset_size(n))
        cols = np.arange(n)
        step = max(1, CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            gather = starts[part, None] + (cols[None, :] + shift[part, None]) % n
            means = (x[gather] @ sel_t) / m  # groups x B
            h = hmean[part]
            if h.any():
                with np.errstate(divide="ignore"):
                    means[h] = 1.0 / means[h]
            out[part] = np.median(means, axis=1)
    return out


def group_moments(
    x: np.ndarray, group: np.ndarray, ngroups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and sample variance (ddof 1; NaN below 2) of `x` per group id."""
    n = np.bincount(group, minlength=ngroups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=x, minlength=ngroups) / n
        dev = x - mean[group]
        var = np.bincount(group, weights=dev * dev, minlength=ngroups) / (n - 1)
    var[n < 2] = np.nan
    return n, mean, var


def t_quantile(q: float, df: np.ndarray) -> np.ndarray:
    """Student t quantile, vectorised; NaN where df < 1."""
    df = np.asarray(df, dtype=np.float64)
    out = np.full(df.shape, np.nan)
    ok = df >= 1
    out[ok] = special.stdtrit(df[ok], q)
    return out


def t_interval(
    mean: np.ndarray, var: np.ndarray, n: np.ndarray, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Student t interval for the mean: mean -/+ t(1-a/2, n-1) s / sqrt(n)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        half = t_quantile(0.5 + level / 2, n - 1) * np.sqrt(var / n)
    return mean - half, mean + half


def welch(
    m1: np.ndarray, v1: np.ndarray, n1: np.ndarray, m2: np.ndarray, v2: np.ndarray, n2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Welch t-test from moments: (p-value, Welch-Satterthwaite df).

    Same as scipy.stats.ttest_ind(a, b, equal_var=False). Where both variances are zero the
    test is degenerate: p = 1 for equal means and p = 0 for different ones (an exact,
    noiseless difference). NaN where a side has fewer than two values.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        a, b = v1 / n1, v2 / n2
        se2 = a + b
        t = (m1 - m2) / np.sqrt(se2)
        df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
        p = 2.0 * special.stdtr(df, -np.abs(t))
    zero = (v1 == 0) & (v2 == 0)
    p = np.where(zero, np.where(m1 == m2, 1.0, 0.0), p)
    df = np.where(zero, n1 + n2 - 2, df)
    bad = (n1 < 2) | (n2 < 2) | np.isnan(v1) | np.isnan(v2)
    p = np.where(bad, np.nan, p)
    return p, df


# -- noise: Tukey fences, relative standard deviation, variance components ---------------

MILD, EXTREME = 1.5, 3.0  # Tukey's fences, in interquartile ranges


def tukey(
    values: np.ndarray, starts: np.ndarray, counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tukey's fences of every group and how many of its samples lie beyond them.

    Quartiles by numpy's default (linear interpolation). Mild fences: Q1 - 1.5 IQR and
    Q3 + 1.5 IQR; extreme: Q1 - 3 IQR and Q3 + 3 IQR. Returns per group (low fence, high
    fence, samples below the low mild fence, above the high mild fence, beyond an extreme
    fence on either side). The median always lies inside the mild fences, so removing the
    samples beyond them never empties a group.
    """
    values = np.asarray(values, dtype=np.float64)
    ng = len(starts)
    low, high = np.empty(ng), np.empty(ng)
    n_low, n_high, n_ext = (np.zeros(ng, dtype=np.int64) for _ in range(3))
    for n in np.unique(counts):
        idx = np.flatnonzero(counts == n)
        cols = np.arange(n)
        step = max(1, SORT_CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            x = np.sort(values[starts[part, None] + cols[None, :]], axis=1)
            q = []
            for frac in (0.25, 0.75):
                pos = frac * (n - 1)
                i = int(np.floor(pos))
                j = min(i + 1, int(n) - 1)
                q.append(x[:, i] + (pos - i) * (x[:, j] - x[:, i]))
            q1, q3 = q
            iqr = q3 - q1
            low[part], high[part] = q1 - MILD * iqr, q3 + MILD * iqr
            n_low[part] = (x < low[part, None]).sum(axis=1)
            n_high[part] = (x > high[part, None]).sum(axis=1)
            ext = (x < (q1 - EXTREME * iqr)[:, None]) | (x > (q3 + EXTREME * iqr)[:, None])
            n_ext[part] = ext.sum(axis=1)
    return low, high, n_low, n_high, n_ext


def group_sums(flags: np.ndarray, group: np.ndarray, ngroups: int) -> np.ndarray:
    """How many flags are set per group id (integers)."""
    w = np.asarray(flags, dtype=np.float64)
    return np.bincount(group, weights=w, minlength=ngroups).round().astype(np.int64)


def pooled_moments(
    it_n: np.ndarray, it_mean: np.ndarray, it_var: np.ndarray, group: np.ndarray, ngroups: int
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sample variance (ddof 1) of all the samples of each group, from the moments
    of its parts (iterations): no second pass over the samples."""
    n = np.bincount(group, weights=it_n, minlength=ngroups)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=it_n * it_mean, minlength=ngroups) / n
        dev = it_mean - mean[group]
        ss = np.where(it_n > 1, (it_n - 1) * np.nan_to_num(it_var), 0.0) + it_n * dev * dev
        var = np.bincount(group, weights=ss, minlength=ngroups) / (n - 1)
    var[n < 2] = np.nan
    return mean, var


def relative_sd(mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """Relative standard deviation in percent, 100 s / |mean|; NaN where undefined."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 100.0 * np.sqrt(var) / np.abs(mean)
    return np.where(np.isfinite(out), out, np.nan)


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


# -- Mann-Whitney U for every pair of labels within blocks ------------------------------

EXACT_MAX = 8  # scipy's method='auto': exact when a side has at most 8 values and no ties


def _block_sort(
    values: np.ndarray, labels: np.ndarray, starts: np.ndarray, counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sort every block's values in place of the block; the labels follow their values."""
    out = np.empty(len(values), dtype=np.float64)
    lab = np.empty(len(values), dtype=labels.dtype)
    for n in np.unique(counts[counts > 0]):
        idx = np.flatnonzero(counts == n)
        cols = np.arange(n)
        step = max(1, SORT_CHUNK // int(n))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            first, size = int(starts[part[0]]), len(part) * int(n)
            if int(starts[part[-1]]) - first == size - n:  # adjacent blocks: plain slices
                where = slice(first, first + size)
            else:
                where = (starts[part, None] + cols[None, :]).ravel()
            block = values[where].reshape(len(part), n)
            within = np.argsort(block, axis=1)
            out[where] = np.take_along_axis(block, within, axis=1).ravel()
            tags = labels[where].reshape(len(part), n)
            lab[where] = np.take_along_axis(tags, within, axis=1).ravel()
    return out, lab


def mwu_pairs(
    values: np.ndarray, labels: np.ndarray, starts: np.ndarray, counts: np.ndarray, nlabels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mann-Whitney U statistics between every ordered pair of labels inside every block.

    values, labels: one entry per sample, each block's samples contiguous (starts, counts);
    labels are 0..nlabels-1 (the systems). Returns, with B blocks and S labels:
    - u[b, a, c]: scipy's U1 of `mannwhitneyu(x_a, x_c)` (pairs a > c count 1, ties 1/2);
    - n[b, a]: how many samples label a has in block b;
    - tie[b, a, c]: sum of t^3 - t over the tied values of the union of a and c.
    One sort per block and one cumulative count per label: no loop over blocks or pairs.
    """
    values = np.asarray(values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    nb, s = len(starts), nlabels
    u = np.zeros((nb, s, s))
    tie = np.zeros((nb, s, s))
    if len(values) == 0:
        return u, np.zeros((nb, s)), tie
    small = np.int8 if s < 128 else np.int64
    v, lab = _block_sort(values, np.asarray(labels).astype(small, copy=False), starts, counts)
    # The (block, label) cell of every sorted sample, for bincount.
    cell = np.repeat(np.arange(nb, dtype=np.int64) * s, counts)
    cell += lab
    n = np.bincount(cell, minlength=nb * s).reshape(nb, s).astype(np.float64)

    # Runs of equal values inside a block (ties), found among the sorted values.
    first = np.zeros(len(v), dtype=bool)
    first[starts[counts > 0]] = True
    same = np.zeros(len(v), dtype=bool)  # same[i]: equal to the value before, same block
    np.equal(v[1:], v[:-1], out=same[1:])
    same &= ~first
    del first, v
    nxt = np.r_[same[1:], False]  # equal to the value after
    t_idx = np.flatnonzero(same | nxt)  # every position in a run of two or more
    if len(t_idx):
        run_start = np.maximum.accumulate(np.where(same[t_idx], 0, t_idx))
        last = np.where(nxt[t_idx], len(same), t_idx)
        run_end = np.minimum.accumulate(last[::-1])[::-1] + 1  # one past the run
    del nxt

    block_start = np.zeros((nb, 1), dtype=np.float64)
    # Buffers reused for every label: fresh ones would be page-faulted in again each time.
    mask = np.empty(len(lab), dtype=bool)
    seen = np.empty(len(lab), dtype=np.float64)
    for c in range(s):
        # seen[i]: how many samples of label c sit at positions <= i (global count). For
        # a sample of another label that is also the count strictly before it. (Counts in
        # float64 are exact and are what bincount sums without a converted copy.)
        np.equal(lab, c, out=mask)
        np.cumsum(mask, out=seen)
        total = np.bincount(cell, weights=seen, minlength=nb * s).reshape(nb, s)
        block_start[:, 0] = np.where(starts > 0, seen[np.maximum(starts - 1, 0)], 0)
        if len(t_idx):  # a tie counts one half: (less + less_or_equal) / 2
            below = np.where(run_start > 0, seen[np.maximum(run_start - 1, 0)], 0)
            upto = seen[run_end - 1]
            fix = 0.5 * (below + upto) - seen[t_idx]
            total += np.bincount(cell[t_idx], weights=fix, minlength=nb * s).reshape(nb, s)
        u[:, :, c] = total - n * block_start

    if len(t_idx):
        run_id = np.cumsum(~same[t_idx])  # the tied runs, numbered 1, 2, ...
        run_id -= 1
        nr = int(run_id.max()) + 1
        cnt = np.bincount(run_id * s + lab[t_idx], minlength=nr * s).reshape(nr, s)
        cnt = cnt.astype(np.float64)
        run_block = np.zeros(nr, dtype=np.int64)
        run_block[run_id] = cell[t_idx] // s
        rb = np.repeat(run_block * s, s) + np.tile(np.arange(s), nr)  # (run, label) -> cell
        own = np.bincount(rb, weights=(cnt**3 - cnt).ravel(), minlength=nb * s).reshape(nb, s)
        cross = np.zeros((nb, s, s))  # cross[b, a, c] = sum over runs of cnt_a^2 cnt_c
        for a in range(s):
            w = (cnt[:, a : a + 1] ** 2 * cnt).ravel()
            cross[:, a, :] = np.bincount(rb, weights=w, minlength=nb * s).reshape(nb, s)
        tie = own[:, :, None] + own[:, None, :] + 3 * (cross + cross.transpose(0, 2, 1))
    return u, n, tie


def _mwu_counts(m: int, n: int, kmax: int) -> np.ndarray:
    """How many of the C(m+n, m) arrangements give U = 0..kmax (m <= n, no ties).

    The counts are the coefficients of the Gaussian binomial [m+n, m]_q =
    prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), truncated at degree kmax (both steps only move
    mass upwards, so truncation is exact). Exact integers: int64 while they fit, Python
    integers beyond.
    """
    exact_int = math.comb(m + n, m) < (1 << 62)
    c = np.zeros(kmax + 1, dtype=np.int64 if exact_int else object)
    c[0] = 1
    for i in range(1, m + 1):
        shift = n + i
        if shift <= kmax:  # times (1 - q^shift)
            c[shift:] = c[shift:] - c[: kmax + 1 - shift]
        for r in range(i):  # divided by (1 - q^i): a running sum with stride i
            c[r::i] = np.cumsum(c[r::i])
    return c


@lru_cache(maxsize=512)
def _mwu_exact_cdf(m: int, n: int, kmax: int) -> np.ndarray:
    """P(U <= k) for k = 0..kmax under the null (no ties), m <= n."""
    total = math.comb(m + n, m)
    cum = np.cumsum(_mwu_counts(m, n, kmax))
    return np.array([int(x) / total for x in cum], dtype=np.float64)


def mwu_pvalue(u: np.ndarray, n1: np.ndarray, n2: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """Two-sided Mann-Whitney p-value, as `scipy.stats.mannwhitneyu` (method='auto').

    Exact when a side has at most 8 values and there are no ties; otherwise the normal
    approximation with tie correction and continuity correction. NaN where a side is empty.
    """
    u, n1, n2, tie = (np.asarray(a, dtype=np.float64) for a in np.broadcast_arrays(u, n1, n2, tie))
    umax = np.maximum(u, n1 * n2 - u)
    n = n1 + n2
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))))
        z = (umax - n1 * n2 / 2 - 0.5) / sd
    p = np.array(2.0 * special.ndtr(-z), dtype=np.float64)
    exact = (np.minimum(n1, n2) <= EXACT_MAX) & (tie == 0) & (n1 > 0) & (n2 > 0)
    if exact.any():
        lo = np.minimum(n1, n2)[exact].astype(np.int64)
        hi = np.maximum(n1, n2)[exact].astype(np.int64)
        umin = np.rint(n1 * n2 - umax)[exact].astype(np.int64)  # P(U >= umax) = P(U <= umin)
        pe = np.empty(len(lo))
        pairs = lo * (hi.max() + 1) + hi
        for key in np.unique(pairs):
            sel = pairs == key
            m_, n_ = int(lo[sel][0]), int(hi[sel][0])
            cdf = _mwu_exact_cdf(m_, n_, int(umin[sel].max()))
            pe[sel] = 2.0 * cdf[umin[sel]]
        p[exact] = pe
    p = np.clip(p, 0.0, 1.0)
    return np.where((n1 > 0) & (n2 > 0), p, np.nan)


def mwu_min_p(n1: np.ndarray, n2: np.ndarray) -> np.ndarray:
    """Smallest two-sided exact p-value attainable: 2 / C(n1 + n2, n1), capped at 1."""
    n1, n2 = np.asarray(n1, dtype=np.float64), np.asarray(n2, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        log_c = special.gammaln(n1 + n2 + 1) - special.gammaln(n1 + 1) - special.gammaln(n2 + 1)
        p = np.minimum(1.0, 2.0 * np.exp(-log_c))
    return np.where((n1 > 0) & (n2 > 0), p, np.nan)


def mwu_samples_for(alpha: float) -> int:
    """Fewest samples per side with which the U test can reach p < alpha."""
    n = 1
    while 2.0 / math.comb(2 * n, n) >= alpha:
        n += 1
    return n


# -- ratio of centres, false discovery rate, sample size ---------------------------------


def fieller(
    num: np.ndarray,
    var_num: np.ndarray,
    den: np.ndarray,
    var_den: np.ndarray,
    df: np.ndarray,
    level: float = 0.95,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fieller's interval for num / den from two independent means and their variances.

    var_num, var_den: variances of the means (s^2 / k). The t quantile uses `df` (Welch-
    Satterthwaite). Returns (low, high, unbounded): unbounded where the denominator is not
    significantly different from 0 (den^2 <= t^2 var_den): the interval is then not a
    finite range, and low/high are NaN.
    """
    t = t_quantile(0.5 + level / 2, df)
    t2 = t * t
    with np.errstate(invalid="ignore", divide="ignore"):
        a = den * den - t2 * var_den
        disc = num * num * var_den + den * den * var_num - t2 * var_num * var_den
        root = t * np.sqrt(np.maximum(disc, 0.0))
        low = (num * den - root) / a
        high = (num * den + root) / a
    unbounded = ~(a > 0) & ~np.isnan(a)
    bad = unbounded | np.isnan(a) | np.isnan(disc) | np.isnan(t)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high), unbounded


def bh_adjust(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values over the non-NaN entries (NaN stays NaN).

    Same as `scipy.stats.false_discovery_control(p, method='bh')` on those entries.
    """
    p = np.asarray(p, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = np.argsort(p[ok], kind="stable")
    scaled = p[ok][order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(scaled[::-1])[::-1]
    out[ok[order]] = np.minimum(adj, 1.0)
    return out


POWER = 0.8
POWER_TABLE_MAX = 1000  # beyond this many iterations the normal approximation is used


def _ttest_power(d: np.ndarray, n: np.ndarray, alpha: float) -> np.ndarray:
    """Power of the two-sided two-sample t-test, n per group, standardised effect d."""
    df = 2 * n - 2
    crit = special.stdtrit(df, 1 - alpha / 2)
    nc = d * np.sqrt(n / 2)
    # The far tail is tiny and can underflow to NaN in the noncentral t: count it as 0.
    far = np.nan_to_num(special.nctdtr(df, nc, -crit), nan=0.0)
    return 1 - special.nctdtr(df, nc, crit) + far


@lru_cache(maxsize=16)
def _effect_table(alpha: float, power: float) -> tuple[np.ndarray, float]:
    """d*(n) for n = 2..POWER_TABLE_MAX: the smallest effect detected with that power.

    Solved once per (alpha, power) by bisection over all n at once; decreasing in n. Also
    the noncentrality at which the two-sided z test has that power (both tails), for the
    normal approximation beyond the table.
    """
    n = np.arange(2, POWER_TABLE_MAX + 1, dtype=np.float64)
    za, zb = special.ndtri(1 - alpha / 2), special.ndtri(power)
    lo, hi = np.zeros_like(n), (za + zb) / np.sqrt(n / 2)  # start from the normal answer
    for _ in range(64):  # widen until the upper end has the power
        short = _ttest_power(hi, n, alpha) < power
        if not short.any():
            break
        lo[short], hi[short] = hi[short], 2 * hi[short]
    for _ in range(40):
        mid = (lo + hi) / 2
        ok = _ttest_power(mid, n, alpha) >= power
        hi = np.where(ok, mid, hi)
        lo = np.where(ok, lo, mid)
    a, b = 0.0, za + zb + 1.0
    for _ in range(60):
        nc = (a + b) / 2
        if special.ndtr(nc - za) + special.ndtr(-nc - za) >= power:
            b = nc
        else:
            a = nc
    hi.flags.writeable = False
    return hi, b


def iterations_needed(d: np.ndarray, alpha: float, power: float = POWER) -> np.ndarray:
    """Iterations per system for a two-sided two-sample t-test to detect effect size d.

    d = |difference| / pooled standard deviation. Exact (noncentral t, same as statsmodels'
    `TTestIndPower().solve_power`, rounded up) up to 1000 iterations, through a table solved
    once per alpha; beyond, the normal approximation (both tails) with Guenther's
    correction, 2 (nc / d)^2 + z_a/2^2 / 4. At least 2; inf for d = 0; NaN for NaN.
    """
    d = np.abs(np.asarray(d, dtype=np.float64))
    table, nc = _effect_table(float(alpha), float(power))
    idx = np.searchsorted(-table, -np.nan_to_num(d, nan=0.0), side="left")
    out = (idx + 2).astype(np.float64)
    za = special.ndtri(1 - alpha / 2)
    with np.errstate(divide="ignore"):
        approx = np.ceil(2 * (nc / d) ** 2 + za * za / 4)
    beyond = idx >= len(table)
    out[beyond] = np.maximum(approx[beyond], POWER_TABLE_MAX + 1)
    out[d == 0] = np.inf
    out[np.isnan(d)] = np.nan
    return out
