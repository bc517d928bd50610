"""The Europa "Narvik" variant's briefing: the ports that decide (E2), the game's length, the
forces from the person's view, a turn's phases (E3) and the decision before the person."""

from __future__ import annotations

from typing import Any

from hexwar.games.common.briefing import forces
from hexwar.games.europa.sequence import PHASES


def brief(p: Any) -> list[tuple[str, list[str]]]:
    g, d = p.game, p.session.view()
    bands = [f"{b.ports[0]}-{b.ports[1]} ports German: {b.level}" for b in g.rules.victory]
    aims = ["the seven ports decide (E2): who owns them at the end; VP break a tie where the chart says so",
            "; ".join(bands)]
    length = [f"{g.spec.turns} turns of 4 days (E1), from 9 April; now turn {d.turn}"]
    turn = [", then ".join(f"{ph.name} ({ph.rule})" for ph in PHASES.values())]
    ask = d.ask
    now = (f"{ask.what} ({g.decisions[ask.what].rule})" if ask is not None and ask.what in g.decisions
           else "nothing: the bots are playing")
    return [("Aims and victory", aims), ("Length", length),
            *forces(d, p.session.humans, p.visible, g.board.label),
            ("A turn (E3)", turn), ("The decision before you", [now + "; explain <order number> weighs an order"])]
