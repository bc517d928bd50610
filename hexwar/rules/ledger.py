"""Explanation ledgers: the lines behind a number, each tagged with its rule section."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable


@dataclass(frozen=True)
class Line:
    """One step of a computation: what, how much, under which rule."""

    text: str
    value: Fraction | int | str | None = None
    rule: str = ""

    def to_dict(self, mixed: bool = False) -> dict[str, Any]:
        return {"text": self.text, "value": _plain(self.value, mixed), "rule": self.rule}

    def __str__(self) -> str:
        v = "" if self.value is None else f" {fmt(self.value)}"
        r = f"  [{self.rule}]" if self.rule else ""
        return f"{self.text}:{v}{r}" if v else f"{self.text}{r}"


@dataclass
class Ledger:
    """An ordered list of :class:`Line`; ``total`` is the figure they add up to."""

    title: str
    lines: list[Line] = field(default_factory=list)
    total: Any = None

    def add(self, text: str, value: Fraction | int | str | None = None, rule: str = "") -> "Ledger":
        """Append a line and return the ledger (for chaining)."""
        self.lines.append(Line(text, value, rule))
        return self

    def extend(self, lines: Iterable[Line]) -> None:
        self.lines.extend(lines)

    def to_dict(self, mixed: bool = False) -> dict[str, Any]:
        """The ledger as data: a whole number stays a number, a fraction is text, ``7/2`` (as
        an event records it) or with ``mixed`` ``3 1/2`` (as a person reads it, ``fmt``)."""
        return {"title": self.title, "lines": [ln.to_dict(mixed) for ln in self.lines], "total": _plain(self.total, mixed)}

    def render(self) -> str:
        """Return the ledger as indented text."""
        out = [self.title]
        out += [f"  {ln}" for ln in self.lines]
        if self.total is not None:
            out.append(f"  = {fmt(self.total)}")
        return "\n".join(out)

    __str__ = render


def _plain(v: Any, mixed: bool) -> Any:
    """A ledger's value as data (``Ledger.to_dict``)."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else fmt(v) if mixed else str(v)
    return v


def fmt(v: Any) -> str:
    """Format a value for a ledger: fractions as ``3 1/2``."""
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        whole, rest = divmod(v.numerator, v.denominator)
        if whole and v > 0:
            return f"{whole} {rest}/{v.denominator}"
        return f"{v.numerator}/{v.denominator}"
    return str(v)
