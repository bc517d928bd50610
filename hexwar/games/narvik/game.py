"""Assault on Narvik (1.0-31.0): the phase driver on the rules (``context.NarvikRules``).

The game is a state machine. Automatic steps (dice, tracks, arrivals) run by themselves,
phase by phase, in the order ``sequence.PHASES`` gives (6.0); wherever the rules give a
player a choice the engine stops with an :class:`~hexwar.games.narvik.state.Ask` naming the
side and the kind of decision, and ``sequence.DECISIONS`` gives the legal orders and the
handler of that kind. Every order is checked before anything changes; ``PlayState`` applies
it to a copy, so a refused order leaves the state as it was.
"""


from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from hexwar.core.dice import Dice
from hexwar.core.orders import Refusals
from hexwar.core.invariants import counters
from hexwar.core.orders import Order
from hexwar.data.loader import Library
from hexwar.scenario import load_scenario
import hexwar.games.narvik.events as E
import hexwar.games.narvik.view as view
from hexwar.games.narvik.charts import HIDDEN
from hexwar.games.narvik.context import NarvikRules, Switches
from hexwar.games.narvik.orders import ORDERS
from hexwar.games.narvik.phases import action, results
import hexwar.games.narvik.phases.setup as setup
from hexwar.games.narvik.sequence import DECISIONS, PHASES
from hexwar.games.narvik.state import ALLIES, GERMANS, NarvikData

__all__ = ["NarvikGame", "Switches", "narvik_game"]


class NarvikGame(NarvikRules):
    """Assault on Narvik: its rules (``NarvikRules``) with the phase machine, the views and the
    set-up."""

    name = "narvik"
    orders = ORDERS
    events = E.EVENTS
    added_events = {"ship_damaged": frozenset()}  # issue 55: told since; older saves lack it
    state_type = NarvikData
    decisions = DECISIONS
    phases = PHASES
    refusals = Refusals(over="24.0", foreign=ORDERS.rule, not_now="6.0")  # over (24.0); no decision, not an order (6.0)
    other_side = "9.1"  # not yours (9.1)

    # --- what the queries ask (issue 71: games.common.asked; the answers in narvik.asked) ---

    def acting(self, d: NarvikData, side: str) -> NarvikData:
        """A copy of ``d`` at ``side``'s action decision (9.0), nothing pending."""
        from hexwar.games.narvik import asked

        return asked.acting(self, d, side)

    def assault_order(self, d: NarvikData, side: str, target: str, units: Sequence[str],
                      support: Sequence[str] = (), ap: int = 0) -> Order:
        """The land assault (15.1) of ``units`` on ``target`` with ``support`` and ``ap``."""
        from hexwar.games.narvik import asked

        return asked.assault_order(self, d, side, target, units, support, ap)

    def move_cost(self, d: NarvikData, order: Any) -> Any:
        """The MP a land move spends, as the move charges it (``movement.move_spent``)."""
        from hexwar.games.narvik.phases.movement import move_spent

        return move_spent(self, d, d.units[order.unit], tuple(order.path))

    def supply_answer(self, d: NarvikData, u: Any) -> Any:
        """What 19.0 says of a unit now (``narvik.asked.supply_answer``)."""
        from hexwar.games.narvik import asked

        return asked.supply_answer(self, d, u)

    @classmethod
    def from_scenario(cls, name: str = "narvik/scenario", library: Library | None = None,
                      switches: Switches = Switches()) -> NarvikGame:
        return cls(load_scenario(name, library), library, switches)

    def view(self, d: NarvikData, sides: Collection[str]) -> NarvikData:
        """What the player(s) of ``sides`` may see: the other side's face-down counters
        anonymous, its secret events unknown (11.0, 8.1, 8.2); see ``narvik.view``."""
        return view.view(self, d, sides)

    def visible_events(self, d: NarvikData, events: list[dict[str, Any]], sides: Collection[str]) -> list[dict[str, Any]]:
        """The events of an order as the player(s) of ``sides`` see them (``d``: the state after it)."""
        names = {uid: f"?{i}" for i, uid in enumerate(view.hidden_ids(d, sides), 1)}
        return view.visible_events(events, sides, names)

    def visible_order(self, d: NarvikData, order: Order, sides: Collection[str]) -> str:
        """An order as the player(s) of ``sides`` see it (``d``: the state after it)."""
        return view.visible_order(d, order, sides)

    def initial_state(self, seed: int, dice: Dice) -> NarvikData:
        d = NarvikData(game=self.name, scenario=self.spec.name, seed=seed, phase="initial", side=ALLIES,
                       weather=self.spec.weather, bases=list(self.spec.bases))
        setup.deploy(self, d, dice)
        events: list[dict[str, Any]] = []
        self.run(d, dice, events)
        d.setup_events = events
        return d

    def accepts(self, d: NarvikData, order: Order) -> bool:
        """Orders the rules allow beyond ``legal_orders``: any split of 6 FP (15.2), and any
        subset of attackers, supports, AP, ships or path the capped list leaves out (15.1,
        18.1.3, 20.1-20.3, 22.3), which its handler then checks in full."""
        return results.any_split(self, d, order) or action.typed_choice(self, d, order)

    def state_problems(self, d: NarvikData, sides: Collection[str] | None = None) -> list[str]:
        """A position must be one this game can play on (issue 70): its phase and decision,
        every counter of the order of battle as it has it, on the map or in a pool, the
        weather of the terrain chart (7.0), turns 1 to the scenario's last (5.0), the tracks
        and the sides as the rules know them."""
        out = super().state_problems(d, sides)
        out += counters(d, self.board, self.tables.types, self.oob, self.tables.terrain.weather, self.spec.turns,
                        HIDDEN.key if sides is not None else None)  # a view's face-down counters are placeholders
        sides = (ALLIES, GERMANS)
        if d.side not in sides:
            out.append(f"side: the side to act is {d.side!r}; the sides are {', '.join(sides)}")
        if d.ask is not None and d.ask.side not in sides:
            out.append(f"ask.side: the decision is asked of {d.ask.side!r}; the sides are {', '.join(sides)}")
        if d.initiative not in sides:
            out.append(f"initiative: the initiative is {d.initiative!r}; the sides are {', '.join(sides)}")
        out += [f"tracks.{k}: the {k} track is at {v}; a track is never below 0" for k, v in d.tracks.items() if v < 0]
        out += [f"bases: the supply base {b!r} is not on the board (19.4)" for b in d.bases if b not in self.board]
        for ship, unit in d.cargo.items():
            if ship not in d.units or unit not in d.units:
                out.append(f"cargo.{ship}: {unit} aboard {ship}, but {ship if ship not in d.units else unit} is no counter (20.2)")
        return out

    def after_action(self, d: NarvikData, actor: str, attack: bool, events: list[dict[str, Any]],
                     reaction: bool) -> None:
        action.after_action(self, d, actor, attack, events, reaction)


def narvik_game(switches: Switches = Switches()) -> NarvikGame:
    """Return Assault on Narvik on the bundled scenario."""
    return NarvikGame.from_scenario("narvik/scenario", switches=switches)

