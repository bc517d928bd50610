"""Issue 16's games: Kampen om Norge's advanced game and the Konflikt '47 templates on both
tables; whole games per second, bot against bot, with ``run_fast`` and, as the baseline in the
same run, through ``PlayState`` (a copy of the state and a log entry per order); and the basic
game with the German priority bot against the same game with every faction's old scoring
(the cost of the German plan).

Usage: python bench/bench_issue16.py [--games N]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any, Callable

from hexwar.core.engine import run_fast
from hexwar.games.kampen import FACTIONS, KampenGame
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.konflikt import KonfliktGame
from hexwar.games.konflikt.bots import KonfliktBot
from hexwar.games.konflikt.state import SIDES


def rate(g: Any, bots: Callable[[int], dict], n: int, fast: bool) -> tuple[float, Counter]:
    wins: Counter = Counter()
    t0 = time.perf_counter()
    for seed in range(n):
        if fast:
            view, _ = run_fast(g, seed, bots(seed))
            wins[view.result().winner] += 1
        else:
            s = g.new_state(seed)
            b = bots(seed)
            while not s.is_over():
                s.apply(b[s.current_side()].choose(s, s.legal_orders()))
            wins[s.result().winner] += 1
    return n / (time.perf_counter() - t0), wins


class OldGerman(KampenBot):
    """The German bot before the plan (point cities scored like S1's objectives)."""

    def holds_cities(self, g: Any) -> bool:
        return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    n = ap.parse_args().games
    adv = KampenGame("advanced")
    kb = lambda seed: {f: KampenBot(f, seed * 3 + i) for i, f in enumerate(FACTIONS)}  # noqa: E731
    gps, wins = rate(adv, kb, n, True)
    base, _ = rate(adv, kb, max(5, n // 4), False)
    print(f"kampen advanced, priority: {gps:6.1f} games/s (PlayState {base:5.1f}/s, x{gps / base:4.1f})  winners {dict(wins)}")
    basic = KampenGame("basic")
    old = lambda seed: {f: (OldGerman if f == "germans" else KampenBot)(f, seed * 3 + i) for i, f in enumerate(FACTIONS)}  # noqa: E731
    new_gps, new_w = rate(basic, kb, n, True)
    old_gps, old_w = rate(basic, old, n, True)
    print(f"kampen basic: German plan {new_gps:6.1f} games/s, old scoring {old_gps:6.1f} games/s (x{new_gps / old_gps:4.2f}); "
          f"German wins {new_w['germans']}/{n} against {old_w['germans']}/{n}")
    for board in ("table", "table-areas"):
        for tpl in ("envelopment", "maximum_attrition", "point_defence", "hold_until_relieved", "top_secret", "demolition"):
            g = KonfliktGame(tpl, board)
            bots = lambda seed: {s: KonfliktBot(s, seed + i) for i, s in enumerate(SIDES)}  # noqa: E731
            gps, wins = rate(g, bots, max(4, n // 4), True)
            base, _ = rate(g, bots, 2, False)
            print(f"konflikt {tpl:20} {board:11}: {gps:6.2f} games/s (PlayState {base:5.2f}/s, x{gps / base:4.1f})  "
                  f"winners {dict(sorted(wins.items(), key=str))}")


if __name__ == "__main__":
    main()
