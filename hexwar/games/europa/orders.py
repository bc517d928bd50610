"""Orders of the Europa "Narvik" variant (E3-E5 and E1's special rules); moves, retreats and
advances are the engine's own ``Move``, ``Retreat`` (a path of one hex) and ``Advance``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hexwar.core.orders import Move, Order, OrderKinds, Pass
from hexwar.rules.orders import Advance, Retreat


@dataclass(frozen=True)
class Truck(Order):
    """E1 trucks: a truck carries up to one battalion-equivalent of infantry along a path."""

    kind: ClassVar[str] = "truck"
    truck: str = ""
    unit: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"truck {self.truck} {self.unit} {'>'.join(self.path)}"


@dataclass(frozen=True)
class Absorb(Order):
    """E5 C: a headquarters absorbs a unit in its hex."""

    kind: ClassVar[str] = "absorb"
    hq: str = ""
    unit: str = ""

    def text(self) -> str:
        return f"absorb {self.hq} {self.unit}"


@dataclass(frozen=True)
class Detach(Order):
    """E5 C: a headquarters detaches a unit it absorbed."""

    kind: ClassVar[str] = "detach"
    hq: str = ""
    unit: str = ""

    def text(self) -> str:
        return f"detach {self.hq} {self.unit}"


@dataclass(frozen=True)
class Assemble(Order):
    """E1 breakdowns: three battalions of a regiment in one hex reassemble into it."""

    kind: ClassVar[str] = "assemble"
    regiment: str = ""

    def text(self) -> str:
        return f"assemble {self.regiment}"


@dataclass(frozen=True)
class Breakdown(Order):
    """E1 breakdowns: a regiment breaks down into its three battalions."""

    kind: ClassVar[str] = "breakdown"
    regiment: str = ""

    def text(self) -> str:
        return f"breakdown {self.regiment}"


@dataclass(frozen=True)
class Interdict(Order):
    """E1 naval interdiction: the Allies blockade an Axis-held port."""

    kind: ClassVar[str] = "interdict"
    port: str = ""

    def text(self) -> str:
        return f"interdict {self.port}"


@dataclass(frozen=True)
class Mission(Order):
    """E3 C: an air unit flies a support mission over a hex."""

    kind: ClassVar[str] = "mission"
    unit: str = ""
    target: str = ""

    def text(self) -> str:
        return f"mission {self.unit} {self.target}"


@dataclass(frozen=True)
class Attack(Order):
    """E3 D: attack the enemy units in one hex with units in it or next to it."""

    kind: ClassVar[str] = "attack"
    target: str = ""
    units: tuple[str, ...] = ()

    def family(self) -> tuple[Any, ...] | None:
        """Any eligible attackers against a listed target (E3 D: the list offers a few)."""
        return (self.kind, self.side, self.target)

    def text(self) -> str:
        return f"attack {self.target} with {' '.join(self.units)}"


@dataclass(frozen=True)
class Evade(Order):
    """E1: the Norwegian defenders try to retreat before combat (``go``) or stand."""

    kind: ClassVar[str] = "evade"
    go: bool = False

    def text(self) -> str:
        return "evade" if self.go else "stand"


@dataclass(frozen=True)
class Land(Order):
    """An Allied arrival lands at a port the Allies own, or by landing craft on a coast (E1)."""

    kind: ClassVar[str] = "land"
    unit: str = ""
    at: str = ""

    def text(self) -> str:
        return f"land {self.unit} {self.at}"


@dataclass(frozen=True)
class Form(Order):
    """E1: place the artillery-formed battalion of a captured store within 3 hexes."""

    kind: ClassVar[str] = "form"
    unit: str = ""
    at: str = ""

    def text(self) -> str:
        return f"form {self.unit} {self.at}"


#: the orders of the Europa variant; ``pass`` ends a phase or declines a choice
ORDERS = OrderKinds("europa", [Pass, Move, Truck, Absorb, Detach, Assemble, Breakdown, Interdict, Mission, Attack,
                               Evade, Retreat, Advance, Land, Form], rule="E3")
