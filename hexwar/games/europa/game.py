"""The Europa "Narvik" variant (seed 004, digest Part 2, E1-E6): the phase driver on
the rules (``context.EuropaRules``).

A game turn is a German player turn, then an Allied one (E3); each player turn runs the
phases of ``sequence.PHASES`` (reinforcement, movement, air, combat, exploitation). Wherever
a side has a choice the engine stops with an :class:`~hexwar.games.europa.state.Ask`, and
``sequence.DECISIONS`` gives that decision's legal orders and handler. The shared rules do
the shared work: movement and its ZoC exit cost (``hexwar.rules.movement``), ZoC projection
(``hexwar.rules.zoc``), supply lines (``hexwar.rules.supply``) and the odds CRT
(``hexwar.rules.combat``). What is the variant's own (E4 ownership, E5 stacking and HQs,
E1's special rules) lives in this package.
"""

from __future__ import annotations

from typing import Any, Collection, Sequence

from hexwar.core.dice import Dice
from hexwar.core.invariants import counters
from hexwar.core.orders import Refusals
from hexwar.core.orders import Order
import hexwar.games.europa.events as E
from hexwar.games.europa.context import EuropaRules, Switches
from hexwar.games.europa.orders import ORDERS
from hexwar.games.europa.phases import combat, reinforce
from hexwar.games.europa.sequence import DECISIONS, PHASES
from hexwar.games.europa.state import GERMANS, EuropaData

__all__ = ["EuropaGame", "Switches"]


class EuropaGame(EuropaRules):
    """The Europa "Narvik" variant: its rules (``EuropaRules``) with the phase machine, the view
    and the set-up."""

    name = "europa"
    orders = ORDERS
    events = E.EVENTS
    state_type = EuropaData
    decisions = DECISIONS
    phases = PHASES
    refusals = Refusals(over="E2", foreign=ORDERS.rule, not_now="E3")  # over (E2: the ports decide at the end); the sequence of play (E3)
    other_side = "E3"

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.spec.name, "scenario_file": self.file,
                "board": self.board.name, "switches": self.switches.names()}

    # --- what the queries ask (issue 71: games.common.asked) -------------------------------

    def acting(self, d: EuropaData, side: str) -> EuropaData:
        """A copy of ``d`` at ``side``'s combat phase decision (E3 D), no combat under way:
        what the side may attack now; the hexes attacked and the units that attacked this
        phase stay as they are."""
        w = d.clone()
        w.phase, w.over, w.combat = "combat", False, None
        w.side = side
        self.ask(w, side, "combat")
        return w

    def assault_order(self, d: EuropaData, side: str, target: str, units: Sequence[str],
                      support: Sequence[str] = (), ap: int = 0) -> Order:
        """The attack (E3 D) of ``units`` on ``target``; air support is the air phase's, flown
        before (E3 C): no support or AP is named with it."""
        from hexwar.games.europa.orders import Attack

        if support or ap:
            raise ValueError("a Europa attack names its units only: air support is flown in the air phase (E3 C)")
        return Attack(side, target, tuple(units))

    # --- views ------------------------------------------------------------------------------

    def view(self, d: EuropaData, sides: Collection[str]) -> EuropaData:
        """Everything is face up in this variant: a side sees the whole state."""
        return d

    # --- the Game contract -------------------------------------------------------------------

    def initial_state(self, seed: int, dice: Dice) -> EuropaData:
        d = EuropaData(game=self.name, scenario=self.spec.name, seed=seed, phase="reinforcement", side=GERMANS,
                       weather=self.spec.weather)
        reinforce.setup(self, d)
        events: list[dict[str, Any]] = []
        self.run(d, dice, events)
        d.setup_events = events
        return d
    def state_problems(self, d: EuropaData, sides: Collection[str] | None = None) -> list[str]:
        """A position must be one this game can play on (issue 70): its phase and decision,
        every counter of a type of its chart on the map or in a pool (a breakdown's counters
        are made in play: the order of battle is not asked), the weather of its chart and
        turns 1 to the scenario's last."""
        out = super().state_problems(d, sides)
        return out + counters(d, self.board, self.types, None, self.chart.weather, self.spec.turns)

    def after_decision(self, d: EuropaData, events: list[dict[str, Any]]) -> None:
        self.update_owners(d, events)  # E4: after every decision, who holds what

    def accepts(self, d: EuropaData, order: Order) -> bool:
        """Attacks by any eligible subset of units (E3 D), beyond the capped list."""
        return combat.accepts(self, d, order)
