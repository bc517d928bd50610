"""What the Europa variant's phases read: ``EuropaRules``, the scenario's map, charts and
order of battle with the queries of units and sides, and ``Context``, one side's knowledge of
the enemy for its moves, worked out once per enemy position. ``EuropaRules`` knows no phase:
``game.EuropaGame`` composes the phases on it, so no phase imports the game."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import partial
from typing import Any, Collection

from hexwar.board.base import BoardError
from hexwar.board.hexboard import HexBoard
from hexwar.core.engine import DecisionGame
from hexwar.core.result import Result
from hexwar.core.game import Caches
from hexwar.core.state import Unit
from hexwar.data.loader import DataError, Library, Problem, default_library
from hexwar.data.tables import OddsCrt, TerrainChart
import hexwar.games.europa.events as E
from hexwar.games.europa.schemas import (
    EuropaRulesSpec,
    EuropaScenarioSpec,
    EuropaUnitType,
    UnitEntry,
)
from hexwar.games.europa.state import (
    ALLIES,
    DISRUPTED,
    GERMANS,
    OVERSTACKED,
    Ask,
    EuropaData,
    other,
)
from hexwar.rules.movement import MoveQuery
from hexwar.rules.supply import supply_status
from hexwar.rules.zoc import projects_into

#: units that are not ground units: they neither occupy, stack nor fight on the ground
NOT_GROUND = frozenset({"ship", "air", "landing_craft"})
#: land terrain that can hold ground units
KEY_KINDS = ("port", "airfield", "town", "mobilisation")  # E4: the hexes that change owner
NONE: frozenset[str] = frozenset()  # one object: the compiled moves cache their look-ups by the sets' identity


@dataclass(frozen=True)
class Switches:
    """Typed rules switches where the seed allows two readings ([nd] rules, E1)."""

    free_retreat: bool = False  # E1 limited retreat option: without the die (the option is the defender's alone)
    assembled_start: bool = False  # E1 breakdowns: start the German regiments assembled (the seed's "can't reasonably")

    def names(self) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name)]


@dataclass(frozen=True)
class Context:
    """What one side's moves need to know of the enemy, computed once per enemy position."""

    zoc: frozenset[str]
    enemy: frozenset[str]
    never: frozenset[str]
    blocked: frozenset[str]  # enemy | never: not passed through
    strong: frozenset[str]  # enemy hexes holding a unit with a defence strength (E3 E)
    near: frozenset[str]  # hexes next to an enemy hex
    reach: dict[tuple[str, str, Fraction, str, bool], Any]  # (mover, hex, MP, class, exploit) -> destinations
    #: (unit, mover or None, exploit) -> that reach's orders, in destination order (a
    #: listing's moves and truck moves, made once while the enemy stands still)
    orders: dict[tuple[str, str | None, bool], tuple[Any, list[Any]]]


def check_types(file: str, types: Collection[str], spec: EuropaScenarioSpec) -> None:
    """Refuse a scenario whose units name unit types that do not exist (every problem at once)."""
    probs = [Problem(file, f"units.{i}.type", f"unknown unit type {u.type!r}")
             for i, u in enumerate(spec.units) if u.type not in types]
    for where, entries in list(spec.mobilisation.items()) + [(k, s.artillery) for k, s in spec.stores.items()]:
        probs += [Problem(file, f"mobilisation.{where}", f"unknown unit type {e.type!r} (E1)")
                  for e in entries if e.type not in types]
    probs += [Problem(file, f"stores.{k}.formed", f"unknown unit type {s.formed!r} (E1)")
              for k, s in spec.stores.items() if s.formed not in types]
    if probs:
        raise DataError(probs)


def nearest_zone(board: HexBoard, spec: EuropaScenarioSpec, port: str) -> str:
    """The sea zone whose point is nearest a coastal hex (E1: a port's zone for naval transport)."""
    proj = board.projection
    c = board.geometry(port).centroid
    lon, lat = proj.to_lonlat(c.x, c.y) if proj is not None else (0.0, 0.0)
    return min(spec.sea_zones, key=lambda z: (spec.sea_zones[z].lonlat[0] - lon) ** 2 * 0.25
               + (spec.sea_zones[z].lonlat[1] - lat) ** 2)


def _weakest_last(rules: Any, u: Unit) -> tuple[int, int, str]:
    """E5 A: the strongest of a stack first, so the weakest are the ones flipped (a key at the
    module's top level: a closure in a method of a class mypyc leaves to Python fails its build)."""
    return (-rules.t(u).defence, -rules.t(u).attack, u.id)


@dataclass
class EuropaCaches(Caches):
    """What the Europa variant's rules work out as they go (``Caches``: the rules object's
    lifetime)."""

    #: (side, the enemy's ground units where they stand, with their flags) -> the ``Context``
    #: a side's moves read (ZoC, enemy-held hexes, and each unit's reach): at most 64, then emptied
    contexts: dict[Any, "Context"] = field(default_factory=dict)


class EuropaRules(DecisionGame[EuropaData]):
    """The Europa "Narvik" variant bound to a scenario: the map and its places, the charts, the
    order of battle, and the queries the phases ask of units and sides (``game.EuropaGame``
    composes the phases on it)."""

    board: HexBoard

    def __init__(self, scenario: str = "campaign", library: Library | None = None, switches: Switches = Switches()):
        lib = library or default_library()
        self.library = lib
        self.switches = switches
        spec: EuropaScenarioSpec = lib.load("oob", f"europa/{scenario}", "europa_scenario")
        self.spec: EuropaScenarioSpec = spec
        self.file = f"oob/europa/{scenario}.yaml"
        self.board = HexBoard.load(spec.map, lib)
        types = lib.load("oob", spec.unit_types, "europa_unit_types")
        self.types: dict[str, EuropaUnitType] = dict(types.types)
        self.mp = {k: Fraction(t.mp) for k, t in self.types.items()}
        self.bn: dict[str, Fraction] = {k: Fraction(t.bn) for k, t in self.types.items()}
        self.chart: TerrainChart = TerrainChart.from_spec(lib.load("tables", spec.tables["terrain"], "terrain_effects"))
        self.crt: OddsCrt = OddsCrt.from_spec(lib.load("tables", spec.tables["crt"], "crt_odds"))
        self.rules: EuropaRulesSpec = lib.load("tables", spec.tables["rules"], "europa_rules")
        self.keep = {k: Fraction(v.keep) for k, v in self.rules.disrupted.items()}
        check_types(self.file, self.types, spec)
        b = self.board
        self.sweden: frozenset[str] = frozenset(b.regions.get("sweden", ()))
        self.oob: dict[str, UnitEntry] = {u.id: u for u in spec.units}
        self.at: dict[str, str] = {u.id: self.hex(u.at) for u in spec.units if u.at}
        self.arrive_at: dict[str, str] = {u.id: self.hex(u.arrives) for u in spec.units if u.arrives}
        self.key_hexes: list[str] = sorted({p.location for k in KEY_KINDS for p in b.places(k)} - self.sweden)
        self.ports: frozenset[str] = frozenset(p.location for p in b.places("port")) - self.sweden
        self.airfields: frozenset[str] = frozenset(p.location for p in b.places("airfield")) - self.sweden
        self.victory_ports = sorted(p.location for p in b.places("victory"))
        self.norway: frozenset[str] = frozenset(x for x in b.locations() if x not in self.sweden and b.terrain(x) != "sea")
        self.zone_all: dict[str, str] = {h: nearest_zone(b, spec, h) for h in b.locations()
                         if h not in self.sweden and (h in self.ports or b.terrain(h) == "coast")}
        self.zone: dict[str, str] = {p: self.zone_all[p] for p in self.ports}
        self.centres = {self.hex(k): v for k, v in spec.mobilisation.items()}
        self.stores = {self.hex(k): v for k, v in spec.stores.items()}
        self.flotilla_port: str = self.hex(spec.flotilla_port)
        self.german_base: str = self.hex(spec.german_base)
        self.store_unit: dict[str, str] = {self.hex(k): f"{k}-formed" for k in spec.stores}  # E1: a store's artillery-formed battalion
        self.zoc_exit = Fraction(self.rules.zoc_exit.mp)  # E4 [nd]: authored in tables/europa/rules.yaml
        self.regiments: dict[str, tuple[str, ...]] = {u.id: tuple(u.breaks_into) for u in spec.units if u.breaks_into}
        self.parent = {bn: r for r, bns in self.regiments.items() for bn in bns}
        self.start = datetime.date.fromisoformat(spec.first_day)
        self.caches = EuropaCaches()

    # --- data --------------------------------------------------------------------------------
    def hex(self, where: str) -> str:
        """Return the hex of a place name or hex id of the scenario (a bad name: DataError)."""
        if where in self.board:
            return where
        try:
            return self.board.find(where)
        except BoardError:
            raise DataError([Problem(self.file, "units", f"{where!r} is neither a hex nor a place of map {self.board.name}")]) from None
    def date(self, turn: int) -> str:
        """Return the first day of a turn (E1: 4 days a turn)."""
        d = self.start + datetime.timedelta(days=(turn - 1) * self.spec.days_per_turn)
        return f"{d.day} {d.strftime('%B')} {d.year}"
    # --- typed queries -----------------------------------------------------------------------

    def t(self, u: Unit) -> EuropaUnitType:
        return self.types[u.type]

    def ground(self, u: Unit) -> bool:
        return self.types[u.type].kind not in NOT_GROUND

    def ground_at(self, d: EuropaData, loc: str, side: str | None = None) -> list[Unit]:
        """Ground units in a hex (absorbed ones included: they are there for all else, E5 C)."""
        return [u for u in d.at(loc) if self.ground(u) and (side is None or u.side == side)]

    def occupied(self, d: EuropaData, side: str) -> frozenset[str]:
        """Hexes holding a ground unit of ``side``."""
        return frozenset(u.loc for u in d.on_map(side) if u.loc is not None and self.ground(u))

    def attack(self, d: EuropaData, u: Unit) -> Fraction:
        """A unit's attack strength now: 0 when disrupted (E1), halved without attack supply."""
        a = Fraction(self.t(u).attack)
        if u.has(DISRUPTED):
            a *= self.keep["attack"]
        return a

    def defence(self, u: Unit) -> Fraction:
        """A unit's defence strength: halved when disrupted (E1), nothing when overstacked (E5 B)."""
        if u.has(OVERSTACKED):
            return Fraction(0)
        v = Fraction(self.t(u).defence)
        return v * self.keep["defence"] if u.has(DISRUPTED) else v

    def movement(self, d: EuropaData, u: Unit) -> Fraction:
        """A unit's movement rating now: E5 C (an HQ moves at its slowest absorbed unit's), halved
        when disrupted (E1) or out of general supply (E1), fractions kept (E4)."""
        mp = self.mp[u.type]
        for x, hq in d.absorbed.items():
            if hq == u.id:
                mp = min(mp, self.mp[d.units[x].type])
        if u.has(DISRUPTED):
            mp *= self.keep["mp"]
        if u.id in d.out_of_supply:
            mp /= 2
        return mp

    def zoc(self, d: EuropaData, side: str) -> frozenset[str]:
        """Hexes in the ZoC of ``side``'s ground units with an attack strength (authored: a
        disrupted unit has none), not across water."""
        out: set[str] = set()
        for u in d.on_map(side):
            if u.loc is not None and self.ground(u) and self.attack(d, u) > 0:
                out.add(u.loc)
                out.update(projects_into(self.board, u.loc))
        return frozenset(out)

    def context(self, d: EuropaData, side: str) -> "Context":
        """Return what ``side``'s moves need to know of the enemy (ZoC, enemy-held hexes,
        hexes never entered), cached for as long as the enemy's positions and flags stay the
        same; the context also caches each unit's reach (the enemy does not move meanwhile)."""
        enemy = other(side)
        key = (side, tuple(sorted((u.id, u.loc, tuple(u.flags)) for u in d.on_map(enemy) if self.ground(u))))
        hit = self.caches.contexts.get(key)
        if hit is None:
            if len(self.caches.contexts) > 64:
                self.caches.contexts.clear()
            zoc, held = self.zoc(d, enemy), self.occupied(d, enemy)
            strong = frozenset(x for x in held if any(self.defence(e) > 0 for e in self.ground_at(d, x, enemy)))
            hit = self.caches.contexts[key] = Context(zoc, held, self.sweden, held | self.sweden, strong,
                                           frozenset(n for x in held for n in self.board.neighbours(x)), {}, {})
        return hit

    def query(self, d: EuropaData, u: Unit, ctx: "Context | None" = None) -> MoveQuery:
        c = ctx or self.context(d, u.side)
        return MoveQuery(self.movement(d, u), c.zoc, c.blocked, self.zoc_exit, False, NONE, True)

    # --- supply (E1: attack supply, general supply, out of general supply) --------------------

    def sources(self, d: EuropaData, side: str, nation: str = "") -> set[str]:
        """Supply sources (authored, E1 [nd]): German-owned ports not blockaded and airfields;
        for Norwegians every key hex of Norway the Allies own; for the other Allies their ports."""
        own = {h for h, s in d.owner.items() if s == side}
        if side == GERMANS:
            return {h for h in own if (h in self.ports and d.blockaded.get(h, 0) < d.turn) or h in self.airfields}
        if nation == "norway":
            return own
        return own & self.ports

    def supplied(self, d: EuropaData, side: str, reach: int, extra: Collection[str] = ()) -> dict[str, bool]:
        """Which of ``side``'s ground units trace a line of at most ``reach`` hexes to a source
        (or to ``extra`` hexes), not through enemy units or ZoC unless a friendly unit is there."""
        c = self.context(d, side)
        mine = self.occupied(d, side)
        blocked = (c.zoc | c.blocked) - mine
        out: dict[str, bool] = {}
        units = [u for u in d.on_map(side) if self.ground(u) and u.loc is not None]
        for nation in sorted({u.nation for u in units}):
            group = [u for u in units if u.nation == nation]
            src = self.sources(d, side, nation) | set(extra)
            ok = supply_status(self.board, self.chart, d.weather, "leg", [u.loc for u in group], src,  # type: ignore[misc]
                               blocked, mine, max_len=reach)
            for u in group:
                out[u.id] = ok[u.loc]  # type: ignore[index]
        return out

    def attack_supplied(self, d: EuropaData, side: str) -> dict[str, bool]:
        """E1 attack supply (authored): within 3 hexes of a source or of an HQ in general supply."""
        hqs = [u.loc for u in d.on_map(side) if self.t(u).kind == "hq" and u.loc and u.id not in d.out_of_supply]
        return self.supplied(d, side, self.rules.attack_supply.hexes, hqs)

    # --- stacking (E5) ------------------------------------------------------------------------

    def stack_cost(self, u: Unit, loc: str) -> tuple[int, int]:
        """What one unit counts against E5 A's limits in a hex: (ground units, artillery
        batteries, a battalion being 2); tanks, companies and depots count nothing, nor do
        British naval troops in a port."""
        t = self.t(u)
        if t.stacking == "ground" and not (loc in self.ports and t.kind == "naval_infantry" and u.nation == "britain"):
            return 1, 0
        if t.stacking == "artillery":
            return 0, 2 if t.size == "battalion" else 1
        return 0, 0

    def stack_points(self, d: EuropaData, loc: str, side: str, flipped: bool = True) -> tuple[int, int]:
        """Return (ground units, artillery batteries) counting against E5 A's limits in a hex
        (without ``flipped``: only the units not flipped overstacked, E5 B)."""
        ground = art = 0
        for u in d.at(loc):
            if u.side == side and u.id not in d.absorbed and (flipped or not u.has(OVERSTACKED)):
                g, a = self.stack_cost(u, loc)
                ground, art = ground + g, art + a
        return ground, art

    def by_hex(self, d: EuropaData) -> dict[str, list[Unit]]:
        """Ground units on the map by hex, in id order (one pass over the units)."""
        out: dict[str, list[Unit]] = {}
        for u in sorted(d.on_map(), key=lambda u: u.id):
            if u.loc is not None and self.ground(u):
                out.setdefault(u.loc, []).append(u)
        return out

    def restack(self, d: EuropaData, events: list[Any]) -> None:
        """E5 A-B: at the end of movement and exploitation and during combat, flip the units
        beyond the limits (owner's choice: the engine flips the weakest) and unflip the rest."""
        for loc, here in sorted(self.by_hex(d).items()):
            for side in (GERMANS, ALLIES):
                ground = art = 0
                mine = [u for u in here if u.side == side and u.id not in d.absorbed]
                for u in sorted(mine, key=partial(_weakest_last, self)):
                    g, a = self.stack_cost(u, loc)
                    ground, art = ground + g, art + a
                    over = (g and ground > self.rules.stack_ground.hexes) or (a and art > self.rules.stack_artillery.hexes)
                    if over and not u.has(OVERSTACKED):
                        u.flags.append(OVERSTACKED)
                        events.append(E.Flag(type="overstacked", unit=u.id, at=loc, on=True, rule="E5 B"))
                    elif not over and u.has(OVERSTACKED):
                        u.flags.remove(OVERSTACKED)
                        events.append(E.Flag(type="overstacked", unit=u.id, at=loc, on=False, rule="E5 B"))

    # --- ownership (E4) and losses ------------------------------------------------------------

    def update_owners(self, d: EuropaData, events: list[Any]) -> None:
        """E4: a key hex belongs to the last side to occupy it alone with a ground unit."""
        here = self.by_hex(d)
        for h in self.key_hexes:
            sides = {u.side for u in here.get(h, ())}
            if len(sides) == 1:
                s = next(iter(sides))
                if d.owner.get(h) != s:
                    d.owner[h] = s
                    events.append(E.Owner(type="owner", hex=h, side=s, rule="E4"))
                    if s == GERMANS and h in self.stores and h not in d.stores_taken:
                        d.stores_taken.append(h)  # E1: the store's artillery is lost; a battalion forms instead
                        d.forming.append(h)

    def eliminate(self, d: EuropaData, uid: str, events: list[Any], rule: str) -> None:
        """Remove a unit (and what its HQ absorbed); a key unit scores for the other side (E2)."""
        u = d.units[uid]
        for x in [x for x, hq in d.absorbed.items() if hq == uid]:
            del d.absorbed[x]
        d.absorbed.pop(uid, None)
        u.flags.clear()
        d.remove(uid, "eliminated")
        events.append(E.Eliminated(type="eliminated", unit=uid, rule=rule))
        if self.t(u).key:
            vp = self.rules.key_vp.hexes
            d.add_vp(other(u.side), vp, f"{uid} destroyed", "E2")
            events.append(E.Vp(type="vp", side=other(u.side), vp=vp, cause=f"{uid} destroyed", rule="E2"))
    def ports_held(self, d: EuropaData, side: str = GERMANS) -> int:
        return sum(1 for h in self.victory_ports if d.owner.get(h) == side)

    def result(self, d: EuropaData) -> Result:
        """E2: the owner of the seven ports decides; VP break the bands the rules name."""
        n = self.ports_held(d)
        band = next(b for b in self.rules.victory if b.ports[0] <= n <= b.ports[1])
        level: str = band.level
        winner: str | None = band.winner
        if band.level in self.rules.vp_breaks:
            g, a = d.vp.get(GERMANS, 0), d.vp.get(ALLIES, 0)
            if g != a:
                winner = GERMANS if g > a else ALLIES
                level = f"{'German' if winner == GERMANS else 'Allied'} marginal victory on VP"
        text = f"{level} (the Germans own {n} of the 7 ports, E2)"
        if not d.over:
            return Result(False, None, f"in progress: {text}", dict(d.vp))
        return Result(True, winner, text, dict(d.vp))
    def ask(self, d: EuropaData, side: str, what: str, **ctx: Any) -> None:
        d.ask = Ask(side, what, **ctx)
