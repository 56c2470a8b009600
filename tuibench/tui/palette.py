"""Colours of verdicts: worse red, better green, the reference bold.

The colours are entries of the xterm 256-colour cube, so they look the same over an SSH
session limited to 256 colours, with one set for dark themes and one for light themes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from rich.style import Style


@dataclass(frozen=True)
class Palette:
    worse: tuple[int, int, int]
    better: tuple[int, int, int]
    neutral: tuple[int, int, int]
    reference: tuple[int, int, int]
    accent: tuple[int, int, int]
    warning: tuple[int, int, int]

    # Styles are made once per palette: the answer of 10,000 systems asked for 100,000 of
    # them on the UI thread, which a key (`q`) then waited for.
    @lru_cache(maxsize=64)  # noqa: B019 (two palettes, kept for good anyway)
    def style(self, meaning: str | None) -> Style:
        """Rich style of a table cell marked `meaning` ("worse" | "better" | "reference")."""
        if meaning == "worse":
            return Style(color=_hex(self.worse), bold=True)
        if meaning == "better":
            return Style(color=_hex(self.better), bold=True)
        if meaning == "best":  # the metric's best system (analysis/best.py), beside its ★
            return Style(color=_hex(self.better), bold=True)
        if meaning == "reference":
            return Style(bold=True, dim=True)
        if meaning == "changed":  # significant, direction unknown: neither red nor green
            return Style(color=_hex(self.accent), bold=True)
        if meaning == "single":  # significant on one iteration's samples: not counted
            return Style(color=_hex(self.warning), italic=True)
        if meaning == "equivalent":  # within the practical threshold
            return Style(color=_hex(self.neutral), italic=True)
        if meaning == "inconclusive":
            return Style(color=_hex(self.warning))
        return Style()

    def named(self, name: str | None) -> Style | None:
        """The style a part of plain lines names (tui/content/answer_lines.py)."""
        return self._named[name] if name else None

    @cached_property
    def _named(self) -> dict[str, Style]:
        return {
            "bold": Style(bold=True),
            "muted": self.muted,
            "accent": self.accent_style,
            "warning": self.warning_style,
            "worse": self.worse_style,
            "better": self.better_style,
        }

    @cached_property
    def worse_style(self) -> Style:
        return self.style("worse")

    @cached_property
    def better_style(self) -> Style:
        return self.style("better")

    @cached_property
    def muted(self) -> Style:
        return Style(dim=True)

    @cached_property
    def accent_style(self) -> Style:
        return Style(color=_hex(self.accent), bold=True)

    @cached_property
    def warning_style(self) -> Style:
        return Style(color=_hex(self.warning), bold=True)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


DARK = Palette(
    worse=(0xFF, 0x5F, 0x5F),  # 203
    better=(0x5F, 0xD7, 0x5F),  # 77
    neutral=(0x87, 0xAF, 0xD7),  # 110
    reference=(0xD7, 0xD7, 0xD7),  # 188
    accent=(0xFF, 0xAF, 0x00),  # 214
    warning=(0xFF, 0xAF, 0x00),
)
LIGHT = Palette(
    worse=(0xD7, 0x00, 0x00),  # 160
    better=(0x00, 0x87, 0x00),  # 28
    neutral=(0x00, 0x5F, 0xAF),  # 25
    reference=(0x44, 0x44, 0x44),  # 238
    accent=(0xAF, 0x5F, 0x00),  # 130
    warning=(0xAF, 0x5F, 0x00),
)


# One colour per system in plots (the scaling curves): 12 hues told apart on the theme's
# background, none of them the axes' colour. Past 12 the colours repeat with another marker.
SYSTEM_COLOURS_DARK = (
    (0x5F, 0xAF, 0xFF),  # 75 blue
    (0xFF, 0xAF, 0x00),  # 214 orange
    (0x5F, 0xD7, 0x87),  # 78 green
    (0xFF, 0x5F, 0x87),  # 204 red
    (0xAF, 0x87, 0xFF),  # 141 purple
    (0xFF, 0xFF, 0x5F),  # 227 yellow
    (0x00, 0xD7, 0xD7),  # 44 cyan
    (0xD7, 0x87, 0x5F),  # 173 brown
    (0xFF, 0x87, 0xD7),  # 212 pink
    (0x87, 0xD7, 0x00),  # 112 lime
    (0x87, 0x87, 0xAF),  # 103 slate
    (0xFF, 0xFF, 0xFF),  # 231 white
)
SYSTEM_COLOURS_LIGHT = (
    (0x00, 0x5F, 0xD7),  # 26 blue
    (0xD7, 0x5F, 0x00),  # 166 orange
    (0x00, 0x87, 0x00),  # 28 green
    (0xAF, 0x00, 0x5F),  # 125 crimson
    (0x87, 0x00, 0xD7),  # 92 purple
    (0xAF, 0xAF, 0x00),  # 142 ochre
    (0x00, 0xAF, 0xAF),  # 37 teal
    (0x5F, 0x00, 0x00),  # 52 maroon
    (0xD7, 0x00, 0xAF),  # 163 magenta
    (0x5F, 0x87, 0x00),  # 64 olive
    (0x5F, 0x5F, 0x87),  # 60 slate
    (0x00, 0x00, 0x00),  # 16 black
)
# Markers for the second, third... round of colours ("braille" is a line's own dots).
SYSTEM_MARKERS = ("braille", "•", "x", "+", "o", "*")


def system_styles(count: int, dark: bool) -> list[tuple[tuple[int, int, int], str]]:
    """(colour, marker) of each of `count` systems, in order: no two alike until
    12 x 6 systems, and the first 12 told apart by colour alone."""
    colours = SYSTEM_COLOURS_DARK if dark else SYSTEM_COLOURS_LIGHT
    n = len(colours)
    return [(colours[i % n], SYSTEM_MARKERS[(i // n) % len(SYSTEM_MARKERS)]) for i in range(count)]


def palette_for(dark: bool) -> Palette:
    return DARK if dark else LIGHT
