"""Vestfjord Patrol's bots: a hunter that plays either side by a few rules of thumb, and the
engine's search bot (ISMCTS) over it, which guesses the U-boat's hex in each playout."""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from hexwar.core.orders import Move, Order, Pass
from vestfjord.game import UBOAT, UNSEEN, Charge, Dive, PatrolData, PatrolGame, Ping


class HunterBot:
    """The destroyers keep station and ping, steam at a contact and charge it; the U-boat
    heads for the harbour, keeping clear of the destroyers' sonar. ``ranked`` orders every
    legal order by the same lights (the search bot's prior)."""

    name = "hunter"
    reads_by_kind = False
    reads_menu = False
    thinks = False
    progress: Callable[[dict[str, Any]], None] | None = None  # a bot that thinks says how far it got

    def __init__(self, side: str, seed: int | None = None):
        self.side = side
        self.rng = random.Random(seed)

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        if not legal:
            raise ValueError("no legal orders to choose from")
        return self.ranked(state, legal)[0]

    def ranked(self, state: Any, legal: Sequence[Order]) -> list[Order]:
        g: PatrolGame = state.game
        d: PatrolData = state.data
        noise = {id(o): self.rng.random() for o in legal}
        return sorted(legal, key=lambda o: (self.score(g, d, o), noise[id(o)]))

    def score(self, g: PatrolGame, d: PatrolData, o: Order) -> float:
        """Lower is better."""
        ships = [u.loc for u in g.destroyers(d) if u.loc is not None]
        if isinstance(o, Dive):
            return 0.0
        if o.side == "uboat":
            here = d.units[UBOAT].loc
            assert here is not None
            to = o.path[-1] if isinstance(o, Move) else here
            danger = sum(g.board.distance(to, s) <= 1 for s in ships)
            left = g.board.distance(to, g.harbour)
            slack = g.spec.turns - d.turn - left  # turns it may still wait and arrive (6.0)
            stay = 0.5 if isinstance(o, Pass) and d.contact is None else 2.0 if isinstance(o, Pass) else 0.0
            return left + (3.0 if slack > 0 else 0.3) * danger + stay
        seen = d.contact  # where the destroyers hold contact (never a guess: 4.0)
        if isinstance(o, Charge):
            return 0.0 if seen == o.target else 9.0
        if isinstance(o, Move):
            if seen is not None:
                return 1.0 + g.board.distance(o.path[-1], seen)
            station = g.spec.destroyers[o.unit]
            return 4.0 + g.board.distance(o.path[-1], station) if d.units[o.unit].loc != station else 8.0
        if isinstance(o, Ping):
            return 3.0 if seen is None else 7.0
        return 10.0  # a pass


def evaluate(state: Any, side: str) -> float:
    """6.0: +1 for a win, -1 for a loss; while the game goes on, how near the U-boat is to
    the harbour (for the U-boat; the opposite for the destroyers)."""
    g: PatrolGame = state.game
    d: PatrolData = state.data
    if d.over:
        return 1.0 if d.winner == side else -1.0
    here = d.units[UBOAT].loc
    near = 0.0 if here is None else 0.6 - 0.1 * g.board.distance(here, g.harbour)
    return near if side == "uboat" else -near


def determinize(state: Any, side: str, rng: random.Random) -> None:
    """Put an unseen U-boat in a sea hex it could have reached by now (2.0, 3.1)."""
    g: PatrolGame = state.game
    d: PatrolData = state.data
    u = d.units[UBOAT]
    if u.pool != UNSEEN:
        return
    reach = g.charts.speed.uboat * max(d.turn - 1, 0) + (1 if d.phase == "navy" else 0)
    ships = {s.loc for s in g.destroyers(d)}
    cands = [h for h in g.board.locations() if g.is_sea(h) and h != g.harbour and h not in ships
             and min(g.board.distance(h, e) for e in g.entries) <= reach]
    u.loc, u.pool = rng.choice(cands or list(g.entries)), None


def search_bot(side: str, seed: int, think: float) -> Any:
    from hexwar.ai.search import SearchBot

    def rank(state: Any, s: str, legal: Sequence[Order], bot: Any = None) -> list[Order]:
        return (bot if bot is not None else HunterBot(s)).ranked(state, legal)

    return SearchBot(side, seed, think, rank=rank, policy=lambda s, sd: HunterBot(s, sd), evaluate=evaluate,
                     determinize=determinize, horizon=30, turn_end=False)
