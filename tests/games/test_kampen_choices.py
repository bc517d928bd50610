"""Kampen om Norge choices the rules give the players (issue 13), each played through the game
API on the basic board: the attacker picks which groups take its losses (4.2 step 6),
Kystevakuering saves attacking Allied battalions too (4.2 step 6), the must-play discard is per
faction (4.4), and the Allies choose the battalions they recall when their deck runs out (2.4)."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import IllegalOrder, Pass
from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, kampen_game
from hexwar.games.kampen.orders import Discard, KMove, Losses, PlayCard, Recall

from .test_kampen_examples import copy_of, legal_card, play, position


@pytest.fixture(scope="module")
def g():
    return kampen_game("basic")


def repulsed_from_two_areas(g):
    """DE attacks Narvik (3 NO) with 2 from Harstad (across the fjord: 1 die) and 2 from
    Gratangen (2 dice); the defence rolls two sixes and wins."""
    data = position(g, GERMANS, {GERMANS: {"harstad": 2, "gratangen": 2, "oslo": 1}, NORWAY: {"narvik": 3}}, {})
    dice = Dice.replaying([Roll("attack", (1, 1, 1)), Roll("defence", (6, 6, 1))])
    play(g, data, [KMove(GERMANS, "harstad", "narvik", 2), KMove(GERMANS, "gratangen", "narvik", 2), Pass(GERMANS)], dice)
    return data, dice


def test_4_2_step_6_a_repulsed_attacker_chooses_which_groups_lose(g):
    data, dice = repulsed_from_two_areas(g)
    assert data.step == "losses" and data.side == GERMANS
    ways = {o.groups for o in g.legal_orders(data)}
    assert ways == {(("harstad", 2), ("gratangen", 0)), (("harstad", 1), ("gratangen", 1)),
                    (("harstad", 0), ("gratangen", 2))}
    with pytest.raises(IllegalOrder):  # 3 losses where 2 were rolled: refused, nothing changes
        before = data.to_json()
        g.apply(data, Losses(GERMANS, (("harstad", 2), ("gratangen", 1))), dice)
    assert data.to_json() == before
    events = play(g, data, [Losses(GERMANS, (("harstad", 0), ("gratangen", 2)))], dice)
    assert any(e["type"] == "attack_repulsed" for e in events)
    # step 8: the survivors go back where they attacked from, so Gratangen is now empty
    assert data.bn[GERMANS] == {"harstad": 2, "oslo": 1}
    assert data.losses[GERMANS] == 2 and data.bn[NORWAY] == {"narvik": 3}


def test_4_2_step_6_a_winner_has_nothing_to_choose(g):
    """Every surviving attacker enters the area it won (step 7), so which group lost is moot."""
    data = position(g, GERMANS, {GERMANS: {"harstad": 2, "gratangen": 2, "oslo": 1}, NORWAY: {"narvik": 1}}, {})
    dice = Dice.replaying([Roll("attack", (5, 5, 5)), Roll("defence", (6,))])
    play(g, data, [KMove(GERMANS, "harstad", "narvik", 2), KMove(GERMANS, "gratangen", "narvik", 2), Pass(GERMANS)], dice)
    assert data.step != "losses"
    assert data.bn[GERMANS]["narvik"] == 3 and data.losses[GERMANS] == 1


def test_4_2_step_6_kystevakuering_saves_an_attacking_allied_battalion(g):
    """The card is marked for the Allies' own round (green circle) as well as the opponent's."""
    kyst = copy_of(g, ALLIES, "kystevakuering")
    data = position(g, ALLIES, {GERMANS: {"narvik": 2, "oslo": 1}, ALLIES: {"harstad": 2}, NORWAY: {"tromso": 1}},
                    {ALLIES: [kyst]})
    dice = Dice.replaying([Roll("attack", (1,)), Roll("defence", (6, 1))])
    play(g, data, [KMove(ALLIES, "harstad", "narvik", 2), Pass(ALLIES)], dice)
    assert data.step == "evac" and data.side == ALLIES
    targets = {o.target for o in g.legal_orders(data) if isinstance(o, PlayCard)}
    assert "tromso" in targets and "narvik" not in targets
    play(g, data, [legal_card(g, data, "kystevakuering", "evacuate", target="tromso")], dice)
    assert data.bn[ALLIES] == {"harstad": 1, "tromso": 1}  # the survivor back home, the lost one saved
    assert data.losses[ALLIES] == 0


def test_4_4_a_card_the_opponent_plays_in_your_round_does_not_excuse_your_discard(g):
    """NO's Bakhold in the German round is Norway's card: DE used none and must discard one."""
    ambush = copy_of(g, NORWAY, "bakhold")
    de_cards = [c for c in g.decks[GERMANS] if g.copies[c].card == "forsterkninger_de"][:5]
    data = position(g, GERMANS, {GERMANS: {"gratangen": 2, "oslo": 1}, NORWAY: {"narvik": 1}},
                    {GERMANS: de_cards, NORWAY: [ambush]})
    dice = Dice.replaying([Roll("attack", (1, 1)), Roll("defence", (4, 4, 4))])
    play(g, data, [KMove(GERMANS, "gratangen", "narvik", 2), Pass(GERMANS)], dice)
    assert data.step == "defend" and data.side == NORWAY
    play(g, data, [legal_card(g, data, "bakhold", "defend")], dice)
    assert data.cards_used[NORWAY] == 1 and data.used == 0
    assert data.step == "reinforce"
    play(g, data, [Pass(GERMANS)], dice)  # cash nothing: the free battalion only
    while data.step == "place":
        play(g, data, [g.legal_orders(data)[0]], dice)
    assert data.step == "discard" and data.side == GERMANS
    assert all(isinstance(o, Discard) for o in g.legal_orders(data))


def test_2_4_the_allies_choose_which_battalions_they_recall(g):
    data = position(g, ALLIES, {GERMANS: {"oslo": 1}, ALLIES: {"harstad": 3, "tromso": 2}}, {})
    data.down[ALLIES] = 1  # the draw at the end of this round turns up the first used card
    events = play(g, data, [Pass(ALLIES), Pass(ALLIES)], Dice(1))  # no move, nothing to cash; phase 4: draw
    assert next(e for e in events if e["type"] == "allied_withdrawal")["battalions"] == 4
    assert data.step == "recall" and data.side == ALLIES
    assert set(g.legal_orders(data)) == {Recall(ALLIES, "harstad"), Recall(ALLIES, "tromso")}
    play(g, data, [Recall(ALLIES, "tromso")] * 2 + [Recall(ALLIES, "harstad")] * 2, Dice(1))
    assert data.bn[ALLIES] == {"harstad": 1} and data.recalled == 4 and data.losses[ALLIES] == 0
    assert data.faction == GERMANS and data.down[ALLIES] == -1  # the game goes on; no more Allied cards


def test_2_4_a_recall_stops_when_the_allies_have_no_battalions_left(g):
    data = position(g, ALLIES, {GERMANS: {"oslo": 1}, NORWAY: {"tromso": 1}, ALLIES: {"harstad": 2}}, {})
    data.down[ALLIES] = 1
    play(g, data, [Pass(ALLIES), Pass(ALLIES)], Dice(1))
    play(g, data, [Recall(ALLIES, "harstad")] * 2, Dice(1))
    assert data.bn[ALLIES] == {} and data.faction == GERMANS and data.recall == 0


@pytest.mark.parametrize("fallen", [2, 3])
def test_2_4_a_deck_run_out_in_another_round_asks_only_for_the_battalions_left_at_its_end(g, fallen):
    """The Allied deck can run out in the German round (cards lost at sea, 6.1, 7.2): the
    Allies must remove 4 battalions (2.4), asked at the end of that round. Battalions the
    round's fighting took meanwhile are not asked for again: the recall asked for 3 with
    none left, and the Allies had no order to give (a stuck game, met by the bot ladder)."""
    from hexwar.games.kampen.phases import cards, sea

    data = position(g, GERMANS, {GERMANS: {"oslo": 1, "narvik": 2}, ALLIES: {"harstad": 3}, NORWAY: {"tromso": 1}}, {})
    data.down[ALLIES] = 2
    events: list = []
    sea.lose_cards(g, data, ALLIES, 2, Dice(1), events, "a raider's catch", "7.2")
    assert data.recall == 3 and data.down[ALLIES] == -1  # every battalion they have, at most 4
    data.add(ALLIES, "harstad", -fallen)  # lost in the rest of the German round
    cards.next_round(g, data, Dice(1), events)
    if fallen == 3:
        assert data.recall == 0 and data.faction == NORWAY and data.step != "recall"
    else:
        assert data.step == "recall" and data.side == ALLIES and data.recall == 1
        assert g.legal_orders(data) == [Recall(ALLIES, "harstad")]
        play(g, data, [Recall(ALLIES, "harstad")], Dice(1))
        assert data.bn[ALLIES] == {} and data.recalled == 1 and data.faction == NORWAY


def test_4_1_the_priority_bot_weighs_splits_of_a_group_when_nothing_else_is_offered():
    # the bot moves a group whole and skips its splits; a list of nothing but splits (a search
    # bot's rollout met one in the advanced game) left it with no order to pick (max of nothing)
    from hexwar.games.kampen.bots import KampenBot

    g = kampen_game("basic")
    s = g.new_state(3)
    side = s.current_side()
    d = s.data
    splits = [o for o in s.legal_orders()
              if type(o) is KMove and 1 < o.n < d.bn[side].get(o.src, 0) - d.fresh[side].get(o.src, 0)]
    assert len(splits) > 1
    bot = KampenBot(side, 3)
    assert bot.choose(s.view_for((side,)), splits) in splits
    assert sorted(bot.ranked(s.view_for((side,)), splits), key=splits.index) == splits
