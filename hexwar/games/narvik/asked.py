"""What Assault on Narvik answers when its queries ask it (issue 71; ``games.common.asked``):
the action decision a unit acts at, its assault orders, and each side's supply rules. Every
answer is the game's own code: the decision is the one the action phase asks (9.0), the
order the one it carries out (15.1), the supply what the assault and the events phase read
(19.1, 19.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from hexwar.games.common.asked import SupplyAnswer
from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED
from hexwar.games.narvik.orders import LandAssault
from hexwar.games.narvik.phases.supply import german_supply, unsupplied_attacked
from hexwar.games.narvik.state import GERMANS, HARSTAD, NarvikData
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules


def acting(g: NarvikRules, d: NarvikData, side: str) -> NarvikData:
    """A copy of ``d`` at ``side``'s action decision (6.4, 9.0), with no reaction, combat or
    other decision pending: what a unit of the side may do as an action, with everything
    else (its fatigue and flags, every place, the turn, the weather, the AP, the Führer's
    orders) as it stands."""
    w = d.clone()
    w.phase, w.over = "action", False
    w.combat, w.redeploy_pick = None, None
    w.reacting = w.pending_pass = w.completed = False
    w.passes = 0
    w.initiative = side
    g.ask(w, side, "action")
    return w


def assault_order(g: NarvikRules, d: NarvikData, side: str, target: str, units: Sequence[str],
                  support: Sequence[str] = (), ap: int = 0) -> LandAssault:
    """The land assault (15.1) of ``units`` on ``target``, supported by ``support``: the
    artillery among them (16.1) and the ships (20.5); the German ``ap`` (18.1.1)."""
    art = tuple(x for x in support if x in d.units and g.t(d.units[x]).is_artillery)
    ships = tuple(x for x in support if x not in art)
    return LandAssault(side, target, tuple(units), art, ships, ap)


def supply_answer(g: NarvikRules, d: NarvikData, u: Any) -> SupplyAnswer:
    """What 19.0 says of a unit now. German units trace no line: their supply is the railway's
    and Narvik's (19.1), which decides whether this turn's arrivals may be lost. An Allied
    unit: ships are unaffected, Norwegians never penalised, the Harstad box out of reach
    (19.2); else its line of supply to a Base (19.3, 19.4), and whether it would take the
    +6 FP if attacked now (19.2: not when landed this turn)."""
    if u.side == GERMANS:
        hit, why = german_supply(g, d)
        said = "the arrivals by rail and port are at risk: " if hit else "the arrivals by rail and port are safe: "
        return SupplyAnswer(None, False, f"German units trace no line of supply (19.1); {said}{why}")
    if g.t(u).kind == "ship":
        return SupplyAnswer(True, False, "ships are unaffected by supply (19.2)")
    if u.nation in ALWAYS_SUPPLIED:
        return SupplyAnswer(True, False, "Norwegians are never penalised (19.2)")
    if u.loc == HARSTAD:
        return SupplyAnswer(True, False, "in the Harstad box, out of the Germans' reach (22.1): never checked (19.2)")
    if u.has(ABOARD):
        return SupplyAnswer(True, False, "aboard a ship: not in a land assault, so never checked (19.2)")
    supplied = g.supplied(d, [u])[u.id]  # what the assault reads (19.2); the line's path and its blocks below
    line = g.supply(d, u)
    penalised = u.id in unsupplied_attacked(g, d, [u])
    reason = line.reason
    if not supplied and not penalised and u.id in d.landed:
        reason += "; landed amphibiously this turn: no penalty (19.2)"
    elif penalised:
        reason += "; if attacked in a land assault it takes +6 FP first (19.2)"
    return SupplyAnswer(supplied, penalised, reason, tuple(line.path), line.base, line.blocked_at)
