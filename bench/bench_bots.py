"""Bot strength and think time for Assault on Narvik (issue 5 figures).

Plays seeded games: priority vs random from each side, priority vs priority, and the
search bot against the priority bot; prints win rates (a draw is not a win) and the
median think time per decision of each bot.

Usage: python bench/bench_bots.py [--games N] [--search-games M] [--think S]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from hexwar.ai import RandomBot
from hexwar.ai.search import SearchBot
from hexwar.games.narvik import narvik_game
from hexwar.games.narvik.bots import PriorityBot, search_hooks


def play(g, make, seed, times):
    s = g.new_state(seed)
    bots = {side: make[side](side, seed) for side in ("allies", "germans")}
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        t0 = time.perf_counter()
        o = bots[side].choose(s.view_for((side,)), legal)  # a bot sees its side's view only
        times.setdefault(bots[side].name, []).append(time.perf_counter() - t0)
        s.apply(o)
    return s.result(), s.data.turn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--search-games", type=int, default=2)
    ap.add_argument("--think", type=float, default=0.3)
    a = ap.parse_args()
    g = narvik_game()
    rnd = lambda side, seed: RandomBot(seed)  # noqa: E731
    pri = lambda side, seed: PriorityBot(side, seed)  # noqa: E731
    sea = lambda side, seed: SearchBot(side, seed, a.think, **search_hooks())  # noqa: E731
    times: dict[str, list[float]] = {}
    for name, make, hero, n in (
        ("priority (Allies) vs random", {"allies": pri, "germans": rnd}, "allies", a.games),
        ("priority (Germans) vs random", {"allies": rnd, "germans": pri}, "germans", a.games),
        ("priority vs priority", {"allies": pri, "germans": pri}, "allies", a.games),
        ("search (Allies) vs priority", {"allies": sea, "germans": pri}, "allies", a.search_games),
        ("search (Germans) vs priority", {"allies": pri, "germans": sea}, "germans", a.search_games),
    ):
        if n <= 0:
            continue
        played = [play(g, make, seed, times) for seed in range(n)]
        res = [r for r, _ in played]
        wins = sum(r.winner == hero for r in res)
        levels = Counter(r.level for r in res)
        # 8.1/24.0: random events end ~26% of games by turn 3 whatever the bots do
        long = [r for r, turn in played if turn >= 4]
        lw = sum(r.winner == hero for r in long)
        print(f"{name:32}: {hero} wins {wins}/{n} ({100 * wins / n:.0f}%); "
              f"in games lasting 4+ turns {lw}/{len(long)} ({100 * lw / max(1, len(long)):.0f}%)  {dict(levels)}")
    for bot, ts in sorted(times.items()):
        print(f"think time {bot:9}: median {statistics.median(ts) * 1000:7.1f} ms, max {max(ts) * 1000:7.1f} ms over {len(ts)} decisions")


if __name__ == "__main__":
    main()
