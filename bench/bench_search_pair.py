"""One search against another at the same think time, both sides (issue 74's match).

Each seed is played twice: the search set as ``--new`` takes one camp and the search set as
``--old`` the other, then the camps are swapped, every side thinking ``--think`` seconds a
decision (a decision with one legal order is played at once). ``--new`` and ``--old`` are the
search's settings as JSON (``candidates``, ``horizon``, ``turn_end``, ``c``, ``reuse``: those of
``hexwar.ai.search.SearchBot``); ``{}`` is the game's own search as it stands; ``"think": T``
gives that camp T seconds instead (a time odds: what more time is worth). Printed: the
new search's score (a win 1, a draw half) with its 95% Wilson interval, and by camp. Every
game is appended to ``--out`` as a JSON line as it ends.

``--old-commit REV`` plays the old camp with *another commit's* engine and search (issue 74's
"starting search"): the bench checks the commit out (``git worktree``, under ``.bench/``) and
runs its bot in a process of its own that imports that hexwar alone and keeps a replica of the
game, told every order (``bench/_search_at.py``); the replica's winner is held to the bench's.
``--old-bot KIND`` plays the old camp with another of the game's bots (``priority``) instead
of a search.

Two processes play at once (one a core), so a think time is one core's.

Usage: python bench/bench_search_pair.py --game kampen --games 30 --think 0.1 --new '{"horizon": 20}' --old '{}' --out F.jsonl
       python bench/bench_search_pair.py --game narvik --games 50 --think 0.1 --old-commit 575f53f --out F.jsonl
       python bench/bench_search_pair.py --game konflikt --scenario envelopment --games 30 --think 0.1 --old-bot priority --out F.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hexwar import registry  # noqa: E402
from hexwar.sim.stats import wilson  # noqa: E402


def _bot(game: str, side: str, seed: int, think: float, settings: dict[str, Any]) -> Any:
    bot = registry.get(game).bot("search", side, seed, think)
    for key, value in settings.items():
        if key == "think":  # a time odds (a diagnosis: what twice the time is worth), not a setting of the search
            bot.budget = value
            continue
        if key not in bot.config:
            raise SystemExit(f"--new/--old: {key!r} is no setting of the search ({', '.join(sorted(bot.config))})")
        setattr(bot, "cap" if key == "candidates" else key, value)
        bot.config[key] = value
    return bot


class _Other:
    """The old camp's bots in another commit's engine (``bench/_search_at.py``)."""

    def __init__(self, sources: Path):
        self.proc = subprocess.Popen([sys.executable, str(HERE / "_search_at.py"), str(sources)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **what: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(what) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("bench: the other commit's process ended (its error is above)")
        answer: dict[str, Any] = json.loads(line)
        return answer


_OTHER: _Other | None = None  # one process of the other commit per pool worker, kept across games


def one(job: tuple[str, str | None, int, float, dict[str, Any], dict[str, Any], str, str | None, str | None]) -> dict[str, Any]:
    """One game: the new search in ``camp`` (the first side's camp, or the rest), the old in the other."""
    global _OTHER
    game, scenario, seed, think, new, old, camp, sources, old_bot = job
    info = registry.get(game)
    first = info.sides[0]
    g = info.build(scenario)
    s = g.new_state(seed)
    new_sides = [x for x in info.sides if (x == first) == (camp == first)]
    bots = {}
    elsewhere: dict[str, list[Any]] = {}
    for i, side in enumerate(info.sides):
        if side in new_sides:
            bots[side] = _bot(game, side, seed * 10 + i, think, new)
        elif sources is not None:
            elsewhere[side] = [old_bot or "search", seed * 10 + i, think, old]
        elif old_bot is not None:
            bots[side] = info.bot(old_bot, side, seed * 10 + i, think)
        else:
            bots[side] = _bot(game, side, seed * 10 + i, think, old)
    if elsewhere:
        if _OTHER is None:
            assert sources is not None
            _OTHER = _Other(Path(sources))
        _OTHER.ask(start=game, scenario=scenario, seed=seed, bots=elsewhere)
    started = time.monotonic()
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        if side in elsewhere and len(legal) > 1:
            assert _OTHER is not None
            text = _OTHER.ask(choose=side)["order"]
            pick = next((o for o in legal if o.text() == text), None)
            if pick is None:
                raise SystemExit(f"bench: the other commit chose {text!r}, not legal here (seed {seed}, order {len(s.log)})")
        else:
            pick = legal[0] if len(legal) == 1 else bots[side].choose(s.view_for((side,)), legal)
        if elsewhere:
            assert _OTHER is not None
            _OTHER.ask(apply=pick.text())
        s.apply(pick)
    r = s.result()
    if elsewhere:
        assert _OTHER is not None
        theirs = _OTHER.ask(result=True)["winner"]
        if theirs != r.winner:
            raise SystemExit(f"bench: the other commit's replica ended with {theirs}, this one with {r.winner} (seed {seed})")
    score = 0.5 if r.winner is None else 1.0 if set(g.winning_sides(r.winner)) & set(new_sides) else 0.0
    return {"game": game, "scenario": scenario, "seed": seed, "think": think, "new": new, "old": old, "old_commit": sources and Path(sources).name,
            "old_bot": old_bot, "new_camp": camp, "winner": r.winner, "score": score, "orders": len(s.log),
            "seconds": round(time.monotonic() - started, 1)}


def _sources(rev: str) -> Path:
    """A checkout of ``rev`` under ``.bench/`` (made once, a ``git worktree``; the bench's own files)."""
    root = HERE.parent
    full = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=root, capture_output=True,
                          text=True)
    if full.returncode:
        raise SystemExit(f"--old-commit: {rev!r} is no commit of this repository")
    path = root / ".bench" / full.stdout.strip()[:12]
    if not (path / "hexwar" / "__init__.py").exists():
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(path), full.stdout.strip()], cwd=root,
                       check=True, capture_output=True)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="kampen")
    ap.add_argument("--scenario", default=None, help="the game's scenario (default: its first)")
    ap.add_argument("--games", type=int, default=30, help="seeds; each is played from both camps")
    ap.add_argument("--think", type=float, default=0.1)
    ap.add_argument("--new", default="{}")
    ap.add_argument("--old", default="{}")
    ap.add_argument("--old-commit", default=None, help="the old camp plays this commit's engine and bots")
    ap.add_argument("--old-bot", default=None, help="the old camp plays this bot of the game's, not its search")
    ap.add_argument("--seed0", type=int, default=1, help="the first seed")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    new, old = json.loads(a.new), json.loads(a.old)
    first = registry.get(a.game).sides[0]
    sources = str(_sources(a.old_commit)) if a.old_commit else None
    jobs = [(a.game, a.scenario, seed, a.think, new, old, camp, sources, a.old_bot)
            for seed in range(a.seed0, a.seed0 + a.games) for camp in (first, "rest")]
    rows = []
    with Pool(2) as pool, a.out.open("a", encoding="utf-8") as f:
        for row in pool.imap_unordered(one, jobs):
            f.write(json.dumps(row) + "\n")
            f.flush()
            rows.append(row)
    total = sum(r["score"] for r in rows)
    lo, hi = wilson(round(total), len(rows))
    against = f"{a.old_bot or 'search'} {a.old}" + (f" at {a.old_commit}" if a.old_commit else "")
    print(f"{a.game}{'/' + a.scenario if a.scenario else ''}, {a.think:g} s a decision, new {a.new} against {against}: new scores {total:g}/{len(rows)} "
          f"= {total / len(rows):.0%} (95% {lo:.0%}-{hi:.0%})")
    for camp in (first, "rest"):
        part = [r for r in rows if r["new_camp"] == camp]
        print(f"  new as {camp if camp == first else 'the other camp'}: {sum(r['score'] for r in part):g}/{len(part)}")


if __name__ == "__main__":
    main()
