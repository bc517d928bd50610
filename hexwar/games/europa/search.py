"""What the search bot (``hexwar.ai.search``, ISMCTS) needs from the Europa "Narvik" variant:
the priority bot's ranking as the prior and its play as the rollouts, and a score of who is
winning by E2 (the seven ports) and the VP that break its bands. Everything is face up in
this variant (``EuropaGame.view``): no determinization."""

from __future__ import annotations

from typing import Any, Sequence

from hexwar.ai.search import outcome
from hexwar.core.orders import Order
from hexwar.games.europa.bots import PriorityBot
from hexwar.games.europa.state import ALLIES, GERMANS


def evaluate(state: Any, side: str) -> float:
    """E2: +1 a win, -1 a loss, 0 a draw once the game is over; while it goes on, the share of
    the seven ports the side holds beyond half of them, and a twentieth of a VP lead."""
    g, d = state.game, state.data
    if d.over:
        return outcome(g.result(d).winner, side)
    ports = g.ports_held(d, GERMANS)
    german: float = (ports - len(g.victory_ports) / 2) / len(g.victory_ports) \
        + 0.05 * (d.vp.get(GERMANS, 0) - d.vp.get(ALLIES, 0))
    return german if side == GERMANS else -german


def search_hooks() -> dict[str, Any]:
    """The prior (``PriorityBot.ranked``, a bot kept per side for its cached distances), the
    rollout policy, the score (``evaluate``); rollouts to the end of the game turn or 16
    orders (a turn holds hundreds: every unit's move is an order)."""
    kept: dict[str, PriorityBot] = {}

    def rank(state: Any, side: str, legal: Sequence[Order], bot: Any = None) -> list[Order]:
        prior = bot if bot is not None else kept.setdefault(side, PriorityBot(side))
        return prior.ranked(state, legal)

    return {"rank": rank, "policy": lambda side, seed: PriorityBot(side, seed), "evaluate": evaluate, "horizon": 16}
