"""Land movement (14.0) as an action or reaction: paths within MP through the terrain chart
and zones of control (12.0), stacking (13.2), fjord ferries (20.6), Sweden (22.2), exits off
the map (22.3), and Bases lost to German occupation (19.4)."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Lazy, Menu, Move, Order, OrderList
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import Exit
from hexwar.games.narvik.phases import common
from hexwar.games.narvik.phases.common import free_units
from hexwar.games.narvik.state import ALLIES, GERMANS, NarvikData, other
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.movement import (
    CompiledMoves,
    MoveQuery,
    Reach,
    compiled,
    explain_path,
    path_mp,
    reach,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

MOVE, EXIT = Move.kind, Exit.kind


#: the kinds of order a side's movement listing holds (``move_chunks``): moves and ferries,
#: and the Allies' exits (22.3)
MOVE_KINDS = {ALLIES: (MOVE, EXIT), GERMANS: (MOVE,)}


def move_orders(g: NarvikRules, d: NarvikData, side: str) -> OrderList:
    """Every unit's every destination in one movement action, on its cheapest path (14.0),
    and the Allies' exits off the map, which are part of a movement action (22.3)."""
    out = OrderList()  # each unit's moves and exits, as kept lists where they are kept
    for kind, orders in move_chunks(g, d, side):
        out.add(orders, kind)
    return out


def defer_moves(menu: Menu, g: NarvikRules, d: NarvikData, side: str) -> None:
    """Add a side's movement listing to an action's or reaction's menu as a part deferred
    unit by unit (9.0, 9.1): each free unit's moves worked out when read (a priority bot
    bounds what a unit's moves could score before it asks for them), its exits known
    without them (22.3)."""
    listing = UnitMoves(g, d, side)
    menu.defer_each(MOVE_KINDS[side], [Lazy(u, listing.chunks) for u in listing.units()], move_knows(g, d, side))


def move_chunks(g: NarvikRules, d: NarvikData, side: str) -> Iterator[tuple[str, Sequence[Order]]]:
    """``move_orders``' (kind, orders) unit by unit, in id order."""
    listing = UnitMoves(g, d, side)
    for u in listing.units():
        yield from listing.chunks(u)


class UnitMoves:
    """One listing's land movement of a side, unit by unit (14.0): the free units, in id order,
    and each one's moves with room at the destination (13.2), its ferries (20.6) and its
    exits (22.3). What every unit's moves share (the side's ZoC and compiled context, the
    stacking points by hex) is worked out at the first unit asked, and kept for the listing."""

    def __init__(self, g: NarvikRules, d: NarvikData, side: str):
        self.g, self.d, self.side = g, d, side
        self.ready = False
        self.ctx: Any = None
        self.pts: dict[str, int] = {}
        self.limit = 0
        self.unlimited: Container[str] = ()
        self.ferries = False
        self.queries: dict[str, tuple[MoveQuery, CompiledMoves]] = {}
        self.no_room: dict[int, frozenset[str] | None] = {}  # a unit's stacking points -> the hexes without room for it

    def units(self) -> list[Unit]:
        """The side's units that may move (``may_act``), in id order; none under 8.2.1."""
        g, d, side = self.g, self.d, self.side
        if side == GERMANS and d.fuhrer:
            return []  # 8.2.1
        return sorted((u for here in free_units(g, d, side).values() for u in here), key=_ID)

    def _start(self) -> None:
        g, d, side = self.g, self.d, self.side
        self.ctx = g.side_context(d, side)  # one ZoC for every unit of the side (and one compiled context)
        self.pts = stacking.points_by_location(d, g.tables, side)
        st = g.tables.stacking
        assert st is not None
        self.limit, self.unlimited = st.limit, stacking.unlimited(g.board, st.unlimited_places)
        self.ferries = side == ALLIES and any("crossing" in s.flags for s in d.on_map(ALLIES))  # 20.6
        self.queries = move_queries(g, side)
        if len(g.caches.unit_moves) > 50_000:
            g.caches.unit_moves.clear()
        if len(g.caches.unit_moves_room) > 50_000:
            g.caches.unit_moves_room.clear()
        self.ready = True

    def chunks(self, u: Unit) -> list[tuple[str, Sequence[Order]]]:
        """A free unit's (kind, orders): its moves, its ferries, its exits."""
        if not self.ready:
            self._start()
        g, d, side = self.g, self.d, self.side
        out: list[tuple[str, Sequence[Order]]] = []
        key, hit = unit_paths(g, d, side, u, self.ctx, self.queries)
        up = stacking.unit_points(g.tables, u)
        # 13.2: room at the destination (stacking.room_for): the moves left once the hexes
        # without room for the unit's points are taken out, kept for the same such hexes
        full = self.no_room.get(up)
        unlimited = self.unlimited
        if full is None:
            full = self.no_room[up] = frozenset(x for x, p in self.pts.items() if p + up > self.limit and x not in unlimited) \
                if up <= self.limit else None
        if full is None:  # a unit bigger than the limit fits only where stacking is unlimited
            out.append((MOVE, [m for dest, anywhere, m in hit[0] if anywhere or dest in unlimited]))
        else:
            room_key = (key, full)
            roomy = g.caches.unit_moves_room
            fits = roomy.get(room_key)
            if fits is None:
                fits = roomy[room_key] = [m for dest, anywhere, m in hit[0] if anywhere or dest not in full]
            out.append((MOVE, fits))
        if self.ferries:
            out.append((MOVE, [Move(side, u.id, (u.loc, b)) for b in crossings(g, d, u)]))  # type: ignore[arg-type]
        if side == ALLIES and not d.exits_banned:
            out.append((EXIT, hit[1]))
        return out


def _ID(u: Unit) -> str:
    return u.id


def move_queries(g: NarvikRules, side: str) -> dict[str, tuple[MoveQuery, CompiledMoves]]:
    """A side's unit type -> (its movement query, its class's compiled map), filled by
    ``unit_paths`` and kept for the listing (a menu's exit test and its moves share it)."""
    return g.memo(("move queries", side), dict)


def unit_paths(g: NarvikRules, d: NarvikData, side: str, u: Unit, ctx: Any,
               queries: dict[str, tuple[MoveQuery, CompiledMoves]]) -> tuple[Any, tuple[list[tuple[str, bool, Move]], list[Order]]]:
    """A free unit's Reach key and its moves before stacking and exits (``_paths``), kept
    for the same Reach; ``queries`` keeps a type's query and compiled map for the listing."""
    t = g.t(u)
    kept = queries.get(u.type)
    if kept is None:  # a type's query (and its class's compiled map) is the same for all its units
        kept = queries[u.type] = (g.query(d, u, ctx), compiled(g.board, g.tables.terrain, d.weather, t.movement_class))
    q, cm = kept
    r = reach(g.board, g.tables.terrain, d.weather, t.movement_class, u.loc, q, cm)  # type: ignore[arg-type]
    key = (u.id, side, r)  # the same Reach (the neighbourhood unchanged) gives the same paths
    hit = g.caches.unit_moves.get(key)
    if hit is None:
        hit = g.caches.unit_moves[key] = _paths(g, u, side, r)
    return key, hit


def move_knows(g: NarvikRules, d: NarvikData, side: str) -> Callable[[str], bool | None]:
    """For a menu (``Menu.defer``): whether a side's movement listing holds an exit (22.3),
    known without listing the moves: none when exits are banned; else whether a free unit
    that might reach a map edge (``may_exit``) has one (its Reach, as the listing asks it).
    Moves are not told (None): the listing's first unit shows them."""
    def knows(kind: str) -> bool | None:
        if kind != EXIT:
            return None
        if side != ALLIES or d.exits_banned:
            return False
        ctx, queries = g.side_context(d, side), move_queries(g, side)
        return any(unit_paths(g, d, side, u, ctx, queries)[1][1]
                   for here in free_units(g, d, side).values() for u in here if may_exit(g, d, u))
    return knows


def may_exit(g: NarvikRules, d: NarvikData, u: Unit) -> bool:
    """22.3: whether ``u`` might leave by a map edge: an edge hex (not Swedish) lies within its
    MP less the exit's 1 MP on the map as it is without any unit (``CompiledMoves.region``).
    ZoC and enemy units only add costs and take hexes away, so False means no exit at all;
    True only that the unit's Reach must be asked."""
    key = (u.type, d.weather)
    kept = g.caches.exit_budget.get(key)
    if kept is None:
        t = g.t(u)
        cm = compiled(g.board, g.tables.terrain, d.weather, t.movement_class)
        kept = g.caches.exit_budget[key] = (cm, math.floor(Fraction(t.mp) * cm.scale) - cm.scale)
        if g.caches.edge_index is None:
            g.caches.edge_index = frozenset(cm.index[h] for e in ("edge_north", "edge_south") for h in g.edges[e] if h not in g.sweden)
    cm, budget = kept
    if budget < 0:
        return False  # 1 MP left is more than the unit has
    return not cm.region(cm.index[u.loc], budget, 0).isdisjoint(g.caches.edge_index)  # type: ignore[index, arg-type]


def _paths(g: NarvikRules, u: Unit, side: str, r: Reach) -> tuple[list[tuple[str, bool, Move]], list[Order]]:
    """A unit's moves from a Reach, before stacking: (destination, stacks without limit, order),
    and its exits (22.3)."""
    sweden = g.sweden
    moves = []
    paths = r.paths()
    near = not sweden.isdisjoint(paths)  # Sweden within reach at all
    for dest in r.destinations():
        path = paths[dest]
        if near and not sweden.isdisjoint(path[1:-1]):
            continue  # 22.2: a unit entering Sweden is interned at once, it cannot pass through
        moves.append((dest, near and dest in sweden, Move(side, u.id, path)))
    return moves, (exits(g, u, r, paths) if side == ALLIES else [])


def exits(g: NarvikRules, u: Unit, r: Reach, reached: Container[str] | None = None) -> list[Order]:
    """22.3: leave by the north or south edge as part of a movement action, for 1 MP: one
    order per edge, on the path that reaches an edge hex with the most MP left (``reached``:
    the Reach's locations, when the caller has them as a dict already)."""
    out: list[Order] = []
    if reached is None:
        reached = r
    for edge in ("edge_north", "edge_south"):
        best = None
        for h in g.edges[edge]:  # the edge's hexes the unit reaches, not by the minimum move, not Swedish
            if h not in reached or h in r.min_move or h in g.sweden:
                continue
            mp = r.left_at(h)
            if mp is not None and mp >= 1 and (best is None or (mp, best[1]) > (best[0], h)):
                best = (mp, h)
        if best is not None:
            path = r.path(best[1])
            if not any(h in g.sweden for h in path):
                out.append(Exit(ALLIES, u.id, tuple(path) if len(path) > 1 else ()))
    return out


def crossings(g: NarvikRules, d: NarvikData, u: Unit) -> list[str]:
    """20.6: fjord hexsides a Puffer or LC ferry lets this unit cross, without penalty."""
    out = []
    t = g.t(u)
    for ship in d.on_map(ALLIES if u.side == ALLIES else "none"):
        if "crossing" not in ship.flags or ship.loc is None:
            continue
        if ship.type == "Puffer" and (t.is_artillery or t.is_tank):
            continue  # 20.6: never by Puffer (A39: an LC may ferry them)
        for a in (ship.loc, *g.board.neighbours(ship.loc)):
            if a != u.loc:
                continue
            for b in g.board.neighbours(a):
                border = g.board.border(a, b)
                if not border.has("fjord") or g.board.terrain(b) in ("sea", "box"):
                    continue
                if ship.loc not in (a, b) or "mountain" in (g.board.terrain(a), g.board.terrain(b)):
                    continue
                if b in g.occupied(d, other(u.side)):
                    continue
                out.append(b)
    return sorted(set(out))


def move(g: NarvikRules, d: NarvikData, order: Move, dice: Dice, events: list[Any]) -> None:
    """Move one unit along a path (14.0), checked step by step."""
    u = d.units.get(order.unit)
    if u is None or u.side != order.side:
        raise IllegalOrder(f"{order.unit} is not a unit of {order.side}", "14.0")
    if order.side == GERMANS and d.fuhrer:
        raise IllegalOrder("Führer orders: no German land unit may move this turn", "8.2.1")
    if not g.may_act(d, u):
        raise IllegalOrder(*common.why_not_act(g, d, u))
    if len(order.path) < 2 or order.path[0] != u.loc:
        raise IllegalOrder(f"a move starts at {u.id}'s hex {u.loc} and enters at least one hex", "14.0")
    spent = move_spent(g, d, u, order.path)
    for mid in order.path[1:-1]:
        if mid in g.sweden:
            raise IllegalOrder(f"{u.id} would be interned on entering {mid}: end the move there", "22.2")
    dest = order.path[-1]
    if dest not in g.sweden:
        rep = stacking.stack(g.board, d, g.tables, dest, u.side, extra=[u])
        if not rep.ok:
            raise IllegalOrder(rep.message(g.cites.stack), g.cites.stack.limit)
    d.place(u.id, dest)
    ch = fat.add_fatigue(d, g.tables, u.id, "movement_action")
    events.append(E.Move(type="move", unit=u.id, path=list(order.path), mp=str(spent), fp=ch.applied, rule="14.0"))
    if dest in g.sweden:
        common.intern(g, d, u, events)
    common.check_bases(g, d, events)


def move_spent(g: NarvikRules, d: NarvikData, u: Unit, path: tuple[str, ...]) -> Fraction:
    """The MP a land move along ``path`` spends (14.0, 14.1; a fjord ferry, 20.6: the
    destination's terrain only), or IllegalOrder when the unit's MP do not reach. The move
    and the reach query (``NarvikGame.move_cost``) both charge with this."""
    t = g.t(u)
    q = g.query(d, u)
    if len(path) == 2 and path[1] in crossings(g, d, u):  # 20.6: across the fjord "without penalty"
        chart = g.tables.terrain
        cost = chart.section(d.weather).terrain[chart.terrain_class(g.board.terrain(path[1])) or "clear"].cost(t.movement_class)
        if cost is None:
            raise IllegalOrder(f"{u.id} cannot enter {path[1]}: its terrain is prohibited to it", "14.1, 20.6")
        return cost
    spent = path_cost(g, d, u, path, q)
    if spent > q.mp and len(path) > 2:
        raise IllegalOrder(f"{u.id} needs {spent} MP for {'>'.join(path)} but has {q.mp}", "14.1")
    return spent


def path_cost(g: NarvikRules, d: NarvikData, u: Unit, path: tuple[str, ...], q: MoveQuery) -> Fraction:
    """14.0, 14.1: the MP a unit spends along a path of adjacent hexes (of a move or an exit,
    22.3), or IllegalOrder naming the step it cannot take."""
    for a, b in zip(path, path[1:]):
        if b not in g.board.neighbours(a):
            raise IllegalOrder(f"{a} and {b} are not adjacent", "14.0")
    mclass = g.t(u).movement_class
    spent = path_mp(g.board, g.tables.terrain, d.weather, mclass, path, q)
    if spent is None:  # the ledger says which step is refused
        led = explain_path(g.board, g.tables.terrain, d.weather, mclass, path, q, g.cites.move)
        raise IllegalOrder(f"{u.id} cannot move {'>'.join(path)}: {led.lines[-1].text}", "14.1")
    return spent


def exit_map(g: NarvikRules, d: NarvikData, order: Exit, dice: Dice, events: list[Any]) -> None:
    """22.3: an Allied unit moves to the north or south edge and leaves for 1 MP more, in one
    movement action; a battalion scores on turns 1-5. No exits once an early end is declared."""
    u = d.units.get(order.unit)
    if u is None or u.side != ALLIES or u.loc is None or not g.may_act(d, u):
        raise IllegalOrder(f"{order.unit} is not a free Allied unit on the map", "22.3")
    if d.exits_banned:
        raise IllegalOrder("no unit may leave the map once an early end of the game is declared", "22.3, 8.4")
    path = order.path or (u.loc,)
    if path[0] != u.loc or len(set(path)) != len(path):
        raise IllegalOrder(f"an exit starts at {u.id}'s hex {u.loc}", "22.3")
    q = g.query(d, u)
    spent = path_cost(g, d, u, path, q) if len(path) > 1 else Fraction(0)
    if any(h in g.sweden for h in path):
        raise IllegalOrder(f"{u.id} would be interned in Sweden on the way", "22.2")
    if not (g.board.is_a(path[-1], "edge_north") or g.board.is_a(path[-1], "edge_south")):
        raise IllegalOrder(f"{path[-1]} is not on the north or south edge", "22.3")
    if spent + 1 > q.mp:
        raise IllegalOrder(f"{u.id} needs {spent} MP to the edge and 1 MP to leave, but has {q.mp}", "22.3")
    d.remove(u.id, "exited")
    fat.add_fatigue(d, g.tables, u.id, "movement_action")
    events.append(E.Exit(type="exit", unit=u.id, rule="22.3"))
    award = g.victory_points["allied_exited"]
    in_time = award.last_turn is None or d.turn <= award.last_turn
    if in_time and not d.exits_banned and u.nation != "norwegian" and g.t(u).size == "battalion":
        g.award(d, "allied_exited", f"{u.id} exited", "29.0, 22.3", events)

