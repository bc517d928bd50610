"""How still the coach's hint holds (issue 74): the same position asked with two seeds.

For each game, positions are taken from priority-bot games (a person's decision with a
choice every ``--every`` orders), and at each the hint is asked twice, with two seeds of the
search: the issue's "asking twice". Two hints are measured in the same run:

- **before** (the baseline, issue 57's hint): 1 s on the clock, its orders by playouts, the
  most searched first;
- **now**: :data:`hexwar.ui.coach.HINT_PLAYOUTS` playouts, its orders by expected margin
  (``coach.weighed``).

Printed per game: the share of positions where the two asks put the same order first, the
share where the second ask's first order is one the first ask called tied with its first
(within twice the noise: the hint says so), and the seconds a hint took (median). With one
seed the hint is the same by construction (its playouts are counted, not timed): the two
seeds measure how much of its first place is the search's judgement, not its dice.

Usage: python bench/bench_coach.py [--positions 8] [--every 23] [--games narvik,kampen]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexwar import registry  # noqa: E402
from hexwar.ui import coach  # noqa: E402

#: the seat a person takes in each game, and its opponent
SEATS = {"narvik": ("allies",), "kampen": ("norwegians", "allies")}


def positions(name: str, count: int, every: int) -> list:  # type: ignore[type-arg]
    """``count`` states of a priority-bot game, each at a decision of the person's seat with
    a choice, about ``every`` orders apart (further games when one ends)."""
    info = registry.get(name)
    out = []
    seed = 1
    while len(out) < count:
        s = info.build().new_state(seed)
        bots = {x: info.bot("priority", x, seed) for x in info.sides}
        last = -every
        while not s.is_over() and len(out) < count:
            side = s.current_side()
            legal = s.legal_orders()
            if side in SEATS[name] and len(legal) > 1 and len(s.log) - last >= every:
                out.append(s.clone())
                last = len(s.log)
            s.apply(bots[side].choose(s.view_for((side,)), legal))
        seed += 1
    return out


def ask(name: str, s, seed: int, now: bool) -> tuple[list, float]:  # type: ignore[no-untyped-def,type-arg]
    """The hint's orders, best first, and the seconds it took: ``now`` the counted playouts
    ranked by margin, else 1 s ranked by playouts."""
    side = s.current_side()
    legal = s.legal_orders()
    bot = coach.searcher(name, side, coach.HINT_CAP if now else 1.0, seed, coach.HINT_PLAYOUTS if now else None)
    t = time.perf_counter()
    rated = bot.advise(s.view_for((side,)), legal)
    took = time.perf_counter() - t
    return (coach.weighed(rated) if now else rated), took


def tied(first, other) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``other`` is within twice the noise of ``first``'s margin."""
    return first.score - other.score <= 2 * math.hypot(first.error(), other.error())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--every", type=int, default=23)
    ap.add_argument("--games", default="narvik,kampen")
    a = ap.parse_args()
    for name in a.games.split(","):
        states = positions(name, a.positions, a.every)
        for now in (False, True):
            same = within = 0
            took = []
            for s in states:
                one, t1 = ask(name, s, 11, now)
                two, t2 = ask(name, s, 12, now)
                took += [t1, t2]
                same += one[0].order == two[0].order
                if now:
                    group = [r.order for r in one if tied(one[0], r)]
                    within += two[0].order in group
            label = f"now ({coach.HINT_PLAYOUTS} playouts, by margin)" if now else "before (1 s, by playouts)"
            extra = f"; second ask's first among the first ask's tied: {within}/{len(states)}" if now else ""
            print(f"{name} {label}: the same first order in {same}/{len(states)} positions{extra}; "
                  f"median {statistics.median(took):.1f} s a hint")


if __name__ == "__main__":
    main()
