"""The search bot on Kampen om Norge (issue 17): ISMCTS over the game API with the game's
own hooks. It searches only a faction's view (2.4: the other hands and every deck's unused
cards face down; 6.1: face-down ships), and each iteration deals what the view hides as
cards and ships that could be there."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hexwar.ai.search import SearchBot
from hexwar import registry
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.kampen.game import HIDDEN_CARD
from hexwar.games.kampen.search import determinize, evaluate, search_hooks
from hexwar.games.kampen.state import FACTIONS, GERMANS, NORWAY


def _game(scenario: str, board: str = "norway"):  # type: ignore[no-untyped-def]
    return registry.get("kampen").build(scenario=scenario, board=board)


def _play(g, seed: int, orders: int):  # type: ignore[no-untyped-def]
    """A game of priority bots, ``orders`` orders in (or to its end)."""
    s = g.new_state(seed)
    bots = {f: KampenBot(f, seed) for f in FACTIONS}
    for _ in range(orders):
        if s.is_over():
            break
        f = s.current_side()
        s.apply(bots[f].choose(s.view_for((f,)), s.legal_orders()))
    return s


def _cards(d, f: str) -> Counter:  # type: ignore[no-untyped-def]
    return Counter(c for z in (d.hand, d.deck, d.pool, d.box) if f in z for c in z[f])


@pytest.mark.parametrize("scenario,orders", [("intro-narvik", 6), ("basic", 30), ("advanced", 12), ("advanced", 60)])
def test_2_4_6_1_a_determinization_deals_what_the_view_hides(scenario: str, orders: int) -> None:
    """Every card back becomes one of its faction's copies the view does not show, every
    face-down ship one of its owner's unseen ship cards: each faction ends up with exactly
    its own cards, each ship card is in play once, and nothing the view showed moves."""
    g = _game(scenario)
    s = _play(g, 5, orders)
    for seat in ((GERMANS,), (NORWAY,)):
        v = s.view_for(seat)
        shown = v.data.to_json()
        d = v.data.clone()
        from hexwar.core.play import FastView

        determinize(FastView(g, d), seat[0], random.Random(1))
        for f in FACTIONS:
            assert HIDDEN_CARD not in _cards(d, f)
            assert _cards(d, f) == _cards(s.data, f)  # the same cards, perhaps elsewhere
            for z in ("hand", "deck", "pool", "box"):
                before = getattr(v.data, z).get(f, [])
                assert [c for c, b in zip(getattr(d, z).get(f, []), before) if b != HIDDEN_CARD] == \
                    [b for b in before if b != HIDDEN_CARD]  # what was face up stays put
        assert [x.id for x in d.ships] == list(range(len(s.data.ships)))
        assert [x.owner for x in d.ships] == [x.owner for x in s.data.ships]
        assert v.data.to_json() == shown  # the view itself is untouched


def test_8_1_a_moving_groups_hidden_ships_are_dealt_from_where_it_stands() -> None:
    """8.1: while a group sails, another faction's view names only its face-up ships; a
    determinization makes each hidden one a ship of the mover's at the group's sea area."""
    from hexwar.core.play import FastView

    g = _game("advanced")
    s = _play(g, 0, 100)
    v = s.view_for((NORWAY,)).data
    m = v.sea_move
    assert m is not None and any(i < 0 for i in m.ships), "the fixture position has a hidden group at sea"
    real = s.data.sea_move
    assert real is not None
    for seed in range(5):
        d = v.clone()
        determinize(FastView(g, d), NORWAY, random.Random(seed))
        got = d.sea_move
        assert got is not None and len(got.ships) == len(real.ships) and min(got.ships) >= 0
        assert len(set(got.ships)) == len(got.ships)
        for i in got.ships:
            assert d.ships[i].owner == s.data.ships[real.ships[0]].owner and d.ships[i].at == real.at


def test_8_1_a_group_hiding_more_ships_than_its_area_holds_is_refused_by_name() -> None:
    """A view whose sailing group hides more ships than its owner has face down where it
    stands cannot be dealt: the search says so instead of failing inside a list."""
    from hexwar.core.play import FastView

    g = _game("advanced")
    v = _play(g, 0, 100).view_for((NORWAY,)).data
    m = v.sea_move
    assert m is not None and any(i < 0 for i in m.ships)
    d = v.clone()
    assert d.sea_move is not None
    d.sea_move.ships = list(d.sea_move.ships) + [-1] * len(d.ships)  # more backs than there are ships
    with pytest.raises(ValueError, match=f"the group at {m.at} hides"):
        determinize(FastView(g, d), NORWAY, random.Random(0))


def test_2_4_the_search_sees_only_its_factions_view() -> None:
    """Two games that differ only in the German hand and the order of the unused cards give
    Norway the same view, and its search the same answer."""
    g = _game("basic")
    s = _play(g, 2, 25)
    while s.current_side() != NORWAY or len(s.legal_orders()) < 3:
        s.apply(KampenBot(s.current_side(), 0).choose(s.view_for((s.current_side(),)), s.legal_orders()))
    other = s.clone()
    d = other.data
    pool = d.hand[GERMANS] + d.deck[GERMANS][: d.down[GERMANS]]
    random.Random(9).shuffle(pool)
    k = len(d.hand[GERMANS])
    d.hand[GERMANS], d.deck[GERMANS][: d.down[GERMANS]] = pool[:k], pool[k:]
    assert d.hand[GERMANS] != s.data.hand[GERMANS] or d.deck[GERMANS] != s.data.deck[GERMANS]
    views = [x.view_for((NORWAY,)) for x in (s, other)]
    assert views[0].data.to_json() == views[1].data.to_json()
    answers = []
    for x, v in zip((s, other), views):
        bot = SearchBot(NORWAY, 4, 1e9, max_iterations=12, **search_hooks())
        answers.append((bot.choose(v, x.legal_orders()), bot.last["visits"]))
    assert answers[0] == answers[1]


def test_search_leaves_the_game_alone_and_answers_a_legal_order() -> None:
    g = _game("intro-narvik")
    s = _play(g, 1, 3)
    f = s.current_side()
    before = s.data.to_json()
    legal = s.legal_orders()
    bot = SearchBot(f, 1, 1e9, max_iterations=20, **search_hooks())
    assert bot.choose(s.view_for((f,)), legal) in legal
    assert s.data.to_json() == before
    assert bot.last["iterations"] == 20 or bot.last["settled"]


def test_1_3_s1_the_score_is_the_result_then_the_standing() -> None:
    """A finished game scores +1 for the winner's factions (Norway and the Allies together),
    -1 for the others; a game under way scores less than a win, by who leads now."""
    g = _game("intro-narvik")
    s = _play(g, 3, 500)
    assert s.is_over()
    w = s.data.winner
    for f in FACTIONS:
        v = evaluate(s, f)
        assert v == (0.0 if w is None else 1.0 if (w == GERMANS) == (f == GERMANS) else -1.0)
    mid = _play(g, 3, 4)
    assert not mid.is_over()
    assert all(abs(evaluate(mid, f)) < 1.0 for f in FACTIONS)
    assert evaluate(mid, NORWAY) == -evaluate(mid, GERMANS)


def test_kampen_offers_the_search_bot() -> None:
    """``--opponent search`` is the search bot in Kampen too, not the priority bot."""
    bot = registry.get("kampen").bots["search"].make(GERMANS, 1, 0.5)
    assert isinstance(bot, SearchBot) and bot.budget == 0.5 and not bot.turn_end
