"""Watching a game for a batch: what every game's batch row starts from.

An observer is called after every order with the events it gave (``run_fast``'s
``observe``); it counts the orders, notes the turn each objective first fell to the side the
reports follow, and hands each event to the game's own ``event`` hook (combats, say).
"""

from __future__ import annotations

from typing import Any, Mapping


class Observer:
    """Orders played and the first turn each objective was held; a game adds the rest."""

    def __init__(self, objectives: Mapping[str, str]):
        self.objectives = dict(objectives)  # location -> the name reports use ("narvik")
        self.fell: dict[str, int] = {}
        self.orders = 0

    def held(self, data: Any, loc: str) -> bool:
        """Whether the side the reports follow holds an objective now (the game says how)."""
        raise NotImplementedError

    def event(self, ev: dict[str, Any]) -> None:
        """Look at one event (a game counts its combats here)."""

    def __call__(self, view: Any, events: list[dict[str, Any]]) -> None:
        self.orders += 1
        for ev in events:
            self.event(ev)
        if events:
            d = view.data
            for loc, name in self.objectives.items():
                if name not in self.fell and self.held(d, loc):
                    self.fell[name] = d.turn
