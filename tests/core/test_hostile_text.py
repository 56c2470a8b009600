"""printable(): no control character survives, ordinary text is untouched."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tuibench.util.text import printable

# What must never reach a terminal: every C0/C1 control and DEL, plus the separators,
# bidirectional controls and lone surrogates that printable also escapes.
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Invisible: every format character (Cf: zero-width, joiners, BOM, soft hyphen, tags, the
# bidirectional controls), the Hangul fillers, and every blank but the space itself.
FILLERS = set("\u115f\u1160\u3164\uffa0")
UNSAFE_CATEGORIES = ("Cc", "Cs", "Zl", "Zp", "Cf", "Zs")


def _unsafe(c: str) -> bool:
    return (unicodedata.category(c) in UNSAFE_CATEGORIES and c != " ") or c in FILLERS


def _escaped(c: str) -> str:
    code = ord(c)
    return (
        f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}" if code < 65536 else f"\\U{code:08x}"
    )


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
    expected = "".join(_escaped(c) if _unsafe(c) else c for c in s)
    assert printable(s) == expected


@given(st.text(alphabet=st.characters(blacklist_categories=UNSAFE_CATEGORIES)))
def test_printable_text_passes_unchanged(s):
    s = "".join(c for c in s if c not in FILLERS)
    assert printable(s) == s


def test_every_invisible_character_of_this_unicode_is_escaped():
    """The escaped set is a list (re has no \\p{Cf}): it must hold every format character
    and blank this Python's unicodedata knows, whatever its Unicode version."""
    missed = [
        f"U+{code:04X}"
        for code in range(0x110000)
        if _unsafe(chr(code)) and printable(chr(code)) == chr(code)
    ]
    assert missed == []


def test_spoofing_names_are_shown_escaped():
    assert printable("base\u200b") == r"base\u200b"  # zero-width space
    assert printable("a\u200db\u2060c\ufeffd\xade") == r"a\u200db\u2060c\ufeffd\xade"
    assert printable("tag\U000e0041") == r"tag\U000e0041"
    assert printable("\u3164\u115f\u1160\uffa0") == r"\u3164\u115f\u1160\uffa0"
    assert printable("a\xa0b\u2007c\u202fd\u3000e") == r"a\xa0b\u2007c\u202fd\u3000e"
    assert printable("café ☕ e\u0301") == "café ☕ e\u0301"  # letters and marks stay
