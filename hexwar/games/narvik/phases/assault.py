"""Land assaults (15.0, 15.1) and contested landings (20.3.1): who may attack, supporting
artillery (16.1), ships (20.5) and air points (18.1.1), the combat roll on the differential
CRT, and the run of decisions a combat asks for until it ends (15.2, 15.3: see ``results``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order, subsets
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import LandAssault
from hexwar.games.narvik.phases import air, common, results
from hexwar.games.narvik.phases.supply import unsupplied_attacked
from hexwar.games.narvik.state import (
    ALLIES,
    GERMANS,
    HARSTAD,
    Combat,
    NarvikData,
    other,
)
from hexwar.rules import fatigue as fat
from hexwar.rules.assault import assault_sums, may_attack_into
from hexwar.rules.combat import resolve_differential
from hexwar.rules.fire import can_fire
from hexwar.rules.ledger import Line
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

ART_RANGE = 2  # 16.1


def attackers_for(g: NarvikRules, d: NarvikData, side: str, target: str) -> list[str]:
    """15.1: free land units adjacent to the target that may attack across the hexside."""
    out = []
    chart = g.tables.terrain
    free = common.free_units(g, d, side)
    for n in g.board.neighbours(target):
        for u in free.get(n, ()):
            if may_attack_into(g.board, chart, d.weather, g.t(u), n, target):  # 15.1
                out.append(u.id)
    return sorted(out)


def artillery(g: NarvikRules, d: NarvikData, side: str) -> list[Unit]:
    """16.1: ``side``'s artillery on the map (and aboard), once per order list."""
    return g.memo(("artillery", side), lambda: [u for u in d.side_units(side) if u.type in g.artillery_types])


def support_art(g: NarvikRules, d: NarvikData, side: str, target: str, exclude: set[str]) -> list[str]:
    """16.1: artillery in the hex or within 2 hexes with no ridge between."""
    out = []
    for u in artillery(g, d, side):
        if u.id in exclude or u.has(ABOARD) or u.loc in (None, HARSTAD):
            continue
        if u.loc == target or can_fire(g.board, u.loc, target, ART_RANGE):
            out.append(u.id)
    return sorted(out)


def assault_orders(g: NarvikRules, d: NarvikData, side: str) -> list[Order]:
    """15.1: the attacker picks any of the eligible adjacent units (one at least not artillery),
    any of the supporting artillery and ships (16.1, 20.5), and the German any part of his AP
    (18.1.3: he may share them among several attacks). Offered as a set with a cap (every
    subset of up to four units, each unit set with no support and with all of it, every
    support subset with all the units; every AP amount with all the units); any other legal
    choice is accepted when typed (``accepts``)."""
    out: list[Order] = []
    ap = d.tracks["ap"] if side == GERMANS else 0
    free = common.free_units(g, d, side)  # only a hex next to a free unit has attackers_for
    nbrs = g.board.neighbours
    near = {n for loc in free for n in nbrs(loc)}
    for target in sorted(g.occupied(d, other(side)) & near):
        units = attackers_for(g, d, side, target)
        sets = [us for us in subsets(units) if any(not g.t(d.units[x]).is_artillery for x in us)]
        if not sets:
            continue
        everyone = tuple(units)
        art = support_art(g, d, side, target, set(units)) if side == ALLIES else []
        ships = common.support_ships(g, d, target) if side == ALLIES else []
        for us in sets:
            out.append(LandAssault(side, target, us))
            if art or ships:
                out.append(LandAssault(side, target, us, tuple(art), tuple(ships)))
            if ap:
                out.append(LandAssault(side, target, us, ap=ap))
        support = [(x, x in art) for x in art + ships]  # (unit, is a battery)
        for sup in subsets(support, cap=7)[:-1] if len(support) > 1 else []:
            out.append(LandAssault(side, target, everyone, tuple(x for x, is_art in sup if is_art),
                                   tuple(x for x, is_art in sup if not is_art)))
        out += [LandAssault(side, target, everyone, ap=k) for k in range(1, ap)]
    return out


def land_assault(g: NarvikRules, d: NarvikData, order: LandAssault, dice: Dice, events: list[Any]) -> None:
    """15.1: check the assault, then fight it."""
    side, target = order.side, order.target
    enemy = other(side)
    if not g.land_units_at(d, target, enemy, real=False):
        raise IllegalOrder(f"{target} holds no enemy land units", "15.1")
    eligible = set(attackers_for(g, d, side, target))
    for names in (order.units, order.artillery, order.ships):
        if len(set(names)) != len(names):
            raise IllegalOrder("a unit is named twice", "15.1")
    bad = [x for x in order.units if x not in eligible]
    tired = [d.units[x] for x in bad if x in d.units and d.units[x].side == side and not g.may_act(d, d.units[x])]
    if tired:  # why this one may not act at all (10.1 its fatigue limit, 11.1 face down ...)
        raise IllegalOrder(*common.why_not_act(g, d, tired[0]))
    if bad or not order.units:
        raise IllegalOrder(f"not eligible to assault {target}: {', '.join(bad) or 'no units'} (next to it, and able to "
                           "attack across the hexside)", "15.1")
    if all(g.t(d.units[x]).is_artillery for x in order.units):
        raise IllegalOrder("artillery cannot assault alone", "16.1")
    if side == GERMANS and (order.artillery or order.ships):
        raise IllegalOrder("the Germans have no artillery or ships here", "27.0")
    if side == ALLIES and order.ap:
        raise IllegalOrder("the Allies never have air points", "18.2")
    if order.ap < 0 or order.ap > d.tracks["ap"]:
        raise IllegalOrder(f"only {d.tracks['ap']} AP available", "18.1")
    bad_art = [a for a in order.artillery if a not in support_art(g, d, side, target, set(order.units))]
    bad_ships = [s for s in order.ships if s not in common.support_ships(g, d, target)]
    if bad_art or bad_ships:
        raise IllegalOrder(f"cannot support: {', '.join(bad_art + bad_ships)} (range 2, ridges)", "16.1, 20.5")
    fight(g, d, dice, events, side, target, list(order.units), list(order.artillery), list(order.ships),
          order.ap, amphibious=False)


def reveal_hex(g: NarvikRules, d: NarvikData, loc: str, events: list[Any]) -> None:
    """11.2: units attacked are revealed; a revealed dummy is eliminated at once."""
    for u in d.at(loc):
        if u.concealed:
            u.concealed = False
            if g.is_dummy(u):
                d.remove(u.id, "eliminated")
                events.append(E.DummyRemoved(type="dummy_removed", unit=u.id, rule="11.2"))
            else:
                events.append(E.Revealed(type="revealed", unit=u.id, rule="11.2"))


def fight(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any], side: str, target: str, attackers: list[str],
          art: list[str], ships: list[str], ap: int, amphibious: bool, from_hex: str | None = None,
          landing_ships: tuple[str, ...] = ()) -> None:
    """Resolve an assault or contested landing on the CRT (15.1) and start taking its results."""
    enemy = other(side)
    reveal_hex(g, d, target, events)
    defenders = [u.id for u in g.land_units_at(d, target, enemy)]
    if not defenders:
        events.append(E.AssaultEmpty(type="assault_empty", target=target, rule="11.2"))
        if amphibious:
            common.land_units(g, d, landing_ships, target, events, contested=True)
        return
    # 15.1 step 1, 19.2 (A21): an unsupplied Allied defender takes +6 FP first
    if enemy == ALLIES:
        for x in unsupplied_attacked(g, d, [d.units[x] for x in defenders]):
            ch = fat.add_fatigue(d, g.tables, x, "unsupplied_attacked")
            events.append(E.Fatigue(type="fatigue", unit=x, fp=ch.applied, cause="unsupplied_attacked", rule="19.2"))
        # 16.1: Allied artillery supports the defence (declared by the Allies; always worth it)
        art = support_art(g, d, ALLIES, target, set(defenders))
    att_support: list[Line] = []
    def_support: list[Line] = []
    for a in art:
        line = Line(f"{a} artillery support", g.t(d.units[a]).strength, "16.1")
        (att_support if side == ALLIES else def_support).append(line)
    for s in ships:
        att_support.append(Line(f"{s} naval support", g.t(d.units[s]).bombard, "20.5"))
    if ap:
        roll = dice.roll(2, "air support")
        inf, _ = g.air.result(ap, roll.total, air.drm(g, d, target))
        d.tracks["ap"] -= ap
        att_support.append(Line(f"air support {ap} AP, roll {roll.total}", inf, "18.1.1"))
    drms: list[Line] = []
    if "narvik" in d.bad:
        drms.append(Line("bad weather at Narvik", g.tables.crt.drm("bad_weather_narvik"), "7.0"))  # type: ignore[union-attr]
    sums = assault_sums(d, g.tables, [a for a in attackers if d.units[a].loc], defenders,
                        att_support, def_support, drms, halve_attack=amphibious, cites=g.cites.assault)
    res = resolve_differential(g.tables.crt, sums.attack, sums.defence, sums.drms, dice, g.cites.combat)  # type: ignore[arg-type]
    ev = E.Assault(type="assault", target=target, attackers=attackers, defenders=defenders,
                   artillery=art, ships=ships, ap=ap, amphibious=amphibious,
                   ad=sums.differential, drm=sums.drm, die=res.die, column=res.column,
                   result=f"{res.attacker}/{res.defender}", ledger=res.ledger.to_dict(), rule="15.1")
    events.append(ev)
    d.last_combat = dict(ev)
    adjacent_art = any(g.t(d.units[a]).is_artillery for a in attackers)  # 29.0: art joining from an adjacent hex
    if side == ALLIES and (art or ships or adjacent_art):  # 29.0 (A37): an attack on a position
        key = "attack_on_narvik" if target == g.narvik else "attack_on_position"
        g.award(d, key, f"naval/artillery attack on {target}", "29.0", events)
    d.combat = Combat(side=side, target=target, attackers=list(attackers), defenders=list(defenders),
                      amphibious=amphibious, from_hex=from_hex, ships=list(landing_ships), support=list(art),
                      points={enemy: res.defender, side: res.attacker}, retreat={enemy: 0, side: 0},
                      stage=enemy)
    results.step(g, d, events)

