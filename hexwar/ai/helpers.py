"""Search helpers: the search bot's second core (issue 56).

Root-parallel ISMCTS (Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo Tree
Search"): while the bot searches a decision, each helper process grows a tree of its own
for the same decision, from the same view and with its own dice, until the same deadline;
the bot then adds each helper's visits and scores of the root's orders to its own and plays
the most visited. A person playing the bot leaves the machine's other core idle while it
thinks; a helper spends it. Batches already play a game on each core: they use none.

A helper is a fresh Python process (``python -m hexwar.ai.helper_main``, safe beside the web
board's threads and whatever the main module is) started the first time it is needed, joined
to the bot by a socket pair. It rebuilds the game's search hooks by calling the game's hooks
function, sent by its name (closures do not travel between processes), and keeps the last
game it was sent, so a decision sends only the view, the legal orders and the policy bot's
memory. The think time stays a hard cap: a reply that has not come by the deadline (a helper
still starting up, a machine too busy) is not waited for; it is read and dropped before the
next job, by the job's number.
"""

from __future__ import annotations

import os
import pickle
import queue
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

from hexwar.core.orders import Order

#: how long after the deadline the bot waits for a helper's reply (its last playout ends at
#: the deadline, then it counts and sends)
GRACE = 0.05
#: the largest message sent from the bot's own thread (a unix socket's buffer holds more)
DIRECT = 32_768


def _post(conn: Connection, outbox: "queue.SimpleQueue[Any]", idle: threading.Semaphore) -> None:
    """Send a helper the pickled messages put in its outbox, in order (the helper's
    ``recv`` unpickles them), until None (sent too, as the word to end) or a closed socket;
    ``idle`` is released after each, so the bot knows when nothing is queued."""
    while True:
        item = outbox.get()
        try:
            if item is None:
                conn.send(None)
                return
            conn.send_bytes(item)
        except OSError:
            return
        finally:
            idle.release()


class Helpers:
    """The helper processes of one search bot, started on first use, stopped with it."""

    def __init__(self, hooks: Callable[[], dict[str, Any]], count: int):
        self.hooks = hooks  # a module-level function: pickled by its name, the helper imports it
        self.count = count
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.sent: list[Any] = []  # the game each helper holds
        #: what is to be sent to each helper, in order, by a thread of its own: a helper still
        #: starting reads nothing yet, and a send of a game fills the socket's buffer
        self.outboxes: list[queue.SimpleQueue[Any]] = []
        #: how many messages each outbox holds, as a semaphore the poster releases (its value
        #: is not read: ``queued`` counts what was put and not yet released)
        self.idle: list[threading.Semaphore] = []
        self.queued: list[int] = []
        self.number = 0  # the job number: a late reply to an earlier job is dropped

    def start(self) -> None:
        while len(self.conns) < self.count:
            mine, theirs = socket.socketpair()
            p = subprocess.Popen([sys.executable, "-m", "hexwar.ai.helper_main", str(theirs.fileno()), str(os.getpid())],
                                 pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
            theirs.close()
            conn = Connection(mine.detach())
            outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
            idle = threading.Semaphore(0)
            threading.Thread(target=_post, args=(conn, outbox, idle), daemon=True, name="hexwar-helper-post").start()
            self.idle.append(idle)
            self.queued.append(0)
            self.conns.append(conn)
            self.outboxes.append(outbox)
            self._send(len(self.conns) - 1, pickle.dumps(pickle.dumps(self.hooks)))  # the game's search hooks, by name
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
            self._send(i, pickle.dumps((self.number, game_bytes, data, list(legal), side, seed + 7919 * (i + 1),
                                        deadline, max_iterations, me, config)))
        return self.number

    def stop_early(self) -> None:
        """Tell the helpers the answer is known: they end their searches and reply."""
        for i in range(len(self.conns)):
            self._send(i, pickle.dumps(("stop",)))

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

    def _send(self, i: int, payload: bytes) -> None:
        """Send helper ``i`` a pickled message: at once when nothing is queued before it and
        it is small (the socket's buffer takes it without waiting: the helper reads each job
        before the next is asked), else through its poster thread (the game, while the helper
        is still starting). A thread handed a small job waited a tenth of a second for the
        search's turn at the GIL."""
        while self.queued[i] and self.idle[i].acquire(blocking=False):
            self.queued[i] -= 1
        if not self.queued[i] and len(payload) <= DIRECT:
            self.conns[i].send_bytes(payload)
        else:
            self.queued[i] += 1
            self.outboxes[i].put(payload)

    def _drain(self, conn: Connection) -> None:
        while conn.poll():
            conn.recv()  # a late reply, or nothing to do with this job

    def close(self) -> None:
        for outbox in self.outboxes:
            outbox.put(None)  # the helper's loop ends (None is sent, after anything queued), and its poster
        for p in self.procs:
            try:
                p.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                p.kill()
        for conn in self.conns:
            conn.close()
        self.conns, self.procs, self.sent, self.outboxes, self.idle, self.queued = [], [], [], [], [], []


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

