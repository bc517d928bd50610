"""The random bot: uniform over the order kinds offered, then uniform within the kind (its
docstring's rule, which keeps random games from drowning in moves; every seeded random game's
digest rests on it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

import pytest

from hexwar.ai.random_bot import RandomBot
from hexwar.core.orders import Move, Order, Pass


@dataclass(frozen=True)
class Sail(Order):
    kind: ClassVar[str] = "naval_move"
    to: str = ""


@dataclass(frozen=True)
class SailAsGroup(Sail):
    """A second class of the same kind."""


def test_random_bot_picks_kinds_evenly_however_many_orders_each_has() -> None:
    legal = [Pass("allies")] + [Move("allies", f"u{i}", ("0101", "0102")) for i in range(300)]
    bot = RandomBot(3)
    picks = [bot.choose(None, legal).kind for _ in range(2000)]
    assert 850 < picks.count("pass") < 1150  # 1 order of 301, yet about half the draws


def test_random_bot_pools_the_classes_of_one_kind_and_draws_evenly_within_it() -> None:
    legal: list[Order] = [Pass("allies"), Sail("allies", "a"), Sail("allies", "b"), SailAsGroup("allies", "c")]
    bot = RandomBot(11)
    picks = Counter(bot.choose(None, legal) for _ in range(3000))
    assert 1350 < picks[legal[0]] < 1650  # two kinds, not three classes: pass about half the time
    for o in legal[1:]:
        assert 400 < picks[o] < 600  # each naval move about a third of the other half


def test_random_bot_is_seeded() -> None:
    legal = [Pass("allies")] + [Move("allies", f"u{i}", ("0101", "0102")) for i in range(50)]
    a, b = RandomBot(5), RandomBot(5)
    assert [a.choose(None, legal) for _ in range(50)] == [b.choose(None, legal) for _ in range(50)]


def test_random_bot_refuses_an_empty_list() -> None:
    with pytest.raises(ValueError, match="no legal orders"):
        RandomBot(1).choose(None, [])
