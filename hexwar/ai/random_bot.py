"""A random-legal-orders bot: picks an order kind at random, then an order of that kind.

Choosing the kind first keeps the bot from drowning in movement orders (a hex map offers
hundreds of moves and one pass), so random games end and exercise every kind of order.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from hexwar.core.orders import Menu, Order, order_kinds, orders_of_kind


class RandomBot:
    """Uniform over order kinds, then uniform within the kind; seeded."""

    name = "random"
    #: it reads the legal orders only by kind (``order_kinds``, ``orders_of_kind``): a game
    #: may hand it a ``Menu`` (``run_fast``), which lists only the kind it chooses
    reads_by_kind = True
    reads_menu = True
    thinks = False
    progress = None

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, state: Any, legal: Sequence[Order] | Menu) -> Order:
        """Return one of ``legal`` (``ValueError`` if there is none)."""
        if not legal:
            raise ValueError("no legal orders to choose from")
        kind = self.rng.choice(order_kinds(legal))  # an OrderList's read from its parts
        return self.rng.choice(orders_of_kind(legal, kind))

    __call__ = choose
