"""The end of a player turn and of a game turn (E3: the German player turn, then the Allied)."""

from __future__ import annotations


from typing import Any
import hexwar.games.europa.events as E
from hexwar.games.europa.context import EuropaRules
from hexwar.games.europa.state import ALLIES, GERMANS, EuropaData


def end_player_turn(g: EuropaRules, d: EuropaData, events: list[Any]) -> None:
    """After the exploitation phase: the Allied player turn follows the German one; after the
    Allied one the next game turn begins, or the game ends (E2: the ports decide)."""
    d.out_of_supply = []
    d.carried = {}
    if d.side == GERMANS:
        d.side = ALLIES
    elif d.turn >= g.spec.turns:
        d.over = True
        res = g.result(d)
        d.winner = res.winner
        events.append(E.GameOver(type="game_over", turn=d.turn, ports=g.ports_held(d), level=res.level, rule="E2"))
        return
    else:
        d.turn += 1
        d.side = GERMANS
    g.to_phase(d, "reinforcement")
