"""Issue 70: the engine carries out only what the rules offer now, whoever asks.

An order is offered when it is listed, or when it is of a listed order's family
(``Order.family``: the same target, route ends or result, with a part the rules leave free and
the list gives only a few ways of: AP announced (18.1), a route (14.0), attackers (15.1), a
split of 6 FP (15.2)) and the game's check of that part accepts it. And ``apply_unchecked``,
the fast path that skips the check, is only ever given an order of the listing it was chosen
from: by ``run_fast`` and by the search's rollouts, in every game."""

from __future__ import annotations

import dataclasses

import pytest

from hexwar.core.engine import run_fast
from hexwar.core.orders import IllegalOrder, Move
from hexwar import registry
from hexwar.games.narvik.orders import AirStrike

GAMES = [g.name for g in registry.games()]


def _to_air_mission():
    """A game of Assault on Narvik's priority bots up to the first German air mission offered."""
    info = registry.get("narvik")
    s = info.build().new_state(3)
    bots = {x: info.bot("priority", x, 3) for x in info.sides}
    for _ in range(400):
        legal = s.legal_orders()
        if any(isinstance(o, AirStrike) and o.mission == "infantry" for o in legal):
            return s, legal
        s.apply(bots[s.current_side()].choose(s, legal))
    raise AssertionError("no air mission offered")


def test_any_ap_announced_on_a_listed_target_is_of_its_family_and_carried_out():
    # 18.1.2: the German announces the AP he commits; the list offers all and half of them
    s, legal = _to_air_mission()
    listed = next(o for o in legal if isinstance(o, AirStrike) and o.mission == "infantry")
    one = dataclasses.replace(listed, ap=1)
    assert one not in legal and one.family() == listed.family()
    events = s.clone().apply(one)
    assert any(e.get("ap") == 1 for e in events if e["type"].startswith("air"))


def test_an_air_mission_on_a_hex_no_listed_order_targets_is_refused_with_the_state_as_it_was():
    s, legal = _to_air_mission()
    listed = next(o for o in legal if isinstance(o, AirStrike) and o.mission == "infantry")
    targets = {o.hex for o in legal if isinstance(o, AirStrike)}
    elsewhere = next(h for h in sorted(map(str, s.game.board.locations())) if h not in targets)
    before = s.data.to_json()
    with pytest.raises(IllegalOrder):  # the game's own reason where its handler has one (18.1.2)
        s.apply(dataclasses.replace(listed, hex=elsewhere))
    assert s.data.to_json() == before


def test_a_move_is_of_a_listed_moves_family_only_between_the_same_ends():
    m = Move("allies", "1SG", ("1710", "1711", "1810"))
    assert m.family() == Move("allies", "1SG", ("1710", "1809", "1810")).family()
    assert m.family() != Move("allies", "1SG", ("1710", "1711")).family()


@pytest.mark.parametrize("name", GAMES)
def test_the_unchecked_path_is_only_ever_given_an_order_of_its_listing(name, monkeypatch):
    """run_fast and the search's rollouts carry orders out without a second check; watched
    here, each must be one the game lists at that moment (the fuzz of orders beyond the list
    is the trial's ``offered`` family: tools/trial.py)."""
    info = registry.get(name)
    sc, bd, sw = info.conformance_variants()[0]
    game = info.build(sc, bd, sw)
    real = type(game).apply_unchecked
    given: list[str] = []
    unlisted: list[str] = []

    def watched(self, data, order, dice, events):
        given.append(order.kind)
        if order not in self.legal_orders(data):
            unlisted.append(order.text())
        real(self, data, order, dice, events)

    # on the class: a rules object is frozen once built (issue 73)
    monkeypatch.setattr(type(game), "apply_unchecked", watched)
    run_fast(game, 5, {side: info.bot(info.batch_bot, side, 5) for side in info.sides})
    if "search" in info.bots:
        s = game.new_state(5)
        for _ in range(2):
            if s.is_over():
                break
            side = s.current_side()
            bot = info.bot("search", side, 5, 0.2)
            bot.max_iterations = 8
            s.apply(bot.choose(s.view_for((side,)), s.legal_orders()))
            bot.close()
    assert given and unlisted == []
