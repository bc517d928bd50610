"""Orders of Assault on Narvik beyond the engine's (Pass, Move) and the land games' (Retreat,
Advance: ``hexwar.rules.orders``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hexwar.core.orders import IllegalOrder, Move, Order, OrderKinds, Pass
from hexwar.rules.orders import Advance, Retreat


@dataclass(frozen=True)
class TakeResult(Order):
    """Choose how to take one CRT result point: retreat, fatigue or eliminate (15.2)."""

    kind: ClassVar[str] = "take"
    option: str = ""  # "retreat" | "fatigue" | "eliminate"
    unit: str = ""  # the unit eliminated, or the retreat/fatigue detail
    detail: tuple[tuple[str, int], ...] = ()  # fatigue split: (unit, FP) pairs

    def family(self) -> tuple[Any, ...] | None:
        """Any split of the points of a listed way to take a result (15.2)."""
        return (self.kind, self.side, self.option, self.unit)

    def text(self) -> str:
        extra = f" {self.unit}" if self.unit else ""
        if self.detail:
            extra += " " + ",".join(f"{u}:{fp}" for u, fp in self.detail)
        return f"take {self.option}{extra}"


@dataclass(frozen=True)
class LandAssault(Order):
    """Assault a hex (15.1) with adjacent units, supporting artillery and ships, and German AP."""

    kind: ClassVar[str] = "land_assault"
    target: str = ""
    units: tuple[str, ...] = ()
    artillery: tuple[str, ...] = ()
    ships: tuple[str, ...] = ()
    ap: int = 0

    def family(self) -> tuple[Any, ...] | None:
        """Any eligible attackers, artillery, ships and AP against a listed target (15.1, 16.0, 17.0, 18.1.1)."""
        return (self.kind, self.side, self.target)

    def text(self) -> str:
        extra = ""
        if self.artillery:
            extra += f" art {','.join(self.artillery)}"
        if self.ships:
            extra += f" ships {','.join(self.ships)}"
        if self.ap:
            extra += f" ap {self.ap}"
        return f"assault {self.target} with {','.join(self.units)}{extra}"


@dataclass(frozen=True)
class Exit(Order):
    """Move an Allied unit off the north or south edge (22.3): a normal movement action along
    ``path`` to an edge hex (empty: from where it stands), then 1 MP to leave."""

    kind: ClassVar[str] = "exit"
    unit: str = ""
    path: tuple[str, ...] = ()

    def family(self) -> tuple[Any, ...] | None:
        """Any route off the map for a unit the list lets exit (22.3)."""
        return (self.kind, self.side, self.unit)

    def text(self) -> str:
        return f"exit {self.unit}" + (f" via {'>'.join(self.path)}" if len(self.path) > 1 else "")


@dataclass(frozen=True)
class ArtilleryInterdiction(Order):
    """Artillery fires on one German unit: 2 FP per strength point (16.1.1)."""

    kind: ClassVar[str] = "art_interdict"
    artillery: tuple[str, ...] = ()
    target: str = ""

    def text(self) -> str:
        return f"interdict {self.target} with {','.join(self.artillery)}"


@dataclass(frozen=True)
class AirStrike(Order):
    """A German air mission: interdict Allied infantry in a hex, or attack ships (18.1.2, 18.1.3)."""

    kind: ClassVar[str] = "air"
    mission: str = ""  # "infantry" | "ships"
    hex: str = ""
    ap: int = 0
    allocation: tuple[tuple[str, int], ...] = ()  # ships: (ship, AP) per attack

    def family(self) -> tuple[Any, ...] | None:
        """Any AP announced, split among the ships any way, on a listed target (18.1.2, 18.1.3)."""
        return (self.kind, self.side, self.mission, self.hex)

    def text(self) -> str:
        if self.mission == "ships":
            return f"air ships {self.hex} " + ",".join(f"{s}:{a}" for s, a in self.allocation)
        return f"air interdict {self.hex} ap {self.ap}"


@dataclass(frozen=True)
class NavalMove(Order):
    """Move ships as a group along waterways (20.1)."""

    kind: ClassVar[str] = "naval_move"
    ships: tuple[str, ...] = ()
    path: tuple[str, ...] = ()

    def family(self) -> tuple[Any, ...] | None:
        """Any group of the ships there, by any waterway, between a listed sailing's ends (20.1)."""
        return (self.kind, self.side, self.path[:1], self.path[-1:])

    def text(self) -> str:
        return f"sail {','.join(self.ships)} {'>'.join(self.path)}"


@dataclass(frozen=True)
class Embark(Order):
    """Put a land unit aboard a ship in a friendly port or Harstad (20.2); the ship may sail
    into the port along ``path`` in the same action (its move ends on embarking)."""

    kind: ClassVar[str] = "embark"
    ship: str = ""
    unit: str = ""
    path: tuple[str, ...] = ()

    def family(self) -> tuple[Any, ...] | None:
        """Any waterway into the port for a listed embarkation (20.2)."""
        return (self.kind, self.side, self.ship, self.unit)

    def text(self) -> str:
        return f"embark {self.unit} on {self.ship}" + (f" via {'>'.join(self.path)}" if self.path else "")


@dataclass(frozen=True)
class Disembark(Order):
    """Unload a ship's cargo in a friendly port or Harstad (20.2); once unloaded the ship may
    sail on along ``then`` in the same action."""

    kind: ClassVar[str] = "disembark"
    ship: str = ""
    then: tuple[str, ...] = ()

    def family(self) -> tuple[Any, ...] | None:
        """Any sailing on after a listed disembarkation (20.2, 20.3)."""
        return (self.kind, self.side, self.ship)

    def text(self) -> str:
        return f"disembark {self.ship}" + (f" then {'>'.join(self.then)}" if self.then else "")


@dataclass(frozen=True)
class Landing(Order):
    """Amphibious landing from ships in the target hex, or amphibious assault from an adjacent hex (20.3)."""

    kind: ClassVar[str] = "landing"
    ships: tuple[str, ...] = ()
    target: str = ""
    bombard: tuple[str, ...] = ()
    then: tuple[str, ...] = ()  # 20.3 step 3: an uncontested landing's transports sail on at once

    def family(self) -> tuple[Any, ...] | None:
        """Any transports, bombarding ships and sailing on for a listed landing target (20.3)."""
        return (self.kind, self.side, self.target)

    def text(self) -> str:
        extra = f" bombard {','.join(self.bombard)}" if self.bombard else ""
        extra += f" then {'>'.join(self.then)}" if self.then else ""
        return f"land {','.join(self.ships)} at {self.target}{extra}"


@dataclass(frozen=True)
class Bombard(Order):
    """Naval interdiction: one ship fires on every unit in a hex, 2 FP per strength point (20.5)."""

    kind: ClassVar[str] = "bombard"
    ship: str = ""
    target: str = ""

    def text(self) -> str:
        return f"bombard {self.target} with {self.ship}"


@dataclass(frozen=True)
class ShipFunction(Order):
    """Set a Puffer as a Base or a Puffer/LC as a fjord ferry (20.6)."""

    kind: ClassVar[str] = "ship_function"
    ship: str = ""
    function: str = ""  # "base" | "crossing"

    def text(self) -> str:
        return f"{self.function} {self.ship}"


@dataclass(frozen=True)
class DesignateBase(Order):
    """Designate a port hex held by an Allied land unit as a Base (19.4)."""

    kind: ClassVar[str] = "base"
    hex: str = ""

    def text(self) -> str:
        return f"base {self.hex}"


@dataclass(frozen=True)
class DeclareMas(Order):
    """Declare (or not) the once-per-game Allied maximum air support (18.2)."""

    kind: ClassVar[str] = "mas"
    declare: bool = False

    def text(self) -> str:
        return "mas" if self.declare else "no mas"


@dataclass(frozen=True)
class Reveal(Order):
    """Flip a face-down German unit face up (11.1: at any time); not an action."""

    kind: ClassVar[str] = "reveal"
    unit: str = ""

    def text(self) -> str:
        return f"reveal {self.unit}"


@dataclass(frozen=True)
class Place(Order):
    """Place an arriving German unit in a hex holding a German unit (23.4), face down or up."""

    kind: ClassVar[str] = "place"
    unit: str = ""
    hex: str = ""
    concealed: bool = False
    dummy_hex: str = ""  # 23.4: a concealed arrival may bring one new dummy

    def text(self) -> str:
        d = f" dummy {self.dummy_hex}" if self.dummy_hex else ""
        return f"place {self.unit} {self.hex}{' hidden' if self.concealed else ''}{d}"


@dataclass(frozen=True)
class ChooseUnits(Order):
    """Pick units when the rules let the owner choose (31.0: which artillery or tank leaves)."""

    kind: ClassVar[str] = "choose"
    units: tuple[str, ...] = ()

    def text(self) -> str:
        return f"choose {','.join(self.units)}"


#: every order of narvik, by kind
ORDERS = OrderKinds("narvik", [Pass, Move, TakeResult, Retreat, Advance, LandAssault, Exit, ArtilleryInterdiction, AirStrike, NavalMove, Embark, Disembark, Landing, Bombard, ShipFunction, DesignateBase, DeclareMas, Reveal, Place, ChooseUnits], rule="6.0")


def expect(order: Order, *types: type) -> None:
    """Refuse an order of another kind than the decision asks for (6.0)."""
    if not isinstance(order, types):
        names = ", ".join(t.kind for t in types)  # type: ignore[attr-defined]
        raise IllegalOrder(f"expected {names}, got {order.kind}", "6.0")


def _names(text: str) -> tuple[str, ...]:
    return tuple(x for x in text.split(",") if x)


def _path(text: str) -> tuple[str, ...]:
    return tuple(x for x in text.split(">") if x)


def parse_text(line: str, side: str) -> Order | None:
    """Read an order typed in the words ``text()`` writes, for the choices the list offers only
    up to a cap (15.1 subsets, 18.1.3 splits, 20.1-20.3 groups and paths, 22.3 exits); None if
    it is not one of those forms. The game then checks it in full.

    >>> parse_text("assault 2506 with 6-I/15 art 2MTN ap 0", "allies")
    LandAssault(side='allies', target='2506', units=('6-I/15',), artillery=('2MTN',), ships=(), ap=0)
    >>> parse_text("air ships 2503 DD-1:2,DD-1:3", "germans").allocation
    (('DD-1', 2), ('DD-1', 3))
    """
    w = line.split()
    try:
        if len(w) >= 4 and w[0] == "assault" and w[2] == "with":
            opts = dict(zip(w[4::2], w[5::2]))
            if len(w) % 2 or set(opts) - {"art", "ships", "ap"}:
                return None
            return LandAssault(side, w[1], _names(w[3]), _names(opts.get("art", "")), _names(opts.get("ships", "")),
                               int(opts.get("ap", 0)))
        if len(w) == 4 and w[:2] == ["air", "ships"]:
            alloc = tuple((s, int(a)) for s, a in (x.split(":") for x in w[3].split(",")))
            return AirStrike(side, "ships", w[2], sum(a for _, a in alloc), alloc)
        if len(w) == 5 and w[:2] == ["air", "interdict"] and w[3] == "ap":
            return AirStrike(side, "infantry", w[2], int(w[4]))
        if len(w) == 3 and w[0] == "sail":
            return NavalMove(side, _names(w[1]), _path(w[2]))
        if len(w) >= 4 and w[0] == "land" and w[2] == "at":
            opts = dict(zip(w[4::2], w[5::2]))
            if len(w) % 2 or set(opts) - {"bombard", "then"}:
                return None
            return Landing(side, _names(w[1]), w[3], _names(opts.get("bombard", "")), _path(opts.get("then", "")))
        if w[:1] == ["exit"] and len(w) in (2, 4) and (len(w) == 2 or w[2] == "via"):
            return Exit(side, w[1], _path(w[3]) if len(w) == 4 else ())
        if w[:1] == ["embark"] and len(w) in (4, 6) and w[2] == "on" and (len(w) == 4 or w[4] == "via"):
            return Embark(side, w[3], w[1], _path(w[5]) if len(w) == 6 else ())
        if w[:1] == ["disembark"] and len(w) in (2, 4) and (len(w) == 2 or w[2] == "then"):
            return Disembark(side, w[1], _path(w[3]) if len(w) == 4 else ())
        if w[:1] == ["move"] and len(w) == 3:
            return Move(side, w[1], _path(w[2]))
    except ValueError:
        return None
    return None
