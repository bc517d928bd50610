"""Supply status of 50 units: one bitset expansion from the bases vs per-unit networkx BFS.

Target (issue 2): < 0.2 ms for 50 units and >= 50x per-unit networkx BFS, same run.
Results are checked equal before timing.

Usage: python bench/bench_supply.py [--quick]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import networkx as nx  # noqa: E402
from _common import chart, per_call  # noqa: E402

from hexwar.board import HexBoard  # noqa: E402
from hexwar.board.generate import random_hex_spec  # noqa: E402
from hexwar.rules.movement import movement_graph  # noqa: E402
from hexwar.rules.supply import supply_status  # noqa: E402
from hexwar.rules.zoc import projects_into  # noqa: E402


def bench(cols: int, rows: int, calls: int, repeats: int) -> dict[str, float]:
    ch = chart()
    board = HexBoard(random_hex_spec(99, cols, rows))
    rng = random.Random(5)
    land = [h for h in board.hexes() if board.terrain(h) != "sea"]
    bases = rng.sample(land, 2)
    enemies = rng.sample(land, len(land) // 40)
    zoc = frozenset(n for e in enemies for n in projects_into(board, e))
    inf = frozenset(rng.sample(land, 30))
    units = rng.sample(land, 50)
    g = movement_graph(board, ch, "winter", "leg")
    allowed = {x for x in board.locations() if x not in zoc or x in inf}
    base_set = set(bases)

    def nx_per_unit() -> dict[str, bool]:
        out = {}
        for u in units:
            view = g.subgraph(allowed | {u})
            lengths = nx.single_source_shortest_path_length(view, u, cutoff=10)
            out[u] = any(b in lengths for b in base_set)
        return out

    def ours() -> dict[str, bool]:
        return supply_status(board, ch, "winter", "leg", units, bases, zoc, inf, 10)  # 10: Assault on Narvik 19.3

    assert ours() == nx_per_unit()
    t_ours = per_call(ours, calls, repeats)
    t_nx = per_call(nx_per_unit, max(3, calls // 200), repeats)
    n_ok = sum(ours().values())
    return {"hexes": len(board.hexes()), "supplied": n_ok, "ours_ms": t_ours * 1e3, "nx_ms": t_nx * 1e3, "ratio": t_nx / t_ours}


def main() -> None:
    quick = "--quick" in sys.argv
    calls, rep = (200, 3) if quick else (2000, 7)
    print("supply status of 50 units (2 bases, line <= 10 hexes, ZoC unless Allied infantry)")
    print(f"{'map':>8} {'hexes':>6} {'supplied':>8} {'ours ms':>8} {'nx per-unit ms':>15} {'ratio':>7}")
    for cols, rows in ((40, 30), (100, 100)):
        r = bench(cols, rows, calls, rep)
        print(f"{f'{cols}x{rows}':>8} {r['hexes']:>6} {r['supplied']:>8} {r['ours_ms']:>8.3f} {r['nx_ms']:>15.2f} {r['ratio']:>6.0f}x")


if __name__ == "__main__":
    main()
