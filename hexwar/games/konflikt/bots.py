"""A priority bot for the Konflikt '47 templates: each side heads for what its scenario scores
(the enemy's zone or edge, the objectives, the centre, the documents, the enemy base), holds
what it has, assaults at a favourable differential and brings its reserves on at once.

It reads only its own view (hidden enemy units are not on its map, 3.1).
"""

from __future__ import annotations

import random
import weakref
from typing import Any, Sequence

from hexwar.core.orders import Move, Order
from hexwar.rules.orders import Assault
from hexwar.games.konflikt.game import KonfliktGame
from hexwar.games.konflikt.state import SIDES, KonfliktData
from hexwar.games.konflikt.orders import Assign, Down, Enter, Leave, Mark, Pick
from hexwar.rules.assault import assault_sums


#: board -> goals -> hex -> hexes to the nearest goal (``KonfliktBot.dist``), kept for the board
_DIST: "weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], dict[str, int]]]" = weakref.WeakKeyDictionary()


class KonfliktBot:
    name = "priority"
    reads_by_kind = False  # it reads the whole list, never a menu by kind
    reads_menu = False
    thinks = False  # it answers at once: no progress to report
    progress = None

    def __init__(self, side: str, seed: int | None = None):
        self.side = side
        self.rng = random.Random(seed)
        #: a goal list's id -> (the list, its distances): one decision's look-ups (``dist``;
        #: the list is kept with them, so its id is not reused)
        self._near: dict[int, tuple[list[str], dict[str, int]]] = {}

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        if len(legal) == 1:
            return legal[0]
        g: KonfliktGame = state.game
        d: KonfliktData = state.data
        goals = self.goals(g, d)
        self._near = {}  # the distances of this decision's position
        scored = [(self.score(g, d, o, goals), i) for i, o in enumerate(legal)]
        top = max(s for s, _ in scored)
        best = [legal[i] for s, i in scored if s >= top - 1e-9]
        return best[self.rng.randrange(len(best))]

    def __call__(self, state: Any, legal: Sequence[Order]) -> Order:
        return self.choose(state, legal)

    def ranked(self, state: Any, legal: Sequence[Order]) -> list[Order]:
        """The legal orders best first by this bot's scores (ties in list order), for the
        search bot's prior; a pick's score is a coin (``score``), as in ``choose``."""
        g: KonfliktGame = state.game
        d: KonfliktData = state.data
        goals = self.goals(g, d)
        self._near = {}
        scored = sorted((-self.score(g, d, o, goals), i) for i, o in enumerate(legal))
        return [legal[i] for _, i in scored]

    def goals(self, g: KonfliktGame, d: KonfliktData) -> list[str]:
        """Where this side's units should be, by the scenario's victory (2.1-2.6)."""
        if not d.edge:
            return []
        me, foe = self.side, g.other(self.side)
        kind = g.spec_of(d).victory["kind"]
        enemies = [u.loc for u in d.on_map(foe) if u.loc is not None]
        if kind == "points":
            if d.attacker == me and g.spec_of(d).exit:
                return g.table.edge_locs[d.edge[foe]]
            if d.attacker and d.attacker != me:
                return g.zone(d, me)
            return enemies or g.zone(d, foe)
        if kind in ("objectives", "control"):
            return sorted(d.objectives)
        if kind == "marker":
            if d.carrier and d.units[d.carrier].side == me:
                return g.table.edge_locs[d.edge[me]]
            return [d.marker] if d.marker else enemies
        base = d.base_at.get(foe)
        return [base] if base else enemies

    def dist(self, g: KonfliktGame, loc: str, goals: list[str]) -> int:
        """Hexes from ``loc`` to the nearest of ``goals`` (0 without goals): a list asks it for
        every move's start and end, so each answer is kept for the board and the goals (an
        edge, a zone, the objectives stay the same all game)."""
        kept = self._near.get(id(goals))
        if kept is None or kept[0] is not goals:
            per_board = _DIST.get(g.board)
            if per_board is None:
                per_board = _DIST[g.board] = {}
            key = tuple(goals)
            field = per_board.get(key)
            if field is None:
                if len(per_board) >= 256:  # the enemy's hexes as goals change as it moves
                    per_board.clear()
                field = per_board[key] = {}
            kept = self._near[id(goals)] = (goals, field)
        field = kept[1]
        hit = field.get(loc)
        if hit is None:
            hit = field[loc] = min((g.board.distance(loc, x) for x in goals), default=0)
        return hit

    def score(self, g: KonfliktGame, d: KonfliktData, o: Order, goals: list[str]) -> float:
        if isinstance(o, Pick):
            return self.rng.random()
        if isinstance(o, Mark):  # objectives and bases deep in cover, objectives spread
            return (1.0 if g.cover(o.at) else 0.0) + 0.1 * g.table.depth[o.at][d.edge[self.side]]
        if isinstance(o, Assign):
            if o.where == "table":
                return 1.0 + (1.5 if o.hidden else 0.0) + (0.5 if g.cover(o.at) else 0.0) - 0.05 * self.dist(g, o.at, goals)
            return {"first wave": 0.8, "reserve": 0.2}.get(o.where, 0.0)
        if isinstance(o, Leave):
            return 10.0
        if isinstance(o, Enter):
            return 3.0 - 0.05 * self.dist(g, o.at, goals)
        if isinstance(o, Assault):
            if any(x.concealed for x in d.at(o.target)):
                return -1.0
            sums = assault_sums(d, g.tables, o.units, [u.id for u in d.at(o.target) if u.side != self.side], cites=g.cites.assault)
            return 1.0 + 0.6 * sums.differential - 0.2 * (len(o.units) - 1)
        if isinstance(o, Move):
            u = d.units[o.unit]
            if u.id == d.carrier and g.spec_of(d).victory["kind"] == "marker":
                goals = g.table.edge_locs[d.edge[self.side]]
            here, there = self.dist(g, o.path[0], goals), self.dist(g, o.path[-1], goals)
            return 0.8 * (here - there) + (0.3 if g.cover(o.path[-1]) else 0.0) - 0.01 * len(o.path)
        if isinstance(o, Down):
            u = d.units[o.unit]
            if u.loc is not None and goals and self.dist(g, u.loc, goals) == 0:
                return 0.5  # hold the objective
            return 0.0 if u.loc is None else -0.2
        return 0.0


__all__ = ["KonfliktBot", "SIDES"]
