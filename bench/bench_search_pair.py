"""One search against another at the same think time, both sides (issue 74's match).

Each seed is played twice: the search set as ``--new`` takes one camp and the search set as
``--old`` the other, then the camps are swapped, every side thinking ``--think`` seconds a
decision (a decision with one legal order is played at once). ``--new`` and ``--old`` are the
search's settings as JSON (``candidates``, ``horizon``, ``turn_end``, ``c``: those of
``hexwar.ai.search.SearchBot``); ``{}`` is the game's own search as it stands. Printed: the
new search's score (a win 1, a draw half) with its 95% Wilson interval, and by camp. Every
game is appended to ``--out`` as a JSON line as it ends.

Two processes play at once (one a core), so a think time is one core's.

Usage: python bench/bench_search_pair.py --game kampen --games 30 --think 0.1 --new '{"horizon": 20}' --old '{}' --out F.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexwar import registry  # noqa: E402
from hexwar.sim.stats import wilson  # noqa: E402


def _bot(game: str, side: str, seed: int, think: float, settings: dict[str, Any]) -> Any:
    bot = registry.get(game).bot("search", side, seed, think)
    for key, value in settings.items():
        if key not in bot.config:
            raise SystemExit(f"--new/--old: {key!r} is no setting of the search ({', '.join(sorted(bot.config))})")
        setattr(bot, "cap" if key == "candidates" else key, value)
        bot.config[key] = value
    return bot


def one(job: tuple[str, int, float, dict[str, Any], dict[str, Any], str]) -> dict[str, Any]:
    """One game: the new search in ``camp`` (the first side's camp, or the rest), the old in the other."""
    game, seed, think, new, old, camp = job
    info = registry.get(game)
    first = info.sides[0]
    g = info.build()
    s = g.new_state(seed)
    bots = {side: _bot(game, side, seed * 10 + i, think, new if (side == first) == (camp == first) else old)
            for i, side in enumerate(info.sides)}
    started = time.monotonic()
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        s.apply(legal[0] if len(legal) == 1 else bots[side].choose(s.view_for((side,)), legal))
    r = s.result()
    new_sides = [x for x in info.sides if (x == first) == (camp == first)]
    score = 0.5 if r.winner is None else 1.0 if set(g.winning_sides(r.winner)) & set(new_sides) else 0.0
    return {"game": game, "seed": seed, "think": think, "new": new, "old": old, "new_camp": camp,
            "winner": r.winner, "score": score, "orders": len(s.log), "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="kampen")
    ap.add_argument("--games", type=int, default=30, help="seeds; each is played from both camps")
    ap.add_argument("--think", type=float, default=0.1)
    ap.add_argument("--new", default="{}")
    ap.add_argument("--old", default="{}")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    new, old = json.loads(a.new), json.loads(a.old)
    first = registry.get(a.game).sides[0]
    jobs = [(a.game, seed, a.think, new, old, camp) for seed in range(1, a.games + 1) for camp in (first, "rest")]
    rows = []
    with Pool(2) as pool, a.out.open("a", encoding="utf-8") as f:
        for row in pool.imap_unordered(one, jobs):
            f.write(json.dumps(row) + "\n")
            f.flush()
            rows.append(row)
    total = sum(r["score"] for r in rows)
    lo, hi = wilson(round(total), len(rows))
    print(f"{a.game}, {a.think:g} s a decision, new {a.new} against old {a.old}: new scores {total:g}/{len(rows)} "
          f"= {total / len(rows):.0%} (95% {lo:.0%}-{hi:.0%})")
    for camp in (first, "rest"):
        part = [r for r in rows if r["new_camp"] == camp]
        print(f"  new as {camp if camp == first else 'the other camp'}: {sum(r['score'] for r in part):g}/{len(part)}")


if __name__ == "__main__":
    main()
