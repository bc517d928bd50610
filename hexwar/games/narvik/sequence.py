"""Assault on Narvik's sequence of play (6.0) and its decisions, in one place.

A turn runs the phases in the order below; a phase's ``run`` performs its automatic steps
and either asks a side for a decision or moves on to the next phase. Each kind of decision
has the function listing its legal orders and the handler that applies one.
"""

from __future__ import annotations

from hexwar.core.engine import Decision, Phase
from hexwar.games.narvik.phases import (
    action,
    air,
    end,
    fire,
    initial,
    random_events,
    results,
)

#: 6.0: the phases of a turn, in order
PHASES: dict[str, Phase] = {p.name: p for p in (
    Phase("initial", "6.1", initial.run),  # weather, winter FP, arrivals, flips, Bases (19.4)
    Phase("events", "6.2, 8.0", random_events.run),  # random events, German arrivals, redeployments
    Phase("air", "6.3, 18.0", air.run),  # maximum air support, German air points
    Phase("action", "6.4, 9.0", action.run),  # actions and reactions until two passes
    Phase("end", "6.5, 21.0", end.run),  # recovery, the end of the game, the next turn
)}

#: what a side may be asked, by ``Ask.what``
DECISIONS: dict[str, Decision] = {
    "base": Decision("19.4", initial.base_orders, initial.do_base),
    "place": Decision("23.4, 30.0", random_events.place_orders, random_events.do_place),
    "redeploy": Decision("31.0", random_events.redeploy_orders, random_events.do_redeploy),
    "mas": Decision("18.2", air.mas_orders, air.do_mas),
    "action": Decision("9.0", action.action_orders, action.do_action),
    "reaction": Decision("9.1", action.reaction_orders, action.do_reaction),
    "take": Decision("15.2", results.take_orders, results.do_take),
    "retreat": Decision("15.3.1", results.retreat_orders, results.do_retreat),
    "advance": Decision("15.3", results.advance_orders, results.do_advance),
    "target": Decision("16.1.1", fire.target_orders, fire.do_target),
}
