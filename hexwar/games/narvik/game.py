"""Assault on Narvik (1.0-31.0): the ruleset object, its typed queries and the phase driver.

The game is a state machine. Automatic steps (dice, tracks, arrivals) run by themselves,
phase by phase, in the order ``sequence.PHASES`` gives (6.0); wherever the rules give a
player a choice the engine stops with an :class:`~hexwar.games.narvik.state.Ask` naming the
side and the kind of decision, and ``sequence.DECISIONS`` gives the legal orders and the
handler of that kind. Every order is checked before anything changes; ``PlayState`` applies
it to a copy, so a refused order leaves the state as it was.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Collection

from hexwar.board.hexboard import HexBoard
from hexwar.core.dice import Dice
from hexwar.core.engine import DecisionGame, Refusals, Result
from hexwar.core.orders import Menu, Order
from hexwar.core.state import Unit
from hexwar.data.loader import Library, default_library
from hexwar.data.scenario import Scenario, load_scenario
from hexwar.data.tables import (
    AirTable,
    UnitType,
    VictoryLevels,
    VictoryPoints,
)
from hexwar.games.common.narvik_rules import Cites
from hexwar.games.narvik import events as E
from hexwar.games.narvik import view
from hexwar.games.narvik.charts import check_sides, die_tables
from hexwar.games.narvik.orders import ORDERS
from hexwar.games.narvik.phases import results, setup, supply
from hexwar.games.narvik.phases import action  # after results: the phase modules import each other in this order
from hexwar.games.narvik.sequence import DECISIONS, PHASES
from hexwar.games.narvik.state import ALLIES, HARSTAD, NOT_LAND, Ask, NarvikData, other
from hexwar.games.narvik.view import HIDDEN
from hexwar.rules import fatigue as fat
from hexwar.rules.movement import MoveQuery
from hexwar.rules.stacking import ABOARD
from hexwar.rules.zoc import zoc_of


@dataclass(frozen=True)
class Switches:
    """Typed rules switches (variants are switches on the ruleset, never flags on units)."""

    allied_concealment: bool = False  # 11.3 (optional, pro-Allied): Allied units face down, German air recon
    ap_bonus_per_action: bool = False  # A26: +1 AP after every Allied action instead of once a turn
    random_setup: bool = False  # 5.1: a seeded set-up per side instead of the scenario's positions

    def names(self) -> list[str]:
        """Return the names of the switches that are on."""
        return [f.name for f in fields(self) if getattr(self, f.name)]


class _Listing:
    """While it is entered, the game's memo is ``memo`` (then the one before): a new listing's
    (``legal_orders``), or, from ``NarvikGame.listing``, the memo of the listing that made a menu."""

    __slots__ = ("g", "memo", "prev")

    def __init__(self, g: "NarvikGame", memo: dict[tuple[Any, ...], Any] | None):
        self.g, self.memo = g, memo
        self.prev: dict[tuple[Any, ...], Any] | None = None

    def __call__(self) -> "_Listing":
        return self

    def __enter__(self) -> None:
        self.prev, self.g._memo = self.g._memo, self.memo

    def __exit__(self, *exc: Any) -> None:
        self.g._memo = self.prev


class NarvikGame(DecisionGame[NarvikData]):
    """Assault on Narvik bound to a scenario (map, OOB, charts) and rules switches."""

    name = "narvik"
    board: HexBoard
    orders = ORDERS
    events = E.EVENTS
    state_type = NarvikData
    decisions = DECISIONS
    phases = PHASES
    refusals = Refusals(over="24.0", foreign=ORDERS.rule, not_now="6.0")  # over (24.0); no decision, not an order (6.0)
    other_side = "9.1"  # not yours (9.1)
    cites = Cites()  # the sections the shared rules cite for it

    def __init__(self, scenario: Scenario, library: Library | None = None, switches: Switches = Switches()):
        lib = library or default_library()
        self.scenario = scenario
        self.spec = scenario.spec
        self.board = scenario.board
        # a side's view shows the other side's face-down counters as the type "hidden" (11.0)
        self.tables = dataclasses.replace(scenario.tables, types={**scenario.tables.types, HIDDEN.key: HIDDEN})
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
        #: (unit, side, Reach) -> its moves before stacking, and its exits (14.0, 22.3): a Reach is
        #: shared while the unit's neighbourhood is unchanged (rules.movement.reach)
        self.unit_moves: dict[tuple[str, str, Any], tuple[list[Any], list[Order]]] = {}
        #: ((unit, side, Reach), hexes without room for it) -> its moves with room (13.2)
        self.unit_moves_room: dict[tuple[Any, frozenset[str]], list[Any]] = {}
        self._memo: dict[tuple[Any, ...], Any] | None = None  # see memo()
        #: (ship's hex, bombardment range, German-held hexes) -> the hexes it may bombard (20.5)
        self._bombard_cache: dict[tuple[str | None, int, frozenset[str]], tuple[str, ...]] = {}
        self._naval_move_cache: dict[tuple[tuple[str, ...], str | None], list[Order]] = {}  # (ship, hex) -> moves (20.1)
        self._naval_group_cache: dict[tuple[tuple[str, ...], str | None], list[Order]] = {}  # (ships, hex): bounded
        self._naval_paths: dict[str, tuple[tuple[str, ...], ...]] = {}  # hex -> its ways out by sea, in hex order (20.1)
        self._embark_orders: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[Order]] = {}  # (ship, way, units) -> Embarks (20.2)
        self._fjord_side: dict[str, bool] = {}  # hex -> whether a hexside of it is a fjord (20.6)
        #: (unit type, weather) -> (compiled map, MP budget less the exit's 1 MP) (22.3; movement.may_exit)
        self._exit_budget: dict[tuple[str, str], tuple[Any, int]] = {}
        self._edge_index: frozenset[int] | None = None  # the map edges' hexes (not Swedish), by compiled index

    @classmethod
    def from_scenario(cls, name: str = "narvik/scenario", library: Library | None = None,
                      switches: Switches = Switches()) -> "NarvikGame":
        return cls(load_scenario(name, library), library, switches)

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

    def memo(self, key: tuple[Any, ...], make: Any) -> Any:
        """``make()``, kept for the rest of one ``legal_orders`` call (the state does not change
        while its orders are listed); outside one, ``make()`` every time."""
        m = self._memo
        if m is None:
            return make()
        hit = m.get(key)
        if hit is None:
            hit = m[key] = make()
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

    def listing(self) -> "_Listing":
        """The context a menu's deferred part is worked out in: the memo of the listing that
        made the menu (``memo``), as if the listing were still under way."""
        return _Listing(self, self._memo)

    def occupied(self, d: NarvikData, side: str) -> frozenset[str]:
        """Locations holding a land unit of ``side`` (dummies included: they occupy too)."""
        types = self.tables.types
        return self.memo(("occupied", side), lambda: frozenset(
            u.loc for u in d.side_units(side) if types[u.type].kind != "ship" and ABOARD not in u.flags and u.loc != HARSTAD))

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
        return self.memo(("zoc", side), lambda: zoc_of(self.board, d, self.tables, side))

    def side_context(self, d: NarvikData, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """Return the enemy ZoC, enemy-held hexes and friendly-infantry hexes for one side."""
        def make() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
            zoc = self.zoc(d, other(side))  # the one enemy (SIDES): shared with supply's inputs (19.3)
            blocked = self.occupied(d, other(side))
            types = self.tables.types
            finf = frozenset(x.loc for x in d.side_units(side) if types[x.type].infantry and ABOARD not in x.flags)
            return zoc, blocked, finf  # type: ignore[return-value]

        return self.memo(("side_context", side), make)

    def supply(self, d: NarvikData, u: Unit) -> Any:
        """Return one Allied unit's line of supply, or what blocked it (19.3)."""
        return supply.line(self, d, u)

    def supplied(self, d: NarvikData, units: list[Unit]) -> dict[str, bool]:
        """Return which Allied units have a line of supply (19.2, 19.3; Norwegians always)."""
        return self.memo(("supplied", tuple(u.id for u in units)), lambda: supply.supplied(self, d, units))

    def view(self, d: NarvikData, sides: Collection[str]) -> NarvikData:
        """What the player(s) of ``sides`` may see: the other side's face-down counters
        anonymous, its secret events unknown (11.0, 8.1, 8.2); see ``narvik.view``."""
        return view.view(self, d, sides)

    def visible_events(self, d: NarvikData, events: list[dict[str, Any]], sides: Collection[str]) -> list[dict[str, Any]]:
        """The events of an order as the player(s) of ``sides`` see them (``d``: the state after it)."""
        names = {uid: f"?{i}" for i, uid in enumerate(view.hidden_ids(d, sides), 1)}
        return view.visible_events(events, sides, names)

    def visible_order(self, d: NarvikData, order: Order, sides: Collection[str]) -> str:
        """An order as the player(s) of ``sides`` see it (``d``: the state after it)."""
        return view.visible_order(d, order, sides)

    # --- victory points ---------------------------------------------------------------------

    def score(self, d: NarvikData, side: str, points: int, cause: str, rule: str, events: list) -> None:
        """Award victory points, log the cause and report it."""
        if points:
            d.add_vp(side, points, cause, rule)
            events.append(E.Vp(type="vp", side=side, vp=points, cause=cause, rule=rule))

    def award(self, d: NarvikData, key: str, cause: str, rule: str, events: list, unit: Unit | None = None) -> None:
        """Award the VP the chart gives for a cause (29.0), by the unit's type where it matters."""
        a = self.victory_points[key]
        self.score(d, a.to, a.points(self.t(unit) if unit is not None else None), cause, rule, events)

    # --- the Ruleset protocol -----------------------------------------------------------------

    def initial_state(self, seed: int, dice: Dice) -> NarvikData:
        d = NarvikData(game=self.name, scenario=self.spec.name, seed=seed, phase="initial", side=ALLIES,
                       weather=self.spec.weather, bases=list(self.spec.bases))
        setup.deploy(self, d, dice)
        events: list[dict[str, Any]] = []
        self.run(d, dice, events)
        d.setup_events = events
        return d

    def result(self, d: NarvikData) -> Result:
        diff, level, winner = self.victory_levels.level(d.vp)
        if not d.over:
            return Result(False, None, f"in progress (differential {diff:+d}: {level})", dict(d.vp))
        return Result(True, winner, level, dict(d.vp))

    def accepts(self, d: NarvikData, order: Order) -> bool:
        """Orders the rules allow beyond ``legal_orders``: any split of 6 FP (15.2), and any
        subset of attackers, supports, AP, ships or path the capped list leaves out (15.1,
        18.1.3, 20.1-20.3, 22.3), which its handler then checks in full."""
        return results.any_split(self, d, order) or action.typed_choice(self, d, order)

    # --- the phase machine --------------------------------------------------------------------

    def ask(self, d: NarvikData, side: str, what: str, **ctx: Any) -> None:
        """Stop for a decision of ``side``."""
        d.ask = Ask(side, what, **ctx)
        d.side = side


def narvik_game(switches: Switches = Switches()) -> NarvikGame:
    """Return Assault on Narvik on the bundled scenario."""
    return NarvikGame.from_scenario("narvik/scenario", switches=switches)
