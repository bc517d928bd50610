"""Issue 17: the engine's speed against the engine before the issue, in the same run.

The baseline is the commit before issue 17's work (``BASELINE``), with the rule fixes made
since applied to it (``RULE_FIXES``: both engines play the same rules), unpacked from git into a
temporary directory and run by the same probe (``bench/_speed_probe.py``) in a subprocess
with it on ``PYTHONPATH``; the engine under test runs the same probe the same way. Both
play the same seeded games: the digests must agree (the same games, move for move).
Runs alternate baseline / current, and each figure is the best of ``--rounds`` (the least
disturbed by whatever else the machine does); the game figures also give each round's ratio
of the two engines run one after the other, whose spread shows how much a figure near a
target can be trusted. The probe times CPU time, which another job on
the machine disturbs far less than the wall clock (see ``_speed_probe.py``).

Each Narvik probe prints two pairs of lines: its games after one warm-up game (the figures
the issue's targets were set by), and as many more on other seeds in the same process, a long
batch's steady state (``make reports`` plays 2,000 games in a process's life): the caches the
engine keeps for the map (naval routes, reaches, order lists) are filled by then. Under each,
the current engine once more with the garbage collector running through its games, as the
baseline's does (no ``collector_paused``, which its ``run_fast`` plays each game in): what
the engine's code gives without that pause.

A random game is played as ``run_fast`` plays it: the random bot reads by kind, and the
engine gives it a menu that lists only the kind it chooses (``Menu``); a third probe of the
current engine lists every order, for the legal-order timings and the game as it was played
before menus (both figures are printed).

Targets (issue 17): a Narvik random game, a priority game and legal orders per decision
each >= 5x faster; Kampen Scenario 1 with priority bots >= 2,000 games/s on one core. The
issue measured 770 games/s on its machine, so the Kampen line also gives that target as a
ratio (x2.6 over the baseline) in this run's games/s, and the same games once more with each
order given back as it was chosen: the engine's listing, orders and phases alone, without
the bots' thinking and the views they are shown (``_speed_probe.py kampen-split``), and the
share of a game those take. Where this machine can build it (mypyc and a C compiler), the
Kampen line is measured once more with the compiled engine (``hexwar native build``, played
with ``HEXWAR_NATIVE=1``: the same games, compiled by mypyc; ``hexwar/native.py``).

Usage: python bench/bench_issue17.py [--games N] [--rounds R] [--kampen N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from _common import baseline_tree  # noqa: E402
BASELINE = "615a181"  # the tree as issue 17 found it
#: today's figures as the issue states them, measured before any of its work (2026-11-24)
ISSUE = {"narvik-random": "~0.35 s a random game, ~2.4 ms an order", "narvik-priority": "~0.6 s a priority game (2.2 s here)",
         "kampen": "770 games/s"}


#: rule fixes made since the baseline, applied to its tree as (file, old text, new text, times)
#: so that both engines play the same games: the speed is compared on the rules as they are
RULE_FIXES = [
    # fa90f32, 13.2: a unit coming ashore counts its stacking points (it was counted aboard)
    ("hexwar/rules/stacking.py", 'def unit_points(tables: "Tables", unit: "Unit") -> int:',
     'def unit_points(tables: "Tables", unit: "Unit", ashore: bool = False) -> int:', 1),
    ("hexwar/rules/stacking.py", "if t.kind in st.free_kinds or unit.has(ABOARD):",
     "if t.kind in st.free_kinds or (unit.has(ABOARD) and not ashore):", 1),
    ("hexwar/rules/stacking.py",
     "    units = [u for u in state.at(loc) if u.side == side and u.id not in gone] + list(extra)\n"
     "    pts = sum(unit_points(tables, u) for u in units)\n",
     "    here = [u for u in state.at(loc) if u.side == side and u.id not in gone]\n"
     "    extra = list(extra)\n"
     "    units = here + extra\n"
     "    pts = sum(unit_points(tables, u) for u in here) + sum(unit_points(tables, u, ashore=True) for u in extra)\n", 1),
    ("hexwar/games/narvik/phases/naval.py", "stacking.unit_points(g.tables, u) for u in force",
     "stacking.unit_points(g.tables, u, ashore=True) for u in force", 2),
]


def probe(tree: Path, what: str, n: int, pause: bool = True, listing: str = "menu", compiled: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", HEXWAR_NATIVE="1" if compiled else "0")
    if not pause:
        env["HEXWAR_PROBE_COLLECTOR"] = "1"
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "_speed_probe.py"), what, str(n), listing],
                         env=env, check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20, help="Narvik games per probe")
    ap.add_argument("--kampen", type=int, default=2000, help="Kampen games per probe")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    base = baseline_tree(ROOT, BASELINE, RULE_FIXES)
    print(f"baseline: commit {BASELINE} (before issue 17); current: {ROOT}; best of {a.rounds} runs each, alternating; CPU time")
    for what in ("narvik-random", "narvik-priority"):
        n = a.games if what == "narvik-random" else max(4, a.games // 3)
        old: list[dict] = []
        new: list[dict] = []
        raw: list[dict] = []  # the current engine with the collector running (collector_paused's share)
        full: list[dict] = []  # the current engine listing every order (a random game's legal-order timings)
        for _ in range(a.rounds):
            old.append(probe(base, what, n))
            new.append(probe(ROOT, what, n))
            raw.append(probe(ROOT, what, n, pause=False))
            full.append(probe(ROOT, what, n, listing="full") if new[-1]["menu"] else new[-1])
        digests = {old[0]["digest"], new[0]["digest"], full[0]["digest"]}
        same = "same games" if len(digests) == 1 else f"DIFFERENT GAMES ({', '.join(sorted(digests))})"
        for w, label in (("", f"({n} games; issue: {ISSUE[what]})"),
                         ("warm_", f"({n} more on other seeds, in the same process: a long batch's steady state)")):
            o = min(old, key=lambda r: r[w + "median_game_s"])
            c = min(new, key=lambda r: r[w + "median_game_s"])
            f = min(full, key=lambda r: r[w + "median_game_s"])
            lo = min(r[w + "median_legal_ms"] for r in old)
            lc = min(r[w + "median_legal_ms"] for r in full)
            mo = min(r[w + "mean_legal_ms"] for r in old)
            mc = min(r[w + "mean_legal_ms"] for r in full)
            print(f"{what if not w else '':16} {label}: median game {o[w + 'median_game_s'] * 1e3:7.1f} ms -> "
                  f"{c[w + 'median_game_s'] * 1e3:7.1f} ms  x{o[w + 'median_game_s'] / c[w + 'median_game_s']:4.1f}"
                  + (f"; {same}" if not w else "")
                  + f"; each round: {paired(old, new, w + 'median_game_s')}")
            if c["menu"]:
                print(f"{'':16} the random bot reads a menu (run_fast): with every order listed instead, median game "
                      f"{f[w + 'median_game_s'] * 1e3:7.1f} ms  x{o[w + 'median_game_s'] / f[w + 'median_game_s']:4.1f}")
            print(f"{'':16} legal orders per decision: median {lo:6.3f} ms -> {lc:6.3f} ms  x{lo / lc:4.1f}; "
                  f"mean {mo:6.3f} ms -> {mc:6.3f} ms  x{mo / mc:4.1f} ({f[w + 'decisions']} decisions)")
            r = min(raw, key=lambda r: r[w + "median_game_s"])
            legal = (f"; legal orders: median x{lo / min(x[w + 'median_legal_ms'] for x in raw):4.1f}, "
                     f"mean x{mo / min(x[w + 'mean_legal_ms'] for x in raw):4.1f}") if not r["menu"] else ""
            print(f"{'':16} the same with the collector running as in the baseline (no collector_paused): median game "
                  f"{r[w + 'median_game_s'] * 1e3:7.1f} ms  x{o[w + 'median_game_s'] / r[w + 'median_game_s']:4.1f}{legal}")
    old = []
    new = []
    raw = []
    split = []
    nat: list[dict] = []  # the compiled engine (hexwar native build), where it can be built here
    built = native_build()
    for _ in range(a.rounds):
        old.append(probe(base, "kampen", a.kampen))
        new.append(probe(ROOT, "kampen", a.kampen))
        raw.append(probe(ROOT, "kampen", a.kampen, pause=False))
        split.append(probe(ROOT, "kampen-split", a.kampen))
        if built is None:
            nat.append(probe(ROOT, "kampen", a.kampen, compiled=True))
    o = max(old, key=lambda r: r["games_per_s"])
    c = max(new, key=lambda r: r["games_per_s"])
    r = max(raw, key=lambda r: r["games_per_s"])
    same = "same games" if o["digest"] == c["digest"] else "different winners"
    print(f"kampen S1 priority ({a.kampen} games, one core; issue: {ISSUE['kampen']}): {o['games_per_s']:7.0f} -> "
          f"{c['games_per_s']:7.0f} games/s  x{c['games_per_s'] / o['games_per_s']:4.1f}; {same}; "
          f"with the collector running: {r['games_per_s']:7.0f} games/s  x{r['games_per_s'] / o['games_per_s']:4.1f}; "
          f"each round: {paired(new, old, 'games_per_s')}")
    # the issue measured 770 games/s on its machine: its 2,000 is that engine's speed x2.6
    need = 2000 / 770
    sp = max(split, key=lambda r: r["engine_games_per_s"])
    print(f"{'':16} target: 2,000 against the issue's 770 games/s is x{need:.1f} over the baseline: "
          f"{o['games_per_s'] * need:7.0f} games/s here; the engine gives x{c['games_per_s'] / o['games_per_s']:.1f}")
    if nat:
        n = max(nat, key=lambda r: r["games_per_s"])
        assert all(r["engine"].startswith("compiled") for r in nat), nat[0]["engine"]
        print(f"{'':16} {n['engine']} (hexwar native build; HEXWAR_NATIVE=1): {n['games_per_s']:7.0f} "
              f"games/s  x{n['games_per_s'] / o['games_per_s']:4.1f} (target x{need:.1f}); "
              f"{'same games' if n['digest'] == o['digest'] else 'DIFFERENT WINNERS'}; each round: {paired(nat, old, 'games_per_s')}")
    else:
        print(f"{'':16} compiled engine: not measured ({built})")
    print(f"{'':16} the same games with each order given back as chosen (no bots' thinking, no views): "
          f"{sp['engine_games_per_s']:7.0f} games/s; the priority bots and their views are "
          f"{min(r['bots_share'] for r in split):.0%}-{max(r['bots_share'] for r in split):.0%} of a game")


def native_build() -> str | None:
    """Build the compiled engine for these sources (kept in the user's cache: once), or say
    why it cannot be built here."""
    res = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", "native", "build"], cwd=ROOT, capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return None if res.returncode == 0 else (res.stderr.strip().splitlines() or ["hexwar native build failed"])[-1]


def paired(num: list[dict], den: list[dict], key: str) -> str:
    """Each round's speed-up ``num[key] / den[key]`` (the baseline's time over the engine's,
    or the engine's games/s over the baseline's): a round runs the two engines one after the
    other, so a drift of the machine's speed between rounds moves both of its figures alike,
    and the spread of these ratios shows how far the best-of figure can be trusted."""
    return ", ".join(f"x{a[key] / b[key]:.2f}" for a, b in zip(num, den))


if __name__ == "__main__":
    main()
