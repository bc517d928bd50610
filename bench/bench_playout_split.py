"""Issue 56: where a search playout's time goes, and what that bounds.

The search bot (ISMCTS, ``hexwar.ai.search``) decides the positions ``bench_issue56`` searches
(an Assault on Narvik action of the Allies, a Kampen om Norge German round) for a fixed number
of playouts, with each part of a playout timed on the CPU clock as it runs:

- **listing**: the game's ``legal_orders`` and ``legal_menu`` (the tree's decisions, and a
  rollout's for a policy that reads the whole list);
- **policy**: the rollout policy's ``choose`` (for a policy that reads a menu, the parts it
  works out are listed inside it, and counted here);
- **applying**: the game's ``apply`` and ``apply_unchecked``;
- **prior**: the prior's ranking of a tree node's orders (``rank``);
- **copy**: each playout's copy of the view and its determinization;
- **score**: the end's evaluation;
- **the rest**: the tree's own work (UCB1, widening, the back-up) and the loop.

Each share is a ratio of the same run's whole, each part's time its own (a part called inside
another is charged to the inner one). The last column is the ceiling it sets: the
playouts a decision could grow by were listing and the policy free (``1 / (1 - share)``), and
were everything but the tree free. A target above the second ceiling cannot be met by making
the game's rules, lists and bots faster: only by changing what a playout is.

Usage: python bench/bench_playout_split.py [--playouts N] [--seeds S ...]
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable


class _Clock:
    """Exclusive CPU time by part: a part called inside another (``apply_unchecked`` calling
    ``apply``, a listing inside a policy) is charged to the inner one only."""

    def __init__(self) -> None:
        self.tally: dict[str, float] = {}
        self.stack: list[str] = []
        self.mark = time.process_time()

    def _charge(self) -> None:
        now = time.process_time()
        if self.stack:
            part = self.stack[-1]
            self.tally[part] = self.tally.get(part, 0.0) + now - self.mark
        self.mark = now

    def timed(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **k: Any) -> Any:
            self._charge()
            self.stack.append(part)
            try:
                return fn(*a, **k)
            finally:
                self._charge()
                self.stack.pop()

        return run


PARTS = ("listing", "policy", "applying", "prior", "copy", "score")


def _decision(game: str, seed: int) -> tuple[Any, Any, str, Any]:
    """The first decision of the side with a real choice, the game played to it by priority
    bots (as ``bench_issue56``'s search probe)."""
    from hexwar import registry

    info = registry.get(game)
    side, phase = ("allies", "action") if game == "narvik" else ("germans", None)
    s = info.build().new_state(seed)
    bots = {x: info.bot("priority", x, seed) for x in info.sides}
    while not s.is_over():
        legal = s.legal_orders()
        if s.current_side() == side and len(legal) > 10 and (phase is None or s.data.phase == phase):
            return s, legal, side, info
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))
    raise SystemExit(f"{game}: no decision found for seed {seed}")


def split(game: str, seed: int, playouts: int) -> dict[str, float]:
    """The CPU seconds of each part of ``playouts`` playouts of one decision, and the whole."""
    s, legal, side, info = _decision(game, seed)
    bot = info.bot("search", side, seed, 1e9)
    bot.max_iterations = playouts
    bot.MIN_ITERATIONS = playouts + 1  # no early answer: every playout counted
    c = _Clock()
    g = s.game
    # a game is frozen once built (issue 73): the bench times its methods on this one game all
    # the same, setting them past the freeze (the rules' state is untouched)
    for name in ("legal_orders", "legal_menu"):
        object.__setattr__(g, name, c.timed("listing", getattr(g, name)))
    for name in ("apply", "apply_unchecked"):
        object.__setattr__(g, name, c.timed("applying", getattr(g, name)))
    make = bot.policy

    def policy(mover: str, pseed: int) -> Any:
        p = make(mover, pseed)
        p.choose = c.timed("policy", p.choose)
        return p

    bot.policy = policy
    bot.rank = c.timed("prior", bot.rank)
    bot.evaluate = c.timed("score", bot.evaluate)
    bot.determinize = c.timed("copy", bot.determinize)
    clone = type(s.data).clone
    type(s.data).clone = c.timed("copy", clone)  # type: ignore[method-assign]
    try:
        t0 = time.process_time()
        bot.choose(s.view_for((side,)), legal)
        whole = time.process_time() - t0
    finally:
        type(s.data).clone = clone  # type: ignore[method-assign]
    tally = {k: c.tally.get(k, 0.0) for k in PARTS}
    tally["whole"] = whole
    tally["playouts"] = bot.last["iterations"]
    return tally


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--playouts", type=int, default=60)
    ap.add_argument("--seeds", type=int, nargs="*", default=[3, 4, 5])
    a = ap.parse_args()
    parts = PARTS
    print(f"{a.playouts} playouts a decision, seeds {a.seeds}; CPU shares of the whole, summed over the seeds")
    for game in ("narvik", "kampen"):
        tot = {k: 0.0 for k in (*parts, "whole", "playouts")}
        for seed in a.seeds:
            for k, v in split(game, seed, a.playouts).items():
                tot[k] += v
        whole = tot["whole"]
        rest = whole - sum(tot[k] for k in parts)
        shares = {k: tot[k] / whole for k in parts} | {"the rest": rest / whole}
        free = shares["listing"] + shares["policy"]
        tree = shares["the rest"]
        print(f"{game}: {whole / tot['playouts'] * 1e3:.2f} ms a playout; "
              + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))
        print(f"{'':8}ceiling: x{1 / max(1e-9, 1 - free):.1f} the playouts were listing and the policy free; "
              f"x{1 / max(1e-9, tree):.1f} were all but the tree free")


if __name__ == "__main__":
    main()
