"""Assault on Narvik: what the rules' wider choices cost in legal-order generation (issue 13).

The same decisions (every decision of a few seeded random games) are timed twice in this
run: with the orders as offered now (15.1 attacker and support subsets, ships sailing and
landing as groups, 20.1-20.3), and with those two choices cut back to what was offered
before them (all eligible units in one assault, one ship at a time). The ratio is the price
of the wider choices; the median per decision is the figure the issue asks to keep near
what it was.

Usage: python bench/bench_choices.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).parent))

from hexwar.ai import RandomBot  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402
from hexwar.games.narvik.phases import assault, naval  # noqa: E402


@contextmanager
def narrow_choices() -> Iterator[None]:
    """Offer only the whole set of attackers and single-ship moves (the pre-issue-13 list)."""
    subsets, groups = assault.subsets, naval.group_orders
    assault.subsets = lambda items, cap=15: [tuple(items)] if items else []  # type: ignore[assignment]
    naval.group_orders = lambda g, d, ships: []  # type: ignore[assignment]
    try:
        yield
    finally:
        assault.subsets, naval.group_orders = subsets, groups


def timed(g, states, repeats: int) -> tuple[float, float, list[int]]:
    per, counts = [], []
    for d in states:
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter()
            legal = g.legal_orders(d)
            best = min(best, time.perf_counter() - t)
        per.append(best)
        counts.append(len(legal))
    return statistics.median(per), statistics.mean(per), counts


def main() -> None:
    quick = "--quick" in sys.argv
    g = narvik_game()
    states = []
    for seed in range(2 if quick else 6):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        while not s.is_over():
            legal = s.legal_orders()
            states.append(s.data.clone())
            s.apply(bot.choose(s, legal))
    repeats = 2 if quick else 3
    wide_med, wide_mean, wide_n = timed(g, states, repeats)
    with narrow_choices():
        narrow_med, narrow_mean, narrow_n = timed(g, states, repeats)
    print(f"Assault on Narvik, legal orders at {len(states)} decisions of random games (best of {repeats} per decision)")
    print(f"  as offered now (subsets, groups): {wide_med * 1e3:7.2f} ms median, {wide_mean * 1e3:6.2f} ms mean, "
          f"{statistics.mean(wide_n):6.1f} orders mean, {max(wide_n)} max")
    print(f"  baseline: all-or-nothing, singles: {narrow_med * 1e3:7.2f} ms median, {narrow_mean * 1e3:6.2f} ms mean, "
          f"{statistics.mean(narrow_n):6.1f} orders mean, {max(narrow_n)} max")
    print(f"  ratio (wider choices / baseline) : {wide_med / narrow_med:7.2f}x median, {wide_mean / narrow_mean:.2f}x mean")


if __name__ == "__main__":
    main()
