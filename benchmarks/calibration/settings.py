"""What a section of the harness is given and what it gives back."""

from __future__ import annotations

from dataclasses import dataclass, field

from .regimes import Design


@dataclass
class Settings:
    quick: bool = False
    seed: int = 0
    designs: list[Design] | None = None  # a chosen subset (the test suite's)


Z = 2.576  # 99 %: a bound is broken only when the data say so beyond chance


@dataclass
class Check:
    """A bound on a rate measured as `hits` of `n`: it should lie in [low, high] (None:
    open). Broken when the rate's 99 % Wilson interval lies wholly outside: with a few
    hundred suites a correct 95 % interval measures 93 to 97 % only 80 % of the time, so
    a bare comparison would call chance a defect."""

    name: str
    hits: int
    n: int
    low: float | None
    high: float | None
    exact: bool = False  # a rule, not a rate: no margin

    @property
    def value(self) -> float:
        return self.hits / self.n if self.n else float("nan")

    def wilson(self) -> tuple[float, float]:
        n, p = self.n, self.value
        centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
        half = Z * ((p * (1 - p) / n + Z * Z / (4 * n * n)) ** 0.5) / (1 + Z * Z / n)
        return centre - half, centre + half

    @property
    def ok(self) -> bool:
        if not self.n:
            return True
        lo, hi = (self.value, self.value) if self.exact else self.wilson()
        return (self.low is None or hi >= self.low) and (self.high is None or lo <= self.high)


@dataclass
class Section:
    title: str
    lines: list[str]
    checks: list[Check]
    results: list = field(default_factory=list)
