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
        if meaning == "best":  # the metric's best system (core/best.py), beside its ★
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


def palette_for(dark: bool) -> Palette:
    return DARK if dark else LIGHT
