"""Konflikt '47 set-up (2, 3): the high roller's choice of roles or table edge, objectives
(2.3) and bases (2.6) marked, each unit deployed, hidden (3.1), in the first wave or reserve
(3.4) or outflanking (3.5) as its template allows, and the preparatory bombardment (3.3)."""

from __future__ import annotations

import math
from typing import Any

from hexwar.core.dice import Dice
from hexwar.core.orders import Order
from hexwar.core.state import Unit
from hexwar.games.konflikt.context import KonfliktRules
from hexwar.games.konflikt.orders import Assign, Mark, Pick
from hexwar.games.konflikt.state import FIRST_WAVE, FLANK, RESERVE, UNSET, KonfliktData
from hexwar.games.konflikt.table import EDGES



def legal_marks(g: KonfliktRules, d: KonfliktData, what: str) -> list[Order]:
    side = d.side
    zone = g.zone(d, side)
    edge = d.edge[side]
    if what == "objective":  # 2.3: >= 6" from the edge, >= 24" apart, in the set-up zone
        o = g.spec_of(d).objectives or {}
        apart = int(o.get("apart_inches", 24))
        spots = sorted(loc for loc in zone if g.table.depth[loc][edge] >= o.get("from_edge_inches", 6))

        def room(chosen: list[str]) -> int:  # how many more fit, placed greedily west to east
            n, got = 0, list(chosen)
            for loc in spots:
                if all(g.table.at_least(loc, x, apart) for x in got):
                    got.append(loc)
                    n += 1
            return n

        left = int(o.get("count", 3)) - len(d.objectives)
        ok = [loc for loc in spots if all(g.table.at_least(loc, x, apart) for x in d.objectives)
              and room(list(d.objectives) + [loc]) >= left - 1]
        return [Mark(side, "objective", loc) for loc in ok]
    b = g.spec_of(d).bases or {}
    ok = [loc for loc in zone if g.table.depth[loc][edge] >= b.get("from_edge_inches", 6)]
    return [Mark(side, "base", loc) for loc in sorted(ok)]


def unset(g: KonfliktRules, d: KonfliktData, side: str) -> list[Unit]:
    return sorted((u for u in d.units.values() if u.side == side and u.pool == UNSET), key=lambda u: u.id)


def legal_assign(g: KonfliktRules, d: KonfliktData, side: str) -> list[Order]:
    """The next unit's set-up: what the template allows and still needs (at least half on
    the table, half the rest in the first wave ...)."""
    units = unset(g, d, side)
    u = units[0]
    left = len(units)
    mine = [x for x in d.units.values() if x.side == side]
    placed = sum(1 for x in mine if x.loc is not None)
    waved = sum(1 for x in mine if x.pool == FIRST_WAVE)
    dep = g.allot(d, "deploy", side)
    wave = g.allot(d, "first_wave", side)
    out: list[Order] = []
    where_table: list[str] = []
    need_table = need_wave = 0
    may_table = may_wave = 0
    if dep is not None:
        if dep.units:  # 2.4: the defender's infantry squad and one other unit, near the centre
            if placed < len(dep.units):
                kind = dep.units[placed]
                if kind == "infantry" and not g.infantry(u):
                    return [Assign(side, u.id, RESERVE)] if any(g.infantry(x) for x in units[1:]) else \
                        [Assign(side, u.id, "table", loc) for loc in near_centre(g, d, dep.near_centre_inches or 6)]
                where_table = near_centre(g, d, dep.near_centre_inches or 6)
                need_table = may_table = 1
                damage = g.t.units[u.type].damage
                if kind == "any" and dep.max_damage is not None and damage is not None and damage > dep.max_damage:
                    where_table, need_table, may_table = [], 0, 0  # 2.4: too heavy to hold the objective at first light
        elif dep.only == "infantry":  # 2.4: the attacker's infantry anywhere far enough away
            if g.infantry(u):
                where_table = [loc for loc in g.table.depth if far_from(g, d, loc, dep.away_inches or 18)]
                may_table = 1
        else:
            total = len(mine)
            want = math.floor(dep.fraction_floor * total) if dep.fraction_floor is not None else math.ceil((dep.fraction or 0) * total)
            where_table = g.zone(d, side)
            need_table = max(0, want - placed)
            may_table = need_table if dep.fraction_floor is not None else left
    if wave is not None:
        total = len(mine)
        if wave.fraction_of_rest is not None:  # 2.4: half the rest, rounded down
            rest = total - (len(dep.units) if dep is not None and dep.units else 0)
            want = math.floor(wave.fraction_of_rest * rest)
            exact = True
        else:
            want = math.ceil((wave.fraction or 0) * total)
            exact = False
        need_wave = max(0, want - waved)
        may_wave = need_wave if exact else left
        if dep is not None and dep.units and placed < len(dep.units):
            may_wave = 0
    stack_ok = [loc for loc in where_table if g.stack_ok(d, loc, side, u)]
    if may_table > 0:
        hide = dep is not None and dep.hidden
        for loc in sorted(stack_ok):
            out.append(Assign(side, u.id, "table", loc))
            if hide and g.cover(loc):
                out.append(Assign(side, u.id, "table", loc, True))
    if may_wave > 0 and need_table < left:
        out.append(Assign(side, u.id, FIRST_WAVE))
    if need_table + need_wave < left:
        out += [Assign(side, u.id, RESERVE), Assign(side, u.id, f"{FLANK} left"), Assign(side, u.id, f"{FLANK} right")]
    return out or [Assign(side, u.id, RESERVE)]


def near_centre(g: KonfliktRules, d: KonfliktData, inches: int) -> list[str]:
    c = g.table.centre
    return sorted(loc for loc in g.table.depth if g.table.within(c, loc, inches))


def far_from(g: KonfliktRules, d: KonfliktData, loc: str, inches: int) -> bool:
    """2.4: more than ``inches`` from the objective and from every deployed enemy unit."""
    spots = [g.table.centre] + [u.loc for u in d.on_map() if u.loc is not None]
    return all(not g.table.within(s, loc, inches) for s in spots)


def do_pick(g: KonfliktRules, d: KonfliktData, o: Pick, events: list[dict[str, Any]]) -> None:
    sp = g.spec_of(d)
    if o.choice in ("attacker", "defender"):
        d.attacker = o.side if o.choice == "attacker" else g.other(o.side)
        events.append({"type": "roles", "attacker": d.attacker, "rule": sp.source})
        d.side = g.other(d.attacker)  # the defender picks a table side
        return
    d.edge = {o.side: o.choice, g.other(o.side): EDGES[1] if o.choice == EDGES[0] else EDGES[0]}
    events.append({"type": "edges", "edges": dict(d.edge), "rule": sp.source})
    d.todo.pop(0)
    order = [d.attacker and g.other(d.attacker) or d.chooser]
    order.append(g.other(order[0]))
    if sp.objectives:
        d.todo += ["mark:objective"] * int(sp.objectives.get("count", 3))
    if sp.bases:
        d.todo += ["mark:base"] * 2
    if sp.centre:
        c = g.table.centre
        if sp.victory["kind"] == "marker":
            d.marker = c
        else:
            d.objectives = {c: ""}
    d.todo += [f"assign:{s}" for s in order] + ["begin"]


def do_mark(g: KonfliktRules, d: KonfliktData, o: Mark, events: list[dict[str, Any]]) -> None:
    d.todo.pop(0)
    if o.what == "objective":
        d.objectives[o.at] = o.side  # 2.3: all objectives start held by the defender
    else:
        d.base_at[o.side] = o.at
    events.append({"type": "marked", "side": o.side, "what": o.what, "at": o.at, "rule": g.spec_of(d).source})


def do_assign(g: KonfliktRules, d: KonfliktData, o: Assign, events: list[dict[str, Any]]) -> None:
    u = d.units[o.unit]
    if o.where == "table":
        d.place(u.id, o.at)
        u.concealed = o.hidden
        e = {"type": "deployed", "side": o.side, "unit": u.id, "at": o.at, "hidden": o.hidden, "rule": "3.1" if o.hidden else "2"}
        if o.hidden:
            e.update(hide=["at"], see=[o.side])
    elif o.where.startswith(FLANK):
        d.remove(u.id, FLANK)
        d.flank[u.id] = o.where.split()[1]
        e = {"type": "assigned", "side": o.side, "unit": u.id, "where": o.where, "rule": "3.5",
             "hide": ["where"], "see": [o.side]}
    else:
        d.remove(u.id, o.where)
        e = {"type": "assigned", "side": o.side, "unit": u.id, "where": o.where, "rule": "3.4"}
    events.append(e)


def bombard(g: KonfliktRules, d: KonfliktData, dice: Dice, events: list[dict[str, Any]]) -> None:
    """3.3: the attacker rolls 2+ for a bombardment; one die per unit in the defender's
    set-up zone, on our chart (hidden units get no benefit)."""
    if g.spec_of(d).bombardment != "attacker" or not d.attacker:
        return
    face = dice.roll(1, "bombardment").faces[0]
    ok = face in g.t.bombardment["faces_needed"].value
    events.append({"type": "bombardment", "side": d.attacker, "face": face, "falls": ok, "rule": "3.3"})
    if not ok:
        return
    defender = g.other(d.attacker)
    zone = set(g.zone(d, defender))
    chart = {int(k): int(v) for k, v in g.t.bombardment["chart"].value.items()}
    for u in sorted((u for u in d.on_map(defender) if u.loc in zone), key=lambda u: u.id):
        f = dice.roll(1, f"bombardment {u.id}").faces[0]
        events.append({"type": "bombarded", "unit": u.id, "face": f, "points": chart[f], "rule": "3.3 (chart authored)"})
        events += g.take_results(d, [u.id], chart[f], d.attacker)
