"""A flat Monte Carlo search bot over the game API.

It ranks the legal orders with a game's prior, tries the best few, plays each out with the
game's rollout policy for both sides (to the end of the turn, or a horizon) several times
within its time budget, and keeps the best average score. Hidden information is never used:
before every rollout the game's ``determinize`` reshuffles what the searching side may not
see (which face-down counter is which).
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Sequence

from hexwar.core.orders import Order


class SearchBot:
    """Flat Monte Carlo search; the game supplies the prior, the rollout policy, the score
    and the determinization."""

    name = "search"

    def __init__(self, side: str, seed: int | None = None, budget_s: float = 1.0, *,
                 rank: Callable[[Any, str, Sequence[Order]], list[Order]],
                 policy: Callable[[str, int], Any],
                 evaluate: Callable[[Any, str], float],
                 determinize: Callable[[Any, str, random.Random], None] = lambda s, side, rng: None,
                 candidates: int = 4, horizon: int = 60):
        self.side = side
        self.rng = random.Random(seed)
        self.budget = budget_s
        self.k = candidates
        self.horizon = horizon
        self.rank, self.policy, self.evaluate, self.determinize = rank, policy, evaluate, determinize

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        if len(legal) == 1:
            return legal[0]
        ranked = self.rank(state, self.side, legal)[: self.k]
        totals = {i: 0.0 for i in range(len(ranked))}
        counts = {i: 0 for i in range(len(ranked))}
        deadline = time.monotonic() + self.budget
        i = 0
        while time.monotonic() < deadline or min(counts.values()) == 0:
            j = i % len(ranked)
            totals[j] += self.rollout(state, ranked[j])
            counts[j] += 1
            i += 1
            if i > 200:
                break
        best = max(range(len(ranked)), key=lambda j: (totals[j] / max(1, counts[j]), -j))
        return ranked[best]

    __call__ = choose

    def rollout(self, state: Any, first: Order) -> float:
        s = state.clone()
        self.determinize(s, self.side, self.rng)
        s.apply(first)
        sides = {}
        turn = s.data.turn
        for _ in range(self.horizon):
            if s.is_over() or s.data.turn > turn:
                break
            side = s.current_side()
            if side not in sides:
                sides[side] = self.policy(side, self.rng.randrange(1 << 30))
            s.apply(sides[side].choose(s, s.legal_orders()))
        return self.evaluate(s, self.side)
