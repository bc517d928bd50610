"""Kampen om Norge, the basic game and Scenario 1, on any ``Board`` (rules 1-4, S1).

Three factions play rounds in a fixed order, Germany, Norway, the Allies (4); each round
has four phases: movement (4.1, with Norway's sabotage and escape 1c in the German round),
combat (4.2, the 8-step sequence), reinforcement (4.3) and new cards (4.4). Norway and the
Allies are one side for victory (1.2, 1.3): ``result().winner`` is ``germans`` or ``allies``.
The sequence and its decisions are listed in ``sequence``; each phase is a module of
``phases``. ``apply`` changes the state in place, so the fast simulator drives the ruleset
without copies (``PlayState`` copies for undo and safety).
"""

from __future__ import annotations

import copy
from typing import Any, Collection


import hexwar.games.kampen.events as E
import hexwar.games.kampen.phases.april as april
import hexwar.games.kampen.phases.sea as sea
from hexwar.board.base import Board
from hexwar.core.dice import Dice
from hexwar.core.events import strip_hidden
from hexwar.core.orders import Refusals
from hexwar.core.result import Result
from hexwar.core.orders import IllegalOrder, Order
from hexwar.games.kampen.context import KampenRules, slug
from hexwar.games.kampen.orders import ORDERS
from hexwar.games.kampen.phases import cards, combat, movement, reinforcement, victory
from hexwar.games.kampen.sequence import DECISIONS
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    FACTIONS,
    GERMANS,
    NORWAY,
    KampenData,
    Ship,
    enemies,
)

#: a card face down: in another faction's hand, or unused in a deck
HIDDEN_CARD = -1

__all__ = ["ALLIES", "FACTIONS", "GERMANS", "NORWAY", "KampenGame", "enemies", "kampen_game", "slug"]


def _face_down(cards: list[int], down: int) -> list[int]:
    """A deck as a table sees it (2.4): its top ``down`` cards face down, the rest face up."""
    if down <= 0:
        return list(cards)
    return [HIDDEN_CARD] * down + cards[down:]


def _shown(d: KampenData, seen: set[int], i: int) -> bool:
    """Whether a ship's card is face up, or seen by the sides an order is shown to (6.1)."""
    return d.ships[i].up or i in seen


class KampenGame(KampenRules):
    """Kampen om Norge: its rules (``KampenRules``) with the sequence of play, the views and the
    set-up; states are ``KampenData``."""

    name = "kampen"
    orders = ORDERS
    events = E.EVENTS
    state_type = KampenData
    #: over: how to win (1.3); not an order, not now: the sequence of play (4)
    refusals = Refusals(over="1.3", foreign=ORDERS.rule, not_now="4")

    def state_problems(self, d: KampenData, sides: Collection[str] | None = None) -> list[str]:
        """A position must be one this game can play on (issue 70): a decision of its sequence
        (4), the factions' battalions on land areas of the board in numbers from 0 (2.2), and
        the cards of its decks (2.4)."""
        out = super().state_problems(d, sides)
        if d.step not in DECISIONS:
            out.append(f"step: the game waits for {d.step!r}; its decisions are {', '.join(DECISIONS)}")
        if d.side not in FACTIONS or d.faction not in FACTIONS:
            out.append(f"side: the side to act is {d.side!r} in {d.faction!r}'s round; the factions are {', '.join(FACTIONS)}")
        for f, areas in d.bn.items():
            if f not in FACTIONS:
                out.append(f"bn.{f}: no faction of this game ({', '.join(FACTIONS)})")
            for area, n in areas.items():
                if area not in self.land:
                    out.append(f"bn.{f}.{area}: {area} is not a land area of the board (2.2)")
                if n < 0:
                    out.append(f"bn.{f}.{area}: {n} battalions; a count is from 0")
        known = range(-1 if sides is not None else 0, len(self.copies))  # -1: a card face down, in a view
        for what, where in (("hand", d.hand), ("deck", d.deck)):
            for f, held in where.items():
                out += [f"{what}.{f}: {f}'s card {c} is no card of the decks (2.4)" for c in held if c not in known]
        return out

    def view(self, d: KampenData, sides: Collection[str]) -> KampenData:
        """What the player(s) of ``sides`` may see (2.4): the other factions' hands are so many
        cards face down, and every deck's unused cards are face down (the used ones, at the
        bottom face up, are public). In the advanced game another faction's face-down ship is a
        card back in its sea area (6.1: which ship, or a dummy, is hidden), its 9 April cards
        to choose from and out of play are face down, and what its reconnaissance saw is its own."""
        v = d.shallow()
        v.hand = {f: (cards if f in sides else [HIDDEN_CARD] * len(cards)) for f, cards in d.hand.items()}
        down = d.down
        v.deck = {f: _face_down(cards, down[f]) for f, cards in d.deck.items()}
        v.seed = 0  # nothing can foresee a roll or a reshuffle
        if d.ships:
            hidden = [f for f in FACTIONS if f not in sides]
            seen = {i for f in sides for i in d.seen.get(f, [])}
            mine = [s for s in d.ships if s.owner not in hidden or s.up or s.id in seen]
            backs = sorted((Ship(-1, s.owner, s.at, False, s.moved, s.caught, s.tried, s.fought, s.landing)
                            for s in d.ships if not (s.owner not in hidden or s.up or s.id in seen)),
                           key=lambda s: (s.owner, s.at, s.moved, s.tried, s.fought, s.landing))
            v.ships = [s.copy() for s in mine] + backs
            v.pool = {f: ([HIDDEN_CARD] * len(c) if f in hidden else c) for f, c in d.pool.items()}
            v.box = {f: ([HIDDEN_CARD] * len(c) if f in hidden else c) for f, c in d.box.items()}
            v.seen = {f: (c if f in sides else []) for f, c in d.seen.items()}
            if d.sea_move is not None:
                v.sea_move = copy.copy(d.sea_move)
                v.sea_move.ships = [i if d.ships[i].owner not in hidden or d.ships[i].up else -1 for i in d.sea_move.ships]
        return v

    def visible_events(self, d: KampenData, events: list[dict[str, Any]], sides: Collection[str]) -> list[dict[str, Any]]:
        """Cards are played and discarded face up; what an event ``hide``s (a face-down ship's
        name, a 9 April card kept) reaches only the factions it names in ``see``."""
        return strip_hidden(events, sides)

    def visible_order(self, d: KampenData, order: Order, sides: Collection[str]) -> str:
        """An order as the player(s) of ``sides`` see it (``d``: the state after it): another
        faction's 9 April card kept and its face-down ships are not named (6.1, 7.0)."""
        from hexwar.games.kampen.orders import Choose, PlaceShip, Sail

        if order.side in sides:
            return order.text()
        if isinstance(order, Choose):
            return "choose a 9 April card"
        seen = {i for f in sides for i in d.seen.get(f, [])}
        if isinstance(order, PlaceShip) and not _shown(d, seen, order.ship):
            return f"ship (a card face down) {order.sea}"
        if isinstance(order, Sail) and not all(_shown(d, seen, i) for i in order.ships):
            return f"sail {len(order.ships)} ship(s) >{'>'.join(order.path)}"
        return order.text()

    def combat_dice(self, d: KampenData, explain: bool = True) -> tuple[int, int, list[dict[str, Any]]]:
        """Return (attacker dice, defender dice, ledger) of the current combat (4.2); the
        ledger is empty without ``explain``."""
        return combat.dice_pool(self, d, explain)

    # --- the engine protocol -----------------------------------------------------------------

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.scenario, "board": self.board.name}

    def initial_state(self, seed: int, dice: Dice) -> KampenData:
        """Set up (3): the scenario's battalions, shuffled decks, hands drawn at once."""
        d = KampenData(game=self.name, scenario=self.scenario, seed=seed)
        bn: dict[str, dict[str, int]] = {f: {} for f in FACTIONS}
        for f, where in self.spec.start.items():
            for name, n in where.items():
                a = self.loc(name)
                bn[f][a] = bn[f].get(a, 0) + n
        # 3.1: shuffle; a stream of its own, seeded by the game's seed, recorded in the log
        shuffler = dice.stream(f"kampen-decks:{seed}")
        deck: dict[str, list[int]] = {}
        for f in FACTIONS:
            cards_f = list(self.decks[f])
            shuffler.shuffle(cards_f, f"{f} deck")
            deck[f] = cards_f
        d.bn, d.fresh, d.deck = bn, {f: {} for f in FACTIONS}, deck
        d.down = {f: len(deck[f]) for f in FACTIONS}
        d.hand = {f: [] for f in FACTIONS}
        d.faction, d.step = GERMANS, "move"
        d.landing = (self.spec.allied_landing or {}).get("battalions", 0) if self.spec.allied_landing else 0
        d.losses = {f: 0 for f in FACTIONS}
        d.cards_used = {f: 0 for f in FACTIONS}
        d.side = GERMANS
        d.phase = "move"
        d.turn = 1
        d.box = {f: [] for f in FACTIONS}
        if self.advanced is not None:  # 7: the 9 April round replaces the set-up (its hands come in 7.4)
            april.setup(self, d, dice)
            april.advance(self, d, dice, [])
            return d
        for f in FACTIONS:  # digest ambiguity 8: hands are drawn at set-up
            cards.draw(self, d, f, self.spec.hands[f], dice, [])
        return d

    def winning_sides(self, winner: str) -> tuple[str, ...]:
        """The factions a result's winner stands for: Norway and the Allies win together (1.2)."""
        return COALITION if winner == ALLIES else (winner,)

    def current_side(self, d: KampenData) -> str:
        return d.side

    def result(self, d: KampenData) -> Result:
        winner, level = victory.standing(self, d)
        return Result(d.over, winner if d.over else None, level if d.over else f"in progress ({level})",
                      {f: d.battalions(f) for f in FACTIONS})

    def legal_orders(self, d: KampenData) -> list[Order]:
        if d.over:
            return []
        return DECISIONS[d.step].legal(self, d, d.side)

    def apply(self, d: KampenData, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if d.over:
            raise IllegalOrder("the game is over", "1.3")
        if order.side != d.side:
            raise IllegalOrder(f"it is the {d.side}' decision, not the {order.side}'", "4")
        if order not in self.legal_orders(d):
            raise IllegalOrder(f"{order.text()} is not legal now ({d.step} step of the {d.faction}' round)", "4")
        events: list[dict[str, Any]] = []
        self.apply_unchecked(d, order, dice, events)
        return events

    def apply_unchecked(self, d: KampenData, order: Order, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Apply an order already known to be legal (bots and the simulator)."""
        DECISIONS[d.step].apply(self, d, order, dice, events)

    def decision_rule(self, d: KampenData) -> str:
        """The rule section of the decision the game waits for."""
        return DECISIONS[d.step].rule

    # --- the sequence of play (``KampenRules``: the phases hand over through these) ---------------

    def april_advance(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        april.advance(self, d, dice, events)

    def movement_begin(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        movement.begin(self, d, dice, events)

    def land_movement(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        movement.land_movement(self, d, dice, events)

    def combat_start(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        combat.start(self, d, dice, events)

    def sea_start(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        sea.start(self, d, dice, events)

    def combat_after_sea(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        combat.after_sea(self, d, dice, events)

    def reinforcement_begin(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        reinforcement.begin(self, d, dice, events)


def kampen_game(scenario: str = "intro-narvik", board: Board | None = None) -> KampenGame:
    """Return the Kampen om Norge ruleset for a scenario (``intro-narvik`` or ``basic``)."""
    return KampenGame(scenario, board)

