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

# A backslash is left as it is: the escaped form of a name is not always reversible (a name
# holding the four characters `\x1b` looks like one holding ESC), but printable is
# idempotent, so a message built from escaped parts (a Problem, then a line on stderr) is
# never escaped twice into `\\x1b`, and a repr() in a message stays readable. Exact names
# are in the JSON and CSV outputs.
_PATTERN = re.compile(f"[{_UNSAFE}]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(s: str) -> str:
    """`s` with every control character shown as text, e.g. ESC as ``\\x1b``.

    C0/C1 controls and DEL become ``\\xHH``, the other escaped characters ``\\uHHHH``.
    Text without such characters is returned unchanged (and so is escaped text).
    """
    return _PATTERN.sub(_escape, s)
