"""Movement range with ZoC: our compiled bucket search vs networkx Dijkstra, same graph, same run.

Prints median microseconds per query, queries per second, and the ratio. Targets (issue 2):
>= 20,000 queries/s and >= 4x networkx on the 1,200-hex map; >= 10,000 queries/s on the
10,000-hex map. Both sides answer the same query (ZoC exit costs, enemy hexes blocked, the
one-hex minimum move); the results are checked equal before timing.

Usage: python bench/bench_movement.py [--quick]
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import networkx as nx  # noqa: E402
from _common import chart, per_call  # noqa: E402

from hexwar.board import HexBoard  # noqa: E402
from hexwar.board.generate import random_hex_spec  # noqa: E402
from hexwar.rules.movement import (  # noqa: E402
    MoveQuery,
    compiled,
    movement_graph,
    reach,
    reach_reference,
)
from hexwar.rules.zoc import projects_into  # noqa: E402


def bench(cols: int, rows: int, mp: int, n_queries: int, repeats: int) -> dict[str, float]:
    ch = chart()
    board = HexBoard(random_hex_spec(2024, cols, rows))
    rng = random.Random(7)
    hexes = [h for h in board.hexes() if board.terrain(h) != "sea"]
    enemies = frozenset(rng.sample(hexes, max(10, len(hexes) // 40)))
    zoc = frozenset(n for e in enemies for n in projects_into(board, e))
    starts = [h for h in rng.sample(hexes, min(len(hexes), 600)) if h not in enemies][:500]
    q = MoveQuery(Fraction(mp), zoc, enemies, Fraction(1))
    g = movement_graph(board, ch, "winter", "leg")
    reach(board, ch, "winter", "leg", starts[0], q)  # compile once (per board and weather)
    sizes = []
    for s in starts:
        fast = reach(board, ch, "winter", "leg", s, q)
        assert fast.mp_left == reach_reference(board, ch, "winter", "leg", s, q, graph=g), s
        sizes.append(len(fast))
    it = iter(range(10**9))

    def ours() -> None:  # MP left and a path per location, like the baseline
        reach(board, ch, "winter", "leg", starts[next(it) % len(starts)], q)

    # baseline: plain networkx Dijkstra with a cutoff on the same graph, integer costs
    # (scaled like ours, so neither side pays for Fractions) and the same ZoC/enemy rules
    scale = compiled(board, ch, "winter", "leg").scale
    gi = nx.DiGraph()
    gi.add_edges_from((a, b, {"cost": int(d["cost"] * scale)}) for a, b, d in g.edges(data=True))
    zx, cutoff = int(q.zoc_exit * scale), int(q.mp * scale)

    def weight(u: str, v: str, d: dict) -> int | None:
        if v in enemies:
            return None
        return d["cost"] + (zx if u in zoc else 0)

    def nx_ref() -> None:
        s = starts[next(it) % len(starts)]
        out = nx.single_source_dijkstra_path(gi, s, cutoff=cutoff, weight=weight)
        for v in gi.successors(s):  # 14.1 one-hex minimum, as ours
            if v not in out and v not in enemies:
                out[v] = [s, v]

    def nx_exact() -> None:  # the test oracle: networkx on the chart's exact (Fraction) costs
        reach_reference(board, ch, "winter", "leg", starts[next(it) % len(starts)], q, graph=g)

    t_ours = per_call(ours, n_queries, repeats)
    t_nx = per_call(nx_ref, max(50, n_queries // 4), repeats)
    t_nx_exact = per_call(nx_exact, max(50, n_queries // 10), repeats)
    return {"hexes": len(board.hexes()), "mean_reach": sum(sizes) / len(sizes), "ours_us": t_ours * 1e6,
            "nx_us": t_nx * 1e6, "nx_exact_us": t_nx_exact * 1e6, "ours_qps": 1 / t_ours,
            "ratio": t_nx / t_ours, "ratio_exact": t_nx_exact / t_ours}


def main() -> None:
    quick = "--quick" in sys.argv
    n, rep = (200, 3) if quick else (2000, 7)
    print("movement range with ZoC, MP 6, winter, leg (median of runs)")
    print("nx int = networkx single_source_dijkstra_path, cutoff, integer costs, same ZoC/enemy weight function")
    print("nx exact = networkx on the chart's exact Fraction costs (the reference used by the tests)")
    print(f"{'map':>8} {'hexes':>6} {'reach':>6} {'ours us':>8} {'ours q/s':>9} {'nx int us':>10} {'ratio':>6} {'nx exact us':>12} {'ratio':>6}")
    for cols, rows in ((40, 30), (100, 100)):
        r = bench(cols, rows, 6, n, rep)
        print(f"{f'{cols}x{rows}':>8} {r['hexes']:>6} {r['mean_reach']:>6.1f} {r['ours_us']:>8.1f} {r['ours_qps']:>9,.0f} "
              f"{r['nx_us']:>10.1f} {r['ratio']:>5.1f}x {r['nx_exact_us']:>12.1f} {r['ratio_exact']:>5.1f}x")


if __name__ == "__main__":
    main()
