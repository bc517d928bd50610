"""The Europa "Narvik" sequence of play (E3) and its decisions, in one place.

Each player turn (German, then Allied) runs these phases; a phase's ``run`` performs its
automatic steps and asks a side for a decision or moves on. Each kind of decision has the
function listing its legal orders and the handler applying one.
"""

from __future__ import annotations

from hexwar.core.engine import Decision, Phase
from hexwar.games.europa.phases import air, combat, movement, reinforce

#: E3: the phases of a player turn, in order
PHASES: dict[str, Phase] = {p.name: p for p in (
    Phase("reinforcement", "E3 A", reinforce.run),  # recovery, arrivals, mobilisation, stores, supply
    Phase("movement", "E3 B, E4", movement.run_movement),  # moves, HQs, breakdowns, trucks, interdiction
    Phase("air", "E3 C", air.run),  # both players fly missions; AA fire
    Phase("combat", "E3 D", combat.run),  # attacks (those sharing a hex must attack)
    Phase("exploitation", "E3 E", movement.run_exploitation),  # combat/motorized units move again
)}

#: what a side may be asked, by ``Ask.what``
DECISIONS: dict[str, Decision] = {
    "move": Decision("E4", movement.move_orders, movement.do_move),
    "exploit": Decision("E3 E", movement.move_orders, movement.do_move),
    "air": Decision("E3 C", air.air_orders, air.do_air),
    "combat": Decision("E3 D", combat.combat_orders, combat.do_combat),
    "evade": Decision("E1", combat.evade_orders, combat.do_evade),
    "retreat": Decision("E1", combat.retreat_orders, combat.do_retreat),
    "advance": Decision("E3 D", combat.advance_orders, combat.do_advance),
    "land": Decision("E1", reinforce.land_orders, reinforce.do_land),
    "store": Decision("E1", reinforce.store_orders, reinforce.do_store),
}
