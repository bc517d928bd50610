"""How Kampen om Norge ends and who wins (1.3, S1): a side with no battalions left loses at
once; at the end of the game the point cities (or S1's three objectives) decide."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import hexwar.games.kampen.events as E
from hexwar.games.kampen.state import ALLIES, GERMANS, NORWAY, KampenData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def wiped_out(g: "KampenRules", d: KampenData, events: list[Any]) -> bool:
    """1.3: the game ends the moment one side has no battalions on the board (not while the
    9 April round lands them, 7)."""
    if d.stage:
        return False
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


def end(g: "KampenRules", d: KampenData, why: str, events: list[Any]) -> None:
    d.over = True
    d.ended = why
    winner, level = standing(g, d)
    d.winner = winner
    events.append(E.GameOver(type="game_over", why=why, winner=winner, level=level, rule="1.3" if g.spec.end == "german_deck" else "S1"))


def standing(g: "KampenRules", d: KampenData) -> tuple[str | None, str]:
    """1.3 / S1: who wins if the game ended now."""
    if d.stage:
        return None, "the 9 April round: the invasion is under way (7)"
    de = d.bn[GERMANS]
    co = {a: d.bn[NORWAY].get(a, 0) + d.bn[ALLIES].get(a, 0) for a in g.land}
    if not sum(de.values()):
        return ALLIES, "Norway and Allies: clear victory (all German battalions eliminated)"
    if not sum(co.values()) and not d.landing:
        return GERMANS, "Germany: clear victory (all Norwegian and Allied battalions eliminated)"
    if isinstance(g.spec.victory, dict):  # S1
        objs = g.objectives()
        if any(de.get(a, 0) for a in objs):
            # ids, as every event carries them (an old save's log holds these words): the presenter and
            # the reports name the places (``play.words_in``: Narvik on every board, issue 72)
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
