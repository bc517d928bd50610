"""Kampen om Norge Scenario 1: whole games per second, bot vs bot (issue 6 figure).

Baseline in the same run: the same games through ``PlayState`` (a copy of the state and a
log entry per order, as interactive play and undo need). ``run_fast`` changes the state in
place; both give the same games for the same seeds (tested).

Usage: python bench/bench_kampen.py [--games N]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from hexwar.ai.random_bot import RandomBot
from hexwar.core.engine import run_fast
from hexwar.games.kampen import FACTIONS, KampenGame
from hexwar.games.kampen.boards import kampen_board
from hexwar.games.kampen.bots import KampenBot


def bots(kind: str, seed: int) -> dict:
    return {f: (KampenBot(f, seed) if kind == "priority" else RandomBot(seed)) for f in FACTIONS}


def fast(g: KampenGame, kind: str, n: int) -> tuple[float, Counter]:
    wins: Counter = Counter()
    t0 = time.perf_counter()
    for seed in range(n):
        view, _ = run_fast(g, seed, bots(kind, seed))
        wins[view.data.winner] += 1
    return n / (time.perf_counter() - t0), wins


def slow(g: KampenGame, kind: str, n: int) -> float:
    t0 = time.perf_counter()
    for seed in range(n):
        s = g.new_state(seed)
        b = bots(kind, seed)
        while not s.is_over():
            s.apply(b[s.current_side()].choose(s, s.legal_orders()))
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    a = ap.parse_args()
    for board in ("norway", "nordland-areas", "nordland-hex"):
        g = KampenGame("intro-narvik", kampen_board(board))
        for kind in ("random", "priority"):
            gps, wins = fast(g, kind, a.games)
            base = slow(g, kind, max(20, a.games // 10))
            print(f"{board:15} {kind:8} vs {kind:8}: {gps:7.0f} games/s (PlayState baseline {base:6.0f}/s, x{gps / base:4.1f})"
                  f"  winners {dict(sorted(wins.items(), key=str))}")


if __name__ == "__main__":
    main()
