"""printable(): no control character survives, ordinary text is untouched."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tuibench.core.text import printable

# What must never reach a terminal: every C0/C1 control and DEL, plus the separators,
# bidirectional controls and lone surrogates that printable also escapes.
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in BIDI


def test_examples():
    assert printable("plain name") == "plain name"
    assert printable("a\x1b]52;c;aGk=\x07b") == "a\\x1b]52;c;aGk=\\x07b"
    assert printable("r\rn\nt\t") == "r\\x0dn\\x0at\\x09"
    assert printable("del\x7f c1\x9b") == "del\\x7f c1\\x9b"
    assert printable("rtl\u202eevil") == "rtl\\u202eevil"
    assert printable("bad\udcff") == "bad\\udcff"
    assert printable("ünïcødé ▲ 速い 🚀") == "ünïcødé ▲ 速い 🚀"
    assert printable(r"C:\bench\run") == r"C:\bench\run"


def test_backslashes_pass_unchanged_so_escaping_twice_changes_nothing():
    assert printable(r"C:\bench\x1b") == r"C:\bench\x1b"
    assert printable(printable("a\x1bb")) == r"a\x1bb"


@given(st.text())
def test_output_never_contains_an_unsafe_character(s):
    assert not any(_unsafe(c) for c in printable(s))


@given(st.text())
def test_idempotent(s):
    assert printable(printable(s)) == printable(s)


@given(st.text())
def test_only_unsafe_characters_change(s):
    """Each unsafe character becomes its own hex escape; everything else is kept in order."""
    expected = "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}") if _unsafe(c) else c for c in s
    )
    assert printable(s) == expected


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))))
def test_printable_text_passes_unchanged(s):
    s = "".join(c for c in s if c not in BIDI)
    assert printable(s) == s
