"""Mann-Whitney U for every pair of labels (systems) within blocks (metrics)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from tuibench.stats import special
from tuibench.stats.samples.blocks import SORT_CHUNK, rows_of, sizes

EXACT_MAX = 8  # scipy's method='auto': exact when a side has at most 8 values and no ties
MERGE_FROM = 256  # block size from which sorted runs are merged: smaller blocks sort faster
# afresh (numpy's insertion sort for tiny rows beat timsort 1.5-3x below this size)


def _block_sort(
    values: np.ndarray,
    labels: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    runs: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Sort every block's values in place of the block; the labels follow their values.
    `runs`: each block is a few runs sorted already, which a stable sort (timsort) merges
    in linear time, 3-4 times faster than sorting afresh (and far slower on shuffled
    values). Equal values' labels may come in another order: no statistic depends on it
    (tied runs are counted as wholes)."""
    out = np.empty(len(values), dtype=np.float64)
    lab = np.empty(len(values), dtype=labels.dtype)
    for n in sizes(counts):
        idx = np.flatnonzero(counts == n)
        step = max(1, SORT_CHUNK // int(n))
        kind: Literal["stable"] | None = "stable" if runs and n >= MERGE_FROM else None
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            where = rows_of(starts, part, int(n))
            block = values[where].reshape(len(part), n)
            within = np.argsort(block, axis=1, kind=kind)
            out[where] = np.take_along_axis(block, within, axis=1).ravel()
            tags = labels[where].reshape(len(part), n)
            lab[where] = np.take_along_axis(tags, within, axis=1).ravel()
    return out, lab


@dataclass
class RankedBlocks:
    """Every block's samples sorted once, kept to give the U statistics of all labels
    against any one label on demand (a report needs its reference's only; the explorer
    asks again when the reference changes). Holds the sorted labels and the tied runs."""

    starts: np.ndarray
    counts: np.ndarray
    nlabels: int
    lab: np.ndarray  # labels in sorted order
    n: np.ndarray  # n[b, a]: samples of label a in block b
    t_idx: np.ndarray  # positions in a run of equal values (two or more)
    run_start: np.ndarray  # per such position: its run's first and one-past-last position
    run_end: np.ndarray
    rb: np.ndarray  # (run, label) -> (block, label) cell
    cnt: np.ndarray  # cnt[run, a]: samples of label a in that run
    own: np.ndarray  # own[b, a]: sum of t^3 - t over label a's own tied runs

    @classmethod
    def build(
        cls,
        values: np.ndarray,
        labels: np.ndarray,
        starts: np.ndarray,
        counts: np.ndarray,
        nlabels: int,
        runs: bool = False,
    ) -> RankedBlocks:
        """`runs`: every block is a few sorted runs (`_block_sort`)."""
        values = np.asarray(values, dtype=np.float64)
        starts = np.asarray(starts, dtype=np.int64)
        counts = np.asarray(counts, dtype=np.int64)
        nb, s = len(starts), nlabels
        small = np.int8 if s < 128 else np.int64
        lab = np.asarray(labels).astype(small, copy=False)
        v, lab = _block_sort(values, lab, starts, counts, runs)
        cell = cls._cells(nb, s, counts, lab)
        n = np.bincount(cell, minlength=nb * s).reshape(nb, s).astype(np.float64)

        # Runs of equal values inside a block (ties), found among the sorted values.
        first = np.zeros(len(v), dtype=bool)
        first[starts[counts > 0]] = True
        same = np.zeros(len(v), dtype=bool)  # same[i]: equal to the value before, same block
        if len(v):
            np.equal(v[1:], v[:-1], out=same[1:])
        same &= ~first
        del first, v
        nxt = np.r_[same[1:], False]  # equal to the value after
        t_idx = np.flatnonzero(same | nxt)  # every position in a run of two or more
        run_start = run_end = rb = t_idx
        cnt: np.ndarray  # counts as floats
        own: np.ndarray  # bincount with weights: floats (numpy's stubs say ints)
        cnt, own = np.zeros((0, s)), np.zeros((nb, s))
        if len(t_idx):
            run_start = np.maximum.accumulate(np.where(same[t_idx], 0, t_idx))
            last = np.where(nxt[t_idx], len(same), t_idx)
            run_end = np.minimum.accumulate(last[::-1])[::-1] + 1  # one past the run
            run_id = np.cumsum(~same[t_idx])  # the tied runs, numbered 1, 2, ...
            run_id -= 1
            nr = int(run_id.max()) + 1
            cnt = np.bincount(run_id * s + lab[t_idx], minlength=nr * s).reshape(nr, s)
            cnt = cnt.astype(np.float64)
            run_block = np.zeros(nr, dtype=np.int64)
            run_block[run_id] = cell[t_idx] // s
            rb = np.repeat(run_block * s, s) + np.tile(np.arange(s), nr)
            w = (cnt**3 - cnt).ravel()
            own = np.bincount(rb, weights=w, minlength=nb * s).reshape(nb, s)
        return cls(starts, counts, s, lab, n, t_idx, run_start, run_end, rb, cnt, own)

    @staticmethod
    def _cells(nb: int, s: int, counts: np.ndarray, lab: np.ndarray) -> np.ndarray:
        """The (block, label) cell of every sorted sample, for bincount."""
        cell = np.repeat(np.arange(nb, dtype=np.int64) * s, counts)
        cell += lab
        return cell

    def against(self, c: int) -> tuple[np.ndarray, np.ndarray]:
        """(u, tie), each blocks x labels: u[b, a] is scipy's U1 of `mannwhitneyu(x_a, x_c)`
        (pairs a > c count 1, ties 1/2); tie[b, a] the sum of t^3 - t over the tied values
        of the union of a and c. One cumulative count of label c: no loop over blocks."""
        nb, s, starts = len(self.starts), self.nlabels, self.starts
        if len(self.lab) == 0:
            return np.zeros((nb, s)), np.zeros((nb, s))
        cell = self._cells(nb, s, self.counts, self.lab)
        # seen[i]: how many samples of label c sit at positions <= i (global count). For
        # a sample of another label that is also the count strictly before it.
        seen = _running_count(self.lab, c)
        total = np.bincount(cell, weights=seen, minlength=nb * s).reshape(nb, s)
        block_start = np.where(starts > 0, seen[np.maximum(starts - 1, 0)], 0)[:, None]
        tie = np.zeros((nb, s))
        t_idx = self.t_idx
        if len(t_idx):  # a tie counts one half: (less + less_or_equal) / 2
            below = np.where(self.run_start > 0, seen[np.maximum(self.run_start - 1, 0)], 0)
            upto = seen[self.run_end - 1]
            fix = 0.5 * (below + upto) - seen[t_idx]
            total += np.bincount(cell[t_idx], weights=fix, minlength=nb * s).reshape(nb, s)
            cnt, rb, own = self.cnt, self.rb, self.own
            # cross(a, c) = sum over runs of cnt_a^2 cnt_c, both ways round.
            a_c = np.bincount(rb, weights=(cnt**2 * cnt[:, c : c + 1]).ravel(), minlength=nb * s)
            c_a = np.bincount(rb, weights=(cnt[:, c : c + 1] ** 2 * cnt).ravel(), minlength=nb * s)
            cross = (a_c + c_a).reshape(nb, s)
            tie = own + own[:, c : c + 1] + 3 * cross
        return total - self.n * block_start, tie


COUNT_CHUNK = 1 << 20  # labels counted at once (`_running_count`)


def _running_count(labels: np.ndarray, c: int) -> np.ndarray:
    """np.cumsum(labels == c) as float64 (exact, and what bincount sums without a converted
    copy), a chunk at a time in int32: a cumsum cast to float64 as it goes took 0.07-0.11 s
    at 10^7 labels (this 0.05), and its mask was a copy of every label."""
    out = np.empty(len(labels), dtype=np.float64)
    total = 0
    for lo in range(0, len(labels), COUNT_CHUNK):
        part = np.cumsum(labels[lo : lo + COUNT_CHUNK] == c, dtype=np.int32)
        np.add(part, float(total), out=out[lo : lo + COUNT_CHUNK])
        total += int(part[-1])
    return out


def mwu_pairs(
    values: np.ndarray, labels: np.ndarray, starts: np.ndarray, counts: np.ndarray, nlabels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mann-Whitney U statistics between every ordered pair of labels inside every block.

    values, labels: one entry per sample, each block's samples contiguous (starts, counts);
    labels are 0..nlabels-1 (the systems). Returns, with B blocks and S labels:
    - u[b, a, c]: scipy's U1 of `mannwhitneyu(x_a, x_c)` (pairs a > c count 1, ties 1/2);
    - n[b, a]: how many samples label a has in block b;
    - tie[b, a, c]: sum of t^3 - t over the tied values of the union of a and c.
    Every pair: `RankedBlocks.against` once per label c (a report needs one label only).
    """
    ranked = RankedBlocks.build(values, labels, starts, counts, nlabels)
    nb, s = len(ranked.starts), nlabels
    u, tie = np.zeros((nb, s, s)), np.zeros((nb, s, s))
    for c in range(s):
        u[:, :, c], tie[:, :, c] = ranked.against(c)
    return u, ranked.n, tie


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
    while math.comb(2 * n, n) <= 2.0 / alpha:  # exact: no float overflow of the int
        n += 1
    return n
