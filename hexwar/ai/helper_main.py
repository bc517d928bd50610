"""A search helper's process (``python -m hexwar.ai.helper_main FD``, started by
``hexwar.ai.helpers.Helpers``): it reads the game's search hooks function from the socket,
then one decision at a time, and answers each with the root of a tree it grew
(``SearchBot.grow``) until the decision's deadline or a word to stop. It ends with its game's
process: when the socket closes, and, should that process be killed while something else
holds the socket open, within :data:`WATCH` seconds of it dying (issue 70: helpers that
outlived a killed runner searched on for half an hour)."""

from __future__ import annotations

import os
import pickle
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from hexwar.ai.search import SearchBot
from hexwar.core.play import FastView


#: how often a helper looks whether the process that started it is still alive (seconds)
WATCH = 0.5


def watch_parent(parent: int, every: float = WATCH) -> threading.Thread:
    """End this process once ``parent`` is no longer its parent (it died, and the helper was
    handed to another); a daemon thread, checking every ``every`` seconds."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    t = threading.Thread(target=watch, daemon=True, name="hexwar-helper-watch")
    t.start()
    return t


def serve(conn: Connection) -> None:
    """The helper's loop: its hooks first, then one job at a time until the socket closes."""
    try:
        hooks = pickle.loads(conn.recv())()
    except (EOFError, OSError):
        return
    game: Any = None
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if len(job) == 1:  # ("stop",) for a job already answered
            continue
        number, game_bytes, data, legal, side, seed, deadline, max_iterations, me, config = job
        if game_bytes is not None:
            game = pickle.loads(game_bytes)
        config = dict(config)
        least = config.pop("min_iterations", SearchBot.MIN_ITERATIONS)
        bot = SearchBot(side, seed, max(0.0, deadline - time.monotonic()), **{**hooks, **config})
        bot.max_iterations = max_iterations
        bot.MIN_ITERATIONS = least  # no early answer before the bot's own least
        bot.me = me
        stats = bot.grow(FastView(game, data), legal, stop=conn.poll)
        conn.send((number, stats))


if __name__ == "__main__":
    watch_parent(int(sys.argv[2]) if len(sys.argv) > 2 else os.getppid())
    serve(Connection(int(sys.argv[1])))
