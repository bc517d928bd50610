"""Concealment worth keeping (issue 57): how many of its face-down counters each German bot
turns face up of its own accord (11.1) a turn in Assault on Narvik, and how often it wins.

Two figures, both from games played the same way on both sides of the comparison:

1. **The priority bot before and after** it learnt to keep its counters face down
   (abe2e81): priority against priority on the same seeds, the engine before that commit
   (6615803, unpacked from git) and now, in the same run. A reveal is a ``reveal`` event of
   a German unit: one the bot chose, not one an attack turned (``revealed``).
2. **The search bot** as the Germans in the bot ladder's games (``docs/ladder/narvik.jsonl``,
   ``hexwar ladder``): each German entrant against the same Allied entrants, its reveals
   per turn and its wins, with 95% Wilson intervals.

Usage: python bench/bench_concealment.py [--games 100] [--ladder docs/ladder/narvik.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import baseline_tree, run_in_tree  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "6615803"  # the commit before abe2e81, where the German priority bot flipped every counter in a reaction

PROBE = r"""
import json, sys
from hexwar.core.engine import run_fast
from hexwar import registry
info = registry.get("narvik"); g = info.build()
games = int(sys.argv[1])
reveals = first = turns = wins = 0
for seed in range(1, games + 1):
    seen = []
    def watch(view, events):
        for ev in events:
            if ev["type"] == "reveal" and view.data.units[ev["unit"]].side == "germans":
                seen.append(view.data.turn)
    view, _ = run_fast(g, seed, {s: info.bot("priority", s, seed) for s in info.sides}, observe=watch)
    reveals += len(seen)
    first += seen.count(1)
    turns += view.data.turn
    wins += view.result().winner == "germans"
print(json.dumps({"games": games, "reveals": reveals, "first_turn": first, "turns": turns, "wins": wins}))
"""


def main() -> None:
    from hexwar.sim.ladder import read
    from hexwar.sim.stats import two_proportions, wilson

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--ladder", type=Path, default=ROOT / "docs" / "ladder" / "narvik.jsonl")
    a = ap.parse_args()
    print(f"1. German priority bot, priority against priority, seeds 1-{a.games}:")
    got = {}
    for name, tree in (("before (6615803)", baseline_tree(ROOT, BEFORE)), ("now", ROOT)):
        r = got[name] = run_in_tree(tree, PROBE, a.games)
        lo, hi = wilson(r["wins"], r["games"])
        print(f"   {name:18} reveals a turn {r['reveals'] / r['turns']:.2f} ({r['reveals']} in {r['turns']} turns), "
              f"in the first turn {r['first_turn'] / r['games']:.2f} a game; "
              f"German wins {r['wins']}/{r['games']} [{lo:.0%}, {hi:.0%}]")
    b, n = got["before (6615803)"], got["now"]
    print(f"   German wins before against now: two-sided p = {two_proportions(b['wins'], b['games'], n['wins'], n['games']):.2g}")
    rows = [r for r in read(a.ladder) if r["scenario"] == "scenario"] if a.ladder.exists() else []
    print(f"\n2. The ladder's games ({a.ladder.name}, {len(rows)} games), by the German entrant "
          "(each against the same Allied entrants):")
    for german in sorted({r["second"] for r in rows}):
        mine = [r for r in rows if r["second"] == german]
        reveals = sum(r["row"]["reveals_germans"] for r in mine)
        turns = sum(r["row"]["end_turn"] for r in mine)
        wins = sum(r["won"] == 1 for r in mine)
        lo, hi = wilson(wins, len(mine))
        print(f"   {german:10} reveals a turn {reveals / max(1, turns):.2f} ({reveals} in {turns} turns); German wins "
              f"{wins}/{len(mine)} [{lo:.0%}, {hi:.0%}], draws {sum(r['won'] is None for r in mine)}")
    print(json.dumps({"before_after": got}))


if __name__ == "__main__":
    main()
