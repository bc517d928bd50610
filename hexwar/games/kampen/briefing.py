"""Kampen om Norge's briefing: the scenario's aims (1.3, S1), its length, the battalions and
hands as the person may see them, a faction's round (4) and the decision before the person."""

from __future__ import annotations

from typing import Any

from hexwar.board.base import place_name
from hexwar.games.kampen.sequence import PHASES, ROUND_ORDER


def brief(p: Any) -> list[tuple[str, list[str]]]:
    g, d = p.game, p.data
    mine = [f for f in ROUND_ORDER if f in p.session.humans]
    forces = []
    for f in mine:
        held = sorted((place_name(g.board, a), n) for a, n in d.bn[f].items())
        forces.append(f"{f}: " + (", ".join(f"{a} {n}" for a, n in held) or "no battalions on the board"))
        forces.append(f"  hand: {', '.join(g.copies[c].name for c in d.hand[f]) or 'no cards'}")
    enemy = [f"{f}: {sum(d.bn[f].values())} battalions in {len(d.bn[f])} areas, {len(d.hand[f])} cards in hand"
             for f in ROUND_ORDER if f not in p.session.humans]
    rounds = [f"each game round every faction plays a round, in the order {', '.join(ROUND_ORDER)} (4)"]
    rnd = [", then ".join(f"{name} ({rule})" for name, rule, _ in PHASES)]
    now = p.heading(p.s.current_side()) if not p.s.is_over() else "the game is over"
    return [("Aims and victory", p.goal_lines()), ("Length", rounds), ("Your forces", forces or ["none"]),
            ("What you know of the others", enemy), ("A faction's round", rnd),
            ("The decision before you", [now + "; explain <order number> weighs a card or a move"])]
