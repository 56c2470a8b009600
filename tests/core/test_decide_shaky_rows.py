"""`decide` writes the "not robust" text only for the rows whose median verdict differs:
the same notes as the text made for every row and kept where it applies."""

import numpy as np
import polars as pl
import pytest

from tuibench.analysis.compare.decide import _disagreement, decide


def _rows(n: int, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    p = np.where(rng.random(n) < 0.5, 1e-6, 0.5)  # clear either way, also under BH
    p_med = np.where(rng.random(n) < 0.2, 0.5 + 1e-6 - p, p)  # a fifth flipped
    change = rng.normal(0, 0.05, n)
    out = rng.integers(0, 3, n)
    return pl.DataFrame(
        {
            "is_reference": np.arange(n) % 4 == 0,
            "better": pl.Series(["lower", "higher", None, "lower"] * (n // 4)),
            "p_welch": p,
            "change": change,
            "ratio_ci_low": 1 + change - 0.01,
            "ratio_ci_high": 1 + change + 0.01,
            "_na": np.arange(n) % 13 == 0,
            "_p_med": p_med,
            "_change_med": change,
            "_rlo_med": 1 + change - 0.01,
            "_rhi_med": 1 + change + 0.01,
            "_ref_out": pl.Series([None if i % 7 == 0 else int(o) for i, o in enumerate(out)]),
            "outliers_low": out,
            "outliers_high": out[::-1].copy(),
            "iteration_value": pl.Series(["subselection"] * n),
            "_note_base": pl.Series([None if i % 3 else f"base {i}" for i in range(n)]),
        }
    )


@pytest.mark.parametrize("fdr", [False, True])
def test_not_robust_notes_are_those_of_every_row(fdr):
    rows = _rows(2000, 3)
    got = decide(rows, 0.05, fdr, None)
    # The text for every row, kept where the verdicts differ (the plain way).
    judged = ~got["is_reference"] & ~rows["_na"]
    plain = decide(rows.with_columns(p_welch=pl.col("_p_med")), 0.05, fdr, None)  # medians
    facts = pl.DataFrame(
        {
            "p": got["p_adjusted"].fill_null(np.nan) if fdr else rows["p_welch"],
            "p_med": rows["_p_med"],
            "v": got["verdict"],
            "v_med": plain["verdict"],
            "kind": rows["iteration_value"],
            "own": rows["outliers_low"] + rows["outliers_high"],
            "ref": rows["_ref_out"],
        }
    )
    if not fdr:
        differ = judged & (got["verdict"] != plain["verdict"])
        extra = facts.select(pl.when(differ).then(_disagreement("p")).alias("x"))["x"]
        base = rows["_note_base"]
        want = pl.DataFrame({"a": base, "b": extra}).select(
            pl.concat_str("a", "b", separator="; ", ignore_nulls=True).alias("n")
        )["n"]
        want = want.replace("", None)
        assert got["note"].equals(want.alias("note"))
        assert 0 < differ.sum() < judged.sum()
    shaky = got["robust"].eq(False).fill_null(False)
    assert shaky.sum() > 0
    assert got["note"].filter(shaky).str.contains("not robust").all()
    assert not got["note"].filter(~shaky).str.contains("not robust").fill_null(False).any()
