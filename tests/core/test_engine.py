"""Game API: orders, IllegalOrder leaves the state untouched, JSON, replay, undo, saves."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import signal
import sqlite3
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from hexwar.core.dice import Dice, DiceExhausted
from hexwar.core.engine import load_game
from hexwar.core.replay import replay
from hexwar.core.orders import IllegalOrder, Move, Pass
from hexwar.rules.orders import Assault
from hexwar.core.state import GameState
from hexwar.games.skirmish import GAME, ORDERS, SkirmishGame


def play(game, seed, n):
    s = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(n):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_orders()))
    return s


def test_orders_round_trip():
    for o in (Pass("allies"), Move("allies", "1SG", ("1710", "1810")), Assault("germans", "1710", ("I-1", "I-2"))):
        assert ORDERS.from_dict(json.loads(json.dumps(o.to_dict()))) == o
    assert Move("allies", "1SG", ("1710", "1810")).text() == "move 1SG 1710>1810"


@pytest.mark.parametrize(
    "order,rule",
    [
        (Move("germans", "I-1", ("2008", "2007")), "9.1"),  # not the German's action
        (Move("allies", "I-1", ("2008", "2007")), "14.0"),  # not an Allied unit
        (Move("allies", "1SG", ("1810", "1910")), "14.0"),  # path does not start at the unit
        (Move("allies", "TK1", ("1711", "1812")), "14.1"),  # fjord hexside
        (Move("allies", "1SG", ("1710", "1711", "1712", "1713", "1714")), "14.1"),  # too far
        (Move("allies", "1SG", ("1710", "1810", "1910", "2010", "2011")), "14.1"),  # mountain off the road
        (Move("allies", "1SG", ("1710", "1810", "1911")), "14.0"),  # 1810 and 1911 not adjacent
        (Assault("allies", "1710", ("1SG",)), "15.1"),  # no enemy there
        (Assault("allies", "2008", ("1SG",)), "15.1"),  # not adjacent
    ],
)
def test_illegal_orders_are_refused_with_their_rule_and_leave_the_state_untouched(game, order, rule):
    s = game.new_state(5)
    before, n = s.data.to_json(), len(s.log)
    with pytest.raises(IllegalOrder) as exc:
        s.apply(order)
    assert exc.value.rule == rule and rule in str(exc.value)
    assert s.data.to_json() == before and len(s.log) == n


def test_13_2_move_that_overstacks_is_refused(game):
    s = game.new_state(5)
    s.data.place("6-1", "1611")
    s.data.place("1SG", "1611")  # 6 points, full
    with pytest.raises(IllegalOrder, match=r"exceeds the limit 6 by 3 \(13.2\)"):
        s.apply(Move("allies", "1IG", ("1612", "1611")))


def test_movement_costs_fatigue_and_passes_keep_initiative_rules(game):
    s = game.new_state(5)
    ev = s.apply(Move("allies", "1SG", ("1710", "1810", "1910")))
    assert ev[0]["mp"] == "1" and s.data.units["1SG"].loc == "1910" and s.data.units["1SG"].fatigue == 1
    assert s.current_side() == "allies"  # 9.2: a movement action keeps the initiative
    s.apply(Pass("allies"))
    assert s.current_side() == "germans"
    s.apply(Pass("germans"))  # two passes end the turn (9.2) and recover fatigue (21.0)
    assert s.data.turn == 2 and s.data.units["1SG"].fatigue == 0 and s.current_side() == "allies"


def test_assault_passes_initiative_and_is_explained(game):
    s = game.new_state(11)
    s.data.place("1SG", "1908")  # next to I-1 at 2008 (test set-up)
    s.data.place("1IG", "1907")
    assert Assault("allies", "2008", ("1IG", "1SG")) in s.legal_orders()
    ev = s.apply(Assault("allies", "2008", ("1IG", "1SG")))
    a = next(e for e in ev if e["type"] == "assault")
    assert a["drm"] == 1  # 17.0: two units of 24 Gds
    rules = {ln["rule"] for ln in a["ledger"]["lines"]}
    assert {"15.1", "17.0"} <= rules and a["ledger"]["total"] == a["result"]
    assert s.current_side() == "germans"


@given(st.integers(0, 10_000), st.integers(0, 120))
@settings(max_examples=25)
def test_json_round_trip_is_identity(game, seed, n):
    s = play(game, seed, n)
    text = s.data.to_json()
    assert GameState.from_json(text).to_json() == text
    assert GameState.from_json(text) == s.data


@given(st.integers(0, 10_000), st.integers(0, 150))
@settings(max_examples=20)
def test_log_replays_to_the_same_state_without_rng(game, seed, n):
    s = play(game, seed, n)
    r = replay(game, s.log)
    assert r.data.to_json() == s.data.to_json()


def test_undo_equals_replay_of_the_prefix(game):
    s = play(game, 3, 40)
    ref = play(game, 3, 35)
    s.undo(5)
    assert s.data.to_json() == ref.data.to_json() and len(s.log) == 35
    # the dice of order n depend on (seed, n): redoing the same order gives the same roll
    o = ref.legal_orders()[0]
    assert s.apply(o) == ref.apply(o)


def test_undo_from_a_replayed_game_and_past_the_recent_positions_kept(game):
    """Undo goes back to the nearest kept position and replays the orders after it from the
    log; a replayed game keeps its positions as a played one does (PlayState.RECENT/SPARSE)."""
    s = play(game, 5, 150)
    n = len(s.log)
    assert n > s.RECENT + s.SPARSE  # far enough that the first positions are only sparse ones
    back = replay(game, s.log)
    back.undo(n - 3)
    assert back.data.to_json() == play(game, 5, 3).data.to_json() and len(back.log) == 3
    s.undo(0)
    assert len(s.log) == n


def test_undo_over_a_log_the_state_did_not_play_is_refused_and_changes_nothing(game):
    from hexwar.core.log import EventLog
    from hexwar.core.play import PlayState

    played = play(game, 4, 10)
    copy = PlayState(game, played.data.clone(), EventLog(dict(played.log.meta), list(played.log.entries)))
    before = copy.data.to_json()
    with pytest.raises(IllegalOrder, match="not kept here"):
        copy.undo(2)
    assert copy.data.to_json() == before and len(copy.log) == 10


def test_dice_replay_checks_purpose():
    d = Dice(1)
    d.roll(2, "weather")
    with pytest.raises(DiceExhausted):
        Dice.replaying(d.rolls).roll(1, "CRT")
    with pytest.raises(DiceExhausted):
        Dice.replaying([]).roll(1, "CRT")


def test_save_resume_and_undo_rewrite(game, tmp_path):
    path = tmp_path / "g.hexwar"
    s = game.new_state(9)
    s.attach_save(path)
    rng = random.Random(9)
    for _ in range(30):
        s.apply(rng.choice(s.legal_orders()))
    back = load_game(game, path)
    assert back.data.to_json() == s.data.to_json()
    back.undo(3)
    again = load_game(game, path)
    assert len(again.log) == 27 and again.data.to_json() == back.data.to_json()


def test_load_refuses_non_saves(game, tmp_path):
    p = tmp_path / "junk.hexwar"
    p.write_text("not sqlite")
    with pytest.raises(ValueError, match="not a hexwar save"):
        load_game(game, p)


def _writer(path: str, seed: int) -> None:
    g = SkirmishGame.from_scenario("fixtures/skirmish")
    s = g.new_state(seed)
    s.attach_save(path)
    rng = random.Random(seed)
    while True:  # until killed
        if s.is_over():
            s = g.new_state(seed)
        s.apply(rng.choice(s.legal_orders()))


def test_a_save_survives_a_kill_mid_write(game, tmp_path):
    path = str(tmp_path / "crash.hexwar")
    proc = mp.get_context("fork").Process(target=_writer, args=(path, 4))
    proc.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.3)
        if os.path.exists(path):
            try:
                con = sqlite3.connect(path)
                n = con.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
                con.close()
            except sqlite3.Error:
                n = 0
            if n > 20:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    back = load_game(game, path)  # every committed order replays
    assert len(back.log) > 20
    ref = play(game, 4, len(back.log))
    assert back.data.to_json() == ref.data.to_json()


class RandomPlay(RuleBasedStateMachine):
    """Play random legal orders and check the invariants after every one."""

    game = SkirmishGame.from_scenario("fixtures/skirmish")

    def __init__(self):
        super().__init__()
        self.s = self.game.new_state(0)
        self.vp_before = 0

    @precondition(lambda self: not self.s.is_over())
    @rule(pick=st.integers(0, 10_000))
    def legal(self, pick):
        legal = self.s.legal_orders()
        self.s.apply(legal[pick % len(legal)])

    @precondition(lambda self: not self.s.is_over())
    @rule(pick=st.integers(0, 10_000))
    def illegal_is_harmless(self, pick):
        before = self.s.data.to_json()
        units = sorted(self.s.data.units)
        bogus = Move(self.s.current_side(), units[pick % len(units)], ("1504", "1505"))
        with pytest.raises(IllegalOrder):
            self.s.apply(bogus)
        assert self.s.data.to_json() == before

    @invariant()
    def every_unit_in_one_place_and_no_overstack(self):
        assert GAME.broken(self.game, self.s.data) == []  # the registry's check (placement, 13.2)

    @invariant()
    def fatigue_within_limits(self):
        for u in self.s.data.units.values():
            assert 0 <= u.fatigue <= max(self.game.tables.types[u.type].fatigue_limit, 0)

    @invariant()
    def no_enemy_sharing(self):
        d = self.s.data
        for loc in {u.loc for u in d.on_map()}:
            assert len({u.side for u in d.at(loc)}) == 1

    @invariant()
    def vp_equal_their_logged_causes(self):
        d = self.s.data
        for side, vp in d.vp.items():
            assert vp == sum(e.vp for e in d.vp_log if e.side == side)


TestRandomPlay = RandomPlay.TestCase
TestRandomPlay.settings = settings(max_examples=15, stateful_step_count=60, deadline=None)


def test_play_out_runs_a_game_to_its_end(game):
    from hexwar.ai import RandomBot
    from hexwar.core.engine import play_out

    s = game.new_state(8)
    res = play_out(s, RandomBot(8).choose)
    assert res.over and s.is_over() and res == s.result()
    assert replay(game, s.log).data.to_json() == s.data.to_json()


def test_run_fast_plays_with_the_collector_paused_and_leaves_it_as_it_found_it(game, monkeypatch):
    """``run_fast`` pauses the cyclic garbage collector while its game plays (the bots choose
    with it paused) and gives it back as it was; the game is the one played with the
    collector running."""
    import contextlib
    import gc

    from hexwar.ai import RandomBot
    from hexwar.core import engine

    class Watch(RandomBot):
        seen: list[bool] = []

        def choose(self, state, legal):  # type: ignore[no-untyped-def]
            Watch.seen.append(gc.isenabled())
            return super().choose(state, legal)

    was = gc.isenabled()
    try:
        gc.enable()
        paused, _ = engine.run_fast(game, 5, {s: Watch(5) for s in ("allies", "germans")})
        assert gc.isenabled() and Watch.seen and not any(Watch.seen)
        gc.disable()
        engine.run_fast(game, 5, {s: Watch(5) for s in ("allies", "germans")})
        assert not gc.isenabled()  # a collector paused by the caller stays paused
        gc.enable()
        monkeypatch.setattr(engine, "collector_paused", contextlib.nullcontext)
        Watch.seen = []
        running, _ = engine.run_fast(game, 5, {s: Watch(5) for s in ("allies", "germans")})
        assert all(Watch.seen)
    finally:
        (gc.enable if was else gc.disable)()
    assert paused.data.to_json() == running.data.to_json()


@given(st.integers(0, 10_000), st.lists(st.integers(0, 90), min_size=1, max_size=4))
@settings(max_examples=15, deadline=None)
def test_undo_in_steps_equals_replay_of_each_prefix(game, seed, steps):
    # undo goes back to the data kept from before an order (the last PlayState.RECENT, then
    # every SPARSE-th), replaying only the orders after the nearest kept one: any number of
    # undos, near or far, gives the prefix's state, and play goes on from it the same
    s = play(game, seed, 150)
    for k in steps:
        k = min(k, len(s.log))
        s.undo(k)
        assert s.data.to_json() == replay(game, s.log).data.to_json()
    ref = replay(game, s.log)
    if not s.is_over():
        o = s.legal_orders()[0]
        assert s.apply(o) == ref.apply(o) and s.data.to_json() == ref.data.to_json()


def test_undo_of_a_recent_order_restores_the_data_that_stood_without_replay(game):
    s = play(game, 5, 20)
    before = s.data
    s.apply(s.legal_orders()[0])
    s.undo(1)
    assert s.data is before  # the very data: nothing replayed, nothing copied
    with pytest.raises(IllegalOrder, match="0 orders or more"):
        s.undo(-1)
    with pytest.raises(IllegalOrder, match="only 20 orders"):
        s.undo(21)
    assert s.data is before and len(s.log) == 20
