"""Names are data: show them so that no byte in a result file can drive the terminal.

Benchmark, metric, unit, system and file names come from files anyone may have written. A
name holding ESC, BEL or CR could set the window title, put text on the clipboard (OSC 52)
or rewrite what is already on screen. Every human-facing output passes names through
`printable`; JSON and CSV keep the exact name.
"""

from __future__ import annotations

import re

# C0 controls, DEL and C1 controls; the line and paragraph separators; the bidirectional
# controls, which can make a name read backwards; lone surrogates (an undecodable file name
# decoded with surrogateescape), which would also make printing fail.
_UNSAFE = "\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"

# A backslash is doubled only where it could be read as the start of an escape: before
# `x`, `u` or another backslash, or before a character that is itself escaped. Elsewhere
# (a Windows path, a regex) it passes unchanged, and the result can still be decoded back
# to exactly one name.
_PATTERN = re.compile(rf"[{_UNSAFE}]|\\(?=[xu\\{_UNSAFE}])")
_HAS_UNSAFE = re.compile(rf"[{_UNSAFE}]|\\")


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c == "\\":
        return "\\\\"
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(s: str) -> str:
    """`s` with every control character shown as text, e.g. ESC as ``\\x1b``.

    C0/C1 controls and DEL become ``\\xHH``, the other escaped characters ``\\uHHHH``.
    Text without such characters (and without a backslash before ``x``, ``u`` or ``\\``)
    is returned unchanged.
    """
    if not _HAS_UNSAFE.search(s):
        return s
    return _PATTERN.sub(_escape, s)
