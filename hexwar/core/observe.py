"""Watching a game for a batch: what every game's batch row starts from.

An observer is called after every order with the events it gave (``run_fast``'s
``observe``); it counts the orders, notes the turn each objective first fell to the side the
reports follow, and hands each event to the game's own ``event`` hook (combats, say).
"""

from __future__ import annotations

import json
from typing import Any, Mapping


class Observer:
    """Orders played, the first turn each objective was held, how often each changed hands, and
    where the fighting was; a game adds the rest."""

    #: the columns every game's batch row ends with (``extra``), as JSON: where combats were
    #: fought (location -> count), how often each objective changed hands, how far units
    #: moved (locations a move -> moves) and what removed units (rule -> units)
    EXTRA = ("combat_at", "changed_hands", "move_lengths", "losses_by")

    def __init__(self, objectives: Mapping[str, str]):
        self.objectives = dict(objectives)  # location -> the name reports use ("narvik")
        self.fell: dict[str, int] = {}
        self.orders = 0
        self.where: dict[str, int] = {}
        self.changes: dict[str, int] = {}
        self._held: dict[str, bool] | None = None  # who held what after the last order with events
        self.lengths: dict[int, int] = {}
        self.causes: dict[str, int] = {}

    def held(self, data: Any, loc: str) -> bool:
        """Whether the side the reports follow holds an objective now (the game says how)."""
        raise NotImplementedError

    def event(self, ev: dict[str, Any]) -> None:
        """Look at one event (a game counts its combats here)."""

    def fought_at(self, ev: dict[str, Any]) -> str | None:
        """The location of a combat an event resolves, or None (a game names its combat events)."""
        return None

    def move_length(self, ev: dict[str, Any]) -> int | None:
        """How many locations a move an event reports went, or None (a game names its moves)."""
        return None

    def lost_by(self, ev: dict[str, Any]) -> tuple[str, int] | None:
        """The rule that removed units an event reports, and how many, or None."""
        return None

    def __call__(self, view: Any, events: list[dict[str, Any]]) -> None:
        self.orders += 1
        for ev in events:
            self.event(ev)
            at = self.fought_at(ev)
            if at is not None:
                self.where[at] = self.where.get(at, 0) + 1
            n = self.move_length(ev)
            if n is not None:
                self.lengths[n] = self.lengths.get(n, 0) + 1
            lost = self.lost_by(ev)
            if lost is not None:
                self.causes[lost[0]] = self.causes.get(lost[0], 0) + lost[1]
        if events:
            d = view.data
            now = {loc: self.held(d, loc) for loc in self.objectives}
            for loc, name in self.objectives.items():
                if name not in self.fell and now[loc]:
                    self.fell[name] = d.turn
                if self._held is not None and now[loc] != self._held[loc]:  # (from the first order's state on)
                    self.changes[name] = self.changes.get(name, 0) + 1
            self._held = now

    def row(self, view: Any) -> dict[str, Any]:
        """The columns every game's row has (``hexwar.core.metrics.BASE_COLUMNS``) for one
        finished game, from its own ``result``: who won, how, when, after how many orders; a
        game adds its own to them."""
        r = view.result()
        return {"winner": r.winner or "", "level": r.level, "end_turn": view.data.turn, "orders": self.orders}

    def extra(self) -> dict[str, Any]:
        """The columns every game's row ends with (:data:`EXTRA`)."""
        return {"combat_at": json.dumps(self.where, sort_keys=True), "changed_hands": json.dumps(self.changes, sort_keys=True),
                "move_lengths": json.dumps(self.lengths, sort_keys=True), "losses_by": json.dumps(self.causes, sort_keys=True)}


class Plain(Observer):
    """What a batch records of a game that declares nothing for batches: the base row and the
    columns every row ends with; it follows no objective."""

    def __init__(self, game: object = None):
        super().__init__({})

