"""Assault on Narvik's rules as its phases read them: the scenario's map, order of battle and
charts, the rules switches, and the typed queries (units, occupation, zones of control,
supply, victory points) that phases, bots and the play loop ask of a position.

``NarvikRules`` knows no phase: ``game.NarvikGame`` adds the phase machine (``sequence``),
the views and the set-up, so the phases import this module and never the game."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, Callable, TypeVar

from hexwar.board.hexboard import HexBoard
from hexwar.core.engine import DecisionGame
from hexwar.core.game import Caches
from hexwar.core.result import Result
from hexwar.core.orders import Menu, Order
from hexwar.core.state import Unit
from hexwar.data.loader import Library, default_library
from hexwar.scenario import Scenario
from hexwar.data.tables import AirTable, UnitType, VictoryLevels, VictoryPoints
from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED, MAX_SUPPLY_LINE, Cites
import hexwar.games.narvik.events as E
from hexwar.games.narvik.charts import HIDDEN, check_sides, die_tables
from hexwar.games.narvik.state import (
    ALLIES,
    GERMANS,
    HARSTAD,
    NOT_LAND,
    Ask,
    NarvikData,
    other,
)
from hexwar.rules import fatigue as fat
from hexwar.rules.movement import MoveQuery
from hexwar.rules.stacking import ABOARD
from hexwar.rules.supply import line_of_supply, supply_status
from hexwar.rules.zoc import zoc_of

_T = TypeVar("_T")


@dataclass(frozen=True)
class Switches:
    """Typed rules switches (variants are switches on the ruleset, never flags on units)."""

    allied_concealment: bool = False  # 11.3 (optional, pro-Allied): Allied units face down, German air recon
    ap_bonus_per_action: bool = False  # A26: +1 AP after every Allied action instead of once a turn
    random_setup: bool = False  # 5.1: a seeded set-up per side instead of the scenario's positions

    def names(self) -> list[str]:
        """Return the names of the switches that are on."""
        return [f.name for f in fields(self) if getattr(self, f.name)]


def _side_context(g: "NarvikRules", d: NarvikData, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """``NarvikRules.side_context`` worked out."""
    zoc = g.zoc(d, other(side))  # the one enemy (SIDES): shared with supply's inputs (19.3)
    blocked = g.occupied(d, other(side))
    types = g.tables.types
    finf = frozenset(x.loc for x in d.side_units(side) if types[x.type].infantry and ABOARD not in x.flags)
    return zoc, blocked, finf  # type: ignore[return-value]


def _supplied(g: "NarvikRules", d: NarvikData, units: list[Unit]) -> dict[str, bool]:
    """``NarvikRules.supplied`` worked out."""
    locs = [u.loc for u in units if u.loc and u.loc != HARSTAD and u.nation not in ALWAYS_SUPPLIED]
    st = supply_status(g.board, g.tables.terrain, d.weather, "leg", locs, *g.supply_inputs(d),
                       MAX_SUPPLY_LINE) if locs else {}
    return {u.id: (u.nation in ALWAYS_SUPPLIED or u.loc == HARSTAD or bool(st.get(u.loc, False)))  # type: ignore[arg-type]
            for u in units}


def _occupied(g: "NarvikRules", d: NarvikData, side: str) -> frozenset[str]:
    """``NarvikRules.occupied`` worked out."""
    types = g.tables.types
    return frozenset(u.loc for u in d.side_units(side)  # type: ignore[misc]
                     if types[u.type].kind != "ship" and ABOARD not in u.flags and u.loc != HARSTAD)


class _Listing:
    """While it is entered, the game's memo is ``memo`` (then the one before): a new listing's
    (``legal_orders``), or, from ``NarvikGame.listing``, the memo of the listing that made a menu."""

    __slots__ = ("g", "memo", "prev")

    def __init__(self, g: NarvikRules, memo: dict[tuple[Any, ...], Any] | None):
        self.g, self.memo = g, memo
        self.prev: dict[tuple[Any, ...], Any] | None = None

    def __call__(self) -> _Listing:
        return self

    def __enter__(self) -> None:
        c = self.g.caches
        self.prev, c.memo = c.memo, self.memo

    def __exit__(self, *exc: object) -> None:
        self.g.caches.memo = self.prev


@dataclass
class NarvikCaches(Caches):
    """What Assault on Narvik's rules work out as they go (``Caches``: the rules object's
    lifetime; a copy of the rules starts with fresh ones, since some hold the compiled
    engine's movement maps, which do not pickle)."""

    #: (unit, side, Reach) -> its moves before stacking, and its exits (14.0, 22.3): a Reach is
    #: shared while the unit's neighbourhood is unchanged (rules.movement.reach)
    unit_moves: dict[tuple[str, str, Any], tuple[list[Any], list[Order]]] = field(default_factory=dict)
    #: ((unit, side, Reach), hexes without room for it) -> its moves with room (13.2)
    unit_moves_room: dict[tuple[Any, frozenset[str]], list[Any]] = field(default_factory=dict)
    #: (ship's hex, bombardment range, German-held hexes) -> the hexes it may bombard (20.5)
    bombard: dict[tuple[str | None, int, frozenset[str]], tuple[str, ...]] = field(default_factory=dict)
    #: (ship, hex) -> its moves (20.1)
    naval_moves: dict[tuple[tuple[str, ...], str | None], list[Order]] = field(default_factory=dict)
    #: (ships, hex) -> a group's moves (20.1): bounded (phases.naval.GROUP_MOVES_KEPT)
    naval_group_moves: dict[tuple[tuple[str, ...], str | None], list[Order]] = field(default_factory=dict)
    #: hex -> its ways out by sea, in hex order (20.1)
    naval_paths: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: (ship, way, units) -> Embarks (20.2)
    embark_orders: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[Order]] = field(default_factory=dict)
    #: hex -> whether a hexside of it is a fjord (20.6)
    fjord_side: dict[str, bool] = field(default_factory=dict)
    #: (unit type, weather) -> (compiled map, MP budget less the exit's 1 MP) (22.3; movement.may_exit)
    exit_budget: dict[tuple[str, str], tuple[Any, int]] = field(default_factory=dict)
    #: the map edges' hexes (not Swedish), by compiled index (22.3)
    edge_index: frozenset[int] | None = None
    #: one listing's memo (``NarvikRules.memo``): its lifetime is one ``legal_orders`` call,
    #: set and put back by ``_Listing``; None outside a listing
    memo: dict[tuple[Any, ...], Any] | None = None


class NarvikRules(DecisionGame[NarvikData]):
    """Assault on Narvik bound to a scenario (map, OOB, charts) and rules switches: what the
    phases read (``game.NarvikGame`` composes the phases on it)."""

    board: HexBoard
    cites = Cites()  # the sections the shared rules cite for it

    def __init__(self, scenario: Scenario, library: Library | None = None, switches: Switches = Switches()):
        lib = library or default_library()
        self.scenario = scenario
        self.spec = scenario.spec
        self.board = scenario.board
        # a side's view shows the other side's face-down counters as the type "hidden" (11.0)
        self.tables = replace(scenario.tables, types={**scenario.tables.types, HIDDEN.key: HIDDEN})
        self.switches = switches
        check_sides(lib, list(scenario.spec.sides))
        tables = die_tables(lib, {k for k, t in scenario.tables.types.items() if t.kind == "ship"},
                            {u.formation for u in scenario.oob.units if u.formation})
        self.weather_table = tables["weather"]
        self.event_type = tables["event-type"]
        self.allied_secret = tables["allied-secret"]
        self.german_secret = tables["german-secret"]
        self.open_events = tables["random-events"]
        self.german_reinf = tables["german-reinforcements"]
        self.redeploy = tables["british-redeployments"]
        self.air = AirTable.from_spec(lib.load("tables", "narvik/air"))
        self.victory_points = VictoryPoints.from_spec(lib.load("tables", "narvik/victory-points", "victory_points"))
        self.victory_levels = VictoryLevels.from_spec(lib.load("tables", "narvik/victory-levels", "victory_levels"))
        self.narvik = self.board.find("Narvik")
        self.objectives = {p.location: p.value for p in self.board.places("victory")}
        #: 22.3: the hexes of the north and south map edges
        self.edges = {e: frozenset(x for x in self.board.locations() if self.board.is_a(x, e)) for e in ("edge_north", "edge_south")}
        self.sweden = frozenset(x for x in self.board.locations() if self.board.is_a(x, "sweden"))  # 22.2
        self.railway = set(getattr(self.board, "regions", {}).get("railway", ()))
        self.oob = {u.id: u for u in scenario.oob.units}
        self.artillery_types = frozenset(k for k, t in self.tables.types.items() if t.is_artillery)  # 16.0
        self.caches = NarvikCaches()

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.spec.name, "scenario_file": self.scenario.file,
                "board": self.board.name, "switches": self.switches.names()}

    # --- typed queries (phases, bots and the play loop read the state through these) ---------

    def t(self, u: Unit) -> UnitType:
        return self.tables.types[u.type]

    def is_ship(self, u: Unit) -> bool:
        return self.t(u).kind == "ship"

    def is_land(self, u: Unit) -> bool:
        return self.t(u).kind not in NOT_LAND

    def is_dummy(self, u: Unit) -> bool:
        return self.t(u).kind == "dummy"

    def pending(self, d: NarvikData) -> Ask | None:
        """Return the decision the game waits for (None when it is over)."""
        return d.ask

    def land_units_at(self, d: NarvikData, loc: str, side: str | None = None, real: bool = True) -> list[Unit]:
        """Units at a location that count as its land occupants (not aboard, not ships)."""
        out = []
        types = self.tables.types
        for u in d.units_at(loc):
            kind = types[u.type].kind
            if kind == "ship" or ABOARD in u.flags or (side is not None and u.side != side):
                continue
            if real and kind == "dummy":
                continue
            out.append(u)
        return out

    def memo(self, key: tuple[Any, ...], make: Callable[..., _T], *args: Any) -> _T:
        """``make(*args)``, kept for the rest of one ``legal_orders`` call (the state does not
        change while its orders are listed); outside one, ``make(*args)`` every time. (The
        arguments, not a closure: a closure in a method of a class mypyc leaves to Python
        fails its build.)"""
        m = self.caches.memo
        if m is None:
            return make(*args)
        hit: _T | None = m.get(key)
        if hit is None:
            hit = m[key] = make(*args)
        return hit

    def legal_orders(self, d: NarvikData) -> list[Order]:
        with _Listing(self, {}):  # a memo of its own for the listing (``memo``)
            return super().legal_orders(d)

    def legal_menu(self, d: NarvikData) -> Menu:
        """The legal orders as a menu (``DecisionGame.legal_menu``): an action's or reaction's
        moves are worked out only as far as a kind-first reader needs, with the memo of the
        listing they belong to (``listing``)."""
        with _Listing(self, {}):
            return super().legal_menu(d)

    def listing(self) -> _Listing:
        """The context a menu's deferred part is worked out in: the memo of the listing that
        made the menu (``memo``), as if the listing were still under way."""
        return _Listing(self, self.caches.memo)

    def occupied(self, d: NarvikData, side: str) -> frozenset[str]:
        """Locations holding a land unit of ``side`` (dummies included: they occupy too)."""
        return self.memo(("occupied", side), _occupied, self, d, side)

    def may_act(self, d: NarvikData, u: Unit) -> bool:
        """10.1, 11.1: a land unit on the map, face up, real, not at its limit, not aboard."""
        return (u.loc is not None and u.loc != HARSTAD and self.tables.types[u.type].kind not in NOT_LAND  # is_land
                and not u.concealed and ABOARD not in u.flags and not fat.at_limit(self.tables, u))

    def query(self, d: NarvikData, u: Unit, ctx: tuple[frozenset[str], frozenset[str], frozenset[str]] | None = None) -> MoveQuery:
        """Return the movement query of a unit; ``ctx`` reuses a side's (ZoC, enemy, infantry) sets."""
        t = self.t(u)
        zoc, blocked, finf = ctx if ctx is not None else self.side_context(d, u.side)
        return MoveQuery(t.mp, zoc, blocked, Fraction(t.zoc_exit_mp), t.is_artillery, finf)

    def zoc(self, d: NarvikData, side: str) -> frozenset[str]:
        """The locations in ``side``'s zone of control (12.0), once per order list."""
        return self.memo(("zoc", side), zoc_of, self.board, d, self.tables, side)

    def side_context(self, d: NarvikData, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """Return the enemy ZoC, enemy-held hexes and friendly-infantry hexes for one side."""
        return self.memo(("side_context", side), _side_context, self, d, side)

    def supply_inputs(self, d: NarvikData) -> tuple[list[str], frozenset[str], list[str]]:
        """Return what Allied lines of supply run to and through (19.3, 19.4, 20.6, 12.2):
        the Bases (designated ports and Puffer bases), the German ZoC, and the hexes holding
        Allied infantry on land (which open a ZoC hex)."""
        bases = list(d.bases) + [s.loc for s in d.on_map(ALLIES) if "base" in s.flags and s.loc]
        zoc = self.zoc(d, GERMANS)
        inf = [u.loc for u in d.on_map(ALLIES) if self.t(u).infantry and not u.has(ABOARD) and u.loc]
        return bases, zoc, inf

    def supply(self, d: NarvikData, u: Unit) -> Any:
        """Return one Allied unit's line of supply, or what blocked it (19.3)."""
        bases, zoc, inf = self.supply_inputs(d)
        return line_of_supply(self.board, self.tables.terrain, d.weather, "leg", u.loc, bases, zoc, inf,  # type: ignore[arg-type]
                              MAX_SUPPLY_LINE, self.cites.supply)

    def supplied(self, d: NarvikData, units: list[Unit]) -> dict[str, bool]:
        """19.2, 19.3: which Allied units have a line of supply (Norwegians always), once per
        order list."""
        return self.memo(("supplied", tuple(u.id for u in units)), _supplied, self, d, units)

    def score(self, d: NarvikData, side: str, points: int, cause: str, rule: str, events: list[Any]) -> None:
        """Award victory points, log the cause and report it."""
        if points:
            d.add_vp(side, points, cause, rule)
            events.append(E.Vp(type="vp", side=side, vp=points, cause=cause, rule=rule))

    def award(self, d: NarvikData, key: str, cause: str, rule: str, events: list[Any], unit: Unit | None = None) -> None:
        """Award the VP the chart gives for a cause (29.0), by the unit's type where it matters."""
        a = self.victory_points[key]
        self.score(d, a.to, a.points(self.t(unit) if unit is not None else None), cause, rule, events)

    def result(self, d: NarvikData) -> Result:
        diff, level, winner = self.victory_levels.level(d.vp)
        if not d.over:
            return Result(False, None, f"in progress (differential {diff:+d}: {level})", dict(d.vp))
        return Result(True, winner, level, dict(d.vp))

    def ask(self, d: NarvikData, side: str, what: str, **ctx: Any) -> None:
        """Stop for a decision of ``side``."""
        d.ask = Ask(side, what, **ctx)
        d.side = side

    def after_action(self, d: NarvikData, actor: str, attack: bool, events: list[dict[str, Any]],
                     reaction: bool) -> None:
        """9.1, 9.2: what follows an action (the other side's reaction, the initiative); the
        action phase knows, so the game that composes the phases says (``NarvikGame``)."""
        raise NotImplementedError
