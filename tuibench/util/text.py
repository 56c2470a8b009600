"""Names are data: show them so that no byte in a result file can drive the terminal.

Benchmark, metric, unit, system and file names come from files anyone may have written. A
name holding ESC, BEL or CR could set the window title, put text on the clipboard (OSC 52)
or rewrite what is already on screen; one holding an invisible character (a zero-width
space, a non-breaking space) would look like another name. Every human-facing output passes
names through `printable`; JSON and CSV keep the exact name.
"""

from __future__ import annotations

import re

# C0 controls, DEL and C1 controls; the line and paragraph separators; lone surrogates (an
# undecodable file name decoded with surrogateescape), which would also make printing fail.
_CONTROLS = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"
# Format characters (Unicode category Cf, as of Unicode 15.1): zero-width space and joiners,
# the word joiner, the byte order mark, the soft hyphen, tag characters, and the
# bidirectional controls, which can make a name read backwards. They draw nothing, so
# `base` and `base` + U+200B would look the same. `re` has no \p{Cf}, and building the set
# from unicodedata at import costs 0.1 s: tests check this list against unicodedata.
_FORMAT = (
    "\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
# Invisible fillers (the Hangul fillers draw an empty cell) and the blanks that look like a
# space but are not one (Unicode category Zs except the space itself).
_BLANKS = "\u115f\u1160\u3164\uffa0\xa0\u1680\u2000-\u200a\u202f\u205f\u3000"
_UNSAFE = _CONTROLS + _FORMAT + _BLANKS

# A backslash is left as it is: the escaped form of a name is not always reversible (a name
# holding the four characters `\x1b` looks like one holding ESC), but printable is
# idempotent, so a message built from escaped parts (a Problem, then a line on stderr) is
# never escaped twice into `\\x1b`, and a repr() in a message stays readable. Exact names
# are in the JSON and CSV outputs.
_PATTERN = re.compile(f"[{_UNSAFE}]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(s: str) -> str:
    """`s` with every control, format or look-alike blank character shown as text, e.g.
    ESC as ``\\x1b``, a zero-width space as ``\\u200b``.

    Code points below 256 become ``\\xHH``, the others ``\\uHHHH`` (``\\UHHHHHHHH`` beyond
    U+FFFF). Text without such characters is returned unchanged (and so is escaped text).
    """
    if s.isascii() and s.isprintable():  # no control: the common case, without a regex
        return s
    return _PATTERN.sub(_escape, s)
