"""Issue 56: search speed. Ratios against the issue's starting commit, in the same run.

The engine as issue 56 found it (``BASELINE``, unpacked from git into a temporary directory)
and the current one, each in a subprocess with its tree on ``PYTHONPATH``:

- play the same seeded games with each game's fast bots (``run_fast``, as a batch plays
  them; ``bench_issue52``'s probe): the digest of every game's log must agree (the same
  games, move for move) and the CPU time a game is compared;
- undo, at the end of a priority game: the last order, and half the game (CPU time);
- the search bot's playouts a decision at its think time on the wall clock (Narvik 1 s,
  Kampen 0.25 s), as a person playing it meets them: the baseline, the current bot alone,
  and with one helper process on the other core (``hexwar.ai.helpers``);
- let the search bot (ISMCTS) decide the same positions (an Assault on Narvik action of the
  Allies, a Kampen om Norge German round) for a fixed number of playouts: the CPU time a
  playout, whose inverse is the playouts a decision at a given think time.

Runs alternate baseline / current; each figure is the best of ``--rounds``. A ratio above 1
means the current engine is faster. Where the compiled engine can be built here (``hexwar
native build``: mypyc and a C compiler), the games, the playouts and the think time are
measured with it too (``HEXWAR_NATIVE=1``; "compiled"), against the same pure Python baseline;
``--pure`` leaves it out.

Usage: python bench/bench_issue56.py [--rounds R] [--scale S] [--only GAME ...] [--playouts N] [--pure]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from _common import baseline_tree, run_in_tree  # noqa: E402
from bench_issue17 import native_build  # noqa: E402
from bench_issue52 import GAMES, PROBE  # noqa: E402

BASELINE = "b626179"  # the tree as issue 56's engine work found it

SEARCH = r"""
import json, sys, time
from hexwar.ai.search import SearchBot
from hexwar import registry
game, n = sys.argv[1], int(sys.argv[2])
if game == "narvik":
    from hexwar.games.narvik.bots import PriorityBot as Policy, search_hooks
    side, phase = "allies", "action"
else:
    from hexwar.games.kampen.bots import KampenBot as Policy
    from hexwar.games.kampen.search import search_hooks
    side, phase = "germans", None
info = registry.get(game)
out = []
for seed in (3, 4, 5):
    s = info.build().new_state(seed)
    bots = {x: Policy(x, seed) for x in info.sides}
    while not s.is_over():  # the first decision of the side with a real choice (an action in Narvik)
        legal = s.legal_orders()
        if s.current_side() == side and len(legal) > 10 and (phase is None or s.data.phase == phase):
            break
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))
    bot = SearchBot(side, seed, 1000.0, **search_hooks())
    bot.max_iterations = n
    bot.MIN_ITERATIONS = n + 1  # no early answer: every playout counted
    t0 = time.process_time()
    bot.choose(s.view_for((side,)), legal)
    out.append((time.process_time() - t0) / max(1, bot.last["iterations"]))
from hexwar import native
print(json.dumps({"per_playout": sorted(out)[len(out) // 2], "engine": native.engine()}))
"""


WALL = r"""
import json, sys, time
from hexwar import registry
game, budget, helpers = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
info = registry.get(game)
side = "allies" if game == "narvik" else "germans"
out = []
for seed in (3, 4, 5):
    s = info.build().new_state(seed)
    bots = {x: info.bot("priority", x, seed) for x in info.sides}
    while not s.is_over():  # as SEARCH: the side's first decision with a real choice
        legal = s.legal_orders()
        if s.current_side() == side and len(legal) > 10 and (game != "narvik" or s.data.phase == "action"):
            break
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))
    bot = info.bot("search", side, seed, budget)
    bot.MIN_ITERATIONS = 10 ** 9  # no early answer: the whole think time searched
    if helpers:
        bot.helpers = helpers
        bot.start_helpers()
        time.sleep(4)  # as play starts them: ready before the bot's first decision
    for _ in range(3):
        bot.choose(s.view_for((side,)), legal)
        out.append(bot.last["iterations"])
    if helpers:
        bot.close()
from hexwar import native
print(json.dumps({"playouts": sorted(out)[len(out) // 2], "engine": native.engine()}))
"""


def probe(tree: Path, game: str, n: int, compiled: bool = False) -> dict:
    """``bench_issue52``'s probe: every variant's games with each fast bot, digest and CPU."""
    return run_in_tree(tree, PROBE, game, n, compiled=compiled)


def engine_of(out: dict, compiled: bool) -> dict:
    """A probe's figures, once it is sure which engine played them (a compiled probe that
    found no build for these sources would have played pure Python)."""
    if compiled and not str(out.get("engine", "")).startswith("compiled"):
        raise SystemExit(f"a compiled probe played {out.get('engine')}: no build for these sources?")
    return out


def wall_probe(tree: Path, game: str, budget: float, helpers: int, compiled: bool = False) -> int:
    """Playouts a decision at ``budget`` seconds of the wall clock, as a person playing the
    bot meets it (median of nine decisions), with ``helpers`` helper processes."""
    return int(engine_of(run_in_tree(tree, WALL, game, budget, helpers, compiled=compiled), compiled)["playouts"])


ENGINE = r"""
import json
from hexwar import native
print(json.dumps({"engine": native.engine()}))
"""


UNDO = r"""
import json, sys, time
from hexwar import registry
game = sys.argv[1]
info = registry.get(game)
out = {}
for seed in (3, 4, 5):
    s = info.build().new_state(seed)
    bots = {x: info.bot("priority", x, seed) for x in info.sides}
    while not s.is_over():
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), s.legal_orders()))
    s.clone().undo(len(s.log) // 3)  # warm: the first replay builds what later ones reuse
    for label, k in (("last order", 1), ("half the game", len(s.log) // 2)):
        c = s.clone()
        t0 = time.process_time()
        c.undo(k)
        out.setdefault(label, []).append(time.process_time() - t0)
print(json.dumps({k: sorted(v)[1] for k, v in out.items()}))
"""


def undo_probe(tree: Path, game: str) -> dict[str, float]:
    """The CPU time of undoing the last order and half the game at the end of a priority game
    (median of three seeds)."""
    return run_in_tree(tree, UNDO, game)


def search_probe(tree: Path, game: str, n: int, compiled: bool = False) -> float:
    return float(engine_of(run_in_tree(tree, SEARCH, game, n, compiled=compiled), compiled)["per_playout"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every probe's number of games")
    ap.add_argument("--only", nargs="*", default=[], help="these games only (default: every one)")
    ap.add_argument("--playouts", type=int, default=60, help="playouts a searched decision")
    ap.add_argument("--pure", action="store_true", help="pure Python only: no compiled engine measured")
    a = ap.parse_args()
    base = baseline_tree(ROOT, BASELINE)
    why = "--pure" if a.pure else native_build()
    nat = why is None
    if nat:  # a compiled probe that found no build would play pure Python: make sure first
        print("compiled engine:", engine_of(run_in_tree(ROOT, ENGINE, compiled=True), True)["engine"])
    print(f"baseline: commit {BASELINE} (issue 56's start); current: {ROOT}; best of {a.rounds} runs each, alternating; "
          + ("compiled: the current tree's build (hexwar native build, HEXWAR_NATIVE=1), against the same baseline"
             if nat else f"compiled engine not measured ({why})"))
    for game, n in GAMES.items():
        if a.only and game not in a.only:
            continue
        n = max(2, round(n * a.scale))
        old = [probe(base, game, n) for _ in range(a.rounds)]
        new = [probe(ROOT, game, n) for _ in range(a.rounds)]
        com = [probe(ROOT, game, n, compiled=True) for _ in range(a.rounds)] if nat else []
        for key in old[0]:
            o = min(r[key]["cpu"] for r in old)
            c = min(r[key]["cpu"] for r in new)
            same = old[0][key]["digest"] == new[0][key]["digest"]
            line = (f"{game + '/' + key:48} {n:4} games  {o * 1e3:8.1f} ms -> {c * 1e3:8.1f} ms a game  "
                    f"x{o / c:4.2f}  {'same games' if same else 'DIFFERENT GAMES'}")
            if com:
                k = min(r[key]["cpu"] for r in com)
                line += (f";  compiled {k * 1e3:8.1f} ms  x{o / k:4.2f}  "
                         f"{'same games' if com[0][key]['digest'] == new[0][key]['digest'] else 'NOT THE PURE ENGINE GAMES'}")
            print(line)
    for game in ("narvik", "kampen"):
        if a.only and game not in a.only:
            continue
        o = min(search_probe(base, game, a.playouts) for _ in range(a.rounds))
        c = min(search_probe(ROOT, game, a.playouts) for _ in range(a.rounds))
        line = (f"{'search/' + game:48} {a.playouts:4} playouts  {o * 1e3:6.2f} ms -> {c * 1e3:6.2f} ms a playout  "
                f"x{o / c:4.2f} playouts a second")
        if nat:
            k = min(search_probe(ROOT, game, a.playouts, compiled=True) for _ in range(a.rounds))
            line += f";  compiled {k * 1e3:6.2f} ms  x{o / k:4.2f}"
        print(line)
    for game, budget in (("narvik", 1.0), ("kampen", 0.25)):
        if a.only and game not in a.only:
            continue
        o = max(wall_probe(base, game, budget, 0) for _ in range(a.rounds))
        c0 = max(wall_probe(ROOT, game, budget, 0) for _ in range(a.rounds))
        c1 = max(wall_probe(ROOT, game, budget, 1) for _ in range(a.rounds))
        print(f"{'search/' + game + f' at {budget:g} s (wall)':48} {o:5} -> {c0:5} playouts a decision alone  x{c0 / o:4.2f};"
              f"  {c1:5} with one helper  x{c1 / o:4.2f}")
        if nat:
            k0 = max(wall_probe(ROOT, game, budget, 0, compiled=True) for _ in range(a.rounds))
            k1 = max(wall_probe(ROOT, game, budget, 1, compiled=True) for _ in range(a.rounds))
            print(f"{'':48} compiled: {k0:5} playouts a decision alone  x{k0 / o:4.2f};  {k1:5} with one helper  x{k1 / o:4.2f}")
    for game in ("narvik", "europa", "konflikt", "kampen"):
        if a.only and game not in a.only:
            continue
        olds = [undo_probe(base, game) for _ in range(a.rounds)]
        news = [undo_probe(ROOT, game) for _ in range(a.rounds)]
        for label in olds[0]:
            o, c = min(r[label] for r in olds), min(r[label] for r in news)
            print(f"{'undo/' + game + ', ' + label:48} {o * 1e3:8.2f} ms -> {c * 1e3:8.2f} ms  x{o / max(c, 1e-6):6.1f}")


if __name__ == "__main__":
    main()
