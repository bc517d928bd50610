"""Cards and the end of a round (2.4, 4.4): a used card goes to the bottom of its deck; a
faction that used no card discards one; hands are drawn up; an exhausted deck ends the game
(Germany), is reshuffled (Norway) or ends the Allied cards with a withdrawal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import hexwar.games.kampen.events as E
from hexwar.core.dice import Dice
from hexwar.core.orders import Order
from hexwar.games.kampen.orders import Discard, Recall, RemoveShip
from hexwar.games.kampen.phases import victory
from hexwar.games.kampen.state import (
    ALLIES,
    FACTIONS,
    GERMANS,
    NORWAY,
    REMOVED,
    SUNK,
    KampenData,
    Ship,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def use_card(g: "KampenRules", d: KampenData, f: str, cid: int, events: list[Any], how: str = "played") -> None:
    """2.4: a used card goes to the bottom of its own deck, face up (a 9 April card leaves
    play, 6.2)."""
    d.hand[f].remove(cid)
    (d.box[f] if g.copies[cid].april9 else d.deck[f]).append(cid)
    if f == d.faction:  # 4.4: only the round's own faction's cards excuse its discard
        d.used += 1
    d.cards_used[f] += 1
    events.append(E.Card(type="card", faction=f, card=g.copies[cid].card, copy=cid, how=how, rule="2.4"))


def new_cards(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    if d.stage:  # 7.3 goes on to the next faction's reinforcements, 7.4 draws for all
        g.april_advance(d, dice, events)
        return
    if f in g.spec.must_play and d.used == 0 and d.hand[f] and d.down[f] > 0:
        g.ask(d, "discard", f)  # 4.4: no card used: discard one, draw one
        return
    finish_round(g, d, dice, events)


def legal_discard(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    seen = set()
    out: list[Order] = []
    for cid in d.hand[f]:
        cp = g.copies[cid]
        if cp.card not in seen:
            seen.add(cp.card)
            out.append(Discard(f, cid, cp.card))
    return out


def do_discard(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Discard)
    f = d.faction
    d.hand[f].remove(o.copy)
    d.deck[f].append(o.copy)  # digest ambiguity 9: to the bottom, face up
    events.append(E.Discard(type="discard", faction=f, card=o.card, rule="4.4"))
    finish_round(g, d, dice, events)


def draw(g: "KampenRules", d: KampenData, f: str, n: int, dice: Dice, events: list[Any]) -> None:
    for _ in range(n):
        if d.down[f] <= 0:
            break
        cid = d.deck[f].pop(0)
        d.down[f] -= 1
        d.hand[f].append(cid)
        if d.down[f] == 0:
            exhausted(g, d, f, dice, events)
            if d.over:
                return


def exhausted(g: "KampenRules", d: KampenData, f: str, dice: Dice, events: list[Any]) -> None:
    """2.4: what happens when the first face-up card shows on top of a deck."""
    events.append(E.DeckExhausted(type="deck_exhausted", faction=f, rule="2.4"))
    if g.spec.end == "allied_deck":
        if f == ALLIES:
            victory.end(g, d, "the Allies drew their last unused card (S1)", events)
        return  # S1: no new cards once a deck is used up
    if f == GERMANS:
        victory.end(g, d, "the German deck is exhausted (1.3)", events)
    elif f == NORWAY:  # reshuffle the used cards face down (a logged draw of its own stream)
        used = d.deck[f]
        dice.stream(f"kampen-reshuffle:{d.seed}:{d.turn}").shuffle(used, "norwegian reshuffle")
        d.down[f] = len(used)
        events.append(E.Reshuffle(type="reshuffle", faction=f, cards=len(used), rule="2.4"))
    else:  # Allies: no more cards; they remove 4 battalions of their choice (5.2: and 5 ships)
        d.down[f] = -1  # never draws again
        d.recall = min(4, d.battalions(ALLIES))
        events.append(E.AlliedWithdrawal(type="allied_withdrawal", battalions=d.recall, rule="2.4"))
        if g.advanced is not None:
            d.ship_recall = min(g.advanced.exhaustion_ships, len(allied_ships(d)))


def allied_ships(d: KampenData) -> list[Ship]:
    """The Allied ships still in play: at sea, on their way, or set aside as the Home Fleet."""
    return [s for s in d.ships if s.owner == ALLIES and s.at not in (SUNK, REMOVED)]


def legal_unship(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """5.2: the 5 ships may include one smaller ship and one heavy cruiser; the rest must be
    battleships or carriers, if the Allies have them (digest ambiguity 24: else what they have)."""
    gone = [g.fleet[s.id].type for s in d.ships if s.owner == ALLIES and s.at == REMOVED]
    ships = allied_ships(d)
    ok = [s for s in ships if g.fleet[s.id].type in ("battleship", "carrier")
          or (g.fleet[s.id].type == "smaller" and "smaller" not in gone)
          or (g.fleet[s.id].type == "heavy_cruiser" and "heavy_cruiser" not in gone)]
    return [RemoveShip(f, s.id, g.fleet[s.id].name) for s in (ok or ships)]


def do_unship(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, RemoveShip)
    d.ships[o.ship].at = REMOVED
    d.ship_recall = min(d.ship_recall - 1, len(allied_ships(d)))
    events.append(E.ShipRemoved(type="ship_removed", faction=ALLIES, ship=o.name, rule="5.2"))
    next_round(g, d, dice, events)


def legal_recall(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """2.4: the Allies choose the battalions they remove, one at a time."""
    return [Recall(f, a) for a in sorted(d.bn[ALLIES])]


def do_recall(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Recall)
    d.add(ALLIES, o.area, -1)
    d.recalled += 1
    d.recall = min(d.recall - 1, d.battalions(ALLIES))
    events.append(E.Recalled(type="recalled", area=o.area, rule="2.4"))
    next_round(g, d, dice, events)


def finish_round(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """4.4: draw up the hand; the next faction's round (a new game round after the Allies)."""
    f = d.faction
    need = g.spec.hands[f] - len(d.hand[f])
    if need > 0:
        draw(g, d, f, need, dice, events)
        events.append(E.Draw(type="draw", faction=f, hand=len(d.hand[f]), rule="4.4"))
    next_round(g, d, dice, events)


def next_round(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """After the draw (and any 2.4 recall): the next faction's round."""
    f = d.faction
    if d.over:
        return
    # 2.4, 5.2: the Allies remove what they still have: their deck may have run out in
    # another faction's round (cards lost at sea, 6.1, 7.2), whose fighting and sinking went
    # on before this round's end, where the removal is asked (it asked for battalions and
    # ships gone meanwhile and left the Allies no legal order)
    d.ship_recall = min(d.ship_recall, len(allied_ships(d)))
    if d.ship_recall:
        g.ask(d, "unship", ALLIES)
        return
    d.recall = min(d.recall, d.battalions(ALLIES))
    if d.recall:
        g.ask(d, "recall", ALLIES)
        return
    if victory.wiped_out(g, d, events):
        return
    nxt = FACTIONS[(FACTIONS.index(f) + 1) % 3]
    if nxt == GERMANS:
        d.turn += 1
    d.faction, d.used, d.attacks, d.attacked_from, d.rein = nxt, 0, {}, [], None
    d.fresh = {x: {} for x in FACTIONS}
    for s in d.ships:  # 8.1: a new round, every ship may move and intercept again
        s.moved, s.tried, s.fought = 0, False, False
    d.intercepts, d.raid_open = {}, False
    events.append(E.Round(type="round", faction=nxt, game_round=d.turn, rule="4"))
    g.movement_begin(d, dice, events)
