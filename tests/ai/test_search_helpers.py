"""Search helpers (issue 56): root-parallel ISMCTS, each helper a process of its own that
searches the same decision from the same view with its own dice; the bot adds the helpers'
root statistics to its own. These tests start real helper processes (a second or two each
to import the engine) and use iteration caps, never the wall clock's figures."""

from __future__ import annotations

import time

import pytest

from hexwar.ai.helpers import Helpers, lend_cores
from hexwar.ai.search import SearchBot
from hexwar import registry
from hexwar.games.narvik.bots import search_hooks

NARVIK_HOOKS = search_hooks


@pytest.fixture(scope="module")
def decision():  # type: ignore[no-untyped-def]
    """An Allied action of Assault on Narvik with a real choice, played to by priority bots."""
    from hexwar.games.narvik.bots import PriorityBot

    s = registry.get("narvik").build().new_state(4)
    bots = {x: PriorityBot(x, 0) for x in ("allies", "germans")}
    while True:
        legal = s.legal_orders()
        if s.current_side() == "allies" and len(legal) > 10 and s.data.phase == "action":
            return s, legal
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))


def test_a_helper_adds_its_playouts_to_the_bots(decision) -> None:  # type: ignore[no-untyped-def]
    """With one helper and a cap of 16 playouts each, the answer stands on 32 playouts: the
    root's visits add up to both trees' iterations, and the order played is the most
    visited of the merged root."""
    s, legal = decision
    bot = SearchBot.of(NARVIK_HOOKS, "allies", 3, 60.0, max_iterations=16, helpers=1)
    try:
        view = s.view_for(("allies",))
        before = view.data.to_json()
        pick = bot.choose(view, legal)
        assert bot.last["helpers"] == [16]
        assert bot.last["iterations"] == 32
        assert bot.tree.visits == 32 and sum(n.visits for n in bot.tree.children.values()) == 32
        top = max(bot.tree.children.values(), key=lambda n: n.visits)
        assert pick in legal and top.visits == max(v for _, v, _ in bot.last["visits"])
        assert view.data.to_json() == before  # the view sent to the helper is not changed here
        # the next decision reuses the helper (the game is not sent again) and merges again
        bot.choose(view, legal)
        assert bot.last["helpers"] == [16] and bot.last["iterations"] == 32
    finally:
        bot.close()


def test_a_helper_searches_as_the_bot_would(decision) -> None:  # type: ignore[no-untyped-def]
    """A helper's reply is a tree grown by a SearchBot of the same settings: as many
    playouts as asked, every visit on a legal order's index, the scores in the game's
    range (the evaluation is a VP differential)."""
    s, legal = decision
    helpers = Helpers(NARVIK_HOOKS, 1)
    try:
        view = s.view_for(("allies",))
        config = {"candidates": 8, "horizon": 24, "turn_end": True, "c": 0.7}
        job = helpers.ask(view.game, view.data, legal, "allies", 11, time.monotonic() + 60, 12, None, config)
        got = helpers.gather(job, time.monotonic() + 60)
        assert len(got) == 1 and got[0]["iterations"] == 12
        assert sum(v for _, v, _, _, _ in got[0]["orders"]) == 12
        assert all(0 <= i < len(legal) and 0 <= ahead <= v and sq >= 0 for i, v, _, sq, ahead in got[0]["orders"])
        # the same search in this process gives a tree of the same size from the same prior
        here = SearchBot("allies", 11, 60.0, max_iterations=12, **{**search_hooks(), **config})
        mine = here.grow(view, legal)
        assert mine["iterations"] == 12 and len(mine["orders"]) == len(got[0]["orders"])
    finally:
        helpers.close()


def test_a_late_helper_is_not_waited_for(decision) -> None:  # type: ignore[no-untyped-def]
    """The think time stays a hard cap: a job whose deadline passes while the helper is
    still starting is answered without it, and its late reply is dropped by number before
    the next job, whose reply is the one merged."""
    s, legal = decision
    helpers = Helpers(NARVIK_HOOKS, 1)
    try:
        view = s.view_for(("allies",))
        config = {"candidates": 8, "horizon": 24, "turn_end": True, "c": 0.7}
        deadline = time.monotonic()  # already due: the helper is still importing the engine
        late = helpers.ask(view.game, view.data, legal, "allies", 1, deadline, 4, None, config)
        assert helpers.gather(late, deadline) == []
        job = helpers.ask(view.game, view.data, legal, "allies", 2, time.monotonic() + 60, 5, None, config)
        assert job == late + 1
        got = helpers.gather(job, time.monotonic() + 60)
        assert [g["iterations"] for g in got] == [5]
    finally:
        helpers.close()


def test_cores_are_lent_only_to_bots_that_think() -> None:
    """Play gives the search bot helpers (``--helpers``); a priority bot has none to take."""
    info = registry.get("narvik")
    search, priority = info.bot("search", "germans", 1, 0.5), info.bot("priority", "allies", 1)
    lend_cores([search, priority], 0)
    assert search.helpers == 0 and search._helpers is None
    lend_cores([search, priority], 1)
    try:
        assert search.helpers == 1 and search._helpers is not None and len(search._helpers.procs) == 1
        assert not hasattr(priority, "helpers")
    finally:
        search.close()
    assert search._helpers is None


def test_a_helper_ends_when_its_games_process_dies_though_a_fork_holds_its_socket(tmp_path) -> None:
    """Issue 70: after a runner was killed, 31 helpers searched on for half an hour. A game's
    process lends its bot a helper, forks a child that holds every file it has open (as a
    forked batch worker does: the helper's socket never closes), and is killed with kill -9:
    the helper sees its parent gone (``helper_main.watch_parent``) and ends."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from trial_procs import HELD_OPEN, _alive, _children, _cmdline

    p = subprocess.Popen([sys.executable, "-c", HELD_OPEN], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    guard = time.monotonic() + 300  # a hang's guard only: the loop ends when both are there
    while p.poll() is None and time.monotonic() < guard:
        kids = _children(p.pid)
        if len(kids) >= 2 and any("hexwar.ai.helper_main" in _cmdline(k) for k in kids):
            break
        time.sleep(0.1)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    helper = [k for k in kids if "hexwar.ai.helper_main" in _cmdline(k)]
    fork = [k for k in kids if k not in helper]
    try:
        assert helper and fork
        while _alive(helper) and time.monotonic() < guard:
            time.sleep(0.1)
        assert _alive(helper) == []
        assert _alive(fork)  # the socket's other holder lives on: the helper did not end by EOF
    finally:
        for k in _alive(helper + fork):
            os.kill(k, signal.SIGKILL)
