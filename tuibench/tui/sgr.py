"""The look of a cell as the terminal gets it, and the fewest bytes to switch between looks.

Textual renders every segment as its whole SGR sequence and a reset after it: on a table
of coloured cells that is three quarters of the bytes. Here a look is what reaches the
terminal (attributes, colours in the terminal's colour system, link) and a switch sends only
what differs from the look before it, which the terminal keeps across cursor moves.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from functools import lru_cache

from rich.color import ColorSystem
from rich.control import Control
from rich.style import Style

# rich's attributes in the order of its bits, their SGR codes on and off (Textual's order)
ATTRIBUTES = (
    "bold",
    "dim",
    "italic",
    "underline",
    "blink",
    "blink2",
    "reverse",
    "conceal",
    "strike",
    "underline2",
    "frame",
    "encircle",
    "overline",
)
ON = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53")
OFF = ("22", "22", "23", "24", "25", "25", "27", "28", "29", "24", "54", "54", "55")

Look = tuple  # (attribute bits, foreground codes, background codes, link or None)
PLAIN: Look = (0, (), (), None)


def look(style: Style | None, color_system: ColorSystem) -> Look:
    if style is None:
        return PLAIN
    bits = 0
    for i, name in enumerate(ATTRIBUTES):
        if getattr(style, name):
            bits |= 1 << i
    fg = () if style.color is None else style.color.downgrade(color_system).get_ansi_codes()
    bg = (
        () if style.bgcolor is None else style.bgcolor.downgrade(color_system).get_ansi_codes(False)
    )
    return (bits, tuple(fg), tuple(bg), style.link)


@lru_cache(maxsize=4096)
def switch(now: Look, to: Look) -> str:
    """SGR from look `now` to look `to` (links aside): what differs, or a reset and all of
    `to` when that is shorter."""
    if now[:3] == to[:3]:
        return ""
    full = _params(PLAIN, to)
    params = _params(now, to)
    if len(";".join(params)) >= len(";".join(["0", *full])):
        params = ["0", *full]
    return f"\x1b[{';'.join(params)}m"


def _params(now: Look, to: Look) -> list[str]:
    offs = sorted({OFF[i] for i in range(len(ON)) if now[0] >> i & 1 and not to[0] >> i & 1})
    # an attribute still on whose off code was sent (22 ends bold and dim) is set again
    ons = [
        ON[i] for i in range(len(ON)) if to[0] >> i & 1 and (not now[0] >> i & 1 or OFF[i] in offs)
    ]
    params = offs + ons
    if now[1] != to[1]:
        params += to[1] or ("39",)
    if now[2] != to[2]:
        params += to[2] or ("49",)
    return params


def render(runs: Iterable[tuple[int, int, list[tuple[str, Look]]]]) -> str:
    """Runs of (text, look) at (x, y), from and back to the plain look."""
    out: list[str] = []
    now = PLAIN
    move_to = Control.move_to
    for x, y, pieces in runs:
        out.append(move_to(x, y).segment.text)
        for text, to in pieces:
            out.append(switch(now, to))
            now = to
            if to[3]:
                link, key = to[3], zlib.crc32(to[3].encode())
                out.append(f"\x1b]8;id={key};{link}\x1b\\{text}\x1b]8;;\x1b\\")
            else:
                out.append(text)
    if now[:3] != PLAIN[:3]:
        out.append("\x1b[0m")
    return "".join(out)
