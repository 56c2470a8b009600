"""The vectorised natural order against `sorted(..., key=natural_key)`, name by name."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.model import natural_order
from tuibench.model.natural_order import natural_sorted
from tuibench.model.systems import natural_key


def reference(names: list[str]) -> list[str]:
    return sorted(names, key=natural_key)


def test_digits_compare_as_numbers_and_case_is_ignored() -> None:
    names = ["linux-6.10", "Linux-6.9", "linux-6.9a", "b", "a10", "a9", "A9x", "a09", "", "10", "9"]
    assert natural_sorted(names) == reference(names)
    assert natural_sorted(names)[:4] == ["", "9", "10", "a9"]


def test_equal_keys_keep_their_order() -> None:
    names = ["a01", "A1", "a1", "B", "b", "a001"]
    assert natural_sorted(names) == reference(names)
    assert natural_sorted(list(reversed(names))) == reference(list(reversed(names)))


def test_unicode_text_and_foreign_digits() -> None:
    # ß lowers to itself, İ to two code points, Σ at a part's end to final sigma; ٣ is a
    # digit to str.isdecimal (the Python path), ² is not.
    names = ["straße", "STRASSE", "İx", "ix", "ΑΣ1", "ας2", "x٣", "x2", "x²", "é", "e", "z"]
    assert natural_sorted(names) == reference(names)
    without_foreign_digits = [n for n in names if n != "x٣"]
    assert natural_order._part_keys(_series(without_foreign_digits)) is not None
    assert natural_sorted(without_foreign_digits) == reference(without_foreign_digits)


def test_long_digit_runs_and_empty_input() -> None:
    names = ["a" + "9" * 18, "a" + "1" + "0" * 18, "a" + "9" * 17, "a" + "0" * 30 + "5"]
    assert natural_sorted(names) == reference(names)
    assert natural_sorted([]) == []
    assert natural_sorted([""]) == [""]


def test_many_names_in_shuffled_order() -> None:
    names = [f"suite{i % 10}/group{i % 400}/bench{i}" for i in range(5000)]
    random.Random(3).shuffle(names)
    assert natural_sorted(names) == reference(names)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aAbBzZ00129-./ _éÉß", max_size=8), max_size=30))
def test_any_names(names: list[str]) -> None:
    assert natural_order._part_keys(_series(names)) is not None  # the vectorised path
    assert natural_sorted(names) == reference(names)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=20))
def test_any_unicode(names: list[str]) -> None:
    assert natural_sorted(names) == reference(names)


def _series(names: list[str]):
    import polars as pl

    return pl.Series(names, dtype=pl.String)


def test_a_load_orders_benchmarks_and_metrics_naturally(tmp_path) -> None:
    """The loaded name Enums in natural order, names with digits, case and unicode."""
    from tuibench.ingest.load import load

    benchmarks = ["b10", "B9", "b9x", "ü2", "u10", "x-1.10", "x-1.9", "a", "a0", "a00b"]
    metrics = ["t2", "T10", "μs", "m"]
    rows = [f"{b},{m},1.5" for b in reversed(benchmarks) for m in metrics]
    (tmp_path / "sys").mkdir()
    (tmp_path / "sys" / "r.csv").write_text("benchmark,metric,value\n" + "\n".join(rows) + "\n")
    samples = load([tmp_path / "sys"]).samples
    assert list(samples["benchmark"].dtype.categories) == reference(benchmarks)
    assert list(samples["metric"].dtype.categories) == reference(metrics)
