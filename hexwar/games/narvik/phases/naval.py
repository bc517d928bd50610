"""Naval warfare (20.0): ships moving along waterways and through Harstad (20.1, 22.1),
embarking and disembarking (20.2), landings and amphibious assaults (20.3), Puffer bases and
fjord ferries (20.6), and ships sunk (20.4, 23.1)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Menu, Order, OrderList
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import (
    Bombard,
    Disembark,
    Embark,
    Landing,
    NavalMove,
    ShipFunction,
)
from hexwar.games.narvik.phases import assault, common
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, NOT_LAND, NarvikData
from hexwar.rules import stacking
from hexwar.rules.fire import fire_targets
from hexwar.rules.naval import naval_destinations, naval_path_ok
from hexwar.rules.stacking import ABOARD
from hexwar.rules.zoc import AMPHIBIOUS

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

#: the kinds of the parts a naval listing is built of (``OrderList``)
NAVAL_MOVE, EMBARK, DISEMBARK, LANDING = NavalMove.kind, Embark.kind, Disembark.kind, Landing.kind
BOMBARD, SHIP_FUNCTION = Bombard.kind, ShipFunction.kind
_ID = attrgetter("id")


def naval_orders(g: NarvikRules, d: NarvikData, out: Menu | OrderList) -> None:
    """Add to ``out`` every Allied ship's moves, loading, unloading, landings, bombardments
    and functions; ships sharing a hex also move and land as one group (20.1, 20.2, 20.3.1).
    Each ship's moves and embarkations go in as the lists kept for them, not copied into a
    list of the navy's own first: an action's listing is made of such parts."""
    types = g.tables.types
    ships = sorted((u for u in d.side_units(ALLIES) if types[u.type].kind == "ship"), key=_ID)  # is_ship
    ashore = allied_ashore(g, d)
    for s in ships:
        if "no_move" not in s.flags:
            out.add(moves_of(g, (s.id,), s.loc), NAVAL_MOVE)  # type: ignore[arg-type]
        cargo = d.cargo.get(s.id)
        if cargo is None and g.t(s).transport:
            here = ashore.get(s.loc, ())  # type: ignore[arg-type]
            if here and (s.loc == HARSTAD or g.board.is_a(s.loc, "port")):  # type: ignore[arg-type]  # a unit on the map
                out.add(embarks(g, s.id, (), carriable(g, s, s.loc, here)), EMBARK)  # type: ignore[arg-type]
            if "no_move" not in s.flags:
                out.add(sail_and_embark(g, d, s), EMBARK)
        if cargo is not None and s.loc != HARSTAD and stacking.stack(  # 13.2: room for the cargo ashore
                g.board, d, g.tables, s.loc, ALLIES, extra=[d.units[cargo]], leaving=[cargo]).ok:  # type: ignore[arg-type]
            home = home_path(g, s)
            ashore_orders: list[Order] = []
            if g.board.is_a(s.loc, "port") and any(x2.id != cargo for x2 in g.land_units_at(d, s.loc, ALLIES, real=False)):  # type: ignore[arg-type]
                ashore_orders.append(Disembark(ALLIES, s.id))
                if home:
                    ashore_orders.append(Disembark(ALLIES, s.id, home))
            elif landing_ok(g, d, s.loc):  # type: ignore[arg-type]
                ashore_orders.append(Landing(ALLIES, (s.id,), s.loc))  # type: ignore[arg-type]
                if home:
                    ashore_orders.append(Landing(ALLIES, (s.id,), s.loc, then=home))  # type: ignore[arg-type]
            for tgt in g.board.neighbours(s.loc):  # type: ignore[arg-type]  # a unit on the map
                if contested_target(g, d, tgt) and not g.t(d.units[cargo]).is_artillery:  # 20.3.1
                    ashore_orders.append(Landing(ALLIES, (s.id,), tgt, tuple(common.support_ships(g, d, tgt))))
            out.add(ashore_orders)  # disembarkations and landings
        elif cargo is not None and s.loc == HARSTAD:
            out.add([Disembark(ALLIES, s.id)], DISEMBARK)
        if cargo is None and g.t(s).bombard > 0 and "fired" not in s.flags and s.loc != HARSTAD:  # can_bombard's own terms
            out.add([Bombard(ALLIES, s.id, tgt) for tgt in bombard_targets(g, d, s)], BOMBARD)
        if s.type in FUNCTION_SHIPS:
            out.add([ShipFunction(ALLIES, s.id, f) for f in ("base", "crossing") if function_ok(g, s, f)], SHIP_FUNCTION)
    group_orders(g, d, ships, out)


def bombard_targets(g: NarvikRules, d: NarvikData, s: Unit) -> tuple[str, ...]:
    """20.5: the German-held hexes a ship free to fire reaches from its hex, in hex order;
    the map decides which are in range, so the answer is kept for the same hex, range and
    German hexes."""
    occupied, reach = g.occupied(d, GERMANS), g.t(s).bombard_range
    key = (s.loc, reach, occupied)
    hit = g.caches.bombard.get(key)
    if hit is None:
        if len(g.caches.bombard) > 4096:
            g.caches.bombard.clear()
        # can_bombard's terms for the ship hold (the caller's): what is left is its line of fire
        hit = g.caches.bombard[key] = fire_targets(g.board, s.loc, sorted(occupied), reach, adjacent_exception=False)  # type: ignore[arg-type]
    return hit


#: 20.6: the ships that may be a Base or a ferry
FUNCTION_SHIPS = ("Puffer", "LC")


#: the groups' naval moves kept at most: a ship's own moves are bounded by the map (about
#: 1,400 ship-and-hex pairs in all), but groups are combinations of ships, and a long batch
#: in one process met new ones without end (30 MB more every 200 random games)
GROUP_MOVES_KEPT = 2048


def moves_of(g: NarvikRules, ids: tuple[str, ...], loc: str) -> list[Order]:
    """20.1: a ship's (or a group's) naval moves from ``loc``; reach depends on the map only,
    so the list is kept (a group's among at most ``GROUP_MOVES_KEPT``)."""
    key = (ids, loc)
    cache = g.caches.naval_moves if len(ids) == 1 else g.caches.naval_group_moves
    moves = cache.get(key)
    if moves is None:
        if len(ids) > 1 and len(cache) >= GROUP_MOVES_KEPT:
            cache.clear()
        moves = cache[key] = [NavalMove(ALLIES, ids, p) for p in sorted_paths(g, loc)]
    return moves


def kept_moves(g: NarvikRules, ids: tuple[str, ...], loc: str) -> list[Order] | None:
    """The naval moves ``moves_of`` keeps for these ships and hex, or None (nothing is
    worked out): a reader of a legal-order list finds a ship's moves in it as this one list."""
    return (g.caches.naval_moves if len(ids) == 1 else g.caches.naval_group_moves).get((ids, loc))


def sorted_paths(g: NarvikRules, loc: str) -> tuple[tuple[str, ...], ...]:
    """20.1: the ways a ship sails from ``loc``, one to each destination in hex order (the
    map decides: kept for the game)."""
    paths = g.caches.naval_paths.get(loc)
    if paths is None:
        paths = g.caches.naval_paths[loc] = tuple(p for _, p in sorted(naval_destinations(g.board, loc, HARSTAD).items()))
    return paths


def home_path(g: NarvikRules, s: Unit) -> tuple[str, ...]:
    """20.2, 20.3: the way back to Harstad a ship may take at once after unloading."""
    if "no_move" in s.flags or s.loc in (None, HARSTAD):
        return ()
    return naval_destinations(g.board, s.loc, HARSTAD).get(HARSTAD, ())


def sail_and_embark(g: NarvikRules, d: NarvikData, s: Unit) -> list[Order]:
    """20.2: an empty transport may sail into a friendly port and embark there in one action."""
    out: list[Order] = []
    dests = naval_destinations(g.board, s.loc, HARSTAD)  # type: ignore[arg-type]
    ports = g.memo(("allied ports",), lambda: [(x, here) for x, here in sorted(allied_ashore(g, d).items())
                                               if x != HARSTAD and g.board.is_a(x, "port")])
    for loc, here in ports:
        path = dests.get(loc)
        if path is not None:
            out += embarks(g, s.id, path, carriable(g, s, loc, here))
    return out


def carriable(g: NarvikRules, s: Unit, loc: str, here: list[Unit]) -> tuple[str, ...]:
    """20.2: the units of ``here`` (``allied_ashore``'s at ``loc``) that a ship of ``s``'s type
    can carry, by id, once a listing."""
    return g.memo(("carriable", s.type, loc), lambda: tuple(u.id for u in here if can_carry(g, s, u)))


def embarks(g: NarvikRules, ship: str, path: tuple[str, ...], units: tuple[str, ...]) -> list[Order]:
    """20.2: ``ship`` embarking each of ``units`` (after sailing ``path``), one list for the
    same ship, way and units (orders are frozen values; a listing copies the list)."""
    key = (ship, path, units)
    hit = g.caches.embark_orders.get(key)
    if hit is None:
        if len(g.caches.embark_orders) > 50_000:
            g.caches.embark_orders.clear()
        hit = g.caches.embark_orders[key] = [Embark(ALLIES, ship, u, path) for u in units]
    return hit


def allied_ashore(g: NarvikRules, d: NarvikData) -> dict[str, list[Unit]]:
    """20.2: the Allied land units that may board, by hex: real, ashore (``land_units_at``),
    once a listing."""
    def make() -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        types = g.tables.types
        for u in d.side_units(ALLIES):  # one walk: land_units_at's tests, for every hex at once
            if types[u.type].kind not in NOT_LAND and ABOARD not in u.flags:
                out.setdefault(u.loc, []).append(u)  # type: ignore[arg-type]
        for here in out.values():
            if len(here) > 1:
                here.sort(key=_ID)  # in id order, as land_units_at gives them
        return out
    return g.memo(("allied ashore",), make)


def group_orders(g: NarvikRules, d: NarvikData, ships: list[Unit], out: Menu | OrderList) -> None:
    """20.1, 20.2, 20.3.1: add to ``out`` the ships in one hex moving, landing or assaulting
    as one group."""
    by_loc: dict[str, list[Unit]] = {}
    for s in ships:
        by_loc.setdefault(s.loc, []).append(s)  # type: ignore[arg-type]
    for loc, here in sorted(by_loc.items()):
        movers = tuple(s.id for s in here if "no_move" not in s.flags)
        if len(movers) > 1:
            out.add(moves_of(g, movers, loc), NAVAL_MOVE)
        loaded = [s for s in here if d.cargo.get(s.id)]
        if len(loaded) < 2 or loc == HARSTAD:
            continue
        ids = tuple(s.id for s in loaded)
        force = [d.units[d.cargo[s.id]] for s in loaded]
        if landing_ok(g, d, loc):  # 20.2: a group entering a non-friendly port lands as one
            if stacking.stack(g.board, d, g.tables, loc, ALLIES, extra=force, leaving=[u.id for u in force]).ok:
                out.add([Landing(ALLIES, ids, loc)], LANDING)
        if any(g.t(u).is_artillery for u in force):
            continue  # 20.3.1: no artillery in a contested landing
        pts = sum(stacking.unit_points(g.tables, u, ashore=True) for u in force)  # 20.3.1: as it will stand landed
        if pts > g.tables.stacking.limit:  # type: ignore[union-attr]
            continue
        out.add([Landing(ALLIES, ids, tgt, tuple(common.support_ships(g, d, tgt)))
                 for tgt in g.board.neighbours(loc) if contested_target(g, d, tgt)], LANDING)


def function_ok(g: NarvikRules, s: Unit, function: str) -> bool:
    """20.6: a Puffer in a non-mountain coast hex may be a Base; a Puffer or LC next to fjord
    hexsides may ferry; never both, and not from Harstad."""
    if s.type not in FUNCTION_SHIPS or s.loc in (None, HARSTAD) or {"base", "crossing"} & set(s.flags):
        return False
    if function == "base":
        return s.type == "Puffer" and g.board.terrain(s.loc) == "coast"
    if function == "crossing":
        return fjord_side(g, s.loc)
    return False


def fjord_side(g: NarvikRules, loc: str) -> bool:
    """20.6: whether a hexside of ``loc`` is a fjord (the map decides: kept for the game)."""
    hit = g.caches.fjord_side.get(loc)
    if hit is None:
        hit = g.caches.fjord_side[loc] = any(g.board.border(loc, b).has("fjord") for b in g.board.neighbours(loc))
    return hit


def can_carry(g: NarvikRules, ship: Unit, u: Unit) -> bool:
    t = g.t(u)
    if t.size == "battalion" and t.infantry:
        return True  # 20.2: one infantry battalion
    return ship.type == "LC" and (t.is_artillery or t.is_tank)  # 20.2: LC carries art or a tank


def landing_ok(g: NarvikRules, d: NarvikData, loc: str) -> bool:
    """20.3: an uncontested landing in a non-friendly port or on a beach."""
    if g.land_units_at(d, loc, GERMANS, real=False):
        return False
    friendly = bool(g.land_units_at(d, loc, ALLIES, real=False))
    if g.board.is_a(loc, "beach"):
        return True
    return g.board.is_a(loc, "port") and not friendly


def contested_target(g: NarvikRules, d: NarvikData, loc: str) -> bool:
    return (g.board.is_a(loc, "port") or g.board.is_a(loc, "beach")) and bool(g.land_units_at(d, loc, GERMANS, real=False))


def naval_move(g: NarvikRules, d: NarvikData, order: NavalMove, dice: Dice, events: list[Any]) -> None:
    """20.1: ships move as a group from one hex along waterways, through Harstad at most once."""
    sail(g, d, order.ships, order.path, events)


def sail(g: NarvikRules, d: NarvikData, ids: tuple[str, ...], path: tuple[str, ...], events: list[Any]) -> None:
    """20.1: check and make a naval move of a group of ships (with their cargo)."""
    ships = [common.ship(g, d, s) for s in ids]
    if not ships or len({s.loc for s in ships}) != 1 or len(set(ids)) != len(ids):
        raise IllegalOrder("a naval group moves from one hex, each ship named once", "20.1")
    start = ships[0].loc
    if any("no_move" in s.flags for s in ships):
        raise IllegalOrder("a damaged ship moves no more this turn", "20.4")
    dests = naval_destinations(g.board, start, HARSTAD)  # type: ignore[arg-type]
    if path[:1] != (start,) or path[-1] not in dests or not naval_path_ok(g.board, path, HARSTAD):
        raise IllegalOrder(f"{'>'.join(path)} is not a naval move along waterways (once through Harstad)", "20.1")
    dest = path[-1]
    for s in ships:
        d.place(s.id, dest)
        for f in ("base", "crossing"):
            if f in s.flags:
                s.flags.remove(f)
        cargo = d.cargo.get(s.id)
        if cargo:
            d.place(cargo, dest)
    events.append(E.NavalMove(type="naval_move", ships=list(ids), path=list(path), rule="20.1"))


def embark(g: NarvikRules, d: NarvikData, order: Embark, dice: Dice, events: list[Any]) -> None:
    """20.2: one land unit boards a transport in a friendly port or Harstad; the ship may sail
    into the port first, in the same action (its move ends there)."""
    s = common.ship(g, d, order.ship)
    u = d.units.get(order.unit)
    at = order.path[-1] if order.path else s.loc
    if u is None or u.loc != at or u.side != ALLIES or not g.is_land(u) or u.has(ABOARD):
        raise IllegalOrder(f"{order.unit} is not an Allied land unit in {at}", "20.2")
    if d.cargo.get(s.id) or not g.t(s).transport or not can_carry(g, s, u):
        raise IllegalOrder(f"{s.id} cannot carry {u.id}", "20.2")
    if at != HARSTAD and not g.board.is_a(at, "port"):  # type: ignore[arg-type]  # a unit on the map
        raise IllegalOrder(f"embark only in a friendly port or Harstad, not {at}", "20.2")
    if order.path:
        if at == HARSTAD:
            raise IllegalOrder("at Harstad ships load without a move of their own", "20.2")
        sail(g, d, (s.id,), order.path, events)
    d.cargo[s.id] = u.id
    u.flags.append(ABOARD)
    events.append(E.Embark(type="embark", ship=s.id, unit=u.id, rule="20.2"))


def disembark(g: NarvikRules, d: NarvikData, order: Disembark, dice: Dice, events: list[Any]) -> None:
    """20.2: unload in a port already holding another friendly unit, or at Harstad; the ship
    may then sail on at once."""
    s = common.ship(g, d, order.ship)
    cargo = d.cargo.get(s.id)
    if cargo is None:
        raise IllegalOrder(f"{s.id} carries nothing", "20.2")
    if s.loc != HARSTAD:
        others = [x for x in g.land_units_at(d, s.loc, ALLIES, real=False) if x.id != cargo]  # type: ignore[arg-type]
        if not g.board.is_a(s.loc, "port") or not others:  # type: ignore[arg-type]  # a unit on the map
            raise IllegalOrder("disembark in a port already holding another friendly unit, or land amphibiously", "20.2")
        u = d.units[cargo]
        if not stacking.stack(g.board, d, g.tables, s.loc, ALLIES, extra=[u], leaving=[cargo]).ok:  # type: ignore[arg-type]
            raise IllegalOrder(f"{cargo} would overstack {s.loc}", "13.2")
    elif order.then:
        raise IllegalOrder("at Harstad ships unload without a move of their own", "20.2")
    del d.cargo[s.id]
    d.units[cargo].flags.remove(ABOARD)
    events.append(E.Disembark(type="disembark", ship=s.id, unit=cargo, at=s.loc, rule="20.2"))  # type: ignore[typeddict-item]
    if order.then:
        sail(g, d, (s.id,), order.then, events)


def landing(g: NarvikRules, d: NarvikData, order: Landing, dice: Dice, events: list[Any]) -> None:
    """20.3: land in the ships' own hex (a non-friendly port or a beach), or assault an
    adjacent enemy-held port or beach (20.3.1), attack halved."""
    ships = [common.ship(g, d, s) for s in order.ships]
    if not ships or any(d.cargo.get(s.id) is None for s in ships) or len({s.loc for s in ships}) != 1 \
            or len(set(order.ships)) != len(order.ships):
        raise IllegalOrder("a landing needs loaded ships together in one hex, each named once", "20.3")
    at = ships[0].loc
    target = order.target
    force = [d.units[d.cargo[s.id]] for s in ships]
    if g.land_units_at(d, target, GERMANS, real=False):
        if target not in g.board.neighbours(at) or not contested_target(g, d, target):  # type: ignore[arg-type]  # a unit on the map
            raise IllegalOrder(f"an amphibious assault on {target} comes from an adjacent hex, at a port or beach", "20.3.1")
        pts = sum(stacking.unit_points(g.tables, u, ashore=True) for u in force if not g.t(u).is_artillery)
        if pts > g.tables.stacking.limit:  # type: ignore[union-attr]
            raise IllegalOrder("the landing force may not exceed what may stack in the hex", "20.3.1")
        bad = [b for b in order.bombard if b not in common.support_ships(g, d, target)]
        if bad:
            raise IllegalOrder(f"cannot bombard {target}: {', '.join(bad)}", "20.5")
        if any(g.t(u).is_artillery for u in force):
            raise IllegalOrder("no artillery may join a contested landing", "20.3.1")
        if order.then:
            raise IllegalOrder("after an amphibious assault the ships stay for its results", "20.3.1")
        for u in force:
            u.flags.append(AMPHIBIOUS)
        assault.fight(g, d, dice, events, ALLIES, target, [u.id for u in force], [], list(order.bombard), 0,
              amphibious=True, from_hex=at, landing_ships=tuple(order.ships))
        return
    if at != target or not landing_ok(g, d, target):
        raise IllegalOrder("land in the ships' own hex, at a non-friendly port or a beach", "20.3")
    if not stacking.stack(g.board, d, g.tables, target, ALLIES, extra=force, leaving=[u.id for u in force]).ok:
        raise IllegalOrder(f"the landing force would overstack {target}", "13.2")
    common.land_units(g, d, tuple(order.ships), target, events, contested=False)
    if order.then:  # 20.3 step 3: the transports may move at once to another hex or Harstad
        sail(g, d, tuple(order.ships), order.then, events)


def ship_function(g: NarvikRules, d: NarvikData, order: ShipFunction, dice: Dice, events: list[Any]) -> None:
    s = common.ship(g, d, order.ship)
    if not function_ok(g, s, order.function):
        raise IllegalOrder(f"{order.ship} cannot act as {order.function} here", "20.6")
    s.flags.append(order.function)
    events.append(E.ShipFunction(type="ship_function", ship=s.id, function=order.function, rule="20.6"))

