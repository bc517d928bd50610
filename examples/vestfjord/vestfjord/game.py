"""Vestfjord Patrol's rules: a U-boat slips up the fjord towards Narvik, destroyers hunt it.

The rule sections cited (``2.0`` ...) are the example game's own, written out in
``examples/vestfjord/README.md``; every number comes from ``data/patrol.yaml``.

- 2.0 Set-up: the U-boat dives at one of the west approaches, in secret.
- 3.0 A turn: the U-boat moves one sea hex or lies still (3.1), then each destroyer acts once
  (3.2): it steams up to its speed through sea hexes, pings its sonar, or drops depth charges
  on its own hex or the next; a pass ends the destroyers' turn.
- 4.0 Sonar: a die at least the chart's number for the U-boat's distance (same hex, next hex)
  makes contact: the destroyers see the U-boat until it next moves.
- 5.0 Depth charges: a die at least the chart's number (with contact, or blind) sinks a
  U-boat in the target hex.
- 6.0 Victory: the U-boat wins on reaching the harbour; the destroyers win when it is sunk or
  the last turn ends.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Collection, Literal, TypedDict

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hexwar.board import load_board
from hexwar.board.base import Board
from hexwar.core.dice import Dice
from hexwar.core.game import Event, Game
from hexwar.core.orders import Refusals
from hexwar.core.result import Result
from hexwar.core.orders import IllegalOrder, Move, Order, OrderKinds, Pass
from hexwar.core.state import Unit, UnitState, new_unit
from hexwar.data.loader import DataError, Library, Problem

DATA = Path(__file__).resolve().parent / "data"
SIDES = ("navy", "uboat")
UBOAT = "U-47"
UNSEEN = "submerged"  # the pool a U-boat the destroyers cannot see is in, in their view


# --- the charts (data/patrol.yaml), validated on load ----------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioSpec(_Strict):
    about: str
    turns: int = Field(ge=1, le=50)
    destroyers: dict[str, str] = Field(min_length=1)
    source: str


class SpeedSpec(_Strict):
    uboat: int = Field(ge=1, le=3)
    destroyer: int = Field(ge=1, le=6)
    source: str


class SonarSpec(_Strict):
    same_hex: int = Field(ge=1, le=7)
    adjacent: int = Field(ge=1, le=7)
    source: str


class ChargeSpec(_Strict):
    contact: int = Field(ge=1, le=7)
    blind: int = Field(ge=1, le=7)
    source: str


class Charts(_Strict):
    scenarios: dict[str, ScenarioSpec] = Field(min_length=1)
    speed: SpeedSpec
    sonar: SonarSpec
    depth_charge: ChargeSpec


def load_charts(path: Path = DATA / "patrol.yaml") -> Charts:
    """The game's charts, or a :class:`DataError` naming the file and the key."""
    try:
        return Charts.model_validate(yaml.safe_load(path.read_text()))
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError([Problem(path.name, ".".join(map(str, err["loc"])), err["msg"])]) from None


# --- state, orders, events ------------------------------------------------------------------


@dataclass
class PatrolData(UnitState, game="vestfjord"):
    """Everything that changes: the counters (UnitState), the destroyers that have acted
    this turn, and the hex where the destroyers hold sonar contact (4.0)."""

    POOLS: ClassVar[frozenset[str]] = UnitState.POOLS | {UNSEEN}
    COPIERS: ClassVar[Any] = {**UnitState.COPIERS, "acted": list}

    acted: list[str] = field(default_factory=list)
    contact: str | None = None
    sunk: bool = False


@dataclass(frozen=True)
class Dive(Order):
    """2.0: the U-boat dives at a west approach (only the U-boat knows which)."""

    kind: ClassVar[str] = "dive"
    at: str = ""

    def text(self) -> str:
        return f"dive {self.at}"


@dataclass(frozen=True)
class Ping(Order):
    """4.0: a destroyer pings its sonar."""

    kind: ClassVar[str] = "ping"
    ship: str = ""

    def text(self) -> str:
        return f"ping {self.ship}"


@dataclass(frozen=True)
class Charge(Order):
    """5.0: a destroyer drops depth charges on its own hex or the next."""

    kind: ClassVar[str] = "charge"
    ship: str = ""
    target: str = ""

    def text(self) -> str:
        return f"charge {self.ship} {self.target}"


ORDERS = OrderKinds("vestfjord", [Pass, Move, Dive, Ping, Charge], rule="3.0")


class Dived(TypedDict):
    type: Literal["dived"]
    at: str  # "" in the destroyers' view
    rule: str


class Moved(TypedDict):
    type: Literal["moved"]
    unit: str
    path: list[str]
    rule: str


class Sonar(TypedDict):
    type: Literal["sonar"]
    ship: str
    at: str
    die: int
    contact: bool
    rule: str


class DepthCharge(TypedDict):
    type: Literal["depth_charge"]
    ship: str
    target: str
    die: int
    need: int
    sunk: bool
    rule: str


class TurnEnd(TypedDict):
    type: Literal["turn_end"]
    turn: int
    rule: str


class GameEnd(TypedDict):
    type: Literal["game_end"]
    winner: str
    why: str
    rule: str


# --- the rules ------------------------------------------------------------------------------


class PatrolGame(Game[PatrolData]):
    """One scenario of Vestfjord Patrol on its board."""

    name = "vestfjord"
    orders = ORDERS
    refusals = Refusals(over="6.0", foreign="3.0", not_now="3.0")
    events: ClassVar[Any] = {"dived": Dived, "moved": Moved, "sonar": Sonar, "depth_charge": DepthCharge,
                             "turn_end": TurnEnd, "game_end": GameEnd}
    state_type = PatrolData

    def __init__(self, scenario: str = "patrol", charts: Charts | None = None, data: Path = DATA):
        self.charts = charts or load_charts(data / "patrol.yaml")
        if scenario not in self.charts.scenarios:
            raise DataError([Problem("patrol.yaml", f"scenarios.{scenario}", "no such scenario")])
        self.scenario = scenario
        self.spec = self.charts.scenarios[scenario]
        self.board: Board = load_board("vestfjord", Library(data))
        self.harbour = self.board.places("victory")[0].location
        self.entries = tuple(p.location for p in self.board.places("edge_west"))
        for ship, at in self.spec.destroyers.items():
            if not self.is_sea(at):
                raise DataError([Problem("patrol.yaml", f"scenarios.{scenario}.destroyers.{ship}", f"{at} is no sea hex")])

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.scenario}

    def is_sea(self, loc: str) -> bool:
        return loc in self.board and self.board.terrain(loc) == "sea"

    def sea_next(self, loc: str) -> list[str]:
        return [n for n in self.board.neighbours(loc) if self.is_sea(n)]

    def ways(self, start: str, steps: int) -> dict[str, tuple[str, ...]]:
        """Every sea hex within ``steps`` of ``start``, with one shortest path to it (3.2)."""
        paths: dict[str, tuple[str, ...]] = {start: (start,)}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            if len(paths[here]) > steps:
                continue
            for n in self.sea_next(here):
                if n not in paths:
                    paths[n] = paths[here] + (n,)
                    todo.append(n)
        del paths[start]
        return paths

    def destroyers(self, d: PatrolData) -> list[Unit]:
        return [u for u in d.units.values() if u.side == "navy"]

    # --- the contract ---------------------------------------------------------------------

    def initial_state(self, seed: int, dice: Dice) -> PatrolData:
        d = PatrolData(game=self.name, scenario=self.scenario, seed=seed, phase="set-up", side="uboat",
                       vp={s: 0 for s in SIDES})
        d.units[UBOAT] = Unit(UBOAT, "uboat", "uboat", "german", name="U-boat", pool="reinforcements")
        for ship, at in self.spec.destroyers.items():
            d.units[ship] = Unit(ship, "destroyer", "navy", "british", name=ship, loc=at, pool=None)
        return d

    def current_side(self, data: PatrolData) -> str:
        return "navy" if data.phase == "navy" else "uboat"

    def decision_rule(self, data: PatrolData) -> str:
        return {"set-up": "2.0", "uboat": "3.1", "navy": "3.2"}.get(data.phase, "3.0")

    def legal_orders(self, data: PatrolData) -> list[Order]:
        if data.over:
            return []
        if data.phase == "set-up":
            return [Dive("uboat", at) for at in self.entries]
        if data.phase == "uboat":
            here = data.units[UBOAT].loc
            assert here is not None
            return [Pass("uboat")] + [Move("uboat", UBOAT, (here, n)) for n in self.sea_next(here)]
        out: list[Order] = [Pass("navy")]
        for u in self.destroyers(data):
            if u.id in data.acted or u.loc is None:
                continue
            out.append(Ping("navy", u.id))
            out += [Charge("navy", u.id, t) for t in [u.loc, *self.sea_next(u.loc)]]
            out += [Move("navy", u.id, p) for _, p in sorted(self.ways(u.loc, self.charts.speed.destroyer).items())]
        return out

    def apply(self, data: PatrolData, order: Order, dice: Dice) -> list[Event]:
        if order not in self.legal_orders(data):
            raise IllegalOrder(f"{order.text()} is not an order the rules allow now", self.decision_rule(data))
        ev: list[Event] = []
        if isinstance(order, Dive):  # 2.0
            u = data.units[UBOAT]
            u.loc, u.pool = order.at, None
            ev.append({"type": "dived", "at": order.at, "rule": "2.0"})
            data.phase = data.side = "uboat"
        elif data.phase == "uboat":  # 3.1
            if isinstance(order, Move):
                data.units[UBOAT].loc = order.path[-1]
                data.contact = None  # 4.0: contact holds until the U-boat moves
                ev.append({"type": "moved", "unit": UBOAT, "path": list(order.path), "rule": "3.1"})
                if order.path[-1] == self.harbour:
                    return ev + self._end(data, "uboat", "the U-boat reached the harbour", "6.0")
            data.phase = data.side = "navy"
        elif isinstance(order, Pass):  # 3.2: a pass ends the destroyers' turn
            ev += self._end_turn(data)
        else:
            sid = order.unit if isinstance(order, Move) else order.ship if isinstance(order, (Ping, Charge)) else ""
            ship = data.units[sid]
            data.acted.append(ship.id)
            if isinstance(order, Move):
                ship.loc = order.path[-1]
                ev.append({"type": "moved", "unit": ship.id, "path": list(order.path), "rule": "3.2"})
            elif isinstance(order, Ping):
                ev += self._ping(data, ship, dice)
            elif isinstance(order, Charge):
                ev += self._charge(data, ship, order.target, dice)
                if data.over:
                    return ev
            if all(u.id in data.acted for u in self.destroyers(data)):
                ev += self._end_turn(data)
        return ev

    def sonar_need(self, ship_loc: str, uboat_loc: str | None) -> int | None:
        """4.0: the least die that makes contact at this distance (None: out of range)."""
        if uboat_loc is None:
            return None
        dist = self.board.distance(ship_loc, uboat_loc)
        return self.charts.sonar.same_hex if dist == 0 else self.charts.sonar.adjacent if dist == 1 else None

    def charge_need(self, data: PatrolData, target: str) -> int:
        """5.0: the least die that sinks a U-boat in ``target``: with contact there, or blind."""
        return self.charts.depth_charge.contact if data.contact == target else self.charts.depth_charge.blind

    def _ping(self, data: PatrolData, ship: Unit, dice: Dice) -> list[Event]:
        assert ship.loc is not None
        die = dice.roll(1, "sonar").faces[0]
        need = self.sonar_need(ship.loc, data.units[UBOAT].loc)
        found = need is not None and die >= need
        if found:
            data.contact = data.units[UBOAT].loc
        return [{"type": "sonar", "ship": ship.id, "at": ship.loc, "die": die, "contact": found, "rule": "4.0"}]

    def _charge(self, data: PatrolData, ship: Unit, target: str, dice: Dice) -> list[Event]:
        die = dice.roll(1, "depth charges").faces[0]
        need = self.charge_need(data, target)
        sunk = data.units[UBOAT].loc == target and die >= need
        ev: list[Event] = [{"type": "depth_charge", "ship": ship.id, "target": target, "die": die, "need": need,
                            "sunk": sunk, "rule": "5.0"}]
        if sunk:
            u = data.units[UBOAT]
            u.loc, u.pool = None, "eliminated"
            data.sunk = True
            ev += self._end(data, "navy", "the U-boat was sunk", "6.0")
        return ev

    def _end_turn(self, data: PatrolData) -> list[Event]:
        ev: list[Event] = [{"type": "turn_end", "turn": data.turn, "rule": "3.0"}]
        if data.turn >= self.spec.turns:
            return ev + self._end(data, "navy", f"the patrol held the fjord for {self.spec.turns} turns", "6.0")
        data.turn += 1
        data.acted = []
        data.phase = data.side = "uboat"
        return ev

    def _end(self, data: PatrolData, winner: str, why: str, rule: str) -> list[Event]:
        data.over, data.winner, data.phase = True, winner, "over"
        data.vp[winner] = 1
        return [{"type": "game_end", "winner": winner, "why": why, "rule": rule}]

    def result(self, data: PatrolData) -> Result:
        if not data.over:
            return Result(False, None, "in progress", dict(data.vp))
        level = "U-boat sunk" if data.sunk else "U-boat through" if data.winner == "uboat" else "patrol held"
        return Result(True, data.winner, level, dict(data.vp))

    # --- what each side may see (the destroyers never learn where an unseen U-boat is) ----

    def _blind(self, data: PatrolData, sides: Collection[str]) -> bool:
        u = data.units[UBOAT]
        return "uboat" not in sides and u.loc is not None and data.contact != u.loc

    def view(self, data: PatrolData, sides: Collection[str]) -> PatrolData:
        if not self._blind(data, sides):
            return data
        v = data.shallow()
        v.units = dict(data.units)
        u = data.units[UBOAT]
        v.units[UBOAT] = new_unit(**{**u.__dict__, "loc": None, "pool": UNSEEN, "flags": []})
        return v

    def visible_events(self, data: PatrolData, events: list[Event], sides: Collection[str]) -> list[Event]:
        if "uboat" in sides:
            return events
        # the dive is heard, not where; a move under water is not heard at all (3.1)
        return [{**e, "at": ""} if e["type"] == "dived" else e for e in events
                if not (e["type"] == "moved" and e["unit"] == UBOAT)]

    def visible_order(self, data: PatrolData, order: Order, sides: Collection[str]) -> str:
        if "uboat" in sides or order.side != "uboat":
            return order.text()
        return "the U-boat dives" if isinstance(order, Dive) else "the U-boat moves or lies still, unseen"
