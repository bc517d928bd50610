"""Rule-based priority bots for Assault on Narvik, one per side, and a Monte Carlo search bot.

A priority bot scores every legal order with a few rules of thumb and plays the best (ties
broken by its seeded RNG). It sees only what its side may see: the Allied bot never reads
the identity of a face-down German counter (it treats every '?' as a company of unknown
strength), and nobody reads the other side's secret events.
"""

from __future__ import annotations

import random
import weakref
from fractions import Fraction
from typing import Any, Sequence

import networkx as nx

from hexwar.core.orders import Lazy, Menu, Move, Order, Pass, list_parts, orders_of_kind
from hexwar.games.narvik.orders import (
    TakeResult,
    AirStrike,
    ArtilleryInterdiction,
    Bombard,
    ChooseUnits,
    DeclareMas,
    DesignateBase,
    Disembark,
    Embark,
    Exit,
    LandAssault,
    Landing,
    NavalMove,
    Place,
    Reveal,
    ShipFunction,
)
from hexwar.games.narvik.phases.naval import kept_moves
from hexwar.games.narvik.state import ALLIES, HARSTAD
from hexwar.rules.movement import compiled, movement_graph, region_of
from hexwar.rules.orders import Advance, Retreat

_LAND_DIST: dict[tuple[int, str], dict[str, float]] = {}
#: board -> hex -> distance to Narvik; board -> enemy hexes -> hex -> distance to the nearest
_NARVIK_DIST: "weakref.WeakKeyDictionary[Any, dict[str, int]]" = weakref.WeakKeyDictionary()
_ENEMY_DIST: "weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], dict[str, int]]]" = weakref.WeakKeyDictionary()
#: board -> (side, weather) -> destination -> what ``end_info`` says of it, for the hexes that
#: are not victory hexes: there it depends on the map, the side and the weather only
_PLAIN_ENDS: "weakref.WeakKeyDictionary[Any, dict[tuple[str, str], dict[str, tuple[bool, float, float]]]]" = \
    weakref.WeakKeyDictionary()
UNKNOWN_STRENGTH = 2  # what the Allied bot assumes a face-down counter is worth
#: game -> (unit type, hex, weather) -> what ``_Context.region_facts`` says of the region a
#: unit of that type there could move in: the game's map, chart and types decide
_REGION_FACTS: "weakref.WeakKeyDictionary[Any, dict[tuple[str, str, str], tuple[float, int, tuple[str, ...]]]]" = \
    weakref.WeakKeyDictionary()
#: a unit's moves are passed over only when their bound is below the best score by more than
#: this: a float's rounding can never pass over a move of the top score
BOUND_SLACK = 1e-9


def _bound_first(b: tuple[float, int, Any]) -> tuple[float, int]:
    return (-b[0], b[1])


def _place(w: tuple[tuple[int, int], Any, Any, Any]) -> tuple[int, int]:
    return w[0]


class PriorityBot:
    """Scores orders by side-specific priorities; deterministic for a seed."""

    name = "priority"
    reads_by_kind = False  # it weighs every order, never a kind first
    #: handed a Menu (``run_fast``, the search's rollouts), it works out a unit's moves only
    #: when what they could score can beat the best order so far (``move_bound``): the same
    #: choice as from the whole list, most units' moves never listed
    reads_menu = True
    thinks = False  # it answers at once: no progress to report
    progress = None

    def __init__(self, side: str, seed: int | None = None):
        self.side = side
        self.rng = random.Random(seed)
        self.sailed: dict[tuple[int, str], int] = {}  # (turn, ship) -> naval moves made
        self.left: dict[str, tuple[int, str]] = {}  # unit -> (turn, the hex its last move left)
        self.actions: dict[int, int] = {}  # turn -> actions taken
        self.max_actions = 40  # then it passes: a bot must never stall a turn

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        pick = self.forced(state.data, legal)
        if pick is not None:
            return pick
        pick = self.rng.choice(self.best(state, legal))
        self.chosen(state.data, pick)
        return pick

    def __call__(self, state: Any, legal: Sequence[Order]) -> Order:  # a def: mypyc compiles no alias
        return self.choose(state, legal)

    def best(self, state: Any, legal: Sequence[Order] | Menu) -> list[Order]:
        """The orders of the top score, in list order: ``choose`` draws one of them.

        A unit's moves and a ship's naval moves (most of a list) are scored part by part,
        the rest order by order. From a :class:`Menu` the parts worked out already are
        scored first; then each unit whose moves are deferred, the highest bound first, is
        worked out and scored only while its ``move_bound`` reaches the best score so far:
        a unit passed over has no move of the top score, so the orders of the top score are
        those a pass over the whole list keeps, in its order."""
        ctx = self.context(state.game, state.data)
        pieces = legal.pieces() if isinstance(legal, Menu) else list_parts(legal)
        top = float("-inf")
        weighed: list[tuple[tuple[int, int], float, Sequence[Order], list[float]]] = []
        later: list[tuple[float, int, Lazy]] = []
        for i, piece in enumerate(pieces):
            if type(piece) is Lazy:
                later.append((self.move_bound(ctx, piece.key), i, piece))
                continue
            kind, orders = piece
            if orders:
                scores = self.part_scores(ctx, kind, orders)
                m = max(scores)
                top = max(top, m)
                weighed.append(((i, 0), m, orders, scores))
        if later:
            assert isinstance(legal, Menu)
            later.sort(key=_bound_first)
            for bound, i, item in later:
                if bound < top - BOUND_SLACK:
                    break  # this unit's moves, and every one bounded lower, score below the best
                for j, (kind, orders) in enumerate(legal.work(item)):
                    scores = self.part_scores(ctx, kind, orders)
                    m = max(scores)
                    top = max(top, m)
                    weighed.append(((i, j), m, orders, scores))
            weighed.sort(key=_place)
        best: list[Order] = []
        for _, m, orders, scores in weighed:
            if m == top:
                best += [o for o, sc in zip(orders, scores) if sc == m]
        return best

    def part_scores(self, ctx: "_Context", kind: str | None, orders: Sequence[Order]) -> list[float]:
        """The scores of one part of a list, in its order."""
        if kind == Move.kind:
            return self.german_moves(ctx, orders) if self.side == "germans" else self.allied_moves(ctx, orders)  # type: ignore[arg-type]
        if kind == NavalMove.kind and self.side == "allies":
            return self.naval_scores(ctx, orders)  # type: ignore[arg-type]
        score = self.score
        return [score(ctx, o) for o in orders]

    def move_bound(self, c: "_Context", u: Any) -> float:
        """No more than any of a free unit's moves, ferries (20.6) and exits (22.3) can
        score, worked out without listing them: its moves end inside the region its MP
        could cover on an empty map (``rules.movement.region_of``), so the best a move's
        end can give is the best any hex of that region gives (the nearest to Narvik, the
        victory hex to enter), with what the unit and its start decide as the scoring has
        it (``german_moves``, ``allied_moves``); an exit scores -5, a move into Sweden -10."""
        d = c.d
        if self.side == "germans" and d.ask is not None and d.ask.what == "reaction":
            return -0.5  # german_moves: the Germans do not move in a reaction
        facts = c.region_facts(u)
        mover = c.mover(u, self.side)
        entered = 0.0
        for x in facts[2]:
            entered = max(entered, c.entered(x))
        if self.side == "germans":
            _, threatened, hunting, start_enemy, worn, left, _ = mover
            hunt = 0.0
            if hunting:  # the end is no nearer the enemy than the start less the region's radius
                hunt = 0.3 * min(start_enemy, facts[1]) + 0.3
            bound = (0.4 if threatened else -0.3) - 0.02 * 2 - worn + hunt + _gain(left, entered)
        else:
            before, worn, left = mover
            bound = max((before - facts[0]) * 0.25 - worn - 0.5 + _gain(left, entered), -5.0)
        kept: float = max(bound, -10.0)
        return kept

    def context(self, g: Any, d: Any) -> "_Context":
        """What one decision's scoring knows, with this bot's memory of the turn."""
        ctx = _Context(g, d, self.side)
        ctx.sailed = self.sailed
        ctx.left = self.left
        return ctx

    def forced(self, d: Any, legal: Sequence[Order]) -> Order | None:
        """9.2: after ``max_actions`` actions in a turn the bot passes: a bot must never
        stall a turn (20.1 lets a ship sail again and again)."""
        ask = d.ask.what if d.ask is not None else None
        if ask == "action" and self.actions.get(d.turn, 0) >= self.max_actions:
            for o in orders_of_kind(legal, Pass.kind):
                return o
        return None

    def chosen(self, d: Any, pick: Order) -> None:
        """Remember an order this side played: actions this turn, the hex a unit left, the
        naval moves of each ship (what the scoring and the cap read)."""
        ask = d.ask.what if d.ask is not None else None
        if ask == "action" and not isinstance(pick, Pass):
            self.actions[d.turn] = self.actions.get(d.turn, 0) + 1
        if isinstance(pick, Move) and len(pick.path) > 1:
            self.left[pick.unit] = (d.turn, pick.path[0])
        if isinstance(pick, NavalMove):
            for sid in pick.ships:
                key = (d.turn, sid)
                self.sailed[key] = self.sailed.get(key, 0) + 1

    # --- scoring --------------------------------------------------------------------

    def score(self, c: "_Context", o: Order) -> float:
        t = type(o)  # the two orders that fill most lists first (no order subclasses another)
        if t is NavalMove and self.side == "allies":
            return self.naval_score(c, o)  # type: ignore[arg-type]
        if t is Move:
            return self.german_move(c, o) if self.side == "germans" else self.allied_move(c, o)  # type: ignore[arg-type]
        if isinstance(o, Pass):
            return 0.0
        if isinstance(o, DesignateBase):
            return 10.0 - c.dist_narvik(o.hex) * 0.1
        if isinstance(o, DeclareMas):
            return 1.0 if o.declare == (c.d.turn >= 4) else 0.0
        if isinstance(o, Place):
            return 2.0 + (1.0 if o.concealed else 0) + (1.0 if o.dummy_hex else 0) - c.dist_narvik(o.hex) * 0.05 if o.hex else -1.0
        if isinstance(o, ChooseUnits):
            return -len(o.units)
        if isinstance(o, TakeResult):
            return self.take_score(c, o)
        if isinstance(o, Retreat):
            return len(o.path) * 0.1 + (c.dist_narvik(o.path[-1]) * (-0.05 if self.side == "germans" else 0.05))
        if isinstance(o, Advance):
            return len(o.units) + 0.5
        if isinstance(o, Reveal):
            return self.reveal_score(c, o)
        if self.side == "germans":
            return self.german(c, o)
        return self.allied(c, o)

    def reveal_score(self, c: "_Context", o: Reveal) -> float:
        """11.1: a face-down unit can neither move nor attack nor exert a ZoC, and the enemy
        does not know what it is (11.0): flip a real one (never a dummy: it would be
        eliminated) only when that gains something now. Next to the enemy it can attack or
        hold with a ZoC (12.0); a few hexes off it can go hunting, but only in the side's own
        action (9.0): flipped in a reaction it could not move before the enemy saw it. The
        Allies' counters face down by 11.3 have a campaign to march: each is flipped in their
        own action, the nearest the enemy first, so that it can move at all."""
        u = c.d.units[o.unit]
        if c.g.is_dummy(u) or u.loc is None:
            return -1.0
        d = c.enemy_dist(u.loc)
        if d <= 1:
            return 1.5  # it can attack, or hold with a ZoC
        ask = c.g.pending(c.d)
        if u.fatigue >= 6 or ask is None or ask.what != "action":
            return -1.0
        if self.side == ALLIES:  # 11.3: the attacker's face-down columns must march to the front at all
            return 0.6 - 0.01 * min(d, 30)  # flipped in its own action to move, the nearest the enemy first
        if d <= 4 and not self.hunter(c):
            return 0.6  # close enough to hunt (eliminations are the German VP, 29.0)
        return -1.0

    def hunter(self, c: "_Context") -> bool:
        """A face-up unit of the side, fresh and a few hexes from the enemy, is there to hunt
        already: an action moves one unit (9.0), so a second flipped now would wait face up.
        Worked out once a decision, however many counters it could flip."""
        if c.hunting is None:
            c.hunting = any(u.side == self.side and u.loc and not u.concealed and u.fatigue < 6 and not c.g.is_dummy(u)
                            and not u.has("aboard") and not c.board.is_a(u.loc, "box") and c.enemy_dist(u.loc) <= 4
                            for u in c.d.units.values())
        return c.hunting

    def take_score(self, c: "_Context", o: TakeResult) -> float:
        if o.option == "fatigue":
            return 5.0 - max((fp for _, fp in o.detail), default=0) * 0.1
        if o.option == "retreat":
            return 3.0 if self.side == "allies" else 2.0
        if o.option == "all_to_limit":
            return 1.0
        t = c.g.tables.types[c.d.units[o.unit].type]
        cheap: float = -t.strength  # eliminate the cheapest
        return cheap

    def german(self, c: "_Context", o: Order) -> float:
        d = c.d
        if isinstance(o, AirStrike):
            if o.mission == "ships":
                ship = d.units[o.allocation[0][0]]
                cargo = d.cargo.get(ship.id)
                one = 0.1 if len(o.allocation) == 1 else 0.0  # 18.1.3: a split may serve, all on one first
                return 8.0 + (4 if cargo else 0) + {"BB": 3, "CL": 2, "LC": 2}.get(ship.type, 0) + one
            if o.mission == "recon":
                return 0.5
            n = sum(1 for u in d.units_at(o.hex) if u.side == "allies" and c.g.tables.types[u.type].infantry)
            return 2.0 + n + o.ap * 0.05
        if isinstance(o, LandAssault):
            ad = c.odds(o)
            return ad - 0.5 + (3 + 0.01 * o.ap if o.ap else 0)
        if isinstance(o, Move):
            return self.german_move(c, o)
        return -0.5

    def german_move(self, c: "_Context", o: Move) -> float:
        return self.german_moves(c, (o,))[0]

    def german_moves(self, c: "_Context", orders: Sequence[Move]) -> list[float]:
        """The German moves' scores (a unit's moves, as a list holds them, share its part)."""
        d = c.d
        if d.ask is not None and d.ask.what == "reaction":
            return [-0.5] * len(orders)
        ends, end_info, movers = c.ends, c.end_info, c.movers
        turn = d.turn
        out: list[float] = []
        add = out.append
        for o in orders:
            path = o.path
            start, end = path[0], path[-1]
            at_end = ends.get(end) or end_info(end)
            if at_end[0]:
                add(-10.0)
                continue
            mover = movers.get(o.unit)  # what the unit and its start decide, once a decision
            if mover is None:
                mover = c.mover(d.units[o.unit], "germans")
            before, threatened, hunting, start_enemy, worn, left, last = mover
            after, entered = at_end[1], at_end[2]
            # hold Narvik and the railway; fall back toward them when threatened; fresh units
            # away from the objectives seek out the enemy (eliminations are the German VP, 29.0)
            hunt = 0.0
            if hunting:
                end_enemy = c.enemy_dist(end)
                hunt = 0.3 * (start_enemy - end_enemy) + (0.3 if end_enemy <= 1 else 0.0)
            # no shuttling between two hexes in one turn (each move costs fatigue, 10.0)
            back = 1.5 if last == (turn, end) else 0.0
            add(((0.4 if threatened and after < before else -0.3) - 0.02 * len(path) - worn
                 + hunt + _gain(left, entered) - back))
        return out

    def allied(self, c: "_Context", o: Order) -> float:
        d, g = c.d, c.g
        narvik = g.narvik
        if isinstance(o, Embark):
            u = d.units[o.unit]
            if o.path:
                return -2.0  # 20.2: sail in and embark: picking troops up on the map is rarely the aim
            return 6.0 if d.units[o.ship].loc == HARSTAD and g.tables.types[u.type].infantry else 0.5
        if isinstance(o, Disembark):
            return (4.0 + (0.2 if o.then else 0.0)) if d.units[o.ship].loc != HARSTAD else -2.0
        if isinstance(o, NavalMove):
            return self.naval_score(c, o)
        if isinstance(o, Landing):
            contested = bool(g.land_units_at(d, o.target, "germans", real=False))
            return (2.0 if contested else 7.0) - min(c.land_dist(o.target), 30.0) * 0.05 + 0.1 * len(o.ships) + (0.2 if o.then else 0.0)
        if isinstance(o, LandAssault):
            ad = c.odds(o)
            bonus = 2 if o.target == narvik else 0
            adjacent_art = any(g.tables.types[d.units[u].type].is_artillery for u in o.units)
            return ad - 3.0 + bonus + (0.5 if o.artillery or o.ships else 0) - (1.0 if adjacent_art else 0.0)  # 29.0
        if isinstance(o, ArtilleryInterdiction):
            return -1.0  # 29.0 (A37): every artillery attack on a position gives the German 1 VP
        if isinstance(o, Bombard):
            return -1.0  # every bombardment gives the German VP (29.0)
        if isinstance(o, Exit):
            return -5.0
        if isinstance(o, ShipFunction):
            return 1.5 if o.function == "base" and not d.bases else -1.0
        if isinstance(o, Move):
            return self.allied_move(c, o)
        return -0.5

    def naval_score(self, c: "_Context", o: NavalMove) -> float:
        """An Allied naval move, by its first ship and where it ends (20.1-20.3): what the ship
        is doing is worked out once a decision, what its destination offers once a hex."""
        first = o.ships[0]
        plan = c.naval.get(first)
        if plan is None:
            d = c.d
            ship = d.units[first]
            if c.sailed.get((d.turn, ship.id), 0) >= 2:
                plan = -3.0  # no ship sails back and forth all turn
            elif d.cargo.get(ship.id):
                plan = "cargo"
            elif ship.loc == HARSTAD:
                plan = -1.0
            else:
                plan = "home"  # empty transports go back for more
            c.naval[first] = plan
        if plan == "cargo":
            dest = o.path[-1]
            hit = c.landing_site.get(dest)
            if hit is None:
                if c.board.is_a(dest, "beach") or c.board.is_a(dest, "port"):
                    enemy_there = c.enemy_adjacent(dest, "germans", include_self=True)
                    hit = 5.0 - min(c.land_dist(dest), 30.0) * 0.15 - (3 if enemy_there else 0)
                else:
                    hit = -1.0
                c.landing_site[dest] = hit
            return hit
        if plan == "home":
            return 1.0 if o.path[-1] == HARSTAD else -1.0
        return plan  # type: ignore[return-value]

    def naval_scores(self, c: "_Context", orders: Sequence[NavalMove]) -> list[float]:
        """Allied naval moves' scores (``naval_score``): the moves the game keeps for a ship or
        group (20.1, ``kept_moves``), as a list holds them, share their first ship's plan."""
        first = orders[0]
        s = self.naval_score(c, first)  # works the plan out
        plan = c.naval[first.ships[0]]
        if isinstance(plan, str) or orders is not kept_moves(c.g, first.ships, first.path[0]):
            sites = c.landing_site
            out = [s]
            for o in orders[1:]:
                hit = sites.get(o.path[-1]) if plan == "cargo" else None  # a destination's score, once a hex
                out.append(hit if hit is not None else self.naval_score(c, o))
            return out
        return [s] * len(orders)

    def allied_move(self, c: "_Context", o: Move) -> float:
        return self.allied_moves(c, (o,))[0]

    def allied_moves(self, c: "_Context", orders: Sequence[Move]) -> list[float]:
        """The Allied moves' scores (a unit's moves, as a list holds them, share its part)."""
        ends, end_info, movers = c.ends, c.end_info, c.movers
        out: list[float] = []
        add = out.append
        for o in orders:
            path = o.path
            end = path[-1]
            mover = movers.get(o.unit)  # what the unit and its start decide, once a decision
            if mover is None:
                mover = c.mover(c.d.units[o.unit], "allies")
            before, worn, left = mover
            at_end = ends.get(end) or end_info(end)
            add(-10.0 if at_end[0] else (before - at_end[1]) * 0.25 - worn - 0.5 + _gain(left, at_end[2]))
        return out


def _gain(left: float | None, entered: float) -> float:
    """29.0: what a move does to the side's hold on the victory hexes (Narvik 10, '1918' 5):
    entering one its side does not hold is worth a lot (``entered``), leaving one empty costs
    as much (``left``, None when the move leaves nothing bare)."""
    gain = 0.0
    if left is not None:
        gain -= left
    if entered:
        gain += entered
    return gain


def _axials(board: Any, locs: list[str]) -> list[Any] | None:
    """The axial coordinates of some hexes (None: not a hex board, or a box among them)."""
    axial = getattr(board, "axial", None)
    if axial is None:
        return None
    try:
        return [axial(x) for x in locs]
    except Exception:
        return None


class _Context:
    """What a bot may read of the state, with cached helpers."""

    def __init__(self, g: Any, d: Any, side: str):
        self.g, self.d, self.side = g, d, side
        self.board = g.board
        self.hunting: bool | None = None  # a face-up hunter of the side near the enemy (PriorityBot.hunter), once a decision
        self._dist: dict[str, int] = _NARVIK_DIST.setdefault(g.board, {})  # the map decides: kept for the board
        self._enemy_locs: list[str] | None = None
        self._enemy_axial: list[Any] | None = None  # their axial coordinates, on a hex board
        self._enemy_dist: dict[str, int] = {}  # one decision's answers: the state does not change while it scores
        self._adjacent: dict[tuple[str, str, bool], bool] = {}
        self.naval: dict[str, float | str] = {}  # first ship -> its score, or what its destination decides
        self.landing_site: dict[str, float] = {}  # a loaded ship's destination -> its score
        self.movers: dict[str, tuple[Any, ...]] = {}  # a unit -> what its moves' scores share
        # a destination -> (in Sweden, distance, objective entered): the victory hexes once a
        # decision, the others from the answers kept for the map, side and weather
        self._plain_ends = _PLAIN_ENDS.setdefault(g.board, {}).setdefault((side, d.weather), {})
        self._regions = _REGION_FACTS.setdefault(g, {})  # kept for the game (region_facts)
        self.ends: dict[str, tuple[Any, ...]] = dict(self._plain_ends)
        self._entered: dict[str, float] = {}  # a destination -> what entering it gains (29.0)
        self.sailed: dict[tuple[int, str], int] = {}
        self.left: dict[str, tuple[int, str]] = {}

    def land_dist(self, loc: str) -> float:
        """Infantry MP from ``loc`` to Narvik on today's chart, ignoring units: the march a
        unit really faces (hex distance would lead it to the wrong shore of a fjord)."""
        key = (id(self.board), self.d.weather)
        table = _LAND_DIST.get(key)
        if table is None:
            graph = movement_graph(self.board, self.g.tables.terrain, self.d.weather, "leg")
            lengths = nx.single_source_dijkstra_path_length(graph.reverse(copy=False), self.g.narvik, weight="cost")
            table = _LAND_DIST[key] = {k: float(v) for k, v in lengths.items()}
        return table.get(loc, 60.0)

    def dist_narvik(self, loc: str) -> int:
        hit = self._dist.get(loc)
        if hit is None:
            try:
                hit = self.board.distance(loc, self.g.narvik)
            except Exception:
                hit = 50
            self._dist[loc] = hit
        return hit

    def mover(self, u: Any, side: str) -> tuple[Any, ...]:
        """What a unit and its start decide of every move it makes (``german_moves``,
        ``allied_moves``, ``PriorityBot.move_bound``), once a decision: the Germans' distance
        to Narvik, threat, hunt, distance to the enemy, wear, the victory hex it would leave
        and its last move; the Allies' march to Narvik, wear and the victory hex it would
        leave. A unit's moves all start where it stands."""
        hit = self.movers.get(u.id)
        if hit is None:
            start = u.loc
            if side == "germans":
                threatened = self.enemy_adjacent(start, "allies")
                hunting = not threatened and u.fatigue < 6 and start not in self.g.objectives
                hit = (self.dist_narvik(start), threatened, hunting, self.enemy_dist(start) if hunting else 0,
                       (1 if u.fatigue > 8 else 0), self.objective_left(start, u.id), self.left.get(u.id))
            else:
                fl = self.g.tables.types[u.type].fatigue_limit
                tired = fl and u.fatigue >= fl // 2
                hit = (self.land_dist(start), (2.0 if tired else 0.0), self.objective_left(start, u.id))
            self.movers[u.id] = hit
        return hit

    def region_facts(self, u: Any) -> tuple[float, int, tuple[str, ...]]:
        """Of the region a free unit's moves end in (``rules.movement.region_of``): the least
        infantry MP to Narvik from a hex of it (``land_dist``), its farthest hex from the
        unit's hex, and its victory hexes; kept for the game, the unit's type, its hex and
        the weather, which decide the region."""
        key = (u.type, u.loc, self.d.weather)
        hit = self._regions.get(key)
        if hit is None:
            g = self.g
            t = g.tables.types[u.type]
            cm = compiled(g.board, g.tables.terrain, self.d.weather, t.movement_class)
            locs = [cm.locs[i] for i in region_of(cm, u.loc, t.mp, Fraction(t.zoc_exit_mp))]
            far = max((self.board.distance(u.loc, x) for x in locs), default=0)
            hit = self._regions[key] = (min(self.land_dist(x) for x in locs), far,
                                        tuple(sorted(x for x in locs if x in g.objectives)))
        return hit

    def objective_left(self, start: str, uid: str) -> float | None:
        """29.0: what leaving ``start`` empty of the side costs (None: nothing)."""
        obj = self.g.objectives
        if start in obj:
            own = [u for u in self.d.units_at(start) if u.side == self.side and u.id != uid and not u.has("aboard")]
            if not own:
                cost: float = obj[start] * 0.6
                return cost
        return None

    def end_info(self, end: str) -> tuple[bool, float, float]:
        """What a destination decides, once a hex: (in Sweden, its distance from Narvik by the
        side's measure, what entering it gains (29.0))."""
        dist = self.dist_narvik(end) if self.side == "germans" else self.land_dist(end)
        hit = self.ends[end] = (end in self.g.sweden, dist, self.entered(end))
        if end not in self.g.objectives:  # entering it gains nothing whoever stands where (29.0)
            self._plain_ends[end] = hit
        return hit

    def entered(self, end: str) -> float:
        """29.0: what entering ``end`` gains (an objective the side does not hold), once a hex."""
        entered = self._entered.get(end)
        if entered is None:
            obj = self.g.objectives
            entered = self._entered[end] = (obj[end] * 0.6 if end in obj and not any(
                u.side == self.side and not u.has("aboard") for u in self.d.units_at(end)) else 0.0)
        return entered

    def enemy_dist(self, loc: str) -> int:
        """Hex distance to the nearest enemy land unit on the map (50 when none)."""
        hit = self._enemy_dist.get(loc)
        if hit is not None:
            return hit
        if self._enemy_locs is None:
            self._enemy_locs = sorted({u.loc for u in self.d.units.values()
                                       if u.side != self.side and u.loc and not u.has("aboard")
                                       and not self.board.is_a(u.loc, "box")})
            # the same enemy hexes give the same distances: kept across decisions (a few tables)
            per = _ENEMY_DIST.setdefault(self.board, {})
            if len(per) > 64:
                per.clear()
            self._enemy_dist = per.setdefault(tuple(self._enemy_locs), {})
            hit = self._enemy_dist.get(loc)
            if hit is not None:
                return hit
            self._enemy_axial = _axials(self.board, self._enemy_locs)  # a hex board: distances from the coordinates
        ax = self._enemy_axial
        here = _axials(self.board, [loc]) if ax else None
        if ax and here:
            q, r = here[0]  # hexes.distance, inlined
            hit = min((abs(q - eq) + abs(r - er) + abs(q - eq + r - er)) // 2 for eq, er in ax)
        else:
            hit = min((self.board.distance(loc, x) for x in self._enemy_locs), default=50)
        self._enemy_dist[loc] = hit
        return hit

    def enemy_adjacent(self, loc: str, enemy: str, include_self: bool = False) -> bool:
        key = (loc, enemy, include_self)
        hit = self._adjacent.get(key)
        if hit is None:
            locs = list(self.board.neighbours(loc)) + ([loc] if include_self else [])
            hit = self._adjacent[key] = any(u.side == enemy and not u.has("aboard") for x in locs for u in self.d.units_at(x))
        return hit

    def strength(self, uid: str) -> int:
        u = self.d.units[uid]
        if u.side != self.side and u.concealed:
            return UNKNOWN_STRENGTH  # the bot may not look under a face-down counter (11.0)
        t = self.g.tables.types[u.type]
        s: int = t.strength - (u.fatigue // 4 if t.infantry else 0)
        return s

    def odds(self, o: Any) -> float:
        att: float = sum(self.strength(u) for u in o.units)  # float: the AP add fractions (and mypyc checks it)
        att += sum(self.g.tables.types[self.d.units[a].type].strength for a in getattr(o, "artillery", ()))
        att += sum(self.g.tables.types[self.d.units[s].type].bombard for s in getattr(o, "ships", ()))
        att += getattr(o, "ap", 0) * 0.15
        enemy = "germans" if self.side == "allies" else "allies"
        dfn = sum(self.strength(u.id) for u in self.d.units_at(o.target) if u.side == enemy and not u.has("aboard"))
        return att - dfn


def search_hooks() -> dict[str, Any]:
    """What the search bot (``hexwar.ai.search``, ISMCTS) needs from Assault on Narvik: the
    priority bot's ranking as the prior and its play as the rollouts, the VP differential
    (with the objectives held) as the score, and face-down counters reshuffled before each
    iteration."""

    def rank(state: Any, side: str, legal: Sequence[Order], bot: Any = None) -> list[Order]:
        prior = bot if bot is not None else PriorityBot(side)
        ctx = prior.context(state.game, state.data)
        return sorted(legal, key=lambda o: -prior.score(ctx, o))

    def evaluate(state: Any, side: str) -> float:
        """25.1: the VP differential for ``side``; while the game goes on, the objectives the
        Allies would score if it ended now (29.0: Narvik 10, '1918' 5) count in proportion
        to the turns played. A face-down counter holds its hex whatever it is."""
        g, d = state.game, state.data
        diff = float(d.vp.get("germans", 0) - d.vp.get("allies", 0))
        if not d.over:
            held = sum(value for loc, value in g.objectives.items()
                       if g.land_units_at(d, loc, "allies") and not g.land_units_at(d, loc, "germans"))
            diff -= held * min(1.0, d.turn / g.spec.turns)
        return diff if side == "germans" else -diff

    return {"rank": rank, "policy": lambda side, seed: PriorityBot(side, seed), "evaluate": evaluate,
            "determinize": _determinize, "forced": lambda me, d, legal: me.forced(d, legal),
            "heard": lambda me, d, pick: me.chosen(d, pick)}


def _determinize(s: Any, side: str, rng: random.Random) -> None:
    """Give each face-down enemy counter of a side's view one of the kinds the view says are
    out there face down, at random: a rollout plays them without knowing which is which."""
    d = s.data
    hidden = sorted((u for u in d.units.values() if u.type == "hidden"), key=lambda u: u.id)
    pool = list(getattr(d, "hidden_pool", []))
    rng.shuffle(pool)
    for u, kind in zip(hidden, pool):
        u.type, u.nation, u.formation = kind.split("|")
