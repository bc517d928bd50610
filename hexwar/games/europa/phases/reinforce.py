"""The set-up and the reinforcement phase (E3 A): disruption recovery, arrivals by sea and
air, E1's mobilisation centres, artillery stores and stranded sailors, supply states."""

from __future__ import annotations


from typing import Any
from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.core.state import Unit
import hexwar.games.europa.events as E
from hexwar.games.europa.context import EuropaRules
from hexwar.games.europa.orders import Form, Land
from hexwar.games.europa.state import ALLIES, DISRUPTED, GERMANS, Ask, EuropaData

DELAYED = "delayed"  # an arrival that could not land: it comes next turn


def mobilised_ids(g: EuropaRules) -> list[tuple[str, str, str, int, bool]]:
    """Return (id, type, hex, turn, from a store) of every unit the mobilisation centres and
    artillery stores raise (E1)."""
    out = []
    for name, entries in g.spec.mobilisation.items():
        for e in entries:
            out += [(f"{name}-{e.turn}{'abcdefgh'[k]}", e.type, g.hex(name), e.turn, False) for k in range(e.count)]
    for name, s in g.spec.stores.items():
        out += [(f"{name}-art{e.turn}", e.type, g.hex(name), e.turn, True) for e in s.artillery]
    return out


def setup(g: EuropaRules, d: EuropaData) -> None:
    """Place the 9 April set-up; everything else waits in its pool (E1 breakdowns: the German
    regiments start broken down unless the switch says otherwise)."""
    for u in g.spec.units:
        d.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name)
        if u.id in g.at:
            d.place(u.id, g.at[u.id])
        elif u.breaks_into:
            d.remove(u.id, "broken_down")
        elif u.sailors:
            d.remove(u.id, "sailors")
    for uid, typ, *_ in mobilised_ids(g):
        d.units[uid] = Unit(uid, typ, ALLIES, "norway", "mobilised", uid)
    for name, s in g.spec.stores.items():
        uid = f"{name}-formed"
        d.units[uid] = Unit(uid, s.formed, ALLIES, "norway", "formed", f"artillery-formed battalion ({name})")
    if g.switches.assembled_start:
        for reg, bns in g.regiments.items():
            locs = {d.units[b].loc for b in bns}
            if len(locs) == 1 and None not in locs:
                d.place(reg, locs.pop())  # type: ignore[arg-type]
                for b in bns:
                    d.remove(b, "assembled")
    d.owner = {h: ALLIES for h in g.key_hexes}  # E4: at the start every hex of Norway is Norway's
    for p in g.spec.german_start:
        d.owner[g.hex(p)] = GERMANS
    d.vp = {GERMANS: 0, ALLIES: 0}


def run(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    """E3 A, step by step: start of the player turn, store battalions to form, landings."""
    if d.step == 0:
        _start(g, d, events)
        d.step = 1
    if d.step == 1:
        while d.forming:
            options = form_hexes(g, d, d.forming[0])
            if options:
                g.ask(d, ALLIES, "store", hex=d.forming[0], unit=g.store_unit[d.forming[0]], options=tuple(options))
                return
            uid = g.store_unit[d.forming.pop(0)]
            d.remove(uid, "lost")
            events.append(E.Lost(type="lost", unit=uid, at="", cause="no hex within 3 of the captured store", rule="E1"))
        d.step = 2
    if d.step == 2:
        if d.landing:
            uid = d.landing[0]
            g.ask(d, ALLIES, "land", unit=uid, options=tuple(land_hexes(g, d, d.units[uid])))
            return
        d.out_of_supply = sorted(uid for uid, ok in g.supplied(d, d.side, g.rules.general_supply.hexes).items() if not ok)
        if d.out_of_supply:
            events.append(E.Supply(type="supply", side=d.side, out=list(d.out_of_supply), rule="E1"))
        g.to_phase(d, "movement")


def _start(g: EuropaRules, d: EuropaData, events: list[Any]) -> None:
    side = d.side
    events.append(E.PlayerTurn(type="player_turn", turn=d.turn, side=side, date=g.date(d.turn), rule="E3"))
    d.moved, d.attacked, d.fought, d.flown, d.support, d.interdicted, d.carried = [], [], [], [], {}, 0, {}
    d.reorganised = []
    for u in d.on_map(side):  # authored (E1 [nd]): disruption lasts until the side's next player turn
        if u.has(DISRUPTED):
            u.flags.remove(DISRUPTED)
            events.append(E.Flag(type="disrupted", unit=u.id, at=u.loc or "", on=False, rule="E1"))
    _rebase(g, d, side, events)
    if side == GERMANS and d.sailors_turn == d.turn:
        _sailors(g, d, events)
    for uid in sorted(x.id for x in d.in_pool("reinforcements", side)):
        u = d.units[uid]
        e = g.oob.get(uid)
        if e is None or not (e.turn == d.turn or u.has(DELAYED)):
            continue
        _arrive(g, d, u, events)
    if side == ALLIES:
        _mobilise(g, d, events)


def _rebase(g: EuropaRules, d: EuropaData, side: str, events: list[Any]) -> None:
    """An air unit whose airfield the enemy took flies to the nearest friendly airfield."""
    own = sorted(h for h in g.airfields if d.owner.get(h) == side)
    for u in list(d.on_map(side)):
        if g.t(u).kind != "air" or u.loc in own:
            continue
        if not own:
            g.eliminate(d, u.id, events, "E3 C")
            continue
        to = min(own, key=lambda h: (g.board.distance(u.loc, h), h))  # type: ignore[arg-type]
        d.place(u.id, to)
        events.append(E.Arrive(type="rebase", unit=u.id, at=to, rule="E3 C"))


def _arrive(g: EuropaRules, d: EuropaData, u: Unit, events: list[Any]) -> None:
    e = g.oob[u.id]
    at = g.arrive_at[u.id]
    enemy = GERMANS if u.side == ALLIES else ALLIES
    air = g.t(u).kind == "air"
    if air:
        fields = [h for h in [at] + sorted(g.airfields) if d.owner.get(h) == u.side and not g.ground_at(d, h, enemy)]
        spot = fields[0] if fields else None
    elif u.side == GERMANS:
        spots = [h for h in (at, g.german_base) if d.owner.get(h) == GERMANS and not g.ground_at(d, h, ALLIES)
                 and (e.by == "air" or d.blockaded.get(h, 0) < d.turn)]
        spot = spots[0] if spots else None
    else:
        spot = at if d.owner.get(at) == ALLIES and not g.ground_at(d, at, GERMANS) else None
        if spot is None:
            d.landing.append(u.id)  # the Allied player chooses another port, or waits
            return
    if spot is None:
        if not u.has(DELAYED):
            u.flags.append(DELAYED)
        events.append(E.Lost(type="delayed", unit=u.id, at=at, cause="no friendly port or airfield to arrive at", rule="E3 A"))
        return
    if u.has(DELAYED):
        u.flags.remove(DELAYED)
    d.place(u.id, spot)
    events.append(E.Arrive(type="arrive", unit=u.id, at=spot, rule="E3 A"))


def _sailors(g: EuropaRules, d: EuropaData, events: list[Any]) -> None:
    """E1: the sunk flotilla's sailors come ashore as a naval regiment HQ and 4 battalions."""
    port = g.flotilla_port
    ok = d.owner.get(port) == GERMANS
    for u in sorted(d.in_pool("sailors", GERMANS), key=lambda u: u.id):
        if ok:
            d.place(u.id, port)
            events.append(E.Arrive(type="arrive", unit=u.id, at=port, rule="E1"))
        else:
            d.remove(u.id, "lost")
            events.append(E.Lost(type="lost", unit=u.id, at=port, cause="the port is no longer German", rule="E1"))


def _mobilise(g: EuropaRules, d: EuropaData, events: list[Any]) -> None:
    """E1: each centre raises its troops; a captured centre loses that turn's troops. The
    artillery stores deliver their artillery unless captured."""
    for uid, _typ, at, turn, store in mobilised_ids(g):
        if turn != d.turn or d.units[uid].pool != "reinforcements":
            continue
        held = d.owner.get(at) == ALLIES and not g.ground_at(d, at, GERMANS) and not (store and at in d.stores_taken)
        if held:
            d.place(uid, at)
            events.append(E.Arrive(type="mobilised", unit=uid, at=at, rule="E1"))
        else:
            d.remove(uid, "lost")
            why = "the store was captured" if store else "the centre is in German hands"
            events.append(E.Lost(type="lost", unit=uid, at=at, cause=why, rule="E1"))


def land_hexes(g: EuropaRules, d: EuropaData, u: Unit) -> list[str]:
    """Where an Allied arrival may land instead: a port the Allies own in a zone they can sail
    (not the Skagerrak), or with landing craft in play any such coast hex (E1), free of Germans."""
    lc = any(g.t(x).kind == "landing_craft" for x in d.on_map(ALLIES))
    out = []
    for h in sorted(g.zone_all):
        zone = g.spec.sea_zones[g.zone_all[h]]
        if not zone.interdiction or g.ground_at(d, h, GERMANS) or h in g.sweden:
            continue
        if (h in g.ports and d.owner.get(h) == ALLIES) or (lc and g.board.terrain(h) == "coast"):
            out.append(h)
    return out


def form_hexes(g: EuropaRules, d: EuropaData, store: str) -> list[str]:
    """E1: the hexes within 3 of a captured store where its artillery-formed battalion may form."""
    return sorted(h for h in g.norway if g.board.distance(h, store) <= 3 and not g.ground_at(d, h, GERMANS)
                  and g.chart.terrain_class(g.board.terrain(h)) not in (None, "sea", "glacier", "lake"))


def land_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    return [Pass(ALLIES)] + [Land(ALLIES, ask.unit, h) for h in ask.options]


def do_land(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    assert ask is not None
    u = d.units[ask.unit]
    if isinstance(order, Pass):
        if not u.has(DELAYED):
            u.flags.append(DELAYED)
        events.append(E.Lost(type="delayed", unit=u.id, at="", cause="waits a turn for a port", rule="E3 A"))
    elif isinstance(order, Land) and order.unit == u.id and order.at in ask.options:
        if u.has(DELAYED):
            u.flags.remove(DELAYED)
        d.place(u.id, order.at)
        events.append(E.Arrive(type="arrive", unit=u.id, at=order.at, rule="E1"))
    else:
        raise IllegalOrder(f"{ask.unit} lands at one of {', '.join(ask.options) or 'no hex'} or waits (pass)", "E1")
    d.landing.pop(0)
    d.ask = None


def store_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    return [Form(ALLIES, ask.unit, h) for h in ask.options]


def do_store(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    assert ask is not None
    if not (isinstance(order, Form) and order.unit == ask.unit and order.at in ask.options):
        raise IllegalOrder(f"the artillery-formed battalion forms within 3 hexes of the store {ask.hex}", "E1")
    d.place(ask.unit, order.at)
    events.append(E.Arrive(type="formed", unit=ask.unit, at=order.at, rule="E1"))
    d.forming.pop(0)
    d.ask = None
