"""Taking combat results (15.2), retreats (15.3.1) and advances after combat (15.3).

A combat's decisions run in order: the defender takes its result points one by one, then
retreats; then the attacker; then the attacker may advance into an emptied hex. Each point
is taken as the owner chooses: eliminate a unit (Allied tanks first, 16.2), 6 FP split
among participating infantry, all participants to their limit, or one more hex of retreat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order
from hexwar.games.narvik.orders import TakeResult
from hexwar.rules.orders import Advance, Retreat
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import expect
from hexwar.games.narvik.phases import common
from hexwar.games.narvik.phases.common import combat_fatigue, participants
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Ask, NarvikData, other
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.retreat import retreat_paths
from hexwar.rules.stacking import ABOARD
from hexwar.rules.zoc import enemy_zoc

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

MAX_RETREAT = 3  # 15.3


def step(g: NarvikRules, d: NarvikData, events: list[Any]) -> None:
    """Drive a combat's decisions: defender's points, retreats, attacker's, advance (15.2, 15.3)."""
    c = d.combat
    assert c is not None
    while True:
        who = c.stage
        if who in (ALLIES, GERMANS):
            parts = participants(g, d, c, who)
            if c.points[who] > 0 and not parts:
                c.points[who] = 0  # 15.2: eliminating all participants satisfies any result
            if c.points[who] > 0:
                opts = take_options(g, d, who)
                if len(opts) == 1:  # nothing to choose: apply it
                    take(g, d, opts[0], events)  # type: ignore[arg-type]
                    continue
                g.ask(d, who, "take", points=c.points[who])
                return
            # retreats of this side
            if c.retreat[who] > 0 and who not in c.retreated:
                c.retreated.append(who)
                c.retreat_queue = [u.id for u in participants(g, d, c, who)]
            if c.retreat_queue:
                uid = c.retreat_queue[0]
                if d.units[uid].loc is None:
                    c.retreat_queue.pop(0)
                    continue
                if not retreat_options(g, d, uid, first=True):
                    # 15.3.1: earlier retreats of this combat filled every stack this unit
                    # could reach; a result it cannot retreat for is taken as elimination
                    c.retreat_queue.pop(0)
                    events.append(E.NoRetreat(type="no_retreat", unit=uid, rule="15.3.1"))
                    common.eliminate(g, d, d.units[uid], events, amphibious=bool(c.amphibious))
                    continue
                g.ask(d, who, "retreat", unit=uid, length=c.retreat[who])
                return
            c.stage = c.side if who != c.side else "advance"
            continue
        if who == "advance":
            finish(g, d, events)
            return


def finish(g: NarvikRules, d: NarvikData, events: list[Any]) -> None:
    """After both sides took their results: a landing succeeds or goes back (20.3.1), or the
    attacker may advance (15.3)."""
    c = d.combat
    assert c is not None
    side, target = c.side, c.target
    cleared = not g.land_units_at(d, target, other(side), real=False)
    if c.amphibious:
        if cleared:  # 20.3.1: the landing force must advance, no -1 FP
            common.land_units(g, d, tuple(c.ships), target, events, contested=True)
        else:  # 20.3.1 (A47): all attacking land units and ships go back to Harstad
            for sid in c.ships:
                cargo = d.cargo.pop(sid, None)
                d.place(sid, HARSTAD)
                if cargo and d.units[cargo].pool is None:
                    u = d.units[cargo]
                    u.flags.remove(ABOARD)
                    d.place(cargo, HARSTAD)
                    fat.add_fatigue(d, g.tables, cargo, "amphibious_assault")
                    g.award(d, "amphibious_loss", f"{cargo} returned to Harstad", "29.0, 20.3.1", events)
                    events.append(E.LandingFailed(type="landing_failed", unit=cargo, rule="20.3.1"))
        combat_fatigue(g, d, c, events)
        d.combat = None
        common.check_bases(g, d, events)
        d.completed = True
        g.after_action(d, side, True, events, reaction=False)
        return
    # the assault's own FP first, so that an advance's -1 counts against them (15.3)
    combat_fatigue(g, d, c, events)
    # 15.3: attacking infantry and tanks that are still on the map (not aboard) may advance
    parts = [u for u in participants(g, d, c, side) if not g.t(u).is_artillery and not u.has(ABOARD)]
    if cleared and parts and not (side == GERMANS and d.fuhrer):
        c.stage = "advance_asked"
        g.ask(d, side, "advance", units=tuple(u.id for u in parts))
        return
    end(g, d, events)


def end(g: NarvikRules, d: NarvikData, events: list[Any]) -> None:
    """The combat is over: its fatigue, Bases lost, and the other side's reaction (9.1)."""
    c = d.combat
    assert c is not None
    d.combat = None
    combat_fatigue(g, d, c, events)
    common.check_bases(g, d, events)
    d.completed = True
    g.after_action(d, c.side, True, events, reaction=False)


# 15.2: how to take a result point --------------------------------------------------------------


def take_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return take_options(g, d, ask.side)


def take_options(g: NarvikRules, d: NarvikData, side: str, only: str | None = None) -> list[Order]:
    """15.2: the ways ``side`` may take a result point now; ``only``: just those of one option
    (what checking an order of that option needs: the retreat's search is not made for the
    others)."""
    c = d.combat
    assert c is not None
    parts = participants(g, d, c, side)
    out: list[Order] = []
    allied = side == ALLIES
    tanks = [u for u in parts if g.t(u).is_tank]
    victims = tanks if (allied and tanks) else parts  # 16.2: Allied tanks go first
    elim_only = (c.amphibious and side == c.side)  # 20.3.1: Allied landing force
    fuhrer = side == GERMANS and d.fuhrer
    if only in (None, "eliminate"):
        for u in victims:
            out.append(TakeResult(side, "eliminate", u.id))
    if elim_only:
        return out
    inf = [u for u in parts if fat.takes_fatigue(g.tables, u) and not fat.at_limit(g.tables, u)] \
        if only in (None, "fatigue", "all_to_limit") else []
    if inf and not (c.amphibious and side != c.side):
        cap = {u.id: fat.fatigue_limit(g.tables, u) - u.fatigue for u in inf}
        if sum(cap.values()) >= 6:
            left, detail = 6, []
            for u in sorted(inf, key=lambda u: (-cap[u.id], u.id)):
                k = min(left, cap[u.id])
                if k:
                    detail.append((u.id, k))
                    left -= k
            out.append(TakeResult(side, "fatigue", "", tuple(sorted(detail))))
            for u in inf:
                if cap[u.id] >= 6:
                    out.append(TakeResult(side, "fatigue", "", ((u.id, 6),)))
        out.append(TakeResult(side, "all_to_limit"))
    if only is not None:
        out = [o for o in out if o.option == only]  # type: ignore[attr-defined]
    if not fuhrer and only in (None, "retreat"):
        n = c.retreat[side] + 1
        if n <= MAX_RETREAT and parts and all(retreat_options(g, d, u.id, n, first=True) for u in parts):
            out.append(TakeResult(side, "retreat"))
    return list(dict.fromkeys(out))


def any_split(g: NarvikRules, d: NarvikData, order: Order) -> bool:
    """15.2: any split of exactly 6 FP among participating infantry within their limits, each
    named once, is a way to take a point (the list offers the even split and 6 on one unit)."""
    c = d.combat
    if c is None or d.ask is None or d.ask.what != "take" or not isinstance(order, TakeResult):
        return False
    if order.option != "fatigue" or order.side != d.ask.side or order.unit or not order.detail:
        return False
    parts = {u.id: u for u in participants(g, d, c, order.side)}
    ids = [uid for uid, _ in order.detail]
    if len(set(ids)) != len(ids) or sum(fp for _, fp in order.detail) != 6:
        return False
    if not take_options(g, d, order.side, only="fatigue"):
        return False
    return all(uid in parts and fat.takes_fatigue(g.tables, parts[uid]) and not fat.at_limit(g.tables, parts[uid])
               and 0 < fp <= fat.fatigue_limit(g.tables, parts[uid]) - parts[uid].fatigue for uid, fp in order.detail)


def do_take(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, TakeResult)
    assert isinstance(order, TakeResult)
    take(g, d, order, events)
    d.ask = None
    step(g, d, events)


def take(g: NarvikRules, d: NarvikData, order: TakeResult, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    side = order.side
    legal = take_options(g, d, side, only=order.option)  # the order can only be one of its own option's
    parts = {u.id: u for u in participants(g, d, c, side)}
    if order.option == "fatigue" and order not in legal:
        if not any_split(g, d, order):
            raise IllegalOrder("6 FP must be split among participating infantry within their fatigue limits", "15.2")
    elif order not in legal:
        raise IllegalOrder(f"{order.text()} is not a way to take this result now", "15.2")
    c.points[side] -= 1
    if order.option == "eliminate":
        common.eliminate(g, d, d.units[order.unit], events, amphibious=c.amphibious and side == c.side)
    elif order.option == "fatigue":
        for uid, fp in order.detail:
            ch = fat.add_fatigue(d, g.tables, uid, "crt_point", fp=fp, rule="15.2")
            events.append(E.Fatigue(type="fatigue", unit=uid, fp=ch.applied, cause="crt_point", rule="15.2"))
    elif order.option == "all_to_limit":
        for u in parts.values():
            if fat.takes_fatigue(g.tables, u):
                fat.add_fatigue(d, g.tables, u.id, "crt_point", fp=fat.fatigue_limit(g.tables, u), rule="15.2")
        events.append(E.AllToLimit(type="all_to_limit", side=side, rule="15.2"))
    elif order.option == "retreat":
        c.retreat[side] += 1
    events.append(E.Take(type="take", side=side, option=order.option, unit=order.unit, rule="15.2"))


# 15.3 retreats and advances ---------------------------------------------------------------------


def retreat_lengths(need: int) -> range:
    """15.3, 15.3.1: the lengths a retreat of ``need`` hexes lists paths of: its own (at least
    1) up to MAX_RETREAT, each length's paths found apart; none when no retreat is due."""
    return range(max(1, need), MAX_RETREAT + 1) if need else range(0)


def retreat_options(g: NarvikRules, d: NarvikData, uid: str, length: int | None = None,
                    first: bool = False) -> list[tuple[str, ...]]:
    """15.3.1: paths of the retreat length (or any allowed length) away from the enemy (up to
    40 of each length); ``first``: only the first path found (whether the unit can retreat)."""
    c = d.combat
    assert c is not None
    u = d.units[uid]
    side = u.side
    need = c.retreat[side] if length is None else length
    if u.loc is None:
        return []
    t = g.t(u)
    enemy = other(side)
    enemy_locs = frozenset(g.occupied(d, enemy))
    zoc = enemy_zoc(g.board, d, g.tables, side)
    in_assault = set(c.attackers) | set(c.defenders)
    hosts = frozenset(x.loc for x in d.on_map(side) if x.id not in in_assault and x.loc and not x.has(ABOARD))
    # 15.3.1: as far as possible from the participating enemy units; artillery counts when it
    # takes part from the combat hex or a hex adjacent to it (an attacker, or a supporting battery)
    enemy_ids = (c.attackers + c.support) if side != c.side else (c.defenders + c.support)
    enemy_parts: list[str] = [d.units[i].loc for i in enemy_ids  # type: ignore[misc]
                              if d.units[i].loc is not None and d.units[i].side != side
                              and (not g.t(d.units[i]).is_artillery or g.board.distance(d.units[i].loc, c.target) <= 1)]  # type: ignore[arg-type]  # a unit on the map
    if c.amphibious and side != c.side and c.from_hex:
        enemy_parts = [c.from_hex]  # 20.3.1: the landing hex shapes the defender's retreat

    def stack_ok(loc: str) -> bool:
        return stacking.stack(g.board, d, g.tables, loc, side, extra=[u], leaving=[u.id]).ok

    out: list[tuple[str, ...]] = []
    for n in retreat_lengths(need):
        paths = retreat_paths(g.board, g.tables.terrain, d.weather, t.movement_class, u.loc, n,
                              enemy_locs, zoc, hosts, enemy_parts, t.is_tank, stack_ok, limit=1 if first else 40)
        out += paths
        if length is not None or (first and out):
            break
    return out


def retreat_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return [Retreat(ask.side, ask.unit, p) for p in retreat_options(g, d, ask.unit)]


def do_retreat(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, Retreat)
    assert isinstance(order, Retreat) and d.ask is not None and d.combat is not None
    c = d.combat
    uid = d.ask.unit
    n = len(order.path) - 1  # the full list's paths of each length are found apart: its own length's suffice
    if order.unit != uid or n not in retreat_lengths(c.retreat[d.units[uid].side]) \
            or tuple(order.path) not in retreat_options(g, d, uid, n):
        raise IllegalOrder(f"{order.text()} is not a legal retreat path for {uid}", "15.3.1")
    u = d.units[uid]
    dest = order.path[-1]
    d.place(uid, dest)
    n = len(order.path) - 1
    ch = fat.add_fatigue(d, g.tables, uid, "retreat_hex", times=n)
    events.append(E.Retreat(type="retreat", unit=uid, path=list(order.path), fp=ch.applied, rule="15.3"))
    if g.board.is_a(dest, "sweden"):
        common.intern(g, d, u, events)
    c.retreat_queue.pop(0)
    d.ask = None
    common.check_bases(g, d, events)
    step(g, d, events)


def advance_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    """15.3: none, each unit alone, and the largest group that fits the stacking limit."""
    assert d.combat is not None
    side, units = ask.side, ask.units
    target = d.combat.target
    pts = stacking.points_by_location(d, g.tables, side)
    fits = [u for u in units if stacking.room_for(g.board, g.tables, pts, target, stacking.unit_points(g.tables, d.units[u]))]
    out: list[Order] = [Advance(side, ())]
    out += [Advance(side, (u,)) for u in fits]
    group: list[str] = []
    used = 0
    for u in fits:
        p = stacking.unit_points(g.tables, d.units[u])
        if stacking.room_for(g.board, g.tables, pts, target, used + p):
            group.append(u)
            used += p
    if len(group) > 1:
        out.append(Advance(side, tuple(group)))
    return out


def do_advance(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, Advance)
    assert isinstance(order, Advance) and d.ask is not None and d.combat is not None
    if any(x not in d.ask.units for x in order.units):
        raise IllegalOrder("only attacking infantry and tanks may advance", "15.3")
    c = d.combat
    for uid in order.units:
        u = d.units[uid]
        if not stacking.stack(g.board, d, g.tables, c.target, u.side, extra=[u]).ok:
            raise IllegalOrder(f"{uid} would overstack {c.target}", "13.2")
        d.place(uid, c.target)
        if g.t(u).infantry:
            fat.add_fatigue(d, g.tables, uid, "advance")
        events.append(E.Advance(type="advance", unit=uid, to=c.target, rule="15.3"))
    d.ask = None
    end(g, d, events)
