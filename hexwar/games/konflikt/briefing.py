"""Konflikt '47's briefing: the scenario template's aims and points (2.1-2.6), the game's
length (1), the forces from the person's view, a turn (4) and the decision before the person."""

from __future__ import annotations

from typing import Any

from hexwar.games.common.briefing import forces


def brief(p: Any) -> list[tuple[str, list[str]]]:
    g, d = p.game, p.session.view()
    if not d.template:
        aims = ["the scenario is rolled on the templates chart (1): a d6 picks one of six"]
    else:
        spec = g.spec_of(d)
        aims = [f"{spec.title} ({spec.source})"]
        for who, pts in spec.points.items():
            aims.append(f"the {who} scores " + ", ".join(f"{v} for each enemy unit {k.replace('_', ' ')}"
                                                        for k, v in pts.items()))
        if spec.objectives:
            aims.append("objectives: " + ", ".join(f"{k}: {v}" for k, v in spec.objectives.items()))
        kind = spec.victory.get("kind", "")
        margin = spec.victory.get("margin")
        aims.append(f"victory on {kind}" + (f", by a margin of {margin}" if margin else ""))
    gl = g.t.game_length
    length = [f"{gl['die_after_turn'].value} turns, then a die for one more, {gl['max_turns'].value} at most (1); "
              "each turn every unit acts once, in the order the order dice are drawn (4)"]
    step = d.todo[0] if d.todo else "play"
    now = {"pick": "the high roller picks a role or a table edge (2)", "play": "a unit's order for this draw (4.3)"}
    return [("Aims and victory", aims), ("Length", length),
            *forces(d, p.session.humans, p.visible, g.board.label),
            ("The decision before you", [now.get(step, f"the set-up: {step} (3)")])]
