"""How a Konflikt '47 scenario is won: objectives held (2.3, 2.4), victory points (2.1, 2.2),
the documents carried off (2.5), bases destroyed (2.6), and the precise attrition score (3.6)."""

from __future__ import annotations

import math
from typing import Callable

from hexwar.core.state import Unit
from hexwar.games.konflikt.context import KonfliktRules
from hexwar.games.konflikt.schemas import ScenarioSpec
from hexwar.games.konflikt.state import EXITED, SIDES, KonfliktData



def controller(g: KonfliktRules, d: KonfliktData, loc: str, radius: int) -> str:
    """2.3, 2.4: the side with infantry or artillery within 3" and none of the enemy's."""
    near = {u.side for u in d.on_map() if g.holds_ground(u) and g.table.within(loc, u.loc, radius)}  # type: ignore[arg-type]
    return next(iter(near)) if len(near) == 1 else ""


def lost(g: KonfliktRules, d: KonfliktData, side: str) -> list[Unit]:
    return [u for u in d.units.values() if u.side == side and u.pool in ("eliminated", "removed")]


def points(g: KonfliktRules, d: KonfliktData) -> dict[str, int]:
    """2.1, 2.2: victory points (0 in the scenarios won otherwise)."""
    out = {s: 0 for s in SIDES}
    if g.spec_of(d).victory["kind"] != "points" or not d.edge:
        return out
    return {side: earned(g, d, side, lambda u: 1) for side in SIDES}


def earned(g: KonfliktRules, d: KonfliktData, side: str, worth: Callable[[Unit], int]) -> int:
    """2.1, 2.2, 3.6: what a side earns in a VP scenario, each event at its VP times the
    unit's ``worth`` (1 for the victory points, its cost for the attrition score): each
    enemy unit destroyed, each of its own in the enemy's zone, each that left by its edge."""
    pts = points_for(g.spec_of(d), g.role(d, side))
    enemy = g.other(side)
    zone = set(g.zone(d, enemy)) if d.edge else set()
    return (pts.get("destroyed", 0) * sum(worth(u) for u in lost(g, d, enemy))
            + pts.get("in_enemy_zone", 0) * sum(worth(u) for u in d.on_map(side) if u.loc in zone)
            + pts.get("exited", 0) * sum(worth(u) for u in d.units.values() if u.side == side and u.pool == EXITED))


def points_for(sp: ScenarioSpec, role: str) -> dict[str, int]:
    """The VP a side scores for each event (2.1, 2.2): its role's, or both sides'."""
    table: dict[str, dict[str, int]] = {k: {str(e): n for e, n in v.items()} for k, v in sp.points.items()}
    return table.get(role) or table.get("both") or {}


def standing(g: KonfliktRules, d: KonfliktData) -> tuple[str | None, str]:
    if not d.edge:
        return None, "setting up"
    sp = g.spec_of(d)
    kind = sp.victory["kind"]
    title = sp.title
    if kind == "points":
        vp = points(g, d)
        a, b = vp[SIDES[0]], vp[SIDES[1]]
        margin = int(sp.victory.get("margin", 2))
        if abs(a - b) >= margin:
            w = SIDES[0] if a > b else SIDES[1]
            return w, f"{title}: {w} win {max(a, b)}-{min(a, b)} VP (a lead of {margin} or more)"
        return None, f"{title}: draw ({a}-{b} VP, a lead under {margin})"
    if kind == "objectives":
        held = sum(1 for s in d.objectives.values() if s == d.attacker)
        table = {int(k): v for k, v in sp.victory["attacker_holds"].items()}
        res = table[min(held, max(table))]
        won = d.attacker if res == "attacker" else g.other(d.attacker) if res == "defender" else None
        return won, f"{title}: the attacker holds {held} of {len(d.objectives)} objectives: " + (f"{won} win" if won else "draw")
    if kind == "control":
        loc = next(iter(d.objectives), "")
        holder = controller(g, d, loc, int(g.t.control["radius_inches"].value)) if loc else ""
        return (holder or None), f"{title}: " + (f"{holder} control the objective" if holder else "nobody controls the objective: draw")
    if kind == "marker":
        gone = [u for u in d.units.values() if u.pool == EXITED and d.ended.startswith(u.side)]
        if gone:
            return gone[0].side, f"{title}: {gone[0].side} carried the documents off their edge"
        who = d.units[d.carrier].side if d.carrier else "nobody"
        return None, f"{title}: the documents are still on the table ({who} holds them): draw"
    standing = [s for s in SIDES if s not in d.razed]
    if len(standing) == 1:
        return standing[0], f"{title}: {standing[0]} destroyed the enemy base and kept their own"
    return None, f"{title}: " + ("both bases destroyed: draw" if not standing else "both bases stand: draw")


def attrition(g: KonfliktRules, d: KonfliktData, winner: str | None) -> dict[str, int]:
    """3.6: the precise score: each event a unit earns VP for, at the scenario's VP for it
    times the unit's cost: in a VP scenario (2.1, 2.2) a destroyed enemy unit, a unit in the
    enemy's zone, a unit that left by the enemy's edge (the rules' example: an exit of 3 VP
    by a 100-point unit is 300); in an objective scenario each destroyed enemy unit at its
    cost, twice for the winner, and the loser capped at the winner's total - 10."""
    sp = g.spec_of(d)
    at = g.t.attrition

    def cost(u: Unit) -> int:
        return g.t.units[u.type].cost

    out = {}
    for side in SIDES:
        if sp.victory["kind"] == "points":
            out[side] = earned(g, d, side, cost)
        else:
            killed = sum(cost(u) for u in lost(g, d, g.other(side)))
            out[side] = (int(at["winner_kill_factor"].value) if side == winner else 1) * killed
    if winner and sp.victory["kind"] != "points":
        loser = g.other(winner)
        out[loser] = min(out[loser], out[winner] - int(at["loser_gap"].value))
    return out


def outright(g: KonfliktRules, d: KonfliktData, scores: dict[str, int]) -> tuple[str | None, str]:
    """3.6: an outright victory on attrition needs a lead of 20% of the forces' requisition
    value (200 at 1,000 points); under it the battle is a draw, whoever scored more."""
    force = [sum(g.t.units[u.type].cost for u in d.units.values() if u.side == s) for s in SIDES]
    need = math.ceil(float(g.t.attrition["outright_share"].value) * sum(force) / len(force))
    a, b = scores[SIDES[0]], scores[SIDES[1]]
    lead = abs(a - b)
    if lead >= need:
        w = SIDES[0] if a > b else SIDES[1]
        return w, f"{w} win outright on attrition: {max(a, b)} to {min(a, b)}, a lead of {lead} (at least {need}, 3.6)"
    return None, f"a draw on attrition: {a} to {b}, a lead of {lead} under the {need} an outright victory needs (3.6)"
