"""Assault on Narvik's rules that hold after every order, each broken one as a sentence with
its section (the registry's ``invariants``: the conformance suite checks them after every
order of random games and of priority-bot games; the state machine test too)."""

from __future__ import annotations

# the game first: it imports the phase modules in the order they import each other
from hexwar.games.narvik.game import NarvikGame
from hexwar.games.narvik.phases.air import MAX_AP
from hexwar.games.narvik.phases.random_events import MAX_DUMMIES
from hexwar.games.narvik.state import HARSTAD, NarvikData
from hexwar.rules import stacking
from hexwar.rules.naval import WATER
from hexwar.rules.stacking import ABOARD


def broken(g: NarvikGame, d: NarvikData) -> list[str]:
    """Return every rule the state breaks (empty: all hold)."""
    out = []
    for u in d.units.values():
        limit = g.t(u).fatigue_limit
        if not 0 <= u.fatigue <= limit:
            out.append(f"10.1: {u.id} has {u.fatigue} FP, outside 0..{limit}")
    out += _cargo(g, d)
    for u in d.on_map():
        terrain = g.board.terrain(u.loc)  # type: ignore[arg-type]  # a unit on the map
        if u.loc in g.sweden:
            out.append(f"22.2: {u.id} stands in Sweden at {u.loc}: a unit entering Sweden is interned at once")
        if g.is_ship(u) and u.loc != HARSTAD and terrain not in WATER:
            out.append(f"13.1, 20.1: the ship {u.id} is in {u.loc}, a {terrain} hex, not at sea or on a coast")
        elif not g.is_ship(u) and not u.has(ABOARD) and terrain == "sea":
            out.append(f"14.1: {u.id} stands in the all-sea hex {u.loc}, not aboard a ship")
    for loc in sorted({u.loc for u in d.on_map() if u.loc != HARSTAD}):  # type: ignore[type-var]
        sides = {u.side for u in d.units_at(loc) if (g.is_land(u) or g.is_dummy(u)) and not u.has(ABOARD)}  # type: ignore[arg-type]
        if len(sides) > 1:
            out.append(f"14.1, 15.3.1: land units of both sides stand in {loc}: "
                       f"{', '.join(u.id for u in d.units_at(loc))}")  # type: ignore[arg-type]
    out += [r.message(g.cites.stack) for r in stacking.violations(g.board, d, g.tables)]
    for side, vp in d.vp.items():
        logged = sum(e.vp for e in d.vp_log if e.side == side)
        if vp != logged:
            out.append(f"29.0: {side} have {vp} VP but the VP log gives them {logged}")
    ap = d.tracks.get("ap", 0)
    if not 0 <= ap <= MAX_AP:
        out.append(f"18.1: {ap} AP, outside 0..{MAX_AP}")
    dummies = [u.id for u in d.on_map() if g.is_dummy(u)]
    if len(dummies) > MAX_DUMMIES:
        out.append(f"11.2: {len(dummies)} dummies in play, never more than {MAX_DUMMIES}: {', '.join(dummies)}")
    return out


def _cargo(g: NarvikGame, d: NarvikData) -> list[str]:
    """20.2: a ship carries at most one unit, aboard in the ship's own hex; a unit is aboard
    exactly when a ship carries it."""
    out = []
    carried: dict[str, str] = {}
    for ship, uid in sorted(d.cargo.items()):
        s, u = d.units.get(ship), d.units.get(uid)
        if s is None or u is None or not g.is_ship(s):
            out.append(f"20.2: the cargo record {ship} -> {uid} names no ship or no unit")
            continue
        if uid in carried:
            out.append(f"20.2: {uid} is aboard both {carried[uid]} and {ship}")
        carried[uid] = ship
        if s.loc is None or u.loc != s.loc or not u.has(ABOARD):
            out.append(f"20.2: {ship} (at {s.loc}) carries {uid}, which is at {u.loc}"
                       f"{'' if u.has(ABOARD) else ' and not aboard'}")
    for u in d.units.values():
        if u.has(ABOARD) and u.id not in carried:
            out.append(f"20.2: {u.id} is marked aboard, but no ship carries it")
    return out
