"""The movement and exploitation phases (E3 B, E3 E; E4 ground movement), with E5 C's
headquarters, E1's breakdowns, trucks and naval interdiction."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Menu, Move, Order, Pass
from hexwar.core.state import Unit
import hexwar.games.europa.events as E
from hexwar.games.europa.context import Context, EuropaRules
from hexwar.games.europa.orders import (
    Absorb,
    Assemble,
    Breakdown,
    Detach,
    Interdict,
    Truck,
)
from hexwar.games.europa.schemas import band
from hexwar.games.europa.state import ALLIES, DISRUPTED, GERMANS, Ask, EuropaData
from hexwar.rules.ledger import Ledger, Line
from hexwar.rules.cites import MoveCites
from hexwar.rules.movement import explain_path, reach, step_cost

INFANTRY = ("infantry", "mountain", "naval_infantry")

#: the sections a Europa movement ledger cites: E4, the TEC's values and the ZoC's exit cost
#: being ours (E6: the seed names the chart without its values)
CITES = MoveCites(terrain="E4, TEC authored", road="E4, TEC authored", box="E4", zoc_exit="E4, authored",
                  blocked="E4", min_move="E4")


def run_movement(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    g.ask(d, d.side, "move")


def run_exploitation(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    if d.step == 0:
        d.moved, d.carried, d.reorganised = [], {}, []
        d.step = 1
    g.ask(d, d.side, "exploit")


def may_move(g: EuropaRules, d: EuropaData, u: Unit, exploit: bool) -> bool:
    """E4, E3 E: a ground unit with a movement rating that has not moved this phase; in
    exploitation only combat/motorized units, and not disrupted ones (authored)."""
    return not why_not_move(g, d, u, exploit)


def why_not_move(g: EuropaRules, d: EuropaData, u: Unit, exploit: bool) -> str:
    """Why ``u`` may not move in this phase, in words with the rule ("" if it may): the rule
    :func:`may_move` asks, written once."""
    t = g.t(u)
    if u.loc is None:
        return "it is not on the map"
    if u.id in d.carried:
        return f"it rode with {d.carried[u.id]} this phase (E1 trucks)"
    if u.id in d.absorbed:
        return f"it is absorbed by {d.absorbed[u.id]} and moves with it (E5 C)"
    if u.id in d.moved:
        return "it has moved already this phase (E4)"
    if t.movement_class == "none":
        return "it has no movement rating (E4)"
    if exploit and not t.exploits:
        return "only combat/motorized units move in the exploitation phase (E3 E)"
    if exploit and u.has(DISRUPTED):
        return "a disrupted unit does not exploit (E3 E, authored)"
    if g.movement(d, u) <= 0:
        return "it has no MP (E4)"
    return ""


def path_ledger(g: EuropaRules, d: EuropaData, u: Unit, path: tuple[str, ...], mover: Unit | None = None) -> Ledger:
    """The MP ledger of ``u`` moving along ``path`` (driven by ``mover``, a truck), reckoned
    as :func:`destinations` reckons it (E4): the TEC's cost of each hex and hexside, the cost
    to leave an enemy ZoC, the one hex a unit may always move; a last step into an enemy hex
    is allowed and the move stops there. A ledger with no total for a path it may not take."""
    m = mover or u
    ctx = g.context(d, u.side)
    q = g.query(d, m, ctx)
    stop = path[-1] in ctx.enemy
    if stop:  # E4: a unit may enter an enemy-occupied hex and stop, never pass through one
        q = replace(q, blocked=q.blocked - {path[-1]})
    led = explain_path(g.board, g.chart, d.weather, g.t(m).movement_class, path, q, CITES)
    if stop and led.total is not None:
        led.lines.insert(len(led.lines) - 1, Line(f"{path[-1]} holds enemy units: the move stops there", None, "E4"))
    return led


def destinations(g: EuropaRules, d: EuropaData, u: Unit, exploit: bool, mover: Unit | None = None,
                 ctx: "Context | None" = None) -> dict[str, tuple[str, ...]]:
    """Every hex ``u`` (moved by ``mover``: a truck carrying it) may end its move in, with a
    cheapest path (E4): never through an enemy hex but into one to stop, not from one enemy
    hex directly into another; one hex always; in exploitation never into a hex holding an
    enemy ground unit with a defence strength."""
    m = mover or u
    cls = g.t(m).movement_class
    ctx = ctx or g.context(d, u.side)
    q = g.query(d, m, ctx)
    start = m.loc
    assert start is not None
    key = (m.id, start, q.mp, cls, exploit)
    hit: dict[str, tuple[str, ...]] | None = ctx.reach.get(key)
    if hit is not None:
        return hit
    r = reach(g.board, g.chart, d.weather, cls, start, q)
    enemy, strong = ctx.enemy, ctx.strong
    out = {x: tuple(r.path(x)) for x in r.destinations()}
    start_enemy = start in enemy
    for x in sorted(ctx.near):
        mp = r.left_at(x)
        if mp is None or x in enemy:
            continue
        if x == start and start_enemy:
            continue  # E4: not directly from one enemy hex into another
        exit_cost = q.zoc_exit if x in q.zoc else Fraction(0)
        for e in g.board.neighbours(x):
            if e not in enemy or e in out or (exploit and e in strong):
                continue
            c = step_cost(g.board, g.chart, d.weather, cls, x, e)
            if c is None:
                continue
            if c + exit_cost <= mp or (x == start and not start_enemy):  # E4: a unit may always move one hex
                out[e] = tuple(r.path(x)) + (e,)
    if exploit:
        out = {x: p for x, p in out.items() if x not in strong}
    ctx.reach[key] = out
    return out


def move_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> Menu:
    """E4, E3 E: pass, the moves and truck moves (deferred: a reader choosing a kind first,
    the random bot, works them out only when it chooses them), the HQs' absorptions and
    detachments (E5 C), breakdowns and assemblies, and the Allies' interdictions (E1), in
    that order (``Menu.orders()`` is the whole list)."""
    exploit = ask.what == "exploit"
    side = ask.side
    out = Menu()
    out.add([Pass(side)], Pass.kind)
    units = sorted((u for u in d.on_map(side) if g.ground(u)), key=lambda u: u.id)
    ctx = g.context(d, side)
    out.defer([Move.kind], _move_chunks(g, d, units, exploit, ctx))
    out.defer([Truck.kind], _truck_chunks(g, d, units, exploit, ctx))
    out.add(_hq_orders(g, d, side))
    if not exploit:
        out.add(_breakdown_orders(g, d, side))
        if side == ALLIES and d.interdicted < g.rules.interdictions.hexes:
            out.add([Interdict(side, p) for p in interdict_targets(g, d)], Interdict.kind)
    return out


def _move_chunks(g: EuropaRules, d: EuropaData, units: list[Unit], exploit: bool,
                 ctx: Context) -> Iterator[tuple[str, list[Order]]]:
    """The moves of each unit that may move, unit by unit in id order (E4)."""
    for u in units:
        if may_move(g, d, u, exploit):
            yield Move.kind, _orders(ctx, (u.id, None, exploit), destinations(g, d, u, exploit, ctx=ctx), Move, u.side, u.id)


def _truck_chunks(g: EuropaRules, d: EuropaData, units: list[Unit], exploit: bool,
                  ctx: Context) -> Iterator[tuple[str, list[Order]]]:
    """The truck moves (E1), truck by truck and cargo by cargo, in id order."""
    for t in units:
        if g.t(t).kind == "truck" and may_move(g, d, t, exploit):
            for cargo in _cargo(g, d, t):
                yield Truck.kind, _orders(ctx, (cargo.id, t.id, exploit), destinations(g, d, cargo, exploit, mover=t, ctx=ctx),
                                          Truck, t.side, t.id, cargo.id)


def _orders(ctx: Context, key: tuple[str, str | None, bool], dests: dict[str, tuple[str, ...]], kind: Any,
            *head: str) -> list[Order]:
    """A reach's orders (``kind(*head, path)``), by destination: made once for that reach and
    kept in the context, since a listing asks for every unit again after each move (a list
    handed out is never changed: a menu only reads its parts)."""
    kept = ctx.orders.get(key)
    if kept is not None and kept[0] is dests:
        return kept[1]
    out: list[Order] = [kind(*head, path) for _, path in sorted(dests.items())]
    ctx.orders[key] = (dests, out)
    return out


def _cargo(g: EuropaRules, d: EuropaData, truck: Unit) -> list[Unit]:
    """E1 trucks: infantry of up to 1 battalion-equivalent in the truck's hex that has not moved."""
    return [u for u in g.ground_at(d, truck.loc, truck.side)  # type: ignore[arg-type]
            if g.t(u).kind in INFANTRY and g.bn[u.type] <= 1 and u.id not in d.moved and u.id not in d.absorbed
            and u.id not in d.carried]


def _hq_orders(g: EuropaRules, d: EuropaData, side: str) -> list[Order]:
    out: list[Order] = []
    for hq in sorted((u for u in d.on_map(side) if g.t(u).hq is not None and u.id not in d.absorbed), key=lambda u: u.id):
        for u in absorbable(g, d, hq):
            out.append(Absorb(side, hq.id, u.id))
        for x in sorted(x for x, h in d.absorbed.items() if h == hq.id and x not in d.reorganised):
            out.append(Detach(side, hq.id, x))
    return out


def absorbable(g: EuropaRules, d: EuropaData, hq: Unit) -> list[Unit]:
    """E5 C: units in an HQ's hex it may absorb: German, British, French and Polish HQs their
    own formation's units; Norwegian HQs any friendly unit, a Norwegian one first; up to the
    HQ's limit (authored)."""
    spec = g.t(hq).hq
    assert spec is not None
    mine = [x for x, h in d.absorbed.items() if h == hq.id]
    if len(mine) >= spec.limit:
        return []
    out = []
    has_norwegian = any(d.units[x].nation == "norway" for x in mine)
    for u in g.ground_at(d, hq.loc, hq.side):  # type: ignore[arg-type]
        t = g.t(u)
        if u.id == hq.id or u.id in d.absorbed or t.hq is not None or t.kind in ("truck",):
            continue
        if spec.absorbs == "formation" and u.formation != hq.formation:
            continue
        if spec.absorbs == "any" and u.nation != "norway" and not has_norwegian:
            continue  # E5 C.2: at least one Norwegian unit before any Allied one
        out.append(u)
    return sorted(out, key=lambda u: u.id)


def _breakdown_orders(g: EuropaRules, d: EuropaData, side: str) -> list[Order]:
    out: list[Order] = []
    for reg, bns in sorted(g.regiments.items()):
        r = d.units[reg]
        if r.side != side or reg in d.reorganised:
            continue
        if r.loc is not None and reg not in d.absorbed and not r.has(DISRUPTED):
            out.append(Breakdown(side, reg))
        elif r.loc is None and may_assemble(g, d, reg):
            out.append(Assemble(side, reg))
    return out


def may_assemble(g: EuropaRules, d: EuropaData, reg: str) -> bool:
    """E1: a regiment reassembles when its three battalions stand together, none disrupted."""
    bns = [d.units[b] for b in g.regiments[reg]]
    locs = {b.loc for b in bns}
    return len(locs) == 1 and None not in locs and not any(b.has(DISRUPTED) or b.id in d.absorbed for b in bns)


def interdict_targets(g: EuropaRules, d: EuropaData) -> list[str]:
    """E1 naval interdiction: Axis-held ports in a sea zone the Allies can reach, not already blockaded."""
    return sorted(p for p in g.ports if d.owner.get(p) == GERMANS and g.spec.sea_zones[g.zone[p]].interdiction
                  and d.blockaded.get(p, 0) <= d.turn)


def do_move(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    assert ask is not None
    exploit = ask.what == "exploit"
    if isinstance(order, Pass):
        g.restack(d, events)  # E5 A: limits apply at the end of the phase
        events.append(E.Phase(type="phase_end", side=order.side, phase="exploitation" if exploit else "movement", rule="E3"))
        d.ask = None
        if exploit:
            from hexwar.games.europa.phases.turn import end_player_turn

            end_player_turn(g, d, events)
        else:
            g.to_phase(d, "air")
            d.air_side = ""
        return
    if isinstance(order, Move):
        _move(g, d, order, exploit, events)
    elif isinstance(order, Truck):
        _truck(g, d, order, exploit, events)
    elif isinstance(order, Absorb):
        hq = d.units.get(order.hq)
        if hq is None or hq.side != order.side or g.t(hq).hq is None or order.unit not in {u.id for u in absorbable(g, d, hq)}:
            raise IllegalOrder(f"{order.hq} cannot absorb {order.unit} now", "E5 C")
        d.absorbed[order.unit] = order.hq
        events.append(E.Hq(type="absorb", hq=order.hq, unit=order.unit, rule="E5 C"))
    elif isinstance(order, Detach):
        if d.absorbed.get(order.unit) != order.hq or d.units[order.hq].side != order.side:
            raise IllegalOrder(f"{order.hq} has not absorbed {order.unit}", "E5 C")
        if order.unit in d.reorganised:  # absorbed at the start, detached during, absorbed again at the end
            raise IllegalOrder(f"{order.unit} was detached from its HQ once this phase already", "E5 C")
        del d.absorbed[order.unit]
        d.reorganised.append(order.unit)
        events.append(E.Hq(type="detach", hq=order.hq, unit=order.unit, rule="E5 C"))
    elif isinstance(order, (Assemble, Breakdown)) and not exploit:
        _regiment(g, d, order, events)
    elif isinstance(order, Interdict) and not exploit:
        _interdict(g, d, order, dice, events)
    else:
        raise IllegalOrder(f"{order.text()} is not an order of the {'exploitation' if exploit else 'movement'} phase", "E3")


def _move(g: EuropaRules, d: EuropaData, order: Move, exploit: bool, events: list[Any]) -> None:
    u = d.units.get(order.unit)
    if u is None or u.side != order.side or not g.ground(u):
        raise IllegalOrder(f"{order.unit} is not a ground unit of {order.side}", "E4")
    if not may_move(g, d, u, exploit):
        raise IllegalOrder(f"{u.id} may not move now (moved already, absorbed, or {'not a combat/motorized unit' if exploit else 'no MP'})",
                           "E3 E" if exploit else "E4")
    dest = destinations(g, d, u, exploit)
    if not order.path or order.path[-1] not in dest or tuple(order.path) != dest[order.path[-1]]:
        raise IllegalOrder(f"{u.id} cannot move {'>'.join(order.path)} (E4: a cheapest legal path to a hex it can reach)", "E4")
    riders = [x for x, hq in d.absorbed.items() if hq == u.id]
    for x in [u.id] + riders:
        d.place(x, order.path[-1])
        d.moved.append(x)
    events.append(E.Move(type="move", unit=u.id, path=list(order.path), units=riders, rule="E3 E" if exploit else "E4"))


def _truck(g: EuropaRules, d: EuropaData, order: Truck, exploit: bool, events: list[Any]) -> None:
    t = d.units.get(order.truck)
    c = d.units.get(order.unit)
    if t is None or c is None or t.side != order.side or g.t(t).kind != "truck" or not may_move(g, d, t, exploit):
        raise IllegalOrder(f"{order.truck} is not a truck of {order.side} that may move now", "E1")
    if c.id not in {x.id for x in _cargo(g, d, t)}:
        raise IllegalOrder(f"{order.unit} is not infantry of up to one battalion-equivalent beside {t.id} that has not moved", "E1")
    dest = destinations(g, d, c, exploit, mover=t)
    if not order.path or order.path[-1] not in dest or tuple(order.path) != dest[order.path[-1]]:
        raise IllegalOrder(f"{t.id} cannot drive {'>'.join(order.path)}", "E4")
    for x in (t.id, c.id):
        d.place(x, order.path[-1])
        d.moved.append(x)
    d.carried[c.id] = t.id
    events.append(E.Move(type="truck", unit=t.id, path=list(order.path), units=[c.id], rule="E1"))


def _regiment(g: EuropaRules, d: EuropaData, order: Assemble | Breakdown, events: list[Any]) -> None:
    reg = order.regiment
    if reg not in g.regiments or d.units[reg].side != order.side:
        raise IllegalOrder(f"{reg} is not a regiment of {order.side} with a breakdown", "E1")
    r, bns = d.units[reg], g.regiments[reg]
    if reg in d.reorganised:  # authored: once a phase, or a side could break down and reassemble without end
        raise IllegalOrder(f"{reg} was broken down or reassembled once this phase already", "E1")
    if isinstance(order, Assemble):
        if r.loc is not None or not may_assemble(g, d, reg):
            raise IllegalOrder(f"{reg} reassembles only from its three battalions in one hex ({', '.join(bns)})", "E1")
        loc = d.units[bns[0]].loc
        moved = any(b in d.moved for b in bns)
        for b in bns:
            d.remove(b, "assembled")
        d.place(reg, loc)  # type: ignore[arg-type]
        if moved:
            d.moved.append(reg)
        events.append(E.Regiment(type="assemble", regiment=reg, battalions=list(bns), at=loc or "", rule="E1"))
        d.reorganised.append(reg)
    else:
        if r.loc is None or reg in d.absorbed or r.has(DISRUPTED):
            raise IllegalOrder(f"{reg} is not on the map to break down", "E1")
        loc = r.loc
        for x in [x for x, h in d.absorbed.items() if h == reg]:
            del d.absorbed[x]
        d.remove(reg, "broken_down")
        for b in bns:
            d.place(b, loc)
            if reg in d.moved:
                d.moved.append(b)
        events.append(E.Regiment(type="breakdown", regiment=reg, battalions=list(bns), at=loc, rule="E1"))
        d.reorganised.append(reg)


def interdiction_drm(g: EuropaRules, d: EuropaData) -> int:
    """The interdiction die's modifier this turn (authored: the Home Fleet's early days)."""
    early = g.rules.interdiction_drm
    return early.shift if d.turn <= early.until_turn else 0


def _interdict(g: EuropaRules, d: EuropaData, order: Interdict, dice: Dice, events: list[Any]) -> None:
    """E1 naval interdiction (authored table): blockade the port; on a 6, sink the German
    ships in it, whose sailors come ashore as E1's naval regiment on turn 2 (or the next turn)."""
    if order.side != ALLIES or order.port not in interdict_targets(g, d) or d.interdicted >= g.rules.interdictions.hexes:
        raise IllegalOrder(f"{order.port} is not an Axis-held port the Allies may interdict now", "E1")
    d.interdicted += 1
    drm = interdiction_drm(g, d)
    die = dice.roll(1, "interdiction").faces[0]
    res = band(g.rules.interdiction, max(1, min(6, die + drm)))
    sunk: list[str] = []
    if res in ("blockade", "sunk"):
        d.blockaded[order.port] = d.turn + 1  # through the next German player turn
    if res == "sunk":
        for u in list(d.at(order.port)):
            if u.side == GERMANS and g.t(u).kind == "ship":
                sunk.append(u.id)
                g.eliminate(d, u.id, events, "E1")
        if sunk and d.sailors_turn is None and d.in_pool("sailors", GERMANS):
            d.sailors_turn = 2 if d.turn == 1 else d.turn + 1
    events.append(E.Interdiction(type="interdict", port=order.port, die=die, drm=drm, result=res, sunk=sunk, rule="E1"))
