"""What the search bot (``hexwar.ai.search``, ISMCTS) needs from Kampen om Norge: the
priority bot's ranking as the prior and its play as the rollouts, who would win if the game
ended now (1.3, S1) and the battalions on the board as the score, and the cards a faction
cannot see dealt out at random before each iteration (2.4, 6.1, 7.0).

A faction's view (``KampenGame.view``) shows its own hand, the used cards at the bottom of
every deck and the ships it has seen; everything else is a card back. A determinization
gives each card back one of the copies the view does not show, of the same faction and kind
(an ordinary card, a 9 April card), and each face-down ship one of its owner's ship cards the
view does not show: a rollout plays with cards and ships nobody told the searching faction of.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Sequence

from hexwar.core.orders import Order
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.kampen.game import HIDDEN_CARD
from hexwar.games.kampen.phases.victory import standing
from hexwar.games.kampen.state import ALLIES, FACTIONS, GERMANS, NORWAY


def search_hooks() -> dict[str, Any]:
    """The prior, the rollout policy, the score and the determinization of Kampen om Norge;
    rollouts run to the end of the game or ``horizon`` orders (a game is a few rounds)."""

    def rank(state: Any, side: str, legal: Sequence[Order], bot: Any = None) -> list[Order]:
        prior = bot if bot is not None else KampenBot(side)
        return prior.ranked(state, legal)

    return {"rank": rank, "policy": lambda side, seed: KampenBot(side, seed), "evaluate": evaluate,
            "determinize": determinize, "horizon": 60, "turn_end": False}


def evaluate(state: Any, side: str) -> float:
    """1.3, S1: +1 for a win (Norway and the Allies win together), -1 for a loss, 0 for a
    draw; while the game goes on, half of what the standing would give if it ended now and
    three tenths of the battalion balance ((own - enemy) / all on the board)."""
    g, d = state.game, state.data
    german = side == GERMANS
    if d.over:
        if d.winner is None:
            return 0.0
        return 1.0 if (d.winner == GERMANS) == german else -1.0
    winner, _ = standing(g, d)
    now = 0.0 if winner is None else (1.0 if (winner == GERMANS) == german else -1.0)
    de = d.battalions(GERMANS)
    co = d.battalions(NORWAY) + d.battalions(ALLIES)
    balance = (de - co) / max(1, de + co)
    value: float = 0.5 * now + 0.3 * (balance if german else -balance)
    return value


def determinize(s: Any, side: str, rng: random.Random) -> None:
    """Deal every card back and face-down ship of a faction's view (see the module)."""
    g, d = s.game, s.data
    for f in FACTIONS:
        zones = [z for z in (d.hand, d.deck, d.pool, d.box) if f in z]
        backs = sum(z[f].count(HIDDEN_CARD) for z in zones)
        if not backs:
            continue
        shown = Counter(c for z in zones for c in z[f] if c != HIDDEN_CARD)
        unseen = sorted((Counter(g.decks[f]) + Counter(g.april_decks.get(f, ())) - shown).elements())
        if len(unseen) != backs:
            raise ValueError(f"kampen search: {f} has {backs} card backs in the view but {len(unseen)} unseen cards")
        rng.shuffle(unseen)
        deal = iter(unseen)
        for z in zones:
            z[f] = [next(deal) if c == HIDDEN_CARD else c for c in z[f]]
    if any(x.id < 0 for x in d.ships):
        _deal_ships(g, d, rng)


def _deal_ships(g: Any, d: Any, rng: random.Random) -> None:
    """6.1: each face-down ship of the view becomes one of its owner's ship cards (or dummies)
    the view does not show; a moving group's hidden ships are its owner's backs where it is."""
    shown = {x.id for x in d.ships if x.id >= 0}
    backs = [x for x in d.ships if x.id < 0]
    for f in FACTIONS:
        mine = [x for x in backs if x.owner == f]
        if not mine:
            continue
        ids = sorted(c.id for c in g.fleet if c.owner == f and c.id not in shown)
        if len(ids) != len(mine):
            raise ValueError(f"kampen search: {f} has {len(mine)} face-down ships in the view but {len(ids)} unseen")
        rng.shuffle(ids)
        for x, i in zip(mine, ids):
            x.id = i
    d.ships = sorted(d.ships, key=lambda x: x.id)
    m = d.sea_move
    if m is not None and any(i < 0 for i in m.ships):
        known = set(i for i in m.ships if i >= 0)
        mover = d.ships[next(i for i in m.ships if i >= 0)].owner if known else d.faction
        there = [x.id for x in d.ships if x.owner == mover and x.at == m.at and x.id not in known and not x.up]
        hidden = sum(1 for i in m.ships if i < 0)
        if len(there) < hidden:
            raise ValueError(f"kampen search: the group at {m.at} hides {hidden} ships but {mover} has {len(there)} "
                             "face-down there")
        rng.shuffle(there)
        pick = iter(there)
        m.ships = [i if i >= 0 else next(pick) for i in m.ships]
