"""Scenario 1 played to its end by bots from many seeds, on three backends, with invariants."""

from __future__ import annotations

import random

import pytest

from hexwar.board.areaboard import AreaBoard
from hexwar.board.derive import hex_map_from_areas
from hexwar.board.hexboard import HexBoard
from hexwar.core.dice import Dice
from hexwar.data.schemas import HexMapSpec
from hexwar.games.kampen import ALLIES, FACTIONS, GERMANS, NORWAY, kampen_game

S1_REGION = ["narvik", "bjornfjell", "mosjoen", "tromso", "bardufoss", "gratangen", "harstad", "tysfjord", "bodo", "mo_i_rana", "finnmark"]
COMBAT_STEPS = {"attack", "defend", "react", "split", "evac", "withdraw"}


@pytest.fixture(scope="module")
def hexboard():
    doc = hex_map_from_areas(AreaBoard.load("norway"), 15.0, S1_REGION, name="nordland-hex15")
    return HexBoard(HexMapSpec.model_validate(doc)), doc["regions"]


def check(g, data, start_total, deck_sizes):
    x = data
    on_board = sum(sum(v.values()) for v in x.bn.values())
    pending = sum(gr.n for gs in x.attacks.values() for gr in gs)
    if x.combat:
        pending += sum(gr.n for gr in x.combat.groups)
    # S1 has no reinforcements and no card that creates battalions: every battalion is
    # on the board, at a border, or lost
    assert on_board + pending + sum(x.losses.values()) == start_total
    for f in FACTIONS:
        assert len(x.hand[f]) <= g.spec.hands[f]
        assert len(x.hand[f]) + len(x.deck[f]) == deck_sizes[f]  # cards are never lost
        assert all(n > 0 for n in x.bn[f].values())
    if x.step not in COMBAT_STEPS:
        for a in g.land:  # no two enemies share an area outside a combat
            assert not (x.bn[GERMANS].get(a) and (x.bn[NORWAY].get(a) or x.bn[ALLIES].get(a))), a


def play_many(g, seeds, bot_for=None):
    start_total = sum(sum(v.values()) for v in g.spec.start.values())
    deck_sizes = {f: len(g.decks[f]) for f in FACTIONS}
    results = []
    for seed in seeds:
        data = g.initial_state(seed, Dice(seed))
        rng = random.Random(seed)
        dice = Dice(seed + 7)
        for _ in range(5000):
            if data.over:
                break
            check(g, data, start_total, deck_sizes)
            legal = g.legal_orders(data)
            assert legal, data.step
            o = bot_for(data.side).choose(data, legal) if bot_for else rng.choice(legal)
            g.apply(data, o, dice)
        assert data.over
        check(g, data, start_total, deck_sizes)
        results.append(data)
    return results


def test_S1_random_games_end_by_the_allied_deck_or_a_wipe_out_with_invariants():
    g = kampen_game("intro-narvik")
    games = play_many(g, range(150))
    why = {d.ended for d in games}
    assert any("last unused card" in w for w in why)
    assert all(d.winner in (GERMANS, ALLIES, None) for d in games)


def test_S1_runs_on_an_area_board_aggregated_from_hexes(hexboard):
    hb, regions = hexboard
    agg = AreaBoard.from_hexes(hb, regions, name="nordland-areas")
    g = kampen_game("intro-narvik", board=agg)
    assert set(g.objectives()) == {"narvik", "bjornfjell", "bardufoss"}
    assert "bjornfjell" in g.nbrs["narvik"] and "tromso" in g.nbrs["bardufoss"]  # geography kept the S1 links
    games = play_many(g, range(40))
    assert len(games) == 40


def test_S1_rules_run_directly_on_a_hex_board(hexboard):
    hb, _ = hexboard
    g = kampen_game("intro-narvik", board=hb)
    narvik = g.loc("narvik")
    assert narvik in hb.hexes() and hb.is_a(narvik, "point_city")
    games = play_many(g, range(40))
    assert len(games) == 40


def test_S1_deck_sizes_and_the_end_on_the_last_allied_card():
    g = kampen_game("intro-narvik")
    assert {f: len(g.decks[f]) for f in FACTIONS} == {GERMANS: 10, NORWAY: 6, ALLIES: 6}
    data = g.initial_state(3, Dice(3))
    assert data.down == {GERMANS: 5, NORWAY: 3, ALLIES: 3}  # hands of 5/3/3 drawn at set-up


def test_run_fast_games_are_reproducible_and_their_logs_replay_exactly():
    from hexwar.games.kampen.bots import KampenBot
    from hexwar.core.engine import run_fast
    from hexwar.core.replay import replay

    g = kampen_game("intro-narvik")
    for seed in (1, 2, 3):
        mk = lambda: {f: KampenBot(f, seed) for f in FACTIONS}  # noqa: E731
        a, log = run_fast(g, seed, mk(), record=True, meta={"game": "kampen"})
        b, _ = run_fast(g, seed, mk())
        assert a.data.to_json() == b.data.to_json()  # same seed, same game
        assert log is not None and replay(g, log).data.to_json() == a.data.to_json()


def test_one_game_object_plays_games_in_several_threads_at_once():
    # the simulator and Dask's threaded workers share one ruleset object per process
    from concurrent.futures import ThreadPoolExecutor

    from hexwar.games.kampen.bots import KampenBot
    from hexwar.core.engine import run_fast

    g = kampen_game("intro-narvik")

    def play(seed):
        return run_fast(g, seed, {f: KampenBot(f, seed) for f in FACTIONS})[0].data.to_json()

    import sys

    alone = [play(s) for s in range(24)]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, so a shared field shows
    try:
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(play, range(24)))
    finally:
        sys.setswitchinterval(old)
    assert together == alone


def test_the_german_priority_bot_holds_the_point_cities_in_the_basic_game():
    """1.3: Germany must hold all six point cities when its deck runs out. The coalition's
    priority bots used to win every game; the German plan (garrisons by threat, the rest
    marching where a city is short, the deck as the clock) wins a good share of them (55.9%
    over 1,000 games in the closing note; here 16 seeded games)."""
    from hexwar.core.engine import run_fast
    from hexwar.games.kampen.bots import KampenBot

    g = kampen_game("basic")
    wins = 0
    for seed in range(16):
        bots = {f: KampenBot(f, seed * 3 + i) for i, f in enumerate(FACTIONS)}
        res = run_fast(g, seed, bots)[0].result()
        wins += res.winner == GERMANS
        if res.winner == GERMANS:
            assert "all point cities" in res.level
    assert 4 <= wins <= 13, wins
