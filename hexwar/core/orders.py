"""Typed orders. Every decision a side makes (a move, an assault, a choice of how to take a
combat result, a card) is an order; orders are frozen, comparable and round-trip as dicts.

Order kinds are namespaced per game: each game lists the order types it understands in an
:class:`OrderKinds`, so two games may both have a ``place`` order (Assault on Narvik's German
arrivals, Kampen om Norge's battalions) and a log is always read with its own game's kinds.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Hashable, Iterable, Mapping, Sequence, TypeVar

T = TypeVar("T", bound=Hashable)


class IllegalOrder(ValueError):
    """An order the rules forbid. ``rule`` names the section; the state is left untouched."""

    def __init__(self, reason: str, rule: str = ""):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


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


class OrderKinds:
    """The order types one game understands, by kind: a game's namespace of orders.

    >>> kinds = OrderKinds("example", [Pass, Move])
    >>> kinds.from_dict({"kind": "move", "side": "allies", "unit": "1SG", "path": ["1710", "1810"]})
    Move(side='allies', unit='1SG', path=('1710', '1810'))
    >>> kinds.from_dict({"kind": "assault", "side": "allies"})
    Traceback (most recent call last):
    ...
    hexwar.core.orders.IllegalOrder: example has no order kind 'assault'; its kinds: move, pass (6.0)
    """

    def __init__(self, game: str, types: Iterable[type[Order]]):
        self.game = game
        self.types: dict[str, type[Order]] = {}
        for cls in types:
            if cls.kind in self.types and self.types[cls.kind] is not cls:
                raise ValueError(f"{game}: two order types share the kind {cls.kind!r}")
            self.types[cls.kind] = cls
        self._adapters: dict[str, Any] = {}

    def __contains__(self, order: object) -> bool:
        return isinstance(order, Order) and self.types.get(order.kind) is type(order)

    def from_dict(self, d: Any) -> Order:
        """Rebuild an order from :meth:`Order.to_dict` output.

        Anything that is not an order of this game (an unknown kind, a missing or unknown
        field, a value of the wrong type) raises :class:`IllegalOrder` naming it.
        """
        if not isinstance(d, Mapping) or not isinstance(d.get("kind"), str):
            raise IllegalOrder(f"an order is a mapping with a 'kind', not {d!r}", "6.0")
        kind = d["kind"]
        cls = self.types.get(kind)
        if cls is None:
            raise IllegalOrder(f"{self.game} has no order kind {kind!r}; its kinds: {', '.join(sorted(self.types))}", "6.0")
        body = {k: v for k, v in d.items() if k != "kind"}
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(body) - names)
        if unknown:
            raise IllegalOrder(f"{kind} order has no field {unknown[0]!r}", "6.0")
        adapter = self._adapters.get(kind)
        if adapter is None:
            from pydantic import TypeAdapter

            adapter = self._adapters[kind] = TypeAdapter(cls)
        from pydantic import ValidationError

        try:  # strict JSON validation: lists become tuples, nothing else is coerced
            return adapter.validate_json(json.dumps(body), strict=True)
        except (ValidationError, TypeError, ValueError) as exc:
            if isinstance(exc, ValidationError):
                e = exc.errors()[0]
                where = ".".join(str(p) for p in e["loc"]) or kind
                raise IllegalOrder(f"{kind} order field {where}: {e['msg']}", "6.0") from None
            raise IllegalOrder(f"{kind} order: {exc}", "6.0") from None


@dataclass(frozen=True)
class Pass(Order):
    """Pass the initiative (9.2)."""

    kind: ClassVar[str] = "pass"

    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Move(Order):
    """Move one unit along a path of adjacent locations (14.0)."""

    kind: ClassVar[str] = "move"
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"move {self.unit} {'>'.join(self.path)}"


@dataclass(frozen=True)
class Assault(Order):
    """Assault an enemy-held location with adjacent units (15.1)."""

    kind: ClassVar[str] = "assault"
    target: str = ""
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"assault {self.target} with {','.join(self.units)}"


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


@dataclass(frozen=True)
class Retreat(Order):
    """Retreat one unit along a path (15.3)."""

    kind: ClassVar[str] = "retreat"
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"retreat {self.unit} {'>'.join(self.path)}"


@dataclass(frozen=True)
class Advance(Order):
    """Advance units into a vacated location after an assault (15.3), or decline."""

    kind: ClassVar[str] = "advance"
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"advance {','.join(self.units) or 'none'}"


def subsets(items: Sequence[T], cap: int = 15) -> list[tuple[T, ...]]:
    """Sets of ``items`` to offer when the rules let a player pick any subset (a set with a cap).

    Every non-empty subset while there are at most ``cap`` of them; beyond, the whole set,
    the whole set less each one, and each one alone. Larger choices than the list offers
    stay open to the player through the game's ``accepts``.

    >>> subsets(["a", "b"])
    [('a',), ('b',), ('a', 'b')]
    >>> len(subsets(list("abcdef")))  # 63 subsets > 15: all, all but one (6), singles (6)
    13
    """
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    if (1 << n) - 1 <= cap:
        return [tuple(x for i, x in enumerate(items) if mask >> i & 1) for mask in sorted(range(1, 1 << n), key=lambda m: (bin(m).count("1"), m))]
    out = [(x,) for x in items] + [tuple(y for y in items if y != x) for x in items] + [tuple(items)]
    return list(dict.fromkeys(out))
