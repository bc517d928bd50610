"""Fire without assault: Allied artillery interdiction (16.1.1) and naval interdiction, the
bombardment of a hex by one ship (20.5). Both give the German VP (29.0, A37)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import (
    ArtilleryInterdiction,
    Bombard,
    ChooseUnits,
    expect,
)
from hexwar.games.narvik.phases import common
from hexwar.games.narvik.phases.assault import (
    ART_RANGE,
    artillery,
    reveal_hex,
    support_art,
)
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Ask, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules.fire import can_fire, fire_zone
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules


def interdicting_art(g: NarvikRules, d: NarvikData, target: str, sup: dict[str, bool] | None = None) -> list[str]:
    """16.1.1: supplied Allied artillery, not fired this turn, within 2 hexes, no ridge between."""
    if sup is None:
        sup = g.supplied(d, [u for u in d.on_map(ALLIES) if g.t(u).is_artillery])
    return [a for a in support_art(g, d, ALLIES, target, set())
            if "fired" not in d.units[a].flags and sup.get(a, False) and d.units[a].loc != target]


def art_orders(g: NarvikRules, d: NarvikData) -> list[Order]:
    """16.1.1: one interdiction of each German-held hex by all the artillery that may fire on
    it (interdicting_art's terms, with the artillery free to fire found once)."""
    out: list[Order] = []
    targets = g.occupied(d, GERMANS)
    if not targets:
        return out
    arts = [u for u in artillery(g, d, ALLIES) if not u.has(ABOARD) and u.loc not in (None, HARSTAD) and "fired" not in u.flags]
    if not arts:
        return out  # no line of supply is traced for nothing to fire at or nothing to fire (19.3)
    sup = g.supplied(d, arts)
    # each free gun with the German-held hexes it reaches (can_fire's answers, kept per hex)
    free = sorted((u.id, fire_zone(g.board, u.loc, ART_RANGE) & targets) for u in arts if sup[u.id] and u.loc is not None)
    for target in sorted(frozenset().union(*(zone for _, zone in free))):
        out.append(ArtilleryInterdiction(ALLIES, tuple(a for a, zone in free if target in zone), target))
    return out


def art_interdiction(g: NarvikRules, d: NarvikData, order: ArtilleryInterdiction, dice: Dice, events: list[Any]) -> None:
    """16.1.1: the artillery's strength in FP x2 on one German unit of the hex (the Allies pick)."""
    if not order.artillery or order.target not in g.occupied(d, GERMANS) or not (
        set(order.artillery) <= set(interdicting_art(g, d, order.target))
    ):
        raise IllegalOrder("artillery must be supplied, unfired, and within 2 hexes of the target with no ridge between", "16.1.1")
    strength = sum(g.t(d.units[a]).strength for a in order.artillery)
    for a in order.artillery:
        d.units[a].flags.append("fired")
    key = "attack_on_narvik" if order.target == g.narvik else "attack_on_position"
    g.award(d, key, f"artillery attack on {order.target}", "29.0", events)
    reveal_hex(g, d, order.target, events)  # A15
    real = [u.id for u in g.land_units_at(d, order.target, GERMANS)]
    fp = strength
    events.append(E.ArtInterdiction(type="art_interdiction", artillery=list(order.artillery), hex=order.target, rule="16.1.1"))
    if not real:
        return
    if len(real) > 1:
        g.ask(d, ALLIES, "target", options=tuple(real), fp=fp)
        return
    interdict_unit(g, d, real[0], fp, events)


def target_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return [ChooseUnits(ask.side, (u,)) for u in ask.options]


def do_target(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, ChooseUnits)
    assert isinstance(order, ChooseUnits) and d.ask is not None
    ask = d.ask
    d.ask = None
    if len(order.units) != 1 or order.units[0] not in ask.options:
        raise IllegalOrder(f"choose one of {', '.join(ask.options)}", "16.1.1")
    interdict_unit(g, d, order.units[0], ask.fp, events)
    d.completed = True
    g.after_action(d, ALLIES, True, events, reaction=False)


def interdict_unit(g: NarvikRules, d: NarvikData, uid: str, strength: int, events: list[Any]) -> None:
    ch = fat.add_fatigue(d, g.tables, uid, "art_interdiction_per_strength", times=strength)
    events.append(E.Fatigue(type="fatigue", unit=uid, fp=ch.applied, cause="artillery interdiction", rule="16.1.1"))


def can_bombard(g: NarvikRules, d: NarvikData, s: Unit, target: str) -> bool:
    """20.5: an unloaded ship with a bombardment value, not fired this turn, in range, no ridge."""
    t = g.t(s)
    if d.cargo.get(s.id) is not None or t.bombard <= 0 or "fired" in s.flags or s.loc in (None, HARSTAD):
        return False
    return can_fire(g.board, s.loc, target, t.bombard_range, adjacent_exception=False)


def bombard(g: NarvikRules, d: NarvikData, order: Bombard, dice: Dice, events: list[Any]) -> Any:
    """20.5: one ship fires on every German unit in a hex, 2 FP per bombardment point."""
    s = common.ship(g, d, order.ship)
    if order.target not in g.occupied(d, GERMANS) or not can_bombard(g, d, s, order.target):
        raise IllegalOrder(f"{order.ship} cannot bombard {order.target} (loaded, fired, out of range or behind a ridge)", "20.5")
    s.flags.append("fired")
    key = "attack_on_narvik" if order.target == g.narvik else "attack_on_position"
    g.award(d, key, f"naval attack on {order.target}", "29.0", events)
    reveal_hex(g, d, order.target, events)
    strength = g.t(s).bombard
    for u in g.land_units_at(d, order.target, GERMANS):
        ch = fat.add_fatigue(d, g.tables, u.id, "naval_interdiction_per_strength", times=strength)
        events.append(E.Fatigue(type="fatigue", unit=u.id, fp=ch.applied, cause="naval interdiction", rule="20.5"))
