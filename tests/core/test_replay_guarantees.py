"""The two replay guarantees a game log must keep whatever else is loaded (issue 11):
order kinds belong to their game, and every random draw is in the log.

Both tests use only the API that existed before the registry, so they can be run against
an older checkout to show the bugs they pin down.
"""

from __future__ import annotations

import random
import subprocess
import sys

from hexwar.core.engine import load_game
from hexwar.core.replay import replay


def _play(state, n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_orders()))
    return state


KAMPEN_AFTER_NARVIK = """
import random
from hexwar.core.engine import replay
from hexwar.core.log import EventLog
from hexwar.games.kampen import KampenGame
import hexwar.games.narvik.orders  # loaded after Kampen's orders: it used to take the kind 'place'
g = KampenGame("basic")
for seed in range(8):
    s = g.new_state(seed)
    rng = random.Random(seed)
    while not s.is_over() and len(s.log) < 400:
        s.apply(rng.choice(s.legal_orders()))
    if any(e.order["kind"] == "place" for e in s.log.entries):
        back = replay(g, EventLog.from_json(s.log.to_json()))
        assert back.data.to_json() == s.data.to_json()
        print("REPLAYED", seed)
        break
"""


def test_a_kampen_log_with_place_orders_replays_when_narvik_orders_are_loaded_too():
    # Narvik's Place (23.4) and Kampen's PlaceBn (4.3) are both "place" orders; a fresh
    # process, so that the import order is the one that used to break replays
    p = subprocess.run([sys.executable, "-c", KAMPEN_AFTER_NARVIK], capture_output=True, text=True)
    assert p.returncode == 0 and "REPLAYED" in p.stdout, p.stderr[-2000:]


def test_random_setup_replays_undoes_and_resumes_in_the_same_hexes(tmp_path):
    # 5.1 random set-up: every pick is a logged draw, so replay, undo and --load agree
    from hexwar.games.narvik import Switches, narvik_game

    g = narvik_game(Switches(random_setup=True))
    for seed in (3, 11):
        path = tmp_path / f"rs{seed}.hexwar"
        s = g.new_state(seed)
        start = {u.id: u.loc for u in s.data.units.values()}
        s.attach_save(path)
        _play(s, 12, seed)
        assert replay(g, s.log).data.to_json() == s.data.to_json()
        assert load_game(g, path).data.to_json() == s.data.to_json()
        s.undo(len(s.log))
        assert {u.id: u.loc for u in s.data.units.values()} == start
