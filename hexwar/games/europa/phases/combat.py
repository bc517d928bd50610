"""The combat phase (E3 D): the phasing player must attack the enemy units sharing a hex with
his own, and may attack any hex next to his units; the odds CRT with AD and DD (E1); E1's
Norwegian retreat before combat (turn 1 by die, later a limited option); retreats and
advances. Strengths, terrain shifts, supply and disruption effects are authored ([nd])."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.rules.orders import Advance, Retreat
from hexwar.core.state import Unit
import hexwar.games.europa.events as E
from hexwar.games.europa.context import EuropaRules
from hexwar.games.europa.orders import Attack, Evade
from hexwar.games.europa.schemas import band
from hexwar.games.europa.state import (
    ALLIES,
    DISRUPTED,
    OVERSTACKED,
    Ask,
    Combat,
    EuropaData,
    other,
)
from hexwar.rules.combat import odds_column_index, odds_outcomes
from hexwar.rules.ledger import Ledger
from hexwar.rules.movement import step_cost

MAX_OFFERED = 8  # attacks offered per hex beyond "everyone" (any other subset is accepted: ``accepts``)


def run(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    if d.combat is not None:
        proceed(g, d, dice, events)
    else:
        g.ask(d, d.side, "combat")


# --- declaring attacks ------------------------------------------------------------------------


def may_attack_across(g: EuropaRules, a: str, b: str) -> bool:
    """Not across water (fjord, lake, all-sea hexsides): an attack crosses land or stays in the hex."""
    return a == b or not g.board.border(a, b).is_water


def eligible(g: EuropaRules, d: EuropaData, side: str, target: str) -> list[Unit]:
    """Units of ``side`` that may attack ``target``: in it or next to it across land, with an
    attack strength now, not yet in an attack this phase."""
    out = []
    for loc in [target, *g.board.neighbours(target)]:
        if loc != target and not may_attack_across(g, loc, target):
            continue
        for u in g.ground_at(d, loc, side):
            if u.id not in d.fought and g.attack(d, u) > 0:
                out.append(u)
    return sorted(out, key=lambda u: u.id)


def must(g: EuropaRules, d: EuropaData, side: str) -> dict[str, list[str]]:
    """E3 D: hexes where ``side``'s units share the hex with enemy ground units and have not
    attacked them yet -> the units that must attack."""
    out: dict[str, list[str]] = {}
    enemy = g.occupied(d, other(side))
    for x in sorted(enemy & g.occupied(d, side)):
        if x in d.attacked:
            continue
        us = [u.id for u in g.ground_at(d, x, side) if u.id not in d.fought and g.attack(d, u) > 0]
        if us:
            out[x] = sorted(us)
    return out


def targets(g: EuropaRules, d: EuropaData, side: str) -> dict[str, list[Unit]]:
    return {x: units for x in sorted(g.occupied(d, other(side)) - set(d.attacked))
            if (units := eligible(g, d, side, x))}


def combat_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    side = ask.side
    musts = must(g, d, side)
    out: list[Order] = [] if musts else [Pass(side)]
    for x, units in targets(g, d, side).items():
        ids = [u.id for u in units]
        forced = [u.id for u in units if u.loc == x]
        free = [i for i in ids if i not in forced]
        offered = {tuple(ids)}
        if forced:
            offered.add(tuple(forced))
        for k in (1, 2):
            for combo in combinations(free, k):
                if len(offered) >= MAX_OFFERED:
                    break
                offered.add(tuple(sorted(forced + list(combo))))
        out += [Attack(side, x, o) for o in sorted(offered)]
    return out


def check_attack(g: EuropaRules, d: EuropaData, order: Attack) -> None:
    """Refuse an attack the rules do not allow, saying why (nothing changes)."""
    if d.ask is None or d.ask.what != "combat" or order.side != d.ask.side:
        raise IllegalOrder("attacks are declared in the phasing player's combat phase", "E3 D")
    if order.target in d.attacked:
        raise IllegalOrder(f"{order.target} was attacked already this phase", "E3 D")
    if not g.ground_at(d, order.target, other(order.side)):
        raise IllegalOrder(f"{order.target} holds no enemy ground units", "E3 D")
    ok = {u.id for u in eligible(g, d, order.side, order.target)}
    bad = [x for x in order.units if x not in ok]
    if bad or not order.units or len(set(order.units)) != len(order.units):
        raise IllegalOrder(f"not able to attack {order.target}: {', '.join(bad) or 'no units'}", "E3 D")
    missing = [u.id for u in g.ground_at(d, order.target, order.side) if u.id in ok and u.id not in order.units]
    if missing:
        raise IllegalOrder(f"{', '.join(missing)} share {order.target} with the enemy and must attack it", "E3 D")


def accepts(g: EuropaRules, d: EuropaData, order: Order) -> bool:
    if not isinstance(order, Attack):
        return False
    try:
        check_attack(g, d, order)
    except IllegalOrder:
        return False
    return True


def do_combat(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(order, Pass):
        left = must(g, d, order.side)
        if left:
            x = next(iter(left))
            raise IllegalOrder(f"{', '.join(left[x])} share {x} with the enemy and must attack it first", "E3 D")
        events.append(E.Phase(type="phase_end", side=order.side, phase="combat", rule="E3 D"))
        d.ask = None
        g.to_phase(d, "exploitation")
        return
    if not isinstance(order, Attack):
        raise IllegalOrder(f"{order.text()} is not an order of the combat phase", "E3 D")
    check_attack(g, d, order)
    defenders = sorted(u.id for u in g.ground_at(d, order.target, other(order.side)))
    d.attacked.append(order.target)
    d.fought += list(order.units)
    d.combat = Combat(order.side, order.target, list(order.units), defenders)
    d.ask = None
    # E1: Norwegian defenders may (turn 1: must, by die) retreat before combat
    if all(d.units[x].nation == "norway" for x in defenders) and _can_evade(g, d, d.combat):
        if d.turn == 1:
            die = dice.roll(1, "retreat before combat").faces[0]
            res = band(g.rules.turn1_retreat, die)
            events.append(E.Evasion(type="evade", target=order.target, choice="turn 1", die=die, result=res, rule="E1"))
            if res == "retreat":
                _evade(d)
        else:
            g.ask(d, ALLIES, "evade", hex=order.target)
            return
    proceed(g, d, dice, events)


def _can_evade(g: EuropaRules, d: EuropaData, c: Combat) -> bool:
    return all(retreat_hexes(g, d, d.units[x], c) for x in c.defenders)


def _evade(d: EuropaData) -> None:
    c = d.combat
    assert c is not None
    c.evaded = True
    c.result = "evaded"
    c.retreating = [x for x in c.defenders if x not in d.absorbed]  # absorbed units go with their HQ (E5 C)
    c.advance = [x for x in c.attackers if d.units[x].loc != c.target and x not in d.absorbed]


def evade_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    return [Evade(ALLIES, True), Evade(ALLIES, False)]


def do_evade(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    """E1 limited option to retreat (later turns): authored: on 1-3 the defenders slip away
    before combat; on 4-6 they are caught and the attack gains a column. ``free_retreat``:
    the option needs no die."""
    if not isinstance(order, Evade):
        raise IllegalOrder("the defenders evade (retreat before combat) or stand", "E1")
    c = d.combat
    assert c is not None
    d.ask = None
    if order.go:
        if g.switches.free_retreat:
            events.append(E.Evasion(type="evade", target=c.target, choice="evade", die=0, result="retreat", rule="E1"))
            _evade(d)
        else:
            die = dice.roll(1, "retreat option").faces[0]
            res = band(g.rules.retreat_option, die)
            events.append(E.Evasion(type="evade", target=c.target, choice="evade", die=die, result=res, rule="E1"))
            if res == "retreat":
                _evade(d)
            else:
                c.shift += 1
    else:
        events.append(E.Evasion(type="evade", target=c.target, choice="stand", die=0, result="stand", rule="E1"))
    proceed(g, d, dice, events)


# --- resolving --------------------------------------------------------------------------------


def strengths(g: EuropaRules, d: EuropaData, c: Combat,
              supplied: dict[str, bool] | None = None) -> tuple[Fraction, Fraction, int, Ledger]:
    """Return (attack, defence, column shift, ledger) of a combat, every figure with its rule
    (``supplied``: the attacker's attack supply, when the caller has it already)."""
    led = Ledger(f"combat at {c.target} (odds CRT, E1)")
    if supplied is None:
        supplied = g.attack_supplied(d, c.side)
    att = Fraction(0)
    for x in c.attackers:
        u = d.units[x]
        a = g.attack(d, u)
        why = []
        if not supplied.get(x, False) or x in d.out_of_supply:
            a /= 2
            why.append("no attack supply: halved (E1)")
        led.add(f"attack: {x} {g.t(u).attack}" + (f", {'; '.join(why)}" if why else ""), a, "E1")
        att += a
    dfn = Fraction(0)
    for x in c.defenders:
        u = d.units[x]
        v = g.defence(u)
        note, rule = (" overstacked: 0", "E5 B") if u.has(OVERSTACKED) else (" disrupted: halved", "E1") if u.has(DISRUPTED) else ("", "E1")
        led.add(f"defence: {x} {g.t(u).defence}{note}", v, rule)
        dfn += v
    shift = 0
    tclass = g.chart.terrain_class(g.board.terrain(c.target)) or ""
    terr = g.board.terrain(c.target)
    ts = g.rules.terrain_shifts.get(terr) or g.rules.terrain_shifts.get(tclass)
    if ts is not None:
        shift += ts.shift
        led.add(f"defender's terrain: {terr}", ts.shift, "E6 (TEC, authored)")
    locs = {d.units[x].loc for x in c.attackers}
    if c.target not in locs and all("river" in g.board.border(loc, c.target).features for loc in locs):  # type: ignore[arg-type]
        shift += g.rules.river_shift.shift
        led.add("every attacker across a river hexside", g.rules.river_shift.shift, "E6 (TEC, authored)")
    air = d.support.get(c.target, 0)
    if air:
        cap = g.rules.air_max.hexes
        air = max(-cap, min(cap, air)) * g.rules.air_shift.shift
        shift += air
        led.add("air support missions (E3 C)", air, "E3 C")
    if c.shift:
        shift += c.shift
        led.add("defenders caught retreating (E1)", c.shift, "E1")
    return att, dfn, shift, led


def odds(g: EuropaRules, d: EuropaData, c: Combat, supplied: dict[str, bool] | None = None) -> list[tuple[str, Fraction]]:
    """The exact distribution of results of a declared combat (E1's odds CRT)."""
    att, dfn, shift, _ = strengths(g, d, c, supplied)
    return odds_outcomes(g.crt, att, dfn, 0, shift)


def proceed(g: EuropaRules, d: EuropaData, dice: Dice, events: list[Any]) -> None:
    """Move the current combat on: resolve it, then ask for each retreat and advance."""
    c = d.combat
    assert c is not None
    if not c.result:
        _resolve(g, d, c, dice, events)
    while c.retreating:
        uid = c.retreating[0]
        u = d.units[uid]
        if u.loc is None:
            c.retreating.pop(0)
            continue
        options = retreat_hexes(g, d, u, c)
        if not options:
            c.retreating.pop(0)
            g.eliminate(d, uid, events, "E1")  # no hex to retreat to
            continue
        g.ask(d, u.side, "retreat", unit=uid, options=tuple(options))
        return
    if c.advance and not g.ground_at(d, c.target, other(c.side)):
        c.advance = [x for x in c.advance if d.units[x].loc is not None and d.units[x].loc != c.target
                     and x not in d.absorbed]
        if c.advance:
            g.ask(d, c.side, "advance", hex=c.target, options=tuple(c.advance))
            return
    d.last_combat = {"target": c.target, "result": c.result}
    d.combat = None
    g.restack(d, events)  # E5 A: limits apply throughout combat
    g.ask(d, d.side, "combat")


def _resolve(g: EuropaRules, d: EuropaData, c: Combat, dice: Dice, events: list[Any]) -> None:
    att, dfn, shift, led = strengths(g, d, c)
    ci = odds_column_index(g.crt, att, dfn, shift)
    col = g.crt.columns[ci]
    die = dice.roll(1, "CRT").faces[0]
    res = col.results[die - 1]
    led.add(f"odds {att}:{dfn}, shifted {shift:+d}", col.label, "E1")
    led.add("die", die)
    led.total = f"{res} ({g.crt.codes[res]})"
    c.result = res
    events.append(E.CombatEvent(type="attack", target=c.target, attackers=list(c.attackers), defenders=list(c.defenders),
                                attack=str(att), defence=str(dfn), shift=shift, column=col.label, die=die, result=res,
                                ledger=led.to_dict(), rule="E1"))
    defenders = [x for x in c.defenders if d.units[x].loc is not None]
    if res == "AE":
        for x in c.attackers:
            g.eliminate(d, x, events, "E1")
    elif res == "AR":
        c.retreating = [x for x in c.attackers if x not in d.absorbed]  # absorbed units go with their HQ (E5 C)
    elif res == "AD":
        _disrupt(d, c.attackers, events)
    elif res == "DD":
        _disrupt(d, defenders, events)
    elif res == "DE":
        for x in defenders:
            g.eliminate(d, x, events, "E1")
    elif res == "DR":
        c.retreating = [x for x in defenders if x not in d.absorbed]
    elif res == "EX":
        lost = sum((Fraction(g.t(d.units[x]).defence) for x in defenders), Fraction(0))
        for x in defenders:
            g.eliminate(d, x, events, "E1")
        _exchange(g, d, c, lost, events)
    if res in ("DE", "DR", "EX"):
        c.advance = [x for x in c.attackers if d.units[x].loc is not None and d.units[x].loc != c.target
                     and x not in d.absorbed]


def _disrupt(d: EuropaData, units: list[str], events: list[Any]) -> None:
    for x in units:
        u = d.units[x]
        if u.loc is not None and not u.has(DISRUPTED):
            u.flags.append(DISRUPTED)
            events.append(E.Flag(type="disrupted", unit=x, at=u.loc, on=True, rule="E1"))


def _exchange(g: EuropaRules, d: EuropaData, c: Combat, lost: Fraction, events: list[Any]) -> None:
    """EX: the attacker loses units of at least the defence strength the defender lost (Europa's
    exchange; which units is the attacker's choice: the engine gives up the weakest first)."""
    gone = Fraction(0)
    for x in sorted(c.attackers, key=lambda x: (g.t(d.units[x]).attack, x)):
        if gone >= lost:
            break
        gone += g.t(d.units[x]).attack
        g.eliminate(d, x, events, "E1")


def retreat_hexes(g: EuropaRules, d: EuropaData, u: Unit, c: Combat) -> list[str]:
    """Where a unit may retreat one hex: land it may enter, not Sweden, no enemy ground unit,
    not into an enemy ZoC unless a friendly unit is there (authored, as in EuropaRules)."""
    return sorted(n for n, why in retreat_reasons(g, d, u, c).items() if not why)


def retreat_reasons(g: EuropaRules, d: EuropaData, u: Unit, c: Combat) -> dict[str, str]:
    """Each hex next to ``u`` -> why it may not retreat there ("" where it may): what
    :func:`retreat_hexes` decides, in words for ``explain``."""
    if u.loc is None:
        return {}
    ctx = g.context(d, u.side)
    zoc, enemy, never = ctx.zoc, ctx.enemy, ctx.never
    mine = g.occupied(d, u.side)
    cls = g.t(u).movement_class
    out = {}
    for n in g.board.neighbours(u.loc):
        if n in never:
            why = "never entered (Sweden, E4)" if n in g.sweden else "never entered (E4)"
        elif n in enemy:
            why = "enemy units (E1)"
        elif n == c.target:
            why = "the hex fought over (E1)"
        elif n in zoc and n not in mine:
            why = "enemy ZoC with no friendly unit (E1, authored)"
        elif cls == "none" or step_cost(g.board, g.chart, d.weather, cls, u.loc, n) is None:
            why = "prohibited terrain (E4, TEC authored)"
        else:
            why = ""
        out[n] = why
    return out


def retreat_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    loc = d.units[ask.unit].loc or ""
    return [Retreat(ask.side, ask.unit, (loc, x)) for x in ask.options]


def do_retreat(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    c = d.combat
    assert ask is not None and c is not None
    frm = d.units[ask.unit].loc or ""
    if not (isinstance(order, Retreat) and order.unit == ask.unit and len(order.path) == 2 and order.path[0] == frm
            and order.path[1] in ask.options):
        raise IllegalOrder(f"{ask.unit} retreats one hex from {frm} to one of {', '.join(ask.options)}", "E1")
    to = order.path[1]
    riders = [x for x, hq in d.absorbed.items() if hq == ask.unit]
    for x in [ask.unit] + riders:
        d.place(x, to)
        if x in c.retreating:
            c.retreating.remove(x)
    events.append(E.RetreatEvent(type="retreat", unit=ask.unit, frm=frm, to=to, rule="E1"))
    d.ask = None
    proceed(g, d, dice, events)


def advance_orders(g: EuropaRules, d: EuropaData, ask: Ask) -> list[Order]:
    return [Pass(ask.side)] + [Advance(ask.side, (x,)) for x in ask.options]


def do_advance(g: EuropaRules, d: EuropaData, order: Order, dice: Dice, events: list[Any]) -> None:
    ask = d.ask
    c = d.combat
    assert ask is not None and c is not None
    if isinstance(order, Pass):
        c.advance = []
    elif isinstance(order, Advance) and len(order.units) == 1 and order.units[0] in ask.options:
        unit = order.units[0]
        riders = [x for x, hq in d.absorbed.items() if hq == unit]
        for x in [unit] + riders:
            d.place(x, c.target)
        c.advance.remove(unit)
        events.append(E.AdvanceEvent(type="advance", unit=unit, to=c.target, rule="E3 D"))
    else:
        raise IllegalOrder(f"advance one of {', '.join(ask.options)} into {c.target}, or pass", "E3 D")
    d.ask = None
    proceed(g, d, dice, events)


def explain(g: EuropaRules, d: EuropaData, order: Attack, supplied: dict[str, bool] | None = None) -> dict[str, Any]:
    """The ledger and exact odds of an attack before it is made (nothing changes)."""
    check_attack(g, d, order)
    c = Combat(order.side, order.target, list(order.units), sorted(u.id for u in g.ground_at(d, order.target, other(order.side))))
    att, dfn, shift, led = strengths(g, d, c, supplied)
    col = g.crt.columns[odds_column_index(g.crt, att, dfn, shift)]
    led.add(f"odds {att}:{dfn}, shifted {shift:+d}", col.label, "E1")  # the column the die is read in, as _resolve
    dist = odds_outcomes(g.crt, att, dfn, 0, shift)
    return {"attack": att, "defence": dfn, "shift": shift, "ledger": led, "odds": dist}
