"""Kampen om Norge's kept orders and tables (issue 17) against the rules written plainly.

The listing keeps what does not change between decisions: each land move and card play is
built once per game object, a faction's moves out of an area once for each number of
battalions free to move, and a card move's paths once for each set of areas the enemy
holds. These tests play whole games and, at every decision, compare the kept answers with
the plain ones: the same orders, in the same order.
"""

from __future__ import annotations

import random

import pytest

from hexwar.core.dice import Dice
from hexwar.core.play import FastView
from hexwar.games.kampen import FACTIONS, GERMANS, kampen_game
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.kampen.orders import KMove, PlayCard
from hexwar.games.kampen.phases import combat, movement


def plain_paths(g, d, f, a, steps, attack):
    """4.1 (Rask forflytning, Jernbane): paths of 2..steps areas through friendly or empty
    areas, the last hostile only for a card that may attack, asking the state at every area."""
    out = []
    frontier = [(a,)]
    for depth in range(steps):
        nxt = []
        for p in frontier:
            for b in g.nbrs[p[-1]]:
                if b in p:
                    continue
                q = p + (b,)
                if g.hostile(d, f, b):
                    if attack and depth >= 1:
                        out.append(q[1:])
                    continue
                if depth >= 1:
                    out.append(q[1:])
                nxt.append(q)
        frontier = nxt
    return sorted(set(out))


def plain_land_moves(g, d, f):
    """4.1: each area's free battalions, 1..all of them, to each neighbour, areas in name order."""
    out = []
    for a, n in sorted(d.bn[f].items()):
        m = n - d.fresh[f].get(a, 0)
        for b in g.nbrs[a]:
            out += [KMove(f, a, b, k) for k in range(1, m + 1)]
    return out


def plain_card_moves(g, d, f):
    """4.1, Rask forflytning and Jernbane: up to n battalions of an area along each path, each
    card once (identical copies give identical orders)."""
    out, seen = [], set()
    for cid in d.hand[f]:
        c = g.copies[cid]
        u = next((u for u in c.uses if u.slot == "move"), None)
        if u is None or c.card in seen:
            continue
        seen.add(c.card)
        if u.rapid or u.rail:
            n_max, steps = u.rapid or u.rail
            for a in sorted(d.bn[f]):
                m = d.bn[f][a] - d.fresh[f].get(a, 0)
                for path in plain_paths(g, d, f, a, steps, bool(u.rapid)):
                    out += [PlayCard(f, c.id, c.card, "move", src=a, path=path, n=k) for k in range(1, min(m, n_max) + 1)]
    return out


def decisions(g, seeds):
    """Every decision of priority and random games: (state, legal orders), before the order."""
    for seed in seeds:
        data = g.initial_state(seed, Dice(seed))
        bots = {f: KampenBot(f, seed) for f in FACTIONS}
        bots[FACTIONS[seed % 3]] = None  # one faction plays at random, for positions the bots avoid
        rng, dice = random.Random(seed), Dice(seed + 1)
        while not data.over:
            legal = g.legal_orders(data)
            yield data, legal
            bot = bots[data.side]
            o = bot.choose(FastView(g, data).view_for((data.side,)), legal) if bot else rng.choice(legal)
            g.apply(data, o, dice)


@pytest.mark.parametrize("scenario", ["intro-narvik", "basic"])
def test_4_1_the_kept_move_listing_equals_the_plain_one(scenario):
    g = kampen_game(scenario)
    checked = cards = 0
    for d, legal in decisions(g, range(12)):
        if d.step != "move" or d.stage:
            continue
        f = d.side
        moves = [o for o in legal if type(o) is KMove]
        assert moves == plain_land_moves(g, d, f)
        plays = [o for o in legal if type(o) is PlayCard]
        assert plays == movement.card_moves(g, d, f)
        by_road = [o for o in plays if o.path]
        assert by_road == plain_card_moves(g, d, f)
        cards += len(by_road)
        checked += 1
    assert checked > 100 and cards > 50


def test_2_4_a_cards_function_per_slot_is_its_first_use():
    g = kampen_game("advanced")
    slots = {u.slot for c in g.copies for u in c.uses} | {"nothing"}
    for c in g.copies:
        for s in slots:
            assert c.use(s) == next((u for u in c.uses if u.slot == s), None)


def test_4_2_a_bots_dice_count_equals_the_ledgers():
    g = kampen_game("basic")
    seen = 0
    for d, _legal in decisions(g, range(8)):
        if d.combat is not None and d.step in ("attack", "defend", "react"):
            a, dd, ledger = combat.dice_pool(g, d)
            assert combat.dice_pool(g, d, explain=False) == (a, dd, [])
            assert ledger and sum(x["dice"] for x in ledger if x["side"] == "attacker") == a
            assert sum(x["dice"] for x in ledger if x["side"] == "defender") == dd
            seen += 1
    assert seen > 20


def test_4_1_a_german_card_move_never_counts_a_friendly_area_as_hostile():
    g = kampen_game("basic")
    d = g.initial_state(3, Dice(3))
    foes = g.hostile_areas(d, GERMANS)
    assert foes and all(g.hostile(d, GERMANS, a) for a in foes)
    assert not any(g.hostile(d, GERMANS, a) for a in g.land if a not in foes)


def test_4_1_the_areas_within_reach_are_those_as_many_borders_away():
    g = kampen_game("basic")
    for a in g.land:
        reached = {a}  # the rule written plainly: one more border crossed at each step
        for steps in (1, 2, 3):
            reached = reached | {b for x in reached for b in g.nbrs[x]}
            assert g.within(a, steps) == reached


def test_4_1_a_full_paths_store_starts_again_and_lists_the_same(monkeypatch):
    monkeypatch.setattr(movement, "PATHS_KEPT", 3)
    g = kampen_game("basic")
    for d, _legal in decisions(g, range(3)):
        if d.step == "move" and not d.stage:
            assert [o for o in movement.card_moves(g, d, d.side) if o.path] == plain_card_moves(g, d, d.side)
            assert len(g.caches.paths) <= 3


def test_4_2_a_bots_attack_odds_are_the_fights_it_would_join():
    """The priority bot weighs a move onto an enemy area by the chance that the battalions
    already attacking it, with the mover added (halved across a fjord or lake) and its best
    attack cards, beat the defender's dice plus a card (4.2): checked at every move decision
    against that sum written out, for every attack the faction could make."""
    from hexwar.games.kampen.bots import win_chance
    from hexwar.games.kampen.state import enemies
    from hexwar.rules.dicecombat import battalion_dice

    g = kampen_game("basic")
    checked = joined = 0
    for d, legal in decisions(g, range(10)):
        if d.step != "move" or d.stage:
            continue
        bot = KampenBot(d.side)
        bot.scores(FastView(g, d).view_for((d.side,)), legal)  # the decision's memo, as when it plays
        cards = bot._card_dice(g, d, "attack")
        for o in legal:
            if type(o) is not KMove or not g.hostile(d, d.side, o.dst):
                continue
            crossing = (o.src, o.dst) in g.water
            here = [(gr.n, gr.crossing) for gr in d.attacks.get(o.dst, [])]
            defenders = sum(d.bn[e].get(o.dst, 0) for e in enemies(d.side))
            want = win_chance(battalion_dice(here + [(o.n, crossing)]) + cards, battalion_dice([(defenders, False)]) + 1)
            assert bot.attack_chance(g, d, o.dst, o.n, crossing) == want, (o, here)
            checked += 1
            joined += bool(here)
    assert checked > 300 and joined > 20


@pytest.mark.parametrize("scenario", ["intro-narvik", "basic"])
def test_4_1_the_bots_distance_to_the_objectives_counts_borders_to_the_nearest(scenario):
    """The priority bot's march table: each land area's borders to the nearest objective,
    counted ring by ring from the objectives over the land borders (at most 20)."""
    g = kampen_game(scenario)
    bot = KampenBot(GERMANS)
    d = g.initial_state(1, Dice(1))
    ring, dist = set(g.objectives()), {}
    for k in range(21):
        dist.update({a: k for a in ring if a not in dist})
        ring = {b for a in ring for b in g.nbrs[a]} - set(dist)
    want = {a: dist.get(a, 20) for a in g.land}
    assert {a: bot.dist_to_goal(g, d, a) for a in g.land} == want
    assert max(want.values()) > 2 and min(want.values()) == 0
