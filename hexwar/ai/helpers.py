"""Search helpers: the search bot's second core (issue 56).

Root-parallel ISMCTS (Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo Tree
Search"): while the bot searches a decision, each helper process grows a tree of its own
for the same decision, from the same view and with its own dice, until the same deadline;
the bot then adds each helper's visits and scores of the root's orders to its own and plays
the most visited. A person playing the bot leaves the machine's other core idle while it
thinks; a helper spends it. Batches already play a game on each core: they use none.

A helper is a fresh Python process (``python -m hexwar.ai.helpers``, safe beside the web
board's threads and whatever the main module is) started the first time it is needed, joined
to the bot by a socket pair. It rebuilds the game's search hooks from their module path (closures do
not travel between processes) and keeps the last game it was sent, so a decision sends only
the view, the legal orders and the policy bot's memory. The think time stays a hard cap: a
reply that has not come by the deadline (a helper still starting up, a machine too busy) is
not waited for; it is read and dropped before the next job, by the job's number.
"""

from __future__ import annotations

import importlib
import os
import pickle
import queue
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Sequence

from hexwar.core.orders import Order

#: how long after the deadline the bot waits for a helper's reply (its last playout ends at
#: the deadline, then it counts and sends)
GRACE = 0.05


def load_hooks(path: str) -> dict[str, Any]:
    """The search hooks a game names by ``module:function``."""
    module, _, name = path.partition(":")
    hooks: dict[str, Any] = getattr(importlib.import_module(module), name)()
    return hooks


def _serve(conn: Connection, hooks_path: str) -> None:
    """A helper's loop: one job at a time until the pipe closes."""
    from hexwar.ai.search import SearchBot
    from hexwar.core.engine import FastView

    hooks = load_hooks(hooks_path)
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
        bot = SearchBot(side, seed, max(0.0, deadline - time.monotonic()), **{**hooks, **config})
        bot.max_iterations = max_iterations
        bot.me = me
        stats = bot.grow(FastView(game, data), legal, stop=conn.poll)
        conn.send((number, stats))


def _post(conn: Connection, outbox: "queue.SimpleQueue[Any]") -> None:
    """Send a helper what is put in its outbox, in order, until None (sent too) or a
    closed socket."""
    while True:
        item = outbox.get()
        try:
            conn.send(item)
        except OSError:
            return
        if item is None:
            return


class Helpers:
    """The helper processes of one search bot, started on first use, stopped with it."""

    def __init__(self, hooks_path: str, count: int):
        self.hooks_path = hooks_path
        self.count = count
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.sent: list[Any] = []  # the game each helper holds
        #: what is to be sent to each helper, in order, by a thread of its own: a helper still
        #: starting reads nothing yet, and a send of a game fills the socket's buffer
        self.outboxes: list[queue.SimpleQueue[Any]] = []
        self.number = 0  # the job number: a late reply to an earlier job is dropped

    def start(self) -> None:
        while len(self.conns) < self.count:
            mine, theirs = socket.socketpair()
            p = subprocess.Popen([sys.executable, "-m", "hexwar.ai.helpers", str(theirs.fileno()), self.hooks_path],
                                 pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
            theirs.close()
            conn = Connection(mine.detach())
            outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
            threading.Thread(target=_post, args=(conn, outbox), daemon=True, name="hexwar-helper-post").start()
            self.conns.append(conn)
            self.outboxes.append(outbox)
            self.procs.append(p)
            self.sent.append(None)

    def ask(self, game: Any, data: Any, legal: Sequence[Order], side: str, seed: int, deadline: float,
            max_iterations: int | None, me: Any, config: dict[str, Any]) -> int:
        """Send every helper the decision; return the job's number."""
        self.start()
        self.number += 1
        for i, conn in enumerate(self.conns):
            self._drain(conn)
            game_bytes = None if self.sent[i] is game else pickle.dumps(game)
            self.sent[i] = game
            self.outboxes[i].put((self.number, game_bytes, data, list(legal), side, seed + 7919 * (i + 1), deadline,
                                  max_iterations, me, config))
        return self.number

    def stop_early(self) -> None:
        """Tell the helpers the answer is known: they end their searches and reply."""
        for outbox in self.outboxes:
            outbox.put(("stop",))

    def gather(self, number: int, deadline: float) -> list[dict[str, Any]]:
        """The replies to job ``number`` that come by the deadline (and its grace)."""
        out = []
        for conn in self.conns:
            while conn.poll(max(0.0, deadline + GRACE - time.monotonic())):
                got = conn.recv()
                if isinstance(got, tuple) and len(got) == 2 and got[0] == number:
                    out.append(got[1])
                    break
        return out

    def _drain(self, conn: Connection) -> None:
        while conn.poll():
            conn.recv()  # a late reply, or nothing to do with this job

    def close(self) -> None:
        for outbox in self.outboxes:
            outbox.put(None)  # the helper's loop ends, and the thread that posts to it
        for p in self.procs:
            try:
                p.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                p.kill()
        for conn in self.conns:
            conn.close()
        self.conns, self.procs, self.sent, self.outboxes = [], [], [], []


def lend_cores(bots: Any, helpers: int | None = None) -> None:
    """Give each bot that thinks (the search bot) ``helpers`` helper processes, by default
    one where the machine has a core to spare: while a person waits for the bot, the other
    core searches too (``hexwar.ai.helpers``). Started now, so they are ready by its first
    decision."""
    n = helpers if helpers is not None else min(1, (os.cpu_count() or 1) - 1)
    for bot in bots:
        if bot.thinks and n > 0:
            bot.helpers = n
            bot.start_helpers()


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), sys.argv[2])
