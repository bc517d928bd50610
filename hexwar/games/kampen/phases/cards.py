"""Cards and the end of a round (2.4, 4.4, 1.3): a used card goes to the bottom of its deck;
a faction that used no card discards one; hands are drawn up; an exhausted deck ends the
game (Germany), is reshuffled (Norway) or ends the Allied cards with a withdrawal; and who
wins when the game ends (1.3, S1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.dice import Dice
from hexwar.core.orders import Order
from hexwar.games.kampen import events as E
from hexwar.games.kampen.orders import Discard
from hexwar.games.kampen.state import ALLIES, FACTIONS, GERMANS, NORWAY, KampenData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.game import KampenGame


def use_card(g: "KampenGame", d: KampenData, f: str, cid: int, events: list, how: str = "played") -> None:
    """2.4: a used card goes to the bottom of its own deck, face up."""
    d.hand[f].remove(cid)
    d.deck[f].append(cid)
    d.used += 1
    d.cards_used[f] += 1
    events.append(E.Card(type="card", faction=f, card=g.copies[cid].card, copy=cid, how=how, rule="2.4"))


def new_cards(g: "KampenGame", d: KampenData, dice: Dice, events: list) -> None:
    f = d.faction
    if f in g.spec.must_play and d.used == 0 and d.hand[f] and d.down[f] > 0:
        g.ask(d, "discard", f)  # 4.4: no card used: discard one, draw one
        return
    finish_round(g, d, dice, events)


def legal_discard(g: "KampenGame", d: KampenData, f: str) -> list[Order]:
    seen = set()
    out: list[Order] = []
    for cid in d.hand[f]:
        cp = g.copies[cid]
        if cp.card not in seen:
            seen.add(cp.card)
            out.append(Discard(f, cid, cp.card))
    return out


def do_discard(g: "KampenGame", d: KampenData, o: Order, dice: Dice, events: list) -> None:
    assert isinstance(o, Discard)
    f = d.faction
    d.hand[f].remove(o.copy)
    d.deck[f].append(o.copy)  # digest ambiguity 9: to the bottom, face up
    events.append(E.Discard(type="discard", faction=f, card=o.card, rule="4.4"))
    finish_round(g, d, dice, events)


def draw(g: "KampenGame", d: KampenData, f: str, n: int, dice: Dice, events: list) -> None:
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


def exhausted(g: "KampenGame", d: KampenData, f: str, dice: Dice, events: list) -> None:
    """2.4: what happens when the first face-up card shows on top of a deck."""
    events.append(E.DeckExhausted(type="deck_exhausted", faction=f, rule="2.4"))
    if g.spec.end == "allied_deck":
        if f == ALLIES:
            end(g, d, "the Allies drew their last unused card (S1)", events)
        return  # S1: no new cards once a deck is used up
    if f == GERMANS:
        end(g, d, "the German deck is exhausted (1.3)", events)
    elif f == NORWAY:  # reshuffle the used cards face down (a logged draw of its own stream)
        used = d.deck[f]
        dice.stream(f"kampen-reshuffle:{d.seed}:{d.turn}").shuffle(used, "norwegian reshuffle")
        d.down[f] = len(used)
        events.append(E.Reshuffle(type="reshuffle", faction=f, cards=len(used), rule="2.4"))
    else:  # Allies: no more cards; remove 4 battalions (the largest stacks first)
        left = 4
        for a, n in sorted(d.bn[ALLIES].items(), key=lambda kv: (-kv[1], kv[0])):
            k = min(left, n)
            d.add(ALLIES, a, -k)
            left -= k
            if not left:
                break
        d.down[f] = -1  # never draws again
        events.append(E.AlliedWithdrawal(type="allied_withdrawal", battalions=4 - left, rule="2.4"))


def finish_round(g: "KampenGame", d: KampenData, dice: Dice, events: list) -> None:
    """4.4: draw up the hand; the next faction's round (a new game round after the Allies)."""
    f = d.faction
    need = g.spec.hands[f] - len(d.hand[f])
    if need > 0:
        draw(g, d, f, need, dice, events)
        events.append(E.Draw(type="draw", faction=f, hand=len(d.hand[f]), rule="4.4"))
    if d.over:
        return
    if wiped_out(g, d, events):
        return
    nxt = FACTIONS[(FACTIONS.index(f) + 1) % 3]
    if nxt == GERMANS:
        d.turn += 1
    d.faction, d.used, d.attacks, d.attacked_from, d.rein = nxt, 0, {}, [], None
    d.fresh = {x: {} for x in FACTIONS}
    events.append(E.Round(type="round", faction=nxt, game_round=d.turn, rule="4"))
    g.ask(d, "move", nxt)


def wiped_out(g: "KampenGame", d: KampenData, events: list) -> bool:
    """1.3: the game ends the moment one side has no battalions on the board."""
    de = d.battalions(GERMANS)
    co = d.battalions(NORWAY) + d.battalions(ALLIES)
    pending = sum(grp.n for gs in d.attacks.values() for grp in gs)
    if d.combat:
        pending += sum(grp.n for grp in d.combat.groups)
    if de + (pending if d.faction == GERMANS else 0) == 0:
        end(g, d, "all German battalions eliminated", events)
        return True
    if co + (pending if d.faction != GERMANS else 0) == 0 and d.landing == 0:
        end(g, d, "all Norwegian and Allied battalions eliminated", events)
        return True
    return False


def end(g: "KampenGame", d: KampenData, why: str, events: list) -> None:
    d.over = True
    d.ended = why
    winner, level = standing(g, d)
    d.winner = winner
    events.append(E.GameOver(type="game_over", why=why, winner=winner, level=level, rule="1.3" if g.spec.end == "german_deck" else "S1"))


def standing(g: "KampenGame", d: KampenData) -> tuple[str | None, str]:
    """1.3 / S1: who wins if the game ended now."""
    de = d.bn[GERMANS]
    co = {a: d.bn[NORWAY].get(a, 0) + d.bn[ALLIES].get(a, 0) for a in g.land}
    if not sum(de.values()):
        return ALLIES, "Norway and Allies: clear victory (all German battalions eliminated)"
    if not sum(co.values()) and not d.landing:
        return GERMANS, "Germany: clear victory (all Norwegian and Allied battalions eliminated)"
    if isinstance(g.spec.victory, dict):  # S1
        objs = g.objectives()
        if any(de.get(a, 0) for a in objs):
            return GERMANS, "Germany wins: it still occupies " + ", ".join(a for a in objs if de.get(a, 0))
        if all(co.get(a, 0) for a in objs):
            return ALLIES, "Norway and Allies win: they control Narvik, Bjørnfjell and Bardufoss"
        return None, "no winner: an objective is empty (digest ambiguity 28)"
    held = [a for a in g.point_cities if not de.get(a, 0)]  # 1.3: empty cities count as Norwegian
    if not held:
        bns = sum(co.values())
        return GERMANS, ("Germany: clear victory (all point cities, 3 or fewer NO+AL battalions)" if bns <= 3
                         else "Germany: narrow victory (all point cities)")
    if len(held) >= 2:
        return ALLIES, f"Norway and Allies: clear victory ({len(held)} point cities)"
    return ALLIES, "Norway and Allies: narrow victory (1 point city)"
