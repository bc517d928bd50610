"""Kampen om Norge's rules that hold after every order, each broken one as a sentence with
its rule (the registry's ``invariants``: the conformance suite checks them after every order
of random games and of priority-bot games). What needs a game's history (battalions counted
against those ever placed, a sunk ship staying sunk) stays in the state machine tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.games.kampen.sequence import DECISIONS
from hexwar.games.kampen.state import (
    ALLIES,
    FACTIONS,
    GERMANS,
    NORWAY,
    RAID,
    REMOVED,
    RESERVE,
    SUNK,
    TO_PLACE,
    KampenData,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.game import KampenGame

#: the decisions of the combat phase, on land (4.2) and at sea (8.2): the only times
#: enemies stand in one area
COMBAT_STEPS = frozenset(step for step, x in DECISIONS.items() if x.phase == "combat")


def broken(g: "KampenGame", d: KampenData) -> list[str]:
    """Return every rule the state breaks (empty: all hold)."""
    out = []
    for f in FACTIONS:
        have = sorted(d.hand[f] + d.deck[f] + d.box.get(f, []) + d.pool.get(f, []))
        if have != sorted(g.decks[f] + g.april_decks[f]):
            out.append(f"2.4: the {f}' cards in hand, deck, box and 9 April choice are not the cards of their deck")
        if d.down[f] > len(d.deck[f]):
            out.append(f"2.4: {f} has {d.down[f]} cards face down in a deck of {len(d.deck[f])}")
        if g.advanced is None and len(d.hand[f]) > g.spec.hands[f]:
            out.append(f"2.4: {f} holds {len(d.hand[f])} cards, the hand is {g.spec.hands[f]}")
        for area, n in sorted(d.bn[f].items()):
            if n <= 0 or area not in g.land:
                out.append(f"2.2: {f} has {n} battalions in {area!r}")
    if d.step not in COMBAT_STEPS:
        for a in sorted(d.bn[GERMANS]):
            if d.bn[NORWAY].get(a) or d.bn[ALLIES].get(a):
                out.append(f"4.2: Germany and its enemies share {a} outside a combat")
    places = set(g.seas) | {RAID, REMOVED, RESERVE, SUNK, TO_PLACE}
    if [s.id for s in d.ships] != list(range(len(g.fleet))):
        out.append("6.1: the ships in play are not the fleet's ship cards, each once")
    for s in d.ships:
        if s.at not in places or s.owner != g.fleet[s.id].owner:
            out.append(f"6.1: ship {s.id} ({s.owner}) is at {s.at!r}")
        elif s.owner == ALLIES and s.at in g.mined:
            out.append(f"5.1: the Allied ship {s.id} is in {s.at}, closed to Allied ships")
        if not d.stage and g.fleet[s.id].dummy and s.at != REMOVED:
            out.append(f"6.1: the dummy ship {s.id} is still in play after the 9 April round")
    return out
