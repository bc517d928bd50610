"""What the search bot (``hexwar.ai.search``, ISMCTS) needs from Konflikt '47: the priority
bot's scores as the prior and its play as the rollouts, and a score of who is winning by the
scenario's victory (2.1-2.6) and the units each side has lost.

A side's view (``KonfliktGame.view``, 3.1, 3.5) takes the other side's hidden units off the
table into its reserve, and hides its outflankers' directions. The search plays that view as
it is (no determinization): it never guesses where a hidden unit sits, so its rollouts play
as if the hidden units were still to come. Nothing the side may not see reaches it."""

from __future__ import annotations

from typing import Any, Sequence

from hexwar.ai.search import outcome
from hexwar.core.orders import Order
from hexwar.games.konflikt import victory
from hexwar.games.konflikt.bots import KonfliktBot


def evaluate(state: Any, side: str) -> float:
    """+1 a win, -1 a loss, 0 a draw once the game is over; while it goes on, half of what
    the standing would give if it ended now (``victory.standing``) and three tenths of the
    balance of units lost ((enemy lost - own lost) / all lost)."""
    g, d = state.game, state.data
    if d.over:
        return outcome(g.result(d).winner, side)
    winner, _ = victory.standing(g, d)
    now = outcome(winner, side)
    mine, theirs = len(victory.lost(g, d, side)), len(victory.lost(g, d, g.other(side)))
    return 0.5 * now + 0.3 * (theirs - mine) / max(1, mine + theirs)


def search_hooks() -> dict[str, Any]:
    """The prior (``KonfliktBot.ranked``), the rollout policy, the score (``evaluate``);
    rollouts to the end of the turn or 24 orders."""

    def rank(state: Any, side: str, legal: Sequence[Order], bot: Any = None) -> list[Order]:
        prior = bot if bot is not None else KonfliktBot(side)
        return prior.ranked(state, legal)

    return {"rank": rank, "policy": lambda side, seed: KonfliktBot(side, seed), "evaluate": evaluate}
