"""Issue 52: the contract, the rules contexts and the presenters cost no speed.

The engine before the issue (``BASELINE``, unpacked from git into a temporary directory) and
the current one play the same seeded games with each game's fast bots (``run_fast``, as a
batch plays them), each in a subprocess with its tree on ``PYTHONPATH``; both print a digest
of every game's log, which must agree (the same games, move for move), and the CPU time a
game takes. Runs alternate baseline / current; each figure is the best of ``--rounds``. A
ratio above 1 means the current engine is faster.

Usage: python bench/bench_issue52.py [--rounds R] [--scale S] [--only GAME ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from _common import baseline_tree, run_in_tree  # noqa: E402
BASELINE = "ea45b45"  # the tree as issue 52 found it

#: game -> games a probe plays (scaled by --scale): a Narvik game takes the better part of a second
GAMES = {"narvik": 4, "europa": 4, "konflikt": 12, "kampen": 150, "skirmish": 40}

PROBE = r"""
import hashlib, json, sys, time
from hexwar.core.engine import run_fast
from hexwar import registry
name, n = sys.argv[1], int(sys.argv[2])
info = registry.get(name)
out = {}
for sc, bd, sw in info.conformance_variants():
    game = info.build(sc, bd, sw)
    for kind, bot in sorted(info.bots.items()):
        if not bot.fast:
            continue
        run_fast(game, 10_000, {s: info.bot(kind, s, 10_000) for s in info.sides})  # warm-up: caches, imports
        h, cpu = hashlib.sha1(), []
        for seed in range(n):
            bots = {s: info.bot(kind, s, seed) for s in info.sides}
            t0 = time.process_time()
            view, log = run_fast(game, seed, bots, record=True)
            cpu.append(time.process_time() - t0)
            h.update(log.to_json().encode())
            h.update(str(view.data.winner).encode())
        out[f"{sc}@{bd}{'+' + '+'.join(sw) if sw else ''}:{kind}"] = {"digest": h.hexdigest()[:12], "cpu": sum(cpu) / n}
print(json.dumps(out))
"""


def probe(tree: Path, game: str, n: int) -> dict:
    return run_in_tree(tree, PROBE, game, n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every probe's number of games")
    ap.add_argument("--only", nargs="*", default=[], help="these games only (default: every one)")
    a = ap.parse_args()
    base = baseline_tree(ROOT, BASELINE)
    print(f"baseline: commit {BASELINE} (before issue 52); current: {ROOT}; best of {a.rounds} runs each, "
          "alternating; CPU time a game, run_fast with each game's fast bots")
    ratios = []
    for game, n in GAMES.items():
        if a.only and game not in a.only:
            continue
        n = max(2, round(n * a.scale))
        old: list[dict] = []
        new: list[dict] = []
        for _ in range(a.rounds):
            old.append(probe(base, game, n))
            new.append(probe(ROOT, game, n))
        for key in old[0]:
            o = min(r[key]["cpu"] for r in old)
            c = min(r[key]["cpu"] for r in new)
            same = old[0][key]["digest"] == new[0][key]["digest"]
            ratios.append(o / c)
            print(f"{game + '/' + key:48} {n:4} games  {o * 1e3:8.1f} ms -> {c * 1e3:8.1f} ms a game  "
                  f"x{o / c:4.2f}  {'same games' if same else 'DIFFERENT GAMES'}")
    geo = 1.0
    for r in ratios:
        geo *= r
    print(f"geometric mean over {len(ratios)} probes: x{geo ** (1 / len(ratios)):.2f} (above 1: the current engine is faster)")


if __name__ == "__main__":
    main()
