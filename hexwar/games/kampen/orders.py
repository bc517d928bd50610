"""Orders of Kampen om Norge: moves, cards, fights, removals, withdrawals, reinforcements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hexwar.core.orders import Order, OrderKinds, Pass


@dataclass(frozen=True)
class KMove(Order):
    """Move ``n`` battalions one land area (4.1); into an enemy area it is an attack. On a hex
    board one area step is several hexes (``steps.py``): ``via`` holds the hexes passed."""

    kind: ClassVar[str] = "kmove"
    src: str = ""
    dst: str = ""
    n: int = 1
    via: tuple[str, ...] = ()

    def text(self) -> str:
        return f"move {self.n} {'>'.join((self.src, *self.via, self.dst))}"


@dataclass(frozen=True)
class PlayCard(Order):
    """Play one card copy for one of its functions (``slot``), with its arguments."""

    kind: ClassVar[str] = "card"
    copy: int = 0
    card: str = ""
    slot: str = ""
    target: str = ""
    src: str = ""
    path: tuple[str, ...] = ()
    n: int = 0
    cash: tuple[int, ...] = ()

    def text(self) -> str:
        bits = [f"play {self.card}#{self.copy}", self.slot]
        if self.path:
            bits.append(f"{self.n} {self.src}>{'>'.join(self.path)}")
        elif self.src and self.target:
            bits.append(f"{self.n or ''} {self.src}>{self.target}".strip())
        else:
            if self.src:
                bits.append(f"from {self.src}")
            if self.target:
                bits.append(f"at {self.target}")
            if self.n and not self.path:
                bits.append(f"x{self.n}")
        if self.cash:
            bits.append("cashing " + ",".join(f"#{c}" for c in self.cash))
        return " ".join(bits)


@dataclass(frozen=True)
class Fight(Order):
    """Choose the next combat (4.2: the attacker chooses the order)."""

    kind: ClassVar[str] = "fight"
    area: str = ""

    def text(self) -> str:
        return f"fight {self.area}"


@dataclass(frozen=True)
class Split(Order):
    """How Norway and the Allies share the losses of a joint defence (4.2 step 6)."""

    kind: ClassVar[str] = "split"
    norwegians: int = 0
    allies: int = 0

    def text(self) -> str:
        return f"lose {self.norwegians} norwegian {self.allies} allied"


@dataclass(frozen=True)
class Losses(Order):
    """Which of its attacking groups an attacker takes its losses from (4.2 step 6): one
    (where the group attacked from, battalions lost) pair per group, in the combat's group order."""

    kind: ClassVar[str] = "losses"
    groups: tuple[tuple[str, int], ...] = ()

    def text(self) -> str:
        return "lose " + ", ".join(f"{n} from {src}" for src, n in self.groups)


@dataclass(frozen=True)
class Recall(Order):
    """One Allied battalion the Allies remove from the board when their deck runs out (2.4)."""

    kind: ClassVar[str] = "recall"
    area: str = ""

    def text(self) -> str:
        return f"recall 1 from {self.area}"


@dataclass(frozen=True)
class Withdraw(Order):
    """Withdraw the losing battalions to one adjacent land area (4.2 step 8)."""

    kind: ClassVar[str] = "withdraw"
    area: str = ""

    def text(self) -> str:
        return f"withdraw {self.area}"


@dataclass(frozen=True)
class Cash(Order):
    """Cash a card in hand for its reinforcement symbols (4.3)."""

    kind: ClassVar[str] = "cash"
    copy: int = 0
    card: str = ""

    def text(self) -> str:
        return f"cash {self.card}#{self.copy}"


@dataclass(frozen=True)
class PlaceBn(Order):
    """Place ``n`` new battalions in an area (4.3; the Allied landing of 3.5 places groups of 3)."""

    kind: ClassVar[str] = "place"
    area: str = ""
    n: int = 1

    def text(self) -> str:
        return f"place {self.n} {self.area}"


@dataclass(frozen=True)
class Discard(Order):
    """Discard a card when none was used this round (4.4)."""

    kind: ClassVar[str] = "discard"
    copy: int = 0
    card: str = ""

    def text(self) -> str:
        return f"discard {self.card}#{self.copy}"


# --- the advanced game (rules 5-8) ----------------------------------------------------------


@dataclass(frozen=True)
class Choose(Order):
    """Keep one 9 April card of those dealt (7.0)."""

    kind: ClassVar[str] = "choose"
    copy: int = 0
    card: str = ""

    def text(self) -> str:
        return f"choose {self.card}#{self.copy}"


@dataclass(frozen=True)
class PlaceShip(Order):
    """Place one ship card face down in a sea area (7.0; the Home Fleet, 7.4)."""

    kind: ClassVar[str] = "ship"
    ship: int = 0
    name: str = ""
    sea: str = ""

    def text(self) -> str:
        return f"ship {self.name}#{self.ship} {self.sea}"


@dataclass(frozen=True)
class Sail(Order):
    """Move ships (one, or a whole stack) up to 2 sea areas (8.1)."""

    kind: ClassVar[str] = "sail"
    ships: tuple[int, ...] = ()
    names: str = ""
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"sail {self.names} >{'>'.join(self.path)}"


@dataclass(frozen=True)
class Intercept(Order):
    """Try to intercept with all one's ships in a sea area (8.1)."""

    kind: ClassVar[str] = "intercept"
    sea: str = ""

    def text(self) -> str:
        return f"intercept {self.sea}"


@dataclass(frozen=True)
class AddShip(Order):
    """Add a ship that was not intercepted to the sea combat (8.2)."""

    kind: ClassVar[str] = "add"
    ship: int = 0
    name: str = ""

    def text(self) -> str:
        return f"add {self.name}#{self.ship}"


@dataclass(frozen=True)
class Chase(Order):
    """Send a chased enemy ship to an adjacent sea area (8.2 step 7)."""

    kind: ClassVar[str] = "chase"
    ship: int = 0
    name: str = ""
    sea: str = ""

    def text(self) -> str:
        return f"chase {self.name}#{self.ship} {self.sea}"


@dataclass(frozen=True)
class Raid(Order):
    """Send a battleship or heavy cruiser raiding (7.2)."""

    kind: ClassVar[str] = "raid"
    ship: int = 0
    name: str = ""

    def text(self) -> str:
        return f"raid {self.name}#{self.ship}"


@dataclass(frozen=True)
class Land(Order):
    """A German ship lands one battalion in an adjacent land area (7.2)."""

    kind: ClassVar[str] = "land"
    ship: int = 0
    name: str = ""
    area: str = ""

    def text(self) -> str:
        return f"land {self.name}#{self.ship} {self.area}"


@dataclass(frozen=True)
class RemoveShip(Order):
    """One ship the Allies remove when their deck runs out (5.2)."""

    kind: ClassVar[str] = "unship"
    ship: int = 0
    name: str = ""

    def text(self) -> str:
        return f"unship {self.name}#{self.ship}"


@dataclass(frozen=True)
class RecallRaiders(Order):
    """Cash cards worth 6 symbols to bring the raiders home (7.2)."""

    kind: ClassVar[str] = "recall_raiders"
    cash: tuple[int, ...] = ()

    def text(self) -> str:
        return "recall raiders cashing " + ",".join(f"#{c}" for c in self.cash)


#: every order of kampen, by kind
ORDERS = OrderKinds("kampen", [Pass, KMove, PlayCard, Fight, Split, Losses, Recall, Withdraw, Cash, PlaceBn, Discard,
                               Choose, PlaceShip, Sail, Intercept, AddShip, Chase, Raid, Land, RemoveShip, RecallRaiders], rule="4")
