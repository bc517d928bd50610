"""Measure one engine's speed and print JSON: run by ``bench_issue17.py`` once with the
engine under test and once with the baseline commit's engine on ``PYTHONPATH``, so both
figures come from the same run on the same machine. Uses only APIs both engines have, and
one the baseline lacks where the engine has it: ``collector_paused``, which the engine's
``run_fast`` (every batch game's loop) plays each game in, and which this probe's copy of
that loop uses the same way. With ``HEXWAR_PROBE_COLLECTOR=1`` the collector runs as it does
in the baseline, in this loop and in ``run_fast`` alike: what the engine's code gives alone.

Narvik probes play N games after one warm-up game (the figures the issue set its targets
by), then N more on other seeds in the same process: those are a long batch's steady state,
its caches filled by games it played before, never by the same game.

Times are the process's CPU time (``time.process_time``), not the wall clock: for this
single-threaded work they agree on a quiet machine (2026-11-27, two rounds each: the median
random game 38.4-38.8 ms of wall clock and 37.9-38.2 ms of CPU, the baseline's 138 and
144-150 ms; a priority game 349-357 and 349-380 ms), and beside other jobs (a bot match on
both cores) the CPU time still counts only this engine's work, where the wall clock counts
the waits for a core too (three rounds beside the match gave 150-170 ms of wall clock and
40-45 ms of CPU time for the same median game).

A random game is played as ``run_fast`` plays it: where the engine has menus
(``legal_menu``), the random bot, which reads by kind, is given one, and the orders of the
kinds it does not choose are never listed; with ``full`` as a third argument every order is
listed, and the listing timed (the legal-order figures).

``kampen-split`` (the current engine only) plays the Kampen games, then the same games with
every order given back as chosen: the engine without its bots' thinking and views.

Usage: python bench/_speed_probe.py narvik-random|narvik-priority|kampen|kampen-split N [menu|full]
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import random
import statistics
import sys
import time
from typing import Any

clock = time.process_time  # see the module's docstring


def paused() -> Any:
    """``run_fast``'s pause of the garbage collector, in an engine that has one (and unless
    ``HEXWAR_PROBE_COLLECTOR`` asks for the collector as it runs without it)."""
    from hexwar.core import engine

    if os.environ.get("HEXWAR_PROBE_COLLECTOR") and hasattr(engine, "collector_paused"):
        engine.collector_paused = contextlib.nullcontext  # run_fast (the Kampen probe's loop) too
    return getattr(engine, "collector_paused", contextlib.nullcontext)


def narvik(kind: str, n: int, listing: str = "menu") -> dict:
    from hexwar.ai import RandomBot
    from hexwar.core.dice import Dice
    from hexwar.core.play import FastView, order_dice
    from hexwar.games.narvik import narvik_game
    from hexwar.games.narvik.bots import PriorityBot

    g = narvik_game()
    pause = paused()
    # the random bot reads by kind: an engine with menus gives it one, as run_fast does (the
    # kinds it does not choose are not listed); "full" lists every order, and times the listing
    menu = getattr(g, "legal_menu", None) if kind == "random" and listing == "menu" else None
    games, legal_t, digest = [], [], hashlib.sha1()
    first: dict = {}
    for seed in [-1] + list(range(2 * n)):  # seed -1 warms the caches every engine keeps up
        if seed == 0:
            games, legal_t, digest = [], [], hashlib.sha1()
        if seed == n:  # the first n games' figures; the next n show the engine in a long batch
            first = figures(games, legal_t)
            games, legal_t = [], []
        bots = {s: (PriorityBot(s, seed) if kind == "priority" else RandomBot(seed)) for s in ("allies", "germans")}
        t0 = clock()
        data = g.initial_state(seed, order_dice(seed, -1))
        rng = random.Random(f"hexwar-fast:{seed}")
        view = FastView(g, data)
        with pause():
            while not data.over:
                if menu is not None:
                    legal = menu(data)
                else:
                    t1 = clock()
                    legal = g.legal_orders(data)
                    legal_t.append(clock() - t1)
                side = g.current_side(data)
                order = bots[side].choose(view.view_for((side,)), legal)
                g.apply(data, order, Dice(rng=rng))  # run_fast's loop, legal orders timed on their own
                digest.update(order.text().encode())
        games.append(clock() - t0)  # with the young objects the pause left collected
        digest.update(json.dumps(data.vp, sort_keys=True).encode())
    return {**first, **{f"warm_{k}": v for k, v in figures(games, legal_t).items()}, "digest": digest.hexdigest()[:12]}


def figures(games: list[float], legal_t: list[float]) -> dict:
    out = {"median_game_s": statistics.median(games), "games_per_s": len(games) / sum(games), "menu": not legal_t}
    if legal_t:  # a full listing's timings (a menu's are not the listing's)
        out.update({"median_legal_ms": statistics.median(legal_t) * 1e3, "mean_legal_ms": statistics.fmean(legal_t) * 1e3,
                    "decisions": len(legal_t)})
    return out


def kampen(n: int) -> dict:
    from hexwar.core.engine import run_fast
    from hexwar.games.kampen import FACTIONS, KampenGame
    from hexwar.games.kampen.boards import kampen_board
    from hexwar.games.kampen.bots import KampenBot

    g = KampenGame("intro-narvik", kampen_board("norway"))
    paused()
    run_fast(g, 10**6, {f: KampenBot(f, 10**6) for f in FACTIONS})  # warm up
    digest = hashlib.sha1()
    t0 = clock()
    for seed in range(n):
        view, _ = run_fast(g, seed, {f: KampenBot(f, seed) for f in FACTIONS})
        digest.update(str(view.data.winner).encode())
    return {"games_per_s": n / (clock() - t0), "digest": digest.hexdigest()[:12], "engine": engine()}


def engine() -> str:
    """Which engine played: pure Python, or the compiled build (``HEXWAR_NATIVE=1``, in an
    engine that has one: ``hexwar/native.py``)."""
    try:
        from hexwar import native
    except ImportError:  # the baseline
        return "pure Python"
    return native.engine()


class _Replay:
    """A bot that gives the orders a game was played with, in turn: the game's listing,
    orders and phases run as they did, its bots' thinking and views left out."""

    def __init__(self, orders: list) -> None:
        self.next = iter(orders).__next__

    def choose(self, state: Any, legal: Any) -> Any:
        return self.next()


class _Record:
    """A bot that plays as ``bot`` does and keeps each order it gives in ``kept``."""

    def __init__(self, bot: Any, kept: list) -> None:
        self.bot, self.kept = bot, kept

    def choose(self, state: Any, legal: Any) -> Any:
        o = self.bot.choose(state, legal)
        self.kept.append(o)
        return o


def kampen_split(n: int) -> dict:
    """The Kampen probe's games (the current engine only), then the same games again with
    each order given back as it was chosen: what a game costs without its bots' thinking and
    the views they are shown (games/s of each, and the bots' and views' share of a game)."""
    from hexwar.core.engine import run_fast
    from hexwar.games.kampen import FACTIONS, KampenGame
    from hexwar.games.kampen.boards import kampen_board
    from hexwar.games.kampen.bots import KampenBot

    g = KampenGame("intro-narvik", kampen_board("norway"))
    paused()
    kept: dict[int, list] = {seed: [] for seed in range(n)}
    winners = []
    run_fast(g, 10**6, {f: KampenBot(f, 10**6) for f in FACTIONS})  # warm up
    t0 = clock()
    for seed in range(n):
        view, _ = run_fast(g, seed, {f: _Record(KampenBot(f, seed), kept[seed]) for f in FACTIONS})
        winners.append(view.data.winner)
    full = clock() - t0
    t0 = clock()
    for seed in range(n):
        replay = _Replay(kept[seed])
        view, _ = run_fast(g, seed, {f: replay for f in FACTIONS})
        assert view.data.over and view.data.winner == winners[seed], seed  # the same game
    engine = clock() - t0
    return {"games_per_s": n / full, "engine_games_per_s": n / engine, "bots_share": 1 - engine / full}


def main() -> None:
    what, n = sys.argv[1], int(sys.argv[2])
    listing = sys.argv[3] if len(sys.argv) > 3 else "menu"
    gc.collect()
    if what == "kampen-split":
        print(json.dumps(kampen_split(n)))
        return
    out = kampen(n) if what == "kampen" else narvik(what.split("-")[1], n, listing)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
