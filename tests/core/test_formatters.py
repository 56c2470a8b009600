"""One formatter per quantity: p-values and signed percentages read alike everywhere."""

from __future__ import annotations

import json
import math

import pytest

from tuibench.output.export import json_text
from tuibench.present.tables import fmt_p, fmt_pct, pct_decimals


@pytest.mark.parametrize(
    ("p", "long", "short"),
    [
        (0.5, "0.5000", "p 0.500"),
        (0.01234, "0.0123", "p 0.012"),
        (0.001, "0.0010", "p 0.001"),
        (0.00099, "0.0010", "p 1e-03"),
        (1e-4, "0.0001", "p 1e-04"),
        (3.2e-5, "3.2e-05", "p 3e-05"),
        (None, "-", "p -"),
        (math.nan, "-", "p -"),
        (0.0, "0", "p 0"),  # no variation on either side: exact, not `0.0e+00`
    ],
)
def test_p_values(p, long, short):
    assert fmt_p(p) == long
    assert fmt_p(p, short=True) == short


def test_percentages():
    assert fmt_pct(0.031) == "+3.1%"
    assert fmt_pct(-0.0042, 2) == "-0.42%"
    assert fmt_pct(-0.0) == "+0.0%"  # a zero change has no sign
    assert fmt_pct(None) == "-" and fmt_pct(math.inf, missing="n/a") == "n/a"
    assert pct_decimals(0.004, -0.009, None) == 2 and pct_decimals(0.004, 0.01) == 1


def test_json_text_writes_undefined_numbers_as_null():
    doc = {"a": [1.5, math.nan, {"b": -math.inf}], "c": (1, 2)}
    text = json_text(doc)
    assert text.endswith("}\n") and json.loads(text) == {"a": [1.5, None, {"b": None}], "c": [1, 2]}
