"""The web board: what one page state costs beside the rules' own work (issue 14).

For every decision of a few seeded priority-bot games of Assault on Narvik (Allies' view),
this run times the legal orders (the baseline: what the terminal needs anyway), the map
as SVG (render.py: smoothed coast cached per board, counters, ZoC, legend), the marks of
every order (where it acts on the map), and the whole /api/state answer; then the answer
to a click on a unit (its orders with the MP of each path, /api/pick). Ratios are against
the legal orders measured in the same run.

Usage: python bench/bench_web.py [--quick]
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time

from rich.console import Console

from hexwar.games.narvik import narvik_game
from hexwar.games.narvik.bots import PriorityBot
from hexwar.games.narvik.play import NarvikPresenter
from hexwar.web.server import WebGame
from hexwar.ui.play import terminal


def timed(f):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = f()
    return out, (time.perf_counter() - t) * 1000


def main() -> None:
    quick = "--quick" in sys.argv
    seeds = range(2 if quick else 4)
    cols: dict[str, list[float]] = {"legal orders": [], "map SVG": [], "order marks": [], "state JSON": [], "unit pick": []}
    for seed in seeds:
        g = narvik_game()
        s = g.new_state(seed)
        bots = {x: PriorityBot(x, seed) for x in ("allies", "germans")}
        p = terminal(NarvikPresenter, s, {"allies"}, {"germans": bots["germans"]}, Console(file=io.StringIO()), None, lambda q: "quit")
        web = WebGame(p.presenter)
        steps = 0
        while not s.is_over() and steps < (60 if quick else 200):
            side = s.current_side()
            legal, ms = timed(s.legal_orders)
            if side == "allies":
                cols["legal orders"].append(ms)
                cols["map SVG"].append(timed(p.presenter.map_svg)[1])
                cols["order marks"].append(timed(lambda: [p.presenter.order_marks(o, v) for v in [p.session.view()] for o in legal])[1])
                cols["state JSON"].append(timed(lambda: json.dumps(web._state()))[1])
                movers = [o for o in legal if o.kind == "move"]
                if movers:
                    m = p.presenter.order_marks(movers[0])
                    cols["unit pick"].append(timed(lambda: web.pick(m["f"], m["u"][0]))[1])
            s.apply(bots[side].choose(s.view_for((side,)), legal))
            steps += 1
    base = statistics.median(cols["legal orders"])
    print(f"Assault on Narvik web board, {len(cols['legal orders'])} Allied decisions of {len(seeds)} priority games")
    print(f"{'what':<14}{'median ms':>10}{'max ms':>10}{'x legal orders':>16}")
    for k, v in cols.items():
        if v:
            print(f"{k:<14}{statistics.median(v):>10.1f}{max(v):>10.1f}{statistics.median(v) / base:>16.1f}")


if __name__ == "__main__":
    main()
