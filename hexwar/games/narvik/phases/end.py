"""The End Phase (6.5): fatigue recovery (21.0), the game's end on turn 10 or earlier by a
random event (24.0, 8.1), and the end-of-game victory points (29.0) and level (25.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
import hexwar.games.narvik.events as E
from hexwar.games.narvik.state import ALLIES, GERMANS, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules.zoc import AMPHIBIOUS

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules


def run(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    for ch in fat.end_of_turn_recovery(d, g.tables):  # 21.0
        events.append(E.Fatigue(type="fatigue", unit=ch.unit, fp=ch.applied, cause="recovery", rule="21.0"))
    d.tracks["ap"] = 0
    d.landed = []
    for u in d.units.values():
        if AMPHIBIOUS in u.flags:
            u.flags.remove(AMPHIBIOUS)
    last = d.turn >= g.spec.turns or (d.game_end_turn is not None and d.turn >= d.game_end_turn)
    if last:
        for loc, value in sorted(g.objectives.items()):  # 29.0: Narvik 10, the '1918' hex 5
            if g.land_units_at(d, loc, ALLIES) and not g.land_units_at(d, loc, GERMANS):
                g.score(d, ALLIES, value, f"holds {g.board.label(loc)} at the end", "29.0", events)
        d.over = True
        res = g.result(d)
        d.winner = res.winner
        events.append(E.GameOver(type="game_over", turn=d.turn, level=res.level, vp=dict(d.vp), rule="24.0, 25.1"))
        return
    d.turn += 1
    events.append(E.Turn(type="turn", turn=d.turn, rule="6.5"))
    g.to_phase(d, "initial")
