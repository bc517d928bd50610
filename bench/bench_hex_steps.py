"""Kampen om Norge on hexes (issue 72): what one area step of hexes costs.

For the stacks of seeded priority games on the default hex board (an area step of 5 hexes):
the game's listing of a stack's ordinary moves (``steps.paths``, kept per set of enemy places
within reach), the same listing with its cache cleared every time, and the baseline measured
in the same run: plain networkx (``single_source_shortest_path_length`` with a cutoff over the
land graph less the enemy's hexes), which finds the same destinations without the paths or
the attacks' entry hexes. Then ``reach`` of S1 on each board (the report's opening), and the
listing of every legal order on the area map and on the hexes.

Usage: python bench/bench_hex_steps.py [--games N]
"""

from __future__ import annotations

import argparse
import copy
import time

import networkx as nx

from hexwar.board.conversion import land_graph
from hexwar import registry
from hexwar.games.kampen import reach, steps
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.kampen.state import FACTIONS


def positions(g, games: int) -> list:  # type: ignore[no-untyped-def]
    """Every 5th state of seeded priority games, up to 40 orders in each."""
    out = []
    for seed in range(games):
        s = g.new_state(seed)
        bots = {f: KampenBot(f, seed) for f in FACTIONS}
        for i in range(40):
            if s.is_over():
                break
            if i % 5 == 0:
                out.append(copy.deepcopy(s.data))
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
    return out


def stacks(g, ds: list) -> list:  # type: ignore[no-untyped-def]
    return [(d, f, a) for d in ds for f in FACTIONS for a, n in d.bn[f].items() if n]


def timed(fn, reps: int) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    a = ap.parse_args()
    info = registry.get("kampen")
    g = info.build("intro-narvik", "nordland-hex")
    ds = positions(g, a.games)
    todo = stacks(g, ds)
    land = land_graph(g.board).subgraph(g.land).copy()

    def game_listing() -> None:
        for d, f, h in todo:
            steps.paths(g, d, f, h, g.step, attack=True)

    def game_fresh() -> None:
        for d, f, h in todo:
            g.caches.paths.clear()
            steps.paths(g, d, f, h, g.step, attack=True)

    def plain() -> None:
        for d, f, h in todo:
            foes = g.hostile_areas(d, f)
            nx.single_source_shortest_path_length(land.subgraph([x for x in land if x not in foes]), h, cutoff=g.step)

    n = len(todo)
    kept, fresh, base = timed(game_listing, 5) / n, timed(game_fresh, 5) / n, timed(plain, 5) / n
    print(f"ordinary moves of a stack, {n} stacks, area step {g.step} hexes:")
    print(f"  the game's listing, kept:   {kept * 1e3:7.3f} ms (x{kept / base:5.2f} of networkx)")
    print(f"  the game's listing, fresh:  {fresh * 1e3:7.3f} ms (x{fresh / base:5.2f} of networkx)")
    print(f"  networkx BFS with cutoff:   {base * 1e3:7.3f} ms (baseline, destinations only)")
    for board in ("norway", "nordland-areas", "nordland-hex"):
        gb = info.build("intro-narvik", board)
        t = timed(lambda: reach.reach(gb, board), 3)
        d = gb.new_state(1).data
        lt = timed(lambda: gb.legal_orders(d), 50)
        print(f"{board:15} reach of S1 (the report's opening): {t * 1e3:8.1f} ms; the first decision's "
              f"{len(gb.legal_orders(d)):4d} legal orders listed in {lt * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
