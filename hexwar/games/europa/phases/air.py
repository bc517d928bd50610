"""The air phase (E3 C: both players fly missions), as far as seed 004 allows: support
missions over a hex where a combat may come, turned back by AA fire (E1: AA fire rules
exist; the values are authored). The phasing player flies first."""

from __future__ import annotations


from typing import Any
from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order, Pass
import hexwar.games.europa.events as E
from hexwar.games.europa.context import EuropaRules
from hexwar.games.europa.orders import Mission
from hexwar.games.europa.state import Ask, EuropaData, other


def run(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    if not d.air_side:
        d.air_side = d.side
    while True:
        if targets_for(g, d, d.air_side):
            g.ask(d, d.air_side, "air")
            return
        if d.air_side == d.side:
            d.air_side = other(d.side)
            continue
        d.air_side = ""
        g.to_phase(d, "combat")
        return


def targets_for(g: EuropaRules, d: EuropaData, side: str) -> dict[str, list[str]]:
    """Air unit -> the hexes it may support: within its range (authored) of its airfield, where
    ``side``'s ground units meet the enemy's (in the hex or next to it); the phasing side over
    enemy hexes it may attack, the other side over its own hexes."""
    phasing = side == d.side
    mine, theirs = g.occupied(d, side), g.occupied(d, other(side))
    if phasing:
        hexes = {x for x in theirs if x in mine or any(n in mine for n in g.board.neighbours(x))}
    else:
        hexes = {x for x in mine if x in theirs or any(n in theirs for n in g.board.neighbours(x))}
    out: dict[str, list[str]] = {}
    for u in sorted(d.on_map(side), key=lambda u: u.id):
        t = g.t(u)
        if t.kind != "air" or u.id in d.flown or u.loc is None:
            continue
        ok = sorted(x for x in hexes if g.board.distance(u.loc, x) <= t.range
                    and abs(d.support.get(x, 0)) < g.rules.air_max.hexes)
        if ok:
            out[u.id] = ok
    return out


def air_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    out: list[Order] = [Pass(ask.side)]
    for uid, hexes in targets_for(g, d, ask.side).items():
        out += [Mission(ask.side, uid, x) for x in hexes]
    return out


def aa_units(g: EuropaRules, d: EuropaData, side: str, target: str) -> list[str]:
    """The enemy AA units that fire at ``side``'s mission over ``target``: every one in the hex
    or next to it, once each (authored)."""
    return sorted(u.id for n in [target, *g.board.neighbours(target)] for u in d.at(n) if u.side != side and g.t(u).aa > 0)


def do_air(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    assert ask is not None
    if isinstance(order, Pass):
        events.append(E.Phase(type="phase_end", side=order.side, phase="air", rule="E3 C"))
        d.ask = None
        if d.air_side == d.side:  # the phasing player has flown: the other side's turn (E3 C)
            d.air_side = other(d.side)
        else:
            d.air_side = ""
            g.to_phase(d, "combat")
        return
    if not isinstance(order, Mission) or order.target not in targets_for(g, d, ask.side).get(order.unit, []):
        raise IllegalOrder(f"{order.text()}: not an air unit of {ask.side} able to fly over that hex now", "E3 C")
    d.flown.append(order.unit)
    aa = aa_units(g, d, ask.side, order.target)
    rolls: list[int] = []
    hit = False
    for _ in aa:
        f = dice.roll(1, "AA fire").faces[0]
        rolls.append(f)
        hit = hit or f >= g.rules.aa_hit.roll
    if not hit:
        d.support[order.target] = d.support.get(order.target, 0) + (1 if ask.side == d.side else -1)
    events.append(E.AirMission(type="mission", unit=order.unit, target=order.target, aa=aa, rolls=rolls,
                               turned_back=hit, rule="E3 C"))
    d.ask = None
