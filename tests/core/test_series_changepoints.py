"""Change points along a series: simulated series with known steps, and hand computations."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from tuibench.analysis.compare import Analysis
from tuibench.analysis.series.changepoints import CHANGE_COLUMNS, detect
from tuibench.analysis.series.data import from_values, series_data
from tuibench.ingest.load import load

ALPHA = 0.05


def _keys(n: int, better="lower", mean_kind="amean") -> pl.DataFrame:
    return pl.DataFrame(
        {
            "benchmark": [f"b{i}" for i in range(n)],
            "metric": ["time"] * n,
            "unit": ["s"] * n,
            "better": pl.Series([better] * n, dtype=pl.String),
            "mean_kind": [mean_kind] * n,
        }
    )


def simulate(rng, n_metrics, n_systems, k, noise, step_at=None, step=0.05, **key_args):
    """Iteration values 100 * (1 + noise * N(0, 1)), times (1 + step) from `step_at` on."""
    y = 100.0 * (1.0 + noise * rng.standard_normal((n_metrics, n_systems, k)))
    if step_at is not None:
        at = np.broadcast_to(np.asarray(step_at), (n_metrics,))
        y *= np.where(np.arange(n_systems)[None, :] >= at[:, None], 1.0 + step, 1.0)[..., None]
    m = np.repeat(np.arange(n_metrics), n_systems * k)
    s = np.tile(np.repeat(np.arange(n_systems), k), n_metrics)
    systems = [f"v{i}" for i in range(n_systems)]
    return from_values(y.ravel(), m, s, _keys(n_metrics, **key_args), systems)


def _flagged(cp) -> np.ndarray:
    return np.unique(cp.changes["benchmark"].str.slice(1).cast(pl.Int64).to_numpy())


def _margin(rate: float, n: int) -> float:
    return 3 * np.sqrt(rate * (1 - rate) / n)  # three binomial standard errors


@pytest.mark.parametrize("k", [1, 2, 5])
def test_flat_series_false_change_points_at_most_alpha_per_metric(k):
    rng = np.random.default_rng(k)
    n = 3000
    cp = detect(simulate(rng, n, 10, k, 0.01), ALPHA, fdr=False)
    assert cp.tested == n
    assert len(_flagged(cp)) / n <= ALPHA + _margin(ALPHA, n)


def test_flat_series_with_fdr_flags_almost_nothing():
    # Under the complete null Benjamini-Hochberg bounds P(any change point) by alpha.
    hits = 0
    for seed in range(20):
        cp = detect(simulate(np.random.default_rng(100 + seed), 500, 8, 5, 0.01), ALPHA)
        hits += cp.changes.height > 0
    assert hits <= 3  # expected at most 1 in 20 (alpha); 3 leaves room for chance


def test_five_percent_step_found_at_the_right_system():
    """5 % step, 5 iterations, 1 % noise, every position of a 10-system series, mixed with
    as many flat metrics, default settings (Benjamini-Hochberg over all of them)."""
    rng = np.random.default_rng(7)
    per, ns = 200, 10
    at = np.repeat(np.arange(1, ns), per)  # 1800 stepped metrics
    stepped = simulate(rng, len(at), ns, 5, 0.01, step_at=at)
    flat = simulate(rng, len(at), ns, 5, 0.01)
    both = _concat(stepped, flat)
    cp = detect(both, ALPHA)
    ch = cp.changes.with_columns(pl.col("benchmark").str.slice(1).cast(pl.Int64).alias("_i"))
    right = ch.filter(pl.col("_i") < len(at)).with_columns(
        pl.col("_i").map_elements(lambda i: int(at[i]), return_dtype=pl.Int64).alias("_at")
    )
    found = right.filter(pl.col("position") == pl.col("_at"))
    for pos in range(1, ns):
        share = found.filter(pl.col("_at") == pos)["_i"].n_unique() / per
        assert share >= 0.9, (pos, share)
    # The step's size is measured honestly: 5 % worse (lower is better).
    assert abs(found["gain"].median() + 0.05) < 0.003
    assert (found["verdict"] == "worse").all()
    # The flat half and the flat stretches of the stepped half stay quiet.
    flat_hits = ch.filter(pl.col("_i") >= len(at))["_i"].n_unique()
    assert flat_hits / len(at) <= ALPHA
    extra = right.filter(pl.col("position") != pl.col("_at"))["_i"].n_unique()
    assert extra / len(at) <= ALPHA + _margin(ALPHA, len(at))


def _concat(a, b):
    keys = pl.concat(
        [
            a.keys,
            b.keys.with_columns(
                pl.format("b{}", pl.int_range(a.n_metrics, a.n_metrics + b.n_metrics)).alias(
                    "benchmark"
                )
            ),
        ]
    )
    cat = {
        f: np.concatenate([getattr(a, f), getattr(b, f)])
        for f in ("count", "total", "squares", "shift", "hmean")
    }
    return type(a)(keys, a.systems, **cat)


@pytest.mark.parametrize("jitter", [0.0, 0.02])
def test_step_numbers_by_hand(jitter):
    """With and without a level of each system's own (jitter: its sd, relative)."""
    rng = np.random.default_rng(3)
    ns, k = 6, 4
    y = 50 * (1 + 0.02 * rng.standard_normal((ns, k)) + jitter * rng.standard_normal((ns, 1)))
    y[3:] *= 0.85  # a step the weighted search finds at its middle cut
    m = np.zeros(ns * k, np.int64)
    s = np.repeat(np.arange(ns), k)
    data = from_values(y.ravel(), m, s, _keys(1, better="higher"), [f"s{i}" for i in range(ns)])
    cp = detect(data, ALPHA, fdr=False)
    row = cp.changes.row(0, named=True)
    assert cp.changes.height == 1 and row["system"] == "s3" and row["previous"] == "s2"
    left, right = y[:3].ravel(), y[3:].ravel()
    assert row["before"] == pytest.approx(left.mean())
    assert row["after"] == pytest.approx(right.mean())
    assert row["change"] == pytest.approx(right.mean() / left.mean() - 1)
    assert row["gain"] == pytest.approx(row["change"])  # higher is better
    assert row["verdict"] == "worse"
    # The step's test by hand: systems are the unit. sigma^2 from within systems (18 df);
    # the systems' means around their levels (4 df) give tau^2 + sigma^2 / k when they
    # scatter more than that, and the larger of the two is the mean square, with 4 df.
    means = y.mean(axis=1)
    msw = y.var(axis=1, ddof=1).mean()
    p, v1, v2 = _by_hand(means, k, msw, [0, 1, 2], [3, 4, 5])
    if jitter:  # the systems scatter more than their iterations say
        assert v1 > msw / k / 3
    assert row["p_step"] == pytest.approx(p, rel=1e-6)
    # Fieller's interval for mean(right) / mean(left) from the same variances and df.
    a_, b_ = right.mean(), left.mean()
    t = sps.t.ppf(0.975, ns - 2)
    roots = np.roots([b_**2 - t * t * v1, -2 * a_ * b_, a_**2 - t * t * v2])
    assert sorted([row["change_ci_low"] + 1, row["change_ci_high"] + 1]) == pytest.approx(
        sorted(roots)
    )

    # The detection p: weighted Bonferroni over the 5 cuts (80 % of alpha) and the 6 runs
    # of one to three systems inside the series against the rest (20 %); a candidate's
    # weight is (1 / systems on one side + 1 / systems on the other)^2.
    def weight(a, b):
        return (1 / len(a) + 1 / len(b)) ** 2

    cuts = [(range(c), range(c, ns)) for c in range(1, ns)]
    runs = [
        (range(i, i + w), [*range(i), *range(i + w, ns)])
        for w in (1, 2, 3)
        for i in range(1, ns - w)
    ]
    adjusted = []
    for family, share in ((cuts, 0.8), (runs, 0.2)):
        total = sum(weight(*x) for x in family)
        adjusted += [_by_hand(means, k, msw, *x)[0] * total / (share * weight(*x)) for x in family]
    assert row["p_split"] == pytest.approx(min(1, min(adjusted)), rel=1e-6)


def _by_hand(means, k, msw, one, two):
    """p of the difference of two levels of systems (k iterations each), and the variances
    of the two levels' means: the larger of the between- and within-system mean squares."""
    one, two = means[list(one)], means[list(two)]
    dfb = len(one) + len(two) - 2
    msb = k * (((one - one.mean()) ** 2).sum() + ((two - two.mean()) ** 2).sum()) / dfb
    ms = max(msb, msw)
    v1, v2 = ms / k / len(one), ms / k / len(two)
    t = abs(two.mean() - one.mean()) / np.sqrt(v1 + v2)
    if msb > msw:  # then exactly Student's t on the systems' means
        assert 2 * sps.t.sf(t, dfb) == pytest.approx(sps.ttest_ind(one, two).pvalue)
    return 2 * sps.t.sf(t, dfb), v1, v2


def test_unknown_direction_reports_the_signed_change_only():
    rng = np.random.default_rng(5)
    cp = detect(simulate(rng, 20, 6, 5, 0.01, step_at=3, better=None), ALPHA)
    assert cp.changes.height >= 18
    assert cp.changes["gain"].is_null().all()
    assert cp.changes["gain_ci_low"].is_null().all()
    assert set(cp.changes["verdict"]) == {"changed"}
    assert (cp.changes["change"] > 0.04).all()


def test_hmean_levels_are_harmonic_means():
    rng = np.random.default_rng(9)
    ns, k = 5, 5
    v = 1000 * (1 + 0.01 * rng.standard_normal((ns, k)))
    v[2:] *= 1.2
    m = np.zeros(ns * k, np.int64)
    s = np.repeat(np.arange(ns), k)
    keys = _keys(1, better="higher", mean_kind="hmean")
    data = from_values(1.0 / v.ravel(), m, s, keys, [f"s{i}" for i in range(ns)])
    row = detect(data, ALPHA, fdr=False).changes.row(0, named=True)
    assert row["system"] == "s2"
    assert row["before"] == pytest.approx(sps.hmean(v[:2].ravel()))
    assert row["after"] == pytest.approx(sps.hmean(v[2:].ravel()))
    assert row["gain"] == pytest.approx(row["after"] / row["before"] - 1)
    assert row["gain"] > 0.15 and row["verdict"] == "better"
    assert row["gain_ci_low"] < row["gain"] < row["gain_ci_high"]


def test_step_at_the_last_system_and_missing_systems():
    rng = np.random.default_rng(11)
    ns, k = 7, 5
    y = 10 * (1 + 0.01 * rng.standard_normal((ns, k)))
    y[-1] *= 1.1
    keep = np.ones(ns, bool)
    keep[[2, 5]] = False  # the metric was not run on s2 and s5
    s = np.repeat(np.arange(ns), k)
    sel = keep[s]
    data = from_values(
        y.ravel()[sel],
        np.zeros(sel.sum(), np.int64),
        s[sel],
        _keys(1),
        [f"s{i}" for i in range(ns)],
    )
    cp = detect(data, ALPHA, fdr=False)
    row = cp.changes.row(0, named=True)
    assert (row["system"], row["previous"], row["at_last"]) == ("s6", "s4", True)
    assert row["systems_before"] == 4 and row["level_from"] == "s0"
    assert row["verdict"] == "worse"
    assert cp.last_system_regressions().height == 1


def test_too_few_values_are_not_tested_and_say_so():
    data = from_values(
        np.array([1.0, 2.0]), np.zeros(2, np.int64), np.array([0, 1]), _keys(1), ["a", "b"]
    )
    cp = detect(data, ALPHA)
    assert cp.tested == 0 and cp.changes.height == 0
    assert "could not be tested" in cp.notes[0]
    assert cp.changes.columns == CHANGE_COLUMNS


def test_from_a_results_folder_in_natural_order(tmp_path, make_system):
    rng = np.random.default_rng(2)
    for i in range(1, 12):  # v1 .. v11: natural order puts v10 after v9
        level = 1.0 if i < 10 else 1.08
        rows = [
            ("db/clients:8", "latency", it, level * (1 + 0.01 * rng.standard_normal()), "ms")
            for it in range(4)
            for _ in range(3)
        ]
        make_system(tmp_path, f"v{i}", rows)
    a = Analysis(load([tmp_path]))
    data = series_data(a)
    assert data.systems[-3:] == ["v9", "v10", "v11"]
    cp = detect(data, ALPHA)
    assert cp.changes.height == 1
    row = cp.changes.row(0, named=True)
    assert (row["system"], row["previous"], row["verdict"]) == ("v10", "v9", "worse")
    assert row["iterations_before"] == 9 * 4 and row["iterations_after"] == 2 * 4
    # Same input, same answer.
    again = detect(series_data(Analysis(load([tmp_path]))), ALPHA)
    assert again.changes.equals(cp.changes)
