"""The Europa "Narvik" variant: a full bot game's time, and legal orders per decision.

Baselines in the same run: the state copy per order (what PlayState's apply does for safety),
and, for movement decisions, plain networkx Dijkstra from every movable unit over the same
map (weights from the same terrain chart), which is what a naive legal-move generator would
pay before any rule of E4 is applied.

Usage: python bench/bench_europa.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import networkx as nx  # noqa: E402

from hexwar.ai import RandomBot  # noqa: E402
from hexwar.core.engine import run_fast  # noqa: E402
from hexwar.games.europa import EuropaGame  # noqa: E402
from hexwar.games.europa.bots import PriorityBot  # noqa: E402
from hexwar.games.europa.phases.movement import may_move  # noqa: E402
from hexwar.rules.movement import movement_graph  # noqa: E402


def main() -> None:
    quick = "--quick" in sys.argv
    n_games = 2 if quick else 6
    g = EuropaGame()
    print(f"Europa \"Narvik\" campaign ({len(g.board.locations())} hexes, {len(g.spec.units)} counters in the OB)")
    for kind in ("random", "priority"):
        times = []
        for seed in range(n_games):
            bots = ({s: RandomBot(seed * 2 + i) for i, s in enumerate(("germans", "allies"))} if kind == "random"
                    else {s: PriorityBot(s, seed) for s in ("germans", "allies")})
            t0 = time.perf_counter()
            st, _ = run_fast(g, seed, bots)
            times.append(time.perf_counter() - t0)
        print(f"  {kind:8} vs {kind:8}: median full 16-turn game {statistics.median(times):6.2f} s "
              f"(min {min(times):.2f}, max {max(times):.2f}, {n_games} seeds)")
    # legal orders per decision, against the state copy and plain networkx Dijkstra
    legal_t, clone_t, nx_t, move_t, n_orders = [], [], [], [], []
    graphs = {c: movement_graph(g.board, g.chart, "spring", c) for c in ("leg", "mountain", "motorized")}
    for seed in range(n_games):
        s = g.new_state(seed)
        bot = PriorityBot("germans", seed), PriorityBot("allies", seed)
        while not s.is_over():
            t1 = time.perf_counter()
            legal = s.legal_orders()
            dt = time.perf_counter() - t1
            legal_t.append(dt)
            n_orders.append(len(legal))
            t2 = time.perf_counter()
            s.data.clone()
            clone_t.append(time.perf_counter() - t2)
            d = s.data
            if d.ask is not None and d.ask.what == "move":
                move_t.append(dt)
                t3 = time.perf_counter()
                for u in d.on_map(d.ask.side):
                    if g.ground(u) and may_move(g, d, u, False):
                        nx.single_source_dijkstra_path_length(graphs[g.t(u).movement_class], u.loc,
                                                              cutoff=g.movement(d, u), weight="cost")
                nx_t.append(time.perf_counter() - t3)
            side = s.current_side()
            s.apply(bot[0 if side == "germans" else 1].choose(s, legal))
        if quick:
            break
    print(f"  legal orders per decision : {statistics.median(legal_t) * 1e3:8.2f} ms median, {max(legal_t) * 1e3:.1f} ms max, "
          f"{statistics.median(n_orders):.0f} orders median, {max(n_orders)} max ({len(legal_t)} decisions)")
    print(f"  of which movement phases  : {statistics.median(move_t) * 1e3:8.2f} ms median ({len(move_t)} decisions)")
    print(f"  state copy per order      : {statistics.median(clone_t) * 1e3:8.2f} ms median (baseline)")
    print(f"  networkx Dijkstra, every movable unit, per movement decision: {statistics.median(nx_t) * 1e3:8.2f} ms median "
          f"(baseline): ratio legal/networkx {statistics.median(move_t) / statistics.median(nx_t):.2f}")


if __name__ == "__main__":
    main()
