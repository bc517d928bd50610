"""What a batch of Assault on Narvik games records: one CSV row per game, and the combats
fought set beside their exact odds on the CRT (15.1)."""

from __future__ import annotations

from typing import Any

from hexwar.core.observe import Observer as BaseObserver
from hexwar.games.common import front
from hexwar.games.narvik.state import ALLIES, GERMANS
from hexwar.sim.differential import AssaultTally, differential_exact

SCALE = ("Assault on Narvik: a turn is one week (rules 4.0), 10 turns at most, and random events (8.1) end "
         "a quarter of the games by turn 3.")


class Observer(AssaultTally, BaseObserver):
    """After every order: the first turn each objective is held by the Allies alone, every
    assault's CRT look-up (``"AD|DRM" -> {result: count}``), and the counters each side
    turned face up of its own accord (11.1; not those an attack revealed)."""

    def __init__(self, game: Any):
        # objectives by name, so "narvik" means the same town in every game's report
        super().__init__({loc: (game.board.place(loc).name if game.board.place(loc) else loc).lower()
                          for loc in sorted(game.objectives)})
        self.g = game
        self.combats: dict[str, dict[str, int]] = {}
        self.reveals = {GERMANS: 0, ALLIES: 0}

    def __call__(self, view: Any, events: list[dict[str, Any]]) -> None:
        for ev in events:
            if ev["type"] == "reveal":  # 11.1: a side turns its own counter face up
                self.reveals[view.data.units[ev["unit"]].side] += 1
        super().__call__(view, events)

    def held(self, d: Any, loc: str) -> bool:
        return bool(self.g.land_units_at(d, loc, ALLIES)) and not self.g.land_units_at(d, loc, GERMANS, real=False)

    def row(self, view: Any) -> dict[str, Any]:
        g, d = self.g, view.data
        res = view.result()
        by_type: dict[str, int] = {}
        loss = {GERMANS: 0, ALLIES: 0}
        fatigue = {GERMANS: 0, ALLIES: 0}
        for u in d.units.values():
            t = g.tables.types[u.type]
            if u.pool == "eliminated" and t.kind != "dummy":
                by_type[f"{u.side}:{t.kind}"] = by_type.get(f"{u.side}:{t.kind}", 0) + 1
                if g.is_land(u):
                    loss[u.side] += 1
            if u.loc is not None and u.side in fatigue:
                fatigue[u.side] += u.fatigue
        return {**super().row(view), **front.columns(self, self.combats, res, d.vp, by_type, loss[GERMANS], loss[ALLIES]),
                "fatigue_germans": fatigue[GERMANS], "fatigue_allies": fatigue[ALLIES],
                "reveals_germans": self.reveals[GERMANS], "reveals_allies": self.reveals[ALLIES]}


def exact(game: Any, rows: list[dict[str, Any]], min_n: int) -> list[dict[str, Any]]:
    """P(the attacker loses at least one point) for each (AD, DRM) fought, exact over the die (15.1)."""
    return differential_exact(game.tables.crt, rows, min_n)
