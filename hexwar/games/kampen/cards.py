"""Kampen om Norge's cards as the game uses them: one ``Copy`` per physical card (2.4)."""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.data.loader import DataError, Library, Problem, _rel
from hexwar.games.kampen.schemas import CardUse, KampenCardsSpec, KampenScenarioSpec
from hexwar.games.kampen.state import FACTIONS


@dataclass(frozen=True)
class Copy:
    """One physical card: its id in the game, its card, symbols and per-copy dice."""

    id: int
    card: str
    type: str
    name: str
    symbols: int
    dice: int | None
    uses: tuple[CardUse, ...]

    def use(self, slot: str) -> CardUse | None:
        """Return what the card does when played in ``slot`` (None: it cannot be)."""
        for u in self.uses:
            if u.slot == slot:
                return u
        return None

    def dice_for(self, u: CardUse) -> int:
        """Return the dice this copy adds for a use (Panzer copies differ, Ex 1 and Ex 3)."""
        return self.dice if (self.dice is not None and u.dice) else u.dice


def build_copies(cards: KampenCardsSpec, spec: KampenScenarioSpec, library: Library,
                 scenario: str) -> tuple[list[Copy], dict[str, list[int]]]:
    """Return every copy in the game and each faction's deck (copy ids), as the scenario deals them."""
    copies: list[Copy] = []
    decks: dict[str, list[int]] = {}
    full = {f: [(c.card, c.count, c.symbols, c.dice) for c in cards.decks[f].copies] for f in FACTIONS}
    for f in FACTIONS:
        if spec.decks == "full":
            wanted = full[f]
        else:
            wanted = []
            for card, count in spec.decks.get(f, {}).items():
                if card not in cards.cards:
                    raise DataError([Problem(_rel(library.path("oob", f"kampen/{scenario}")), f"decks.{f}.{card}",
                                             "not a card of oob/kampen-cards.yaml (S1)")])
                proto = next(((s, dv) for deck in full.values() for (c, _, s, dv) in deck if c == card), (1, None))
                wanted.append((card, count, proto[0], proto[1]))
        ids = []
        for card, count, symbols, dice in wanted:
            cs = cards.cards[card]
            for _ in range(count):
                cid = len(copies)
                copies.append(Copy(cid, card, cs.type, cs.name, symbols, dice, tuple(cs.uses)))
                ids.append(cid)
        decks[f] = ids
    return copies, decks
