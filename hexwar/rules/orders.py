"""The land games' combat orders: an assault on an adjacent enemy location, a retreat after a
result, an advance into the location the defenders left. Assault on Narvik, the Europa
variant and the skirmish ruleset (with Konflikt '47) give them; each game lists the ones it
takes in its own :class:`~hexwar.core.orders.OrderKinds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hexwar.core.orders import Order


@dataclass(frozen=True)
class Assault(Order):
    """Assault an enemy-held location with adjacent units (15.1)."""

    kind: ClassVar[str] = "assault"
    target: str = ""
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"assault {self.target} with {','.join(self.units)}"

    def family(self) -> tuple[Any, ...] | None:
        """Any eligible attackers against a listed target."""
        return (self.kind, self.side, self.target)


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
