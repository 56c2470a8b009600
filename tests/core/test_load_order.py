"""The runs' order while loading: one stable sort of a combined key, as np.lexsort."""

import numpy as np

from tuibench.util.sort_keys import lexsort_order


def lexsorted(cols):
    return np.lexsort([np.arange(len(cols[0])), *reversed(cols)])


def test_combined_key_orders_as_lexsort():
    rng = np.random.default_rng(2)
    n = 50_000
    cols = [
        rng.integers(0, 3, n).astype(np.uint32),  # system codes
        rng.integers(0, 400, n).astype(np.uint32),
        rng.integers(0, 12, n).astype(np.uint32),
        rng.integers(-5, 40, n),  # iterations, some negative
        rng.integers(0, 2, n) * 1_000_000,  # first samples, far apart
    ]
    np.testing.assert_array_equal(lexsort_order(cols), lexsorted(cols))


def test_ranges_beyond_62_bits_and_floats_sort_as_lexsort():
    rng = np.random.default_rng(3)
    n = 5000
    wide = [rng.integers(-(2**40), 2**40, n), rng.integers(0, 2**30, n)]
    np.testing.assert_array_equal(lexsort_order(wide), lexsorted(wide))
    floats = [rng.integers(0, 3, n), rng.normal(size=n)]
    np.testing.assert_array_equal(lexsort_order(floats), lexsorted(floats))
    assert len(lexsort_order([np.zeros(0, np.int64)])) == 0


def _samples_of(tmp_path, name, rows):
    """Load one native CSV of (system, benchmark, metric, iteration, sample, value) rows."""
    from tuibench.ingest.load import load

    text = "system,benchmark,metric,iteration,sample,value\n"
    text += "".join(",".join(str(v) for v in r) + "\n" for r in rows)
    (tmp_path / name).mkdir()
    (tmp_path / name / "r.csv").write_text(text)
    samples = load([tmp_path / name]).samples
    return samples.with_columns(samples["system", "benchmark", "metric"].cast(str))


def test_samples_sorted_whether_runs_and_samples_came_in_order_or_not(tmp_path):
    """Runs out of order, samples out of order inside a run (the full sort), and samples
    in order (only the runs moved) all load as the rows sorted by names, iteration and
    sample, each value with its own sample."""
    rng = np.random.default_rng(4)
    keys = [("s2", "b10", "m"), ("s1", "b2", "t"), ("s1", "b2", "m"), ("s2", "b9", "m")]
    rows = [(*k, it, smp, round(float(rng.normal()), 6)) for k in keys for it in (1, 0)
            for smp in range(4)]  # fmt: skip
    shuffled = [r for run in range(0, len(rows), 4) for r in reversed(rows[run : run + 4])]
    for name, given in (("in_order", rows), ("shuffled", shuffled)):
        got = _samples_of(tmp_path, name, given)
        want = sorted(rows, key=lambda r: (r[0], int(r[1][1:]), r[2], r[3], r[4]))
        assert got.select("system", "benchmark", "metric", "iteration", "sample", "value").rows() \
            == [tuple(r) for r in want]  # fmt: skip


def test_key_with_two_values_against_a_dict():
    """Whether some key comes with two values, against grouping in Python."""
    from tuibench.util.sort_keys import key_with_two_values

    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 5, 50, 400):
        for spread in (2, 5, 1000):
            keys = [rng.integers(0, spread, n), rng.integers(-3, 3, n).astype(np.int8)]
            values = rng.integers(0, 3, n)
            seen: dict[tuple, set] = {}
            for *k, v in zip(*keys, values, strict=True):
                seen.setdefault(tuple(k), set()).add(v)
            want = any(len(v) > 1 for v in seen.values())
            assert key_with_two_values(keys, values) is want
