"""printable(): no control character survives, ordinary text is untouched, nothing is lost."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tuibench.core.text import printable

# What must never reach a terminal: every C0/C1 control and DEL, plus the separators,
# bidirectional controls and lone surrogates that printable also escapes.
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in BIDI


def _decode(s: str) -> str:
    """The inverse of printable, written independently: proves no two names look alike."""
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1 : i + 2] == "\\":
            out.append("\\")
            i += 2
        elif s[i] == "\\" and re.match(r"x[0-9a-f]{2}", s[i + 1 : i + 4]):
            out.append(chr(int(s[i + 2 : i + 4], 16)))
            i += 4
        elif s[i] == "\\" and re.match(r"u[0-9a-f]{4}", s[i + 1 : i + 6]):
            out.append(chr(int(s[i + 2 : i + 6], 16)))
            i += 6
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def test_examples():
    assert printable("plain name") == "plain name"
    assert printable("a\x1b]52;c;aGk=\x07b") == "a\\x1b]52;c;aGk=\\x07b"
    assert printable("r\rn\nt\t") == "r\\x0dn\\x0at\\x09"
    assert printable("del\x7f c1\x9b") == "del\\x7f c1\\x9b"
    assert printable("rtl\u202eevil") == "rtl\\u202eevil"
    assert printable("bad\udcff") == "bad\\udcff"
    assert printable("ünïcødé ▲ 速い 🚀") == "ünïcødé ▲ 速い 🚀"
    assert printable(r"C:\bench\run") == r"C:\bench\run"


def test_backslash_doubled_only_where_it_could_read_as_an_escape():
    assert printable(r"lit\x1b") == r"lit\\x1b"
    assert printable("\\\x1b") == r"\\\x1b"
    assert printable(r"a\\b") == r"a\\\b"
    assert printable(r"a\u202e") == r"a\\u202e"
    assert printable("\\") == "\\"


@given(st.text())
def test_output_never_contains_an_unsafe_character(s):
    assert not any(_unsafe(c) for c in printable(s))


@given(st.text())
def test_nothing_is_lost(s):
    assert _decode(printable(s)) == s


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))))
def test_printable_text_without_escapable_backslash_passes_unchanged(s):
    s = "".join(c for c in s if c not in BIDI)
    if not re.search(r"\\[xu\\]", s):
        assert printable(s) == s
