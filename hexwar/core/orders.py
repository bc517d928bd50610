"""Typed orders. Every decision a side makes (a move, an assault, a choice of how to take a
combat result, a card) is an order; orders are frozen, comparable and round-trip as dicts.

Games add order types with :func:`register`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Mapping


class IllegalOrder(ValueError):
    """An order the rules forbid. ``rule`` names the section; the state is left untouched."""

    def __init__(self, reason: str, rule: str = ""):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


_REGISTRY: dict[str, type["Order"]] = {}


def register(cls: type["Order"]) -> type["Order"]:
    """Class decorator: make an order type known to :func:`order_from_dict`."""
    _REGISTRY[cls.kind] = cls
    return cls


@dataclass(frozen=True)
class Order:
    """Base of all orders: the side giving it."""

    kind: ClassVar[str] = "order"
    side: str

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = self.kind
        return d

    def text(self) -> str:
        """Return the short syntax a player types (``move 1SG 1710>1810``)."""
        return self.kind


def _tuples(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v)
    return v


def order_from_dict(d: Mapping[str, Any]) -> Order:
    """Rebuild an order from :meth:`Order.to_dict` output."""
    d = dict(d)
    kind = d.pop("kind")
    try:
        cls = _REGISTRY[kind]
    except KeyError:
        raise ValueError(f"unknown order kind {kind!r}; known: {sorted(_REGISTRY)}") from None
    names = {f.name for f in fields(cls)}
    return cls(**{k: _tuples(v) for k, v in d.items() if k in names})


@register
@dataclass(frozen=True)
class Pass(Order):
    """Pass the initiative (9.2)."""

    kind: ClassVar[str] = "pass"

    def text(self) -> str:
        return "pass"


@register
@dataclass(frozen=True)
class Move(Order):
    """Move one unit along a path of adjacent locations (14.0)."""

    kind: ClassVar[str] = "move"
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"move {self.unit} {'>'.join(self.path)}"


@register
@dataclass(frozen=True)
class Assault(Order):
    """Assault an enemy-held location with adjacent units (15.1)."""

    kind: ClassVar[str] = "assault"
    target: str = ""
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"assault {self.target} with {','.join(self.units)}"


@register
@dataclass(frozen=True)
class TakeResult(Order):
    """Choose how to take one CRT result point: retreat, fatigue or eliminate (15.2)."""

    kind: ClassVar[str] = "take"
    option: str = ""  # "retreat" | "fatigue" | "eliminate"
    unit: str = ""  # the unit eliminated, or the retreat/fatigue detail
    detail: tuple[tuple[str, int], ...] = ()  # fatigue split: (unit, FP) pairs

    def text(self) -> str:
        extra = f" {self.unit}" if self.unit else ""
        if self.detail:
            extra += " " + ",".join(f"{u}:{fp}" for u, fp in self.detail)
        return f"take {self.option}{extra}"


@register
@dataclass(frozen=True)
class Retreat(Order):
    """Retreat one unit along a path (15.3)."""

    kind: ClassVar[str] = "retreat"
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"retreat {self.unit} {'>'.join(self.path)}"


@register
@dataclass(frozen=True)
class Advance(Order):
    """Advance units into a vacated location after an assault (15.3), or decline."""

    kind: ClassVar[str] = "advance"
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"advance {','.join(self.units) or 'none'}"
