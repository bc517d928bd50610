"""Orders of a Konflikt '47 scenario: the set-up's choices and the order dice's orders (the
host ruleset's Move and Assault, plus entering from reserve, leaving the table, Down)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hexwar.core.orders import Move, Order, OrderKinds, Pass
from hexwar.rules.orders import Assault


@dataclass(frozen=True)
class Pick(Order):
    """The high roller's choice: attacker or defender, or a table edge (2.1-2.6)."""

    kind: ClassVar[str] = "pick"
    choice: str = ""

    def text(self) -> str:
        return f"pick {self.choice}"


@dataclass(frozen=True)
class Mark(Order):
    """Place an objective (Point Defence) or one's base (Demolition)."""

    kind: ClassVar[str] = "mark"
    what: str = ""
    at: str = ""

    def text(self) -> str:
        return f"mark {self.what} {self.at}"


@dataclass(frozen=True)
class Assign(Order):
    """Set one unit up: on the table (``at``, perhaps hidden, 3.1), in the first wave, in
    reserve, or outflanking to the left or right (3.4, 3.5)."""

    kind: ClassVar[str] = "assign"
    unit: str = ""
    where: str = ""  # "table", "first wave", "reserve", "outflank left", "outflank right"
    at: str = ""
    hidden: bool = False

    def text(self) -> str:
        if self.where == "table":
            return f"deploy {self.unit} {self.at}" + (" hidden" if self.hidden else "")
        return f"{self.where} {self.unit}"


@dataclass(frozen=True)
class Enter(Order):
    """A first-wave, reserve or outflanking unit comes onto the table at an edge (3.4, 3.5)."""

    kind: ClassVar[str] = "enter"
    unit: str = ""
    at: str = ""

    def text(self) -> str:
        return f"enter {self.unit} {self.at}"


@dataclass(frozen=True)
class Leave(Order):
    """A unit moves off the table from an edge it may leave by (2.1, 2.5)."""

    kind: ClassVar[str] = "leave"
    unit: str = ""

    def text(self) -> str:
        return f"leave {self.unit}"


@dataclass(frozen=True)
class Down(Order):
    """A unit's order die is spent on Down: it does nothing this turn (3.4)."""

    kind: ClassVar[str] = "down"
    unit: str = ""

    def text(self) -> str:
        return f"down {self.unit}"


ORDERS = OrderKinds("konflikt", [Pass, Move, Assault, Pick, Mark, Assign, Enter, Leave, Down], rule="4.3")
