"""Assault on Narvik: full random-bot games per second and legal-order generation per decision.

Target (issue 4): a full game in under 0.5 s. The baseline in the same run is the cost of
copying the state once per order (what the engine's apply does for safety), so the ratio
says how much of an order is rules work rather than bookkeeping.

Usage: python bench/bench_game.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hexwar.ai import RandomBot  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402


def main() -> None:
    quick = "--quick" in sys.argv
    n_games = 10 if quick else 60
    g = narvik_game()
    game_times, orders, turns, legal_times, clone_times = [], [], [], [], []
    for seed in range(n_games):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        t0 = time.perf_counter()
        n = 0
        while not s.is_over():
            t1 = time.perf_counter()
            legal = s.legal_orders()
            legal_times.append(time.perf_counter() - t1)
            t2 = time.perf_counter()
            s.data.clone()
            clone_times.append(time.perf_counter() - t2)
            s.apply(bot.choose(s, legal))
            n += 1
        game_times.append(time.perf_counter() - t0)
        orders.append(n)
        turns.append(s.data.turn)
    ten = [t for t, tu in zip(game_times, turns) if tu == 10]
    print(f"Assault on Narvik, random bot vs random bot, {n_games} seeded games")
    print(f"  games/s (all)              : {len(game_times) / sum(game_times):8.2f}")
    print(f"  median game                : {statistics.median(game_times) * 1000:8.1f} ms ({statistics.median(orders):.0f} orders, {statistics.median(turns):.0f} turns)")
    if ten:
        print(f"  median full 10-turn game   : {statistics.median(ten) * 1000:8.1f} ms ({len(ten)} games)")
    print(f"  legal orders per decision  : {statistics.median(legal_times) * 1e3:8.2f} ms median, {max(legal_times) * 1e3:.1f} ms max")
    print(f"  state copy per order       : {statistics.median(clone_times) * 1e3:8.2f} ms median (baseline)")


if __name__ == "__main__":
    main()
