"""Native JSON Lines read by polars in one call give what the line-by-line reader gives:
the same rows and the same problems, or polars declines and that reader reads the file."""

from __future__ import annotations

import pytest
from polars.testing import assert_frame_equal

from tuibench.ingest.formats import native, native_jsonl

GOOD = (
    b'{"benchmark":"b","metric":"t","iteration":0,"value":1.5,"unit":"ms"}\n'
    b'{"benchmark":"b","metric":"t","iteration":1,"value":2,"unit":"ms"}\n'
)
BODIES = {
    "plain": GOOD,
    "crlf": GOOD.replace(b"\n", b"\r\n"),
    "no final line end": GOOD.rstrip(b"\n"),
    "keys in other cases": GOOD.replace(b'"value"', b'"Value"'),
    "a key only in a late record": GOOD * 60
    + b'{"benchmark":"b","metric":"t","value":3,"better":"Higher"}\n',
    "a key missing in some records": GOOD + b'{"benchmark":"c","metric":"t","value":3}\n',
    "explicit nulls": GOOD + b'{"benchmark":"c","metric":"t","value":null,"unit":null}\n',
    "bad rows": GOOD + b'{"benchmark":"","metric":"t","value":1}\n{"benchmark":"c","value":1}\n',
    "a bad direction": GOOD + b'{"benchmark":"c","metric":"t","value":1,"better":"up"}\n',
    "a decimal iteration": GOOD + b'{"benchmark":"c","metric":"t","iteration":1.5,"value":1}\n',
    "a name given as a number": GOOD + b'{"benchmark":7,"metric":"t","value":1}\n',
    "a name given as a float": GOOD + b'{"benchmark":"c","metric":1.0,"value":1}\n',
    "a boolean name": GOOD + b'{"benchmark":"c","metric":true,"value":1}\n',
    "a nested name": GOOD + b'{"benchmark":{"a":1},"metric":"t","value":1}\n',
    "a value as text": GOOD + b'{"benchmark":"c","metric":"t","value":" 2.5 "}\n',
    "a key given twice": GOOD + b'{"benchmark":"c","metric":"t","value":1,"value":2}\n',
    "a blank line": GOOD + b"\n  \n" + GOOD,
    "an empty line": GOOD + b"\n" + GOOD,
    "an empty line before a bad row": GOOD + b'\n{"benchmark":"","metric":"t","value":1}\n',
    "a blank CRLF line": GOOD.replace(b"\n", b"\r\n") + b"\t\r\n" + GOOD,
    "blanks after the last line end": GOOD + b"  ",
    "a record after blanks on its line": GOOD + b'  {"benchmark":"c","metric":"t","value":1}\n',
    "a CR alone": GOOD.replace(b"\n", b"\r", 1),
    "a line separator in a name": GOOD
    + '{"benchmark":"c\u2028d","metric":"t","value":1}\n'.encode(),
    "a lone surrogate": GOOD + b'{"benchmark":"c\\ud800","metric":"t","value":1}\n',
    "NaN": GOOD + b'{"benchmark":"c","metric":"t","value":NaN}\n',
    "a huge number": GOOD + b'{"benchmark":"c","metric":"t","value":1e400}\n',
    "a line that is no object": GOOD + b"[1, 2]\n",
    "a cut line": GOOD + b'{"benchmark":"c","metric":\n',
    "a colon in a text": GOOD + b'{"benchmark":"c\\":","metric":"t","value":1}\n',
    "blanks before colons": GOOD + b'{"benchmark" : "c","metric":"t","value":1}\n',
    "a system column": GOOD.replace(b"{", b'{"system":"s1",'),
    "a colon in a name": GOOD.replace(b'"b"', b'"b/cpu:4"'),
    "a colon in a name and a late key": (GOOD * 60).replace(b'"b"', b'"b/cpu:4"')
    + b'{"benchmark":"c","metric":"t","value":3,"better":"lower"}\n',
    "blanks before colons and a late key": GOOD * 60
    + b'{"benchmark" : "c","metric":"t","value":3,"better":"lower"}\n',
    "explicit nulls and a late key": GOOD * 60
    + b'{"benchmark":"c","metric":"t","value":null,"unit":null,"better":"lower"}\n',
}


def _read(tmp_path, body: bytes) -> tuple:
    path = tmp_path / "r.jsonl"
    path.write_bytes(body)
    got = native.read(path)
    return got.frame, [(p.reason, p.line) for p in got.problems]


@pytest.mark.parametrize("name", list(BODIES))
def test_polars_reads_as_the_line_by_line_reader(tmp_path, monkeypatch, name):
    fast_frame, fast_problems = _read(tmp_path, BODIES[name])
    monkeypatch.setattr(native_jsonl, "read", lambda data: None)
    slow_frame, slow_problems = _read(tmp_path, BODIES[name])
    assert_frame_equal(fast_frame, slow_frame, categorical_as_str=True)
    assert fast_problems == slow_problems


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("plain", True),
        ("crlf", True),
        ("a key only in a late record", True),
        ("a key missing in some records", True),
        ("bad rows", True),
        ("a value as text", False),
        ("a decimal iteration", False),
        ("a name given as a number", False),
        ("a name given as a float", False),
        ("a key given twice", False),
        ("a blank line", False),
        ("an empty line", False),
        ("a blank CRLF line", False),
        ("blanks after the last line end", False),
        ("a record after blanks on its line", True),
        ("a line separator in a name", False),
        ("a lone surrogate", False),
        ("NaN", False),
        ("a colon in a text", False),
        ("a colon in a name", True),
        ("a colon in a name and a late key", True),
        ("blanks before colons", True),
        ("blanks before colons and a late key", True),
        ("explicit nulls and a late key", True),
    ],
)
def test_polars_declines_what_it_would_read_otherwise(name, taken):
    assert (native_jsonl.read(BODIES[name]) is not None) is taken
