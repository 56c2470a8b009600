"""The look of a cell as the terminal gets it, and the fewest bytes to switch between looks.

Textual renders every segment as its whole SGR sequence and a reset after it: on a table
of coloured cells that is three quarters of the bytes. Here a look is what reaches the
terminal (attributes, colours in the terminal's colour system, link) and a switch sends only
what differs from the look before it, which the terminal keeps across cursor moves.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from rich.cells import cell_len
from rich.color import ColorSystem
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
# Attributes a blank cell shows (a line, or the foreground as background): on a blank without
# them, the foreground and the other attributes are invisible, so any will do.
SHOWN_ON_BLANK = sum(
    1 << ATTRIBUTES.index(name)
    for name in ("underline", "reverse", "strike", "underline2", "frame", "encircle", "overline")
)


@dataclass(frozen=True)
class Terminal:
    """What an update may count on besides the looks: where the cursor is (`start`) and
    where to leave it (`end`), None when unknown or wherever; whether a line feed only
    moves down (`line_feed`: no CR added on the way) and whether erased cells take the
    background set (`erase`: ECH and EL, the terminal's `bce`)."""

    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    line_feed: bool = False
    erase: bool = False


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


def blank(look: Look) -> Look:
    """The look of a space in `look` as the eye sees it: only its background when nothing
    else shows on a blank (the attribute bits and the foreground None: any)."""
    if look[3] is None and not look[0] & SHOWN_ON_BLANK:
        return (None, None, look[2], None)
    return look


def shows_as(look: Look, blank_look: Look) -> bool:
    """Whether a space in `look` shows as one of `blank_look` (a blank's look)."""
    return look[2] == blank_look[2] and look[3] is None and not look[0] & SHOWN_ON_BLANK


def _keeping(now: Look, to: Look) -> Look:
    """`to`, a blank's look, with as much of the look `now` as does not show on it."""
    return (now[0] & ~SHOWN_ON_BLANK, now[1], to[2], None)


@lru_cache(maxsize=4096)
def switch(now: Look | None, to: Look) -> str:
    """SGR from look `now` (None: unknown) to look `to` (links aside): what differs, or a
    reset and all of `to` when that is shorter."""
    if now is None:
        return f"\x1b[{';'.join(['0', *_params(PLAIN, to)])}m"
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


def render(
    runs: Iterable[tuple[int, int, list[tuple[str, Look]] | str]],
    now: Look | None,
    width: int | None = None,
    terminal: Terminal | None = None,
) -> tuple[str, Look | None]:
    """Runs of (text, look) at (x, y), or a control sequence to send at (x, y), from the
    look `now` the terminal has (None: unknown); and the look it has after them. No reset
    at the end: the next update goes on from that look (the driver resets on leaving).

    The pieces go out row by row, or look by look (one switch of colours per look, a
    cursor move per piece) when that is shorter; `width` (the screen's, when known) lets
    the cursor move relative to where the text left it; `terminal` says where the cursor
    starts and ends and which shorter forms it takes."""
    runs = list(runs)
    terminal = terminal or Terminal()
    best = _write(runs, now, width, terminal)
    if len(runs) > 1 and _apart(runs):
        controls = [run for run in runs if isinstance(run[2], str)]
        items = [
            (at, y, text, look)
            for x, y, pieces in runs
            if not isinstance(pieces, str)
            for at, text, look in _placed(x, pieces)
        ]
        order: dict[Look, int] = {}
        for item in items:
            order.setdefault(item[3], len(order))
        grouped = sorted(items, key=lambda item: (order[item[3]], item[1], item[0]))
        pieces = [(x, y, [(text, look)]) for x, y, text, look in grouped]
        other = _write(controls + pieces, now, width, terminal)
        if len(other[0]) < len(best[0]):
            best = other
    return best


def _apart(runs) -> bool:
    """No two runs on the same cells, and no run before a control sequence (which moves
    the cells of its line from its column on) on those cells: then the runs can be
    written in any order after the control sequences."""
    spans: list[tuple[int, int, int]] = []
    for x, y, pieces in runs:
        if isinstance(pieces, str):
            if any(row == y and end > x for row, _, end in spans):
                return False
            continue
        spans.append((y, x, x + sum(cell_len(text) for text, _ in pieces)))
    spans.sort()
    return all(a[0] != b[0] or a[2] <= b[1] for a, b in pairwise(spans))


def _placed(x: int, pieces: list[tuple[str, Look]]) -> list[tuple[int, str, Look]]:
    placed = []
    for text, look in pieces:
        placed.append((x, text, look))
        x += len(text) if text.isascii() else cell_len(text)
    return placed


def _write(runs, now: Look | None, width: int | None, terminal: Terminal):
    out: list[str] = []
    at = terminal.start  # where the cursor is, when known
    for x, y, pieces in runs:
        out.append(move(at, x, y, terminal.line_feed))
        if isinstance(pieces, str):
            out.append(pieces)
            at = (x, y)  # inserting and deleting characters leave the cursor
            continue
        for i, (text, to) in enumerate(pieces):
            if to[0] is None:  # a blank: any foreground
                to = (0, (), to[2], None) if now is None else _keeping(now, to)
            out.append(switch(now, to))
            now = to
            if to[3]:
                link, key = to[3], zlib.crc32(to[3].encode())
                out.append(f"\x1b]8;id={key};{link}\x1b\\{text}\x1b]8;;\x1b\\")
            elif terminal.erase:
                x = _erasing(out, text, to, x, width, last=i == len(pieces) - 1)
                continue
            else:
                out.append(text)
            x += len(text) if text.isascii() else cell_len(text)
        # at the right edge the cursor waits to wrap: where it goes next differs by terminal
        at = (x, y) if width is not None and x < width else None
    if terminal.end is not None:
        out.append(move(at, *terminal.end, terminal.line_feed))
    return "".join(out), now


def _erasing(out: list[str], text: str, look: Look, x: int, width: int | None, last: bool) -> int:
    """Write `text` from column `x`, its trailing spaces erased (ECH, or EL at the right
    edge: the terminal fills them with the background set, as a space in `look` shows)
    when that is shorter; the column the cursor is left at."""
    spaces = len(text) - len(text.rstrip(" "))
    if spaces < 4 or look[0] & SHOWN_ON_BLANK:
        out.append(text)
        return x + (len(text) if text.isascii() else cell_len(text))
    head = text[:-spaces]
    out.append(head)
    x += len(head) if head.isascii() else cell_len(head)
    edge = width is not None and x + spaces == width
    erase = "\x1b[K" if edge else f"\x1b[{spaces}X"
    skip = "" if last else _csi(spaces, "C")  # ECH leaves the cursor where it is
    if len(erase) + len(skip) >= spaces:
        out.append(" " * spaces)
        return x + spaces
    out.append(erase + skip)
    return x if last else x + spaces


def move(at: tuple[int, int] | None, x: int, y: int, line_feed: bool = False) -> str:
    """The fewest bytes to move the cursor from `at` (None: unknown) to (x, y): up or down
    (line feeds, when the terminal gets them as such: `line_feed`) and sideways (back
    spaces, carriage return, column absolute) from where it is when that is shorter than
    to (x, y) outright. Never a line feed below the screen: y is on it."""
    outright = f"\x1b[{y + 1};{x + 1}H"
    if at is None:
        return outright
    down = y - at[1]
    steps = ""
    if down > 0:
        steps = _csi(down, "B")
        if line_feed and down < len(steps):
            steps = "\n" * down
    elif down < 0:
        steps = _csi(-down, "A")
    dx = x - at[0]
    if dx:
        ways = [_csi(dx, "C") if dx > 0 else _csi(-dx, "D")]
        if dx < 0:
            ways += ["\b" * -dx, "\r" + (_csi(x, "C") if x else "")]
        ways.append(f"\x1b[{x + 1}G" if x else "\x1b[G")
        steps += min(ways, key=len)
    return steps if len(steps) < len(outright) else outright


def _csi(n: int, final: str) -> str:
    return f"\x1b[{final}" if n == 1 else f"\x1b[{n}{final}"
