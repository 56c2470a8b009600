"""Each iteration's Hmean flag from the catalogue: on the names' codes, as the join says."""

import numpy as np
import polars as pl

from tuibench.analysis.compare.frames import harmonic


def joined(keys, metrics):
    names = ["benchmark", "metric"]
    kinds = keys.join(metrics, on=names, how="left", maintain_order="left")
    return (kinds["mean_kind"] == "hmean").fill_null(False).to_numpy()


def frames(enum: bool):
    rng = np.random.default_rng(8)
    benches, metrics = [f"b{i}" for i in range(50)], ["time", "ops", "rate"]
    b = rng.choice(benches, 5000)
    m = rng.choice(metrics, 5000)
    cat = pl.DataFrame({"benchmark": benches * 3, "metric": np.repeat(metrics, 50)})
    cat = cat.with_columns(
        pl.Series("mean_kind", rng.choice(["amean", "hmean"], 150)),
    ).filter(pl.col("benchmark") != "b7")  # a metric the catalogue lacks: not Hmean
    keys = pl.DataFrame({"benchmark": b, "metric": m})
    if enum:
        types = {"benchmark": pl.Enum(benches), "metric": pl.Enum(metrics)}
        keys, cat = keys.cast(types), cat.cast(types)  # type: ignore[arg-type]
    return keys, cat


def test_codes_give_the_join_answer():
    keys, cat = frames(enum=True)
    got = harmonic(keys, cat)
    np.testing.assert_array_equal(got, joined(keys, cat))
    assert 0 < got.sum() < len(got)


def test_names_as_text_are_joined():
    keys, cat = frames(enum=False)
    np.testing.assert_array_equal(harmonic(keys, cat), joined(keys, cat))


def test_a_table_of_flags_or_a_search_give_the_join_answer(monkeypatch):
    """Codes looked up in a table (the catalogue's pairs each once), or searched (the table
    refused): the join's answer either way."""
    import tuibench.analysis.compare.frames as frames_module

    keys, cat = frames(enum=True)
    want = joined(keys, cat)
    np.testing.assert_array_equal(harmonic(keys, cat), want)
    monkeypatch.setattr(frames_module, "TABLE_MAX", 0)  # 4 per metric is too few: search
    np.testing.assert_array_equal(harmonic(keys, cat.head(10)), joined(keys, cat.head(10)))
    np.testing.assert_array_equal(harmonic(keys, pl.concat([cat, cat])), want)  # pairs twice
