"""What asking the game costs (issue 71): the rule queries now ask the game's own code (a
unit's listed moves at its side's decision, each made on a copy for the MP it charges; an
assault fought on a copy for every die) instead of computing beside it.

Baselines measured in the same run, on positions from seeded priority-bot games of Assault on
Narvik: the bare movement search the old ``reach`` called (``rules.movement.reach``) and the
bare sums the old ``odds`` called (``rules.assault.assault_sums`` and the CRT's column). The
ratios say what a person waits for the right answer, per query, against the wrong one.

Usage: python bench/bench_queries.py [--quick]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call  # noqa: E402

from hexwar.games.common import queries  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402
from hexwar.games.narvik.bots import PriorityBot  # noqa: E402
from hexwar.registry import Position  # noqa: E402
from hexwar.rules.assault import assault_sums  # noqa: E402
from hexwar.rules.combat import diff_outcomes  # noqa: E402
from hexwar.rules.movement import reach  # noqa: E402


def positions(n: int) -> tuple[object, list[object]]:
    g = narvik_game()
    out = []
    for seed in range(1, n + 1):
        s = g.new_state(seed)
        bots = {side: PriorityBot(side, seed) for side in ("allies", "germans")}
        while len(s.log) < 160 and not s.is_over():
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
        out.append(s.data.clone())
    return g, out


def main() -> None:
    quick = "--quick" in sys.argv
    t0 = time.perf_counter()
    g, states = positions(2 if quick else 4)
    rng = random.Random(71)
    movers, fights = [], []
    for d in states:
        for side in ("allies", "germans"):
            work = g.acting(d, side)
            listed = g.legal_orders(work)
            movers += [(d, o.unit) for o in listed if o.kind == "move"][:3]
            fights += [(d, o) for o in listed if o.kind == "land_assault" and not o.ap][:2]
    movers = rng.sample(movers, min(len(movers), 8))
    fights = rng.sample(fights, min(len(fights), 6))
    print(f"{len(states)} positions (160 orders of priority play each), {len(movers)} units, {len(fights)} assaults;"
          f" set-up {time.perf_counter() - t0:.1f} s")
    calls, rep = (1, 3) if quick else (3, 5)

    def asked_reach() -> None:
        for d, uid in movers:
            queries.reach(Position(g, d, None, "bench"), uid)

    def bare_reach() -> None:
        for d, uid in movers:
            u = d.units[uid]
            reach(g.board, g.tables.terrain, d.weather, g.t(u).movement_class, u.loc, g.query(d, u))

    def asked_odds() -> None:
        for d, o in fights:
            queries.assault_odds(Position(g, d, None, "bench"), o.target, list(o.units), [*o.artillery, *o.ships])

    def bare_odds() -> None:
        for d, o in fights:
            defenders = [u.id for u in d.at(o.target) if u.side != o.side]
            s = assault_sums(d, g.tables, list(o.units), defenders, cites=g.cites.assault)
            diff_outcomes(g.tables.crt, s.differential, s.drm)

    for name, asked, bare, n in (("reach", asked_reach, bare_reach, len(movers)), ("odds", asked_odds, bare_odds, len(fights))):
        ta = per_call(asked, calls, rep) / max(n, 1)
        tb = per_call(bare, calls * 20, rep) / max(n, 1)
        print(f"{name:6} asked of the game {ta * 1e3:8.2f} ms a query   beside it (old) {tb * 1e3:7.3f} ms   ratio {ta / tb:6.1f}x")


if __name__ == "__main__":
    main()
