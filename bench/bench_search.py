"""The search bot (ISMCTS) against the priority bot in Assault on Narvik, from both sides (issue 17).

For each side, the search bot plays ``--games`` seeded games against the priority bot at
``--think`` seconds a decision; the same seeds are played priority against priority, the
baseline in the same run. Prints each side's win, draw and loss counts with 95% Wilson
intervals, the baseline's, and the search's think time (median, 99th percentile and worst against the cap,
playouts a decision). A game ends early on a random event (24.0) whatever the bots do, so
the comparison is with the baseline over the same seeds, not with 50%.

Usage: python bench/bench_search.py [--games 100] [--think 1.0] [--jobs 2]
The issue's figure is --games 100 --think 1: about 300 decisions a side a game, some 9
hours on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from hexwar.sim.stats import wilson


def play(args: tuple[int, str | None, float]) -> dict:
    """One game: ``hero`` is the side the search bot plays (None: priority on both sides)."""
    seed, hero, think = args
    from hexwar.ai.search import SearchBot
    from hexwar.games import registry
    from hexwar.games.narvik.bots import PriorityBot, search_hooks

    info = registry.get("narvik")
    s = info.build().new_state(seed)
    bots = {side: PriorityBot(side, seed) for side in info.sides}
    if hero is not None:
        bots[hero] = SearchBot(hero, seed, think, **search_hooks())
    times: list[float] = []
    playouts: list[int] = []
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        t0 = time.perf_counter()
        order = bots[side].choose(s.view_for((side,)), legal)
        if side == hero and len(legal) > 1:
            times.append(time.perf_counter() - t0)
            playouts.append(bots[side].last["iterations"])
        s.apply(order)
    return {"seed": seed, "hero": hero, "winner": s.result().winner, "turn": s.data.turn,
            "times": times, "playouts": playouts}


def line(name: str, results: list[dict], side: str) -> str:
    n = len(results)
    w = sum(r["winner"] == side for r in results)
    lost = sum(r["winner"] not in (None, side) for r in results)
    lo, hi = wilson(w, n)
    return f"{name:34} {side} win {w:3}/{n} = {w / max(1, n):5.1%} [{lo:5.1%}, {hi:5.1%}]  draws {n - w - lost:3}  losses {lost:3}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--think", type=float, default=0.2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0)
    a = ap.parse_args()
    seeds = range(a.first_seed, a.first_seed + a.games)
    jobs = [(seed, hero, a.think) for hero in ("allies", "germans", None) for seed in seeds]
    done: dict[str | None, list[dict]] = {"allies": [], "germans": [], None: []}
    start = time.perf_counter()
    with ProcessPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(play, j) for j in jobs]
        for i, f in enumerate(as_completed(futures), 1):
            r = f.result()
            done[r["hero"]].append(r)
            print(f"  {i}/{len(jobs)} games ({time.perf_counter() - start:.0f} s): seed {r['seed']} "
                  f"search={r['hero']} -> {r['winner']} on turn {r['turn']}", flush=True)
    print(f"\nNarvik, search (ISMCTS, {a.think:g} s a decision) against priority, seeds {seeds.start}-{seeds.stop - 1}, "
          f"{a.jobs} processes, {time.perf_counter() - start:.0f} s")
    for side in ("allies", "germans"):
        print(line(f"search as {side} vs priority", done[side], side))
        print(line(f"priority as {side} vs priority (baseline)", done[None], side))
    ts = [t for side in ("allies", "germans") for r in done[side] for t in r["times"]]
    ps = [p for side in ("allies", "germans") for r in done[side] for p in r["playouts"]]
    if ts:
        p99 = statistics.quantiles(ts, n=100)[98] if len(ts) > 1 else ts[0]
        print(f"search think time: median {statistics.median(ts):.3f} s, 99th percentile {p99:.3f} s, "
              f"max {max(ts):.3f} s (cap {a.think:g} s) "
              f"over {len(ts)} decisions; playouts a decision: median {statistics.median(ps):g}, max {max(ps)}")


if __name__ == "__main__":
    main()
