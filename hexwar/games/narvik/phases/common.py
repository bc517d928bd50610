"""What several phases of Assault on Narvik do alike: the units that may act, a combat's
participants and its fatigue, ships in support and ships in play, landing a cargo, Bases lost,
internment, elimination and sinking. The phase modules import this one; it imports none of
them (the phases then form a tree under ``action``, the action phase's dispatcher)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.orders import IllegalOrder
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Combat, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules.fire import can_fire
from hexwar.rules.stacking import ABOARD
from hexwar.rules.zoc import AMPHIBIOUS

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules


def free_units(g: NarvikRules, d: NarvikData, side: str) -> dict[str, list[Unit]]:
    """The side's land units that may act (``may_act``: 10.1, 11.1), by hex (once a listing)."""
    def make() -> dict[str, list[Unit]]:
        out: dict[str, list[Unit]] = {}
        for u in d.side_units(side):
            if g.may_act(d, u):
                out.setdefault(u.loc, []).append(u)  # type: ignore[arg-type]
        return out
    return g.memo(("free units", side), make)


def why_not_act(g: NarvikRules, d: NarvikData, u: Unit) -> tuple[str, str]:
    """Why a unit may not act (``may_act`` is False): its words and section, the first that
    holds (a ship or off the map, face down 11.1, aboard 20.2, in the Harstad box 22.1, at
    its fatigue limit 10.1)."""
    if u.loc is None or not g.is_land(u):
        return f"{u.id} is no land unit on the map", "14.0"
    if u.concealed:
        return f"{u.id} is face down: a face-down counter does not move until revealed", "11.1"
    if u.has(ABOARD):
        return f"{u.id} is aboard a ship: it lands by a naval order", "20.2"
    if u.loc == HARSTAD:
        return f"{u.id} is in the Harstad box: it leaves by sea", "22.1"
    if fat.at_limit(g.tables, u):
        return f"{u.id} is at its fatigue limit ({u.fatigue} FP): it may not move or attack", "10.1"
    return f"{u.id} may not act now", "10.1, 11.1"


def participants(g: NarvikRules, d: NarvikData, c: Combat, who: str) -> list[Unit]:
    """The units of ``who`` still in play that took part in the combat."""
    ids = c.defenders if who != c.side else c.attackers
    return [d.units[i] for i in ids if d.units[i].loc is not None and d.units[i].pool is None]


def combat_fatigue(g: NarvikRules, d: NarvikData, c: Combat, events: list[Any]) -> None:
    """15.1, 20.3.1: the assault's own FP, once per combat."""
    if c.fatigued:
        return
    c.fatigued = True
    cause_a = "amphibious_assault" if c.amphibious else "assault"
    for uid in c.attackers:
        u = d.units[uid]
        if u.pool is None and fat.takes_fatigue(g.tables, u) and not (c.amphibious and u.loc == HARSTAD):
            ch = fat.add_fatigue(d, g.tables, uid, cause_a)
            events.append(E.Fatigue(type="fatigue", unit=uid, fp=ch.applied, cause=cause_a, rule="15.1, 20.3.1"))
    for uid in c.defenders:
        u = d.units[uid]
        if u.pool is None and fat.takes_fatigue(g.tables, u):
            ch = fat.add_fatigue(d, g.tables, uid, "defend")
            events.append(E.Fatigue(type="fatigue", unit=uid, fp=ch.applied, cause="defend", rule="15.1"))


def support_ships(g: NarvikRules, d: NarvikData, target: str) -> list[str]:
    """20.5: unloaded Allied ships with a bombardment value in range of the target."""
    out = []
    for u in d.on_map(ALLIES):
        t = g.t(u)
        if t.kind != "ship" or t.bombard <= 0 or u.loc in (None, HARSTAD) or u.id in d.cargo:
            continue
        if can_fire(g.board, u.loc, target, t.bombard_range, adjacent_exception=False):
            out.append(u.id)
    return sorted(out)


def ship(g: NarvikRules, d: NarvikData, sid: str) -> Unit:
    s = d.units.get(sid)
    if s is None or not g.is_ship(s) or s.loc is None:
        raise IllegalOrder(f"{sid} is not an Allied ship in play", "20.0")
    return s


def land_units(g: NarvikRules, d: NarvikData, ship_ids: tuple[str, ...], target: str, events: list[Any], contested: bool) -> None:
    for sid in ship_ids:
        cargo = d.cargo.pop(sid, None)
        if cargo is None or d.units[cargo].pool is not None:
            continue
        u = d.units[cargo]
        u.flags.remove(ABOARD)
        if AMPHIBIOUS in u.flags:
            u.flags.remove(AMPHIBIOUS)
        d.place(cargo, target)
        d.landed.append(cargo)  # 19.2: no supply penalty for the rest of the turn
        if not contested:
            fat.add_fatigue(d, g.tables, cargo, "amphibious_landing")
        events.append(E.Landed(type="landed", unit=cargo, at=target, contested=contested, rule="20.3"))
    check_bases(g, d, events)


def check_bases(g: NarvikRules, d: NarvikData, events: list[Any]) -> None:
    """19.4: a Base is lost when a German land unit occupies it (German +5 VP)."""
    for b in list(d.bases):
        if g.land_units_at(d, b, GERMANS):
            d.bases.remove(b)
            d.bases_lost.append(b)
            g.award(d, "base_captured", f"base {b} captured", "29.0, 19.4", events)


def intern(g: NarvikRules, d: NarvikData, u: Unit, events: list[Any]) -> None:
    """22.2: a unit entering Sweden is removed for good; the other side scores (29.0)."""
    d.remove(u.id, "interned")
    events.append(E.Interned(type="interned", unit=u.id, rule="22.2"))
    g.award(d, "german_interned" if u.side == GERMANS else "allied_interned", f"{u.id} interned", "29.0", events, u)


def eliminate(g: NarvikRules, d: NarvikData, u: Unit, events: list[Any], amphibious: bool = False) -> None:
    """15.2: a unit is eliminated; the other side scores (29.0), more in a landing (A36)."""
    for s in [s for s, c in d.cargo.items() if c == u.id]:
        del d.cargo[s]
    if u.has(ABOARD):
        u.flags.remove(ABOARD)
    d.remove(u.id, "eliminated")
    events.append(E.Eliminated(type="eliminated", unit=u.id, rule="15.2"))
    if g.is_dummy(u):
        return
    if u.side == GERMANS:
        g.award(d, "german_eliminated", f"{u.id} eliminated", "29.0", events)
    elif g.is_land(u):
        g.award(d, "allied_eliminated", f"{u.id} eliminated", "29.0", events, u)
        if amphibious:
            g.award(d, "amphibious_loss", f"{u.id} eliminated in an amphibious landing", "29.0 (A36)", events)


def sink(g: NarvikRules, d: NarvikData, s: Unit, events: list[Any]) -> None:
    """18.1.3, 20.4: a ship sunk; its cargo is lost; it is replaced at Harstad next turn (23.1)."""
    sunk = g.victory_points["ship_sunk"].points(g.t(s))
    already = d.ship_damage_vp.pop(s.id, 0)
    g.score(d, GERMANS, sunk - already, f"{s.id} sunk", "29.0, 20.4", events)
    cargo = d.cargo.pop(s.id, None)
    s.flags = []
    d.remove(s.id, "eliminated")  # 23.1: replaced at Harstad next turn
    events.append(E.Sunk(type="sunk", ship=s.id, rule="18.1.3"))
    if cargo:
        eliminate(g, d, d.units[cargo], events)
