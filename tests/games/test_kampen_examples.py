"""Kampen om Norge worked examples (rules 4, Eksempel 1-3): every card, every die and every
stated outcome, replayed through the game API."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import IllegalOrder, Pass
from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, kampen_game
from hexwar.games.kampen.state import AttackGroup
from hexwar.games.kampen.orders import Cash, Fight, KMove, PlaceBn, PlayCard, Withdraw


@pytest.fixture(scope="module")
def g():
    return kampen_game("basic")


def copy_of(g, faction, card, dice=None, symbols=None):
    for cid in g.decks[faction]:
        c = g.copies[cid]
        if c.card == card and (dice is None or c.dice == dice) and (symbols is None or c.symbols == symbols):
            return cid
    raise KeyError(card)


def position(g, to_move, bn, hands, landing=0):
    """A basic-game state with the example's battalions and hands (the rest in the decks)."""
    data = g.initial_state(1, Dice(1))
    x = data
    x.bn = {f: dict(bn.get(f, {})) for f in (GERMANS, NORWAY, ALLIES)}
    x.landing = landing
    for f in (GERMANS, NORWAY, ALLIES):
        hand = hands.get(f, [])
        x.hand[f] = list(hand)
        x.deck[f] = [c for c in g.decks[f] if c not in hand]
        x.down[f] = len(x.deck[f])
    x.faction = to_move
    data.side = to_move
    x.step = "move"
    return data


def play(g, data, orders, dice):
    events = []
    for o in orders:
        events += g.apply(data, o, dice)
    return events


def legal_card(g, data, card, slot, **kw):
    for o in g.legal_orders(data):
        if isinstance(o, PlayCard) and o.card == card and o.slot == slot and all(getattr(o, k) == v for k, v in kw.items()):
            return o
    raise AssertionError(f"{card} {slot} {kw} not legal; legal: {[o.text() for o in g.legal_orders(data)]}")


def test_example_1_german_round_veisperring_mjosa_panzer_bakhold_speidertropp(g):
    panzer = copy_of(g, GERMANS, "panzer", dice=1)
    scout = copy_of(g, GERMANS, "speidertropp")
    reinf = copy_of(g, GERMANS, "forsterkninger_de", symbols=5)
    art = copy_of(g, GERMANS, "artilleri")
    geb = copy_of(g, GERMANS, "gebirgsjager")
    road = copy_of(g, NORWAY, "veisperring")
    ambush = copy_of(g, NORWAY, "bakhold")
    data = position(g, GERMANS, {GERMANS: {"oslo": 2, "gjovik": 3, "kongsvinger": 1}, NORWAY: {"hamar": 1}},
                    {GERMANS: [panzer, scout, reinf, art, geb], NORWAY: [road, ambush]})
    dice = Dice.replaying([Roll("attack", (3, 3)), Roll("defence", (6,))])
    x = data
    # phase 1: Oslo-Hønefoss is a plain move (L1); two attacks on Hamar (L2, L4 across Mjøsa)
    play(g, data, [KMove(GERMANS, "oslo", "honefoss", 2), KMove(GERMANS, "kongsvinger", "hamar", 1),
                   KMove(GERMANS, "gjovik", "hamar", 3), Pass(GERMANS)], dice)
    assert x.attacks["hamar"] == [AttackGroup("kongsvinger", 1, False, False, "kongsvinger"), AttackGroup("gjovik", 3, True, False, "gjovik")]
    # 1c: Veisperring sends the Kongsvinger battalion back; DE has no Ingeniørkompani
    assert data.side == NORWAY and x.step == "sabotage"
    play(g, data, [legal_card(g, data, "veisperring", "sabotage", src="kongsvinger")], dice)
    assert x.bn[GERMANS]["kongsvinger"] == 1
    # phase 2: 3 across Mjøsa = 1 die; Panzer +1; Bakhold +2 cancelled by Speidertropp
    assert x.step == "attack"
    play(g, data, [legal_card(g, data, "panzer", "attack"), Pass(GERMANS)], dice)
    assert data.side == NORWAY and x.step == "defend"
    play(g, data, [legal_card(g, data, "bakhold", "defend")], dice)
    assert data.side == GERMANS and x.step == "react"
    events = play(g, data, [legal_card(g, data, "speidertropp", "react")], dice)
    roll = next(e for e in events if e["type"] == "combat_roll")
    assert roll["attacker"] == [3, 3] and roll["defender"] == [6] and roll["totals"] == [6, 6]
    assert roll["kills"] == [0, 1]
    assert next(e for e in events if e["type"] == "cancelled")["card"] == "bakhold"
    assert next(e for e in events if e["type"] == "combat_result")["winner"] == "defender"  # tie: defender
    # the 2 surviving Germans go back to Gjøvik; Hamar stays Norwegian
    assert x.bn[GERMANS]["gjovik"] == 2 and x.bn[NORWAY] == {"hamar": 1}
    # phase 3: Forsterkninger (5 symbols) = 1 battalion, plus the free one; both in Oslo
    assert x.step == "reinforce"
    play(g, data, [Cash(GERMANS, reinf, "forsterkninger_de"), Pass(GERMANS)], dice)
    assert x.rein.n == 2 and "oslo" in [o.area for o in g.legal_orders(data)]
    hand_before = len(x.hand[GERMANS])
    play(g, data, [PlaceBn(GERMANS, "oslo", 1), PlaceBn(GERMANS, "oslo", 1)], dice)
    # phase 4: 3 cards used, 3 drawn; the turn passes to Norway
    assert hand_before == 2 and len(x.hand[GERMANS]) == 5
    assert x.bn[GERMANS] == {"oslo": 2, "honefoss": 2, "gjovik": 2, "kongsvinger": 1}
    assert x.bn[NORWAY] == {"hamar": 1}
    assert data.side == NORWAY and x.faction == NORWAY


def test_example_2_allied_invasjon_at_andalsnes_and_the_surrounded_defenders(g):
    inv = copy_of(g, ALLIES, "invasjon")
    f7 = copy_of(g, ALLIES, "forsterkninger_al", symbols=7)
    kyst = copy_of(g, ALLIES, "kystevakuering", symbols=2)
    de_cards = [c for c in g.decks[GERMANS] if g.copies[c].card == "forsterkninger_de"][:5]
    data = position(g, ALLIES, {GERMANS: {"andalsnes": 2, "oslo": 2}, NORWAY: {"dombas": 1}},
                    {ALLIES: [inv, f7, kyst], GERMANS: de_cards})
    x = data
    dice = Dice.replaying([Roll("attack", (3, 5, 4)), Roll("defence", (6, 1))])
    o = legal_card(g, data, "invasjon", "move", target="andalsnes")
    assert sorted(o.cash) == sorted([f7, kyst])  # 7 + 2 symbols = 3 battalions; Kystevakuering's effect ignored
    events = play(g, data, [o, Pass(ALLIES)], dice)
    roll = next(e for e in events if e["type"] == "combat_roll")
    assert roll["totals"] == [12, 7] and roll["kills"] == [0, 1]
    assert next(e for e in events if e["type"] == "surrounded")["lost"] == {GERMANS: 2}  # fjords to Ålesund and Kristiansund, Dombås Norwegian
    assert x.bn[ALLIES] == {"andalsnes": 2} and x.bn[NORWAY] == {"dombas": 1}
    assert "andalsnes" not in x.bn[GERMANS]
    play(g, data, [Pass(ALLIES)], dice)  # phase 3: no cards left to cash
    assert len(x.hand[ALLIES]) == 3 and data.side == GERMANS


def test_example_3_german_round_rask_forflytning_fallskjermtropp_jagerfly_kystevakuering(g):
    rask = copy_of(g, GERMANS, "rask_forflytning")
    para = copy_of(g, GERMANS, "fallskjermtropp")
    bomb = copy_of(g, GERMANS, "bombefly")
    panzer2 = copy_of(g, GERMANS, "panzer", dice=2)
    trans = copy_of(g, GERMANS, "transportfly")
    fighter = copy_of(g, ALLIES, "jagerfly")
    evac = copy_of(g, ALLIES, "kystevakuering")
    no_cards = [copy_of(g, NORWAY, "bakhold")]
    data = position(g, GERMANS, {GERMANS: {"tysfjord": 2, "trondheim": 1}, NORWAY: {"bardufoss": 1}, ALLIES: {"narvik": 2}},
                    {GERMANS: [rask, para, bomb, panzer2, trans], ALLIES: [fighter, evac], NORWAY: no_cards})
    x = data
    dice = Dice.replaying([Roll("attack", (2, 6, 3, 6)), Roll("defence", (6, 5)), Roll("attack", (5,)), Roll("defence", (4,))])
    # A3: from Trondheim the air range reaches Harstad, Narvik, Bjørnfjell, not Gratangen, Bardufoss, Tromsø
    rng = g.air_range(x)
    assert {"harstad", "narvik", "bjornfjell"} <= rng and not rng & {"gratangen", "bardufoss", "tromso"}
    # L14: Tysfjord-Bardufoss is no plain move; Rask forflytning goes via Bjørnfjell
    assert KMove(GERMANS, "tysfjord", "bardufoss", 1) not in g.legal_orders(data)
    play(g, data, [legal_card(g, data, "rask_forflytning", "move", src="tysfjord", path=("bjornfjell", "bardufoss"), n=1),
                   KMove(GERMANS, "tysfjord", "narvik", 1)], dice)
    play(g, data, [legal_card(g, data, "fallskjermtropp", "move", target="narvik")], dice)
    assert data.side == ALLIES and x.step == "divert"  # AL could divert the landing with Jagerfly (4.1) ...
    play(g, data, [Pass(ALLIES), Pass(GERMANS)], dice)  # ... but keeps it for the Bombefly, as in the example
    assert x.step == "pick" and data.side == GERMANS  # NO holds no sabotage card
    play(g, data, [Fight(GERMANS, "narvik")], dice)
    play(g, data, [legal_card(g, data, "bombefly", "attack")], dice)
    play(g, data, [legal_card(g, data, "panzer", "attack")], dice)  # no attack card left: on to step 2
    assert data.side == ALLIES and x.step == "defend"
    events = play(g, data, [legal_card(g, data, "jagerfly", "defend")], dice)
    roll = next(e for e in events if e["type"] == "combat_roll")
    assert roll["totals"] == [17, 11] and roll["kills"] == [2, 1]  # 2 bns + Panzer 2 = 4 dice; Bombefly shot down
    assert x.step == "evac"
    events = play(g, data, [legal_card(g, data, "kystevakuering", "evacuate", target="tromso")], dice)
    assert x.bn[GERMANS]["narvik"] == 1 and "narvik" not in x.bn[ALLIES]
    assert x.bn[ALLIES] == {"tromso": 1}
    # Bardufoss: 1 die each, 5 beats 4; Norway may not withdraw to Bjørnfjell (attacked from) nor Narvik
    assert data.side == NORWAY and x.step == "defend"
    events = play(g, data, [Pass(NORWAY)], dice)
    assert next(e for e in events if e["type"] == "combat_roll")["totals"] == [5, 4]
    opts = {o.area for o in g.legal_orders(data)}
    assert "tromso" in opts and not opts & {"bjornfjell", "narvik"}
    play(g, data, [Withdraw(NORWAY, "tromso")], dice)
    # phase 3: Transportfly puts the free battalion on the Bardufoss airfield
    play(g, data, [legal_card(g, data, "transportfly", "reinforce")], dice)
    play(g, data, [Pass(GERMANS), PlaceBn(GERMANS, "bardufoss", 1)], dice)
    assert x.bn[GERMANS] == {"narvik": 1, "bardufoss": 2, "trondheim": 1}
    assert x.bn[NORWAY] == {"tromso": 1} and x.bn[ALLIES] == {"tromso": 1}
    assert len(x.hand[GERMANS]) == 5  # 5 used, 5 drawn


def test_4_2_an_illegal_order_is_refused_and_leaves_the_state_untouched(g):
    data = position(g, GERMANS, {GERMANS: {"oslo": 2}, NORWAY: {"hamar": 1}}, {})
    before = data.to_json()
    with pytest.raises(IllegalOrder, match="not legal"):
        g.apply(data, KMove(GERMANS, "oslo", "narvik", 1), Dice(1))
    with pytest.raises(IllegalOrder):
        g.apply(data, Pass(NORWAY), Dice(1))
    assert data.to_json() == before


def test_4_1_jagerfly_diverts_a_fallskjermtropp_landing_to_an_adjacent_area_as_in_example_4(g):
    para = copy_of(g, GERMANS, "fallskjermtropp")
    fighter = copy_of(g, ALLIES, "jagerfly")
    data = position(g, GERMANS, {GERMANS: {"oslo": 2}, NORWAY: {"stavanger": 1}, ALLIES: {"bergen": 1}},
                    {GERMANS: [para], ALLIES: [fighter]})
    x = data
    assert "stavanger" in g.air_range(x)  # south of the "Fra Tyskland" line (A4)
    play(g, data, [legal_card(g, data, "fallskjermtropp", "move", target="stavanger")], Dice(1))
    assert data.side == ALLIES and x.step == "divert"
    assert {o.target for o in g.legal_orders(data) if isinstance(o, PlayCard)} == {"haugesund", "egersund"}
    events = play(g, data, [legal_card(g, data, "jagerfly", "divert", target="haugesund")], Dice(1))
    assert any(e["type"] == "diverted" and e["to"] == "haugesund" for e in events)
    assert x.bn[GERMANS].get("haugesund") == 1 and "stavanger" not in x.attacks
    assert data.side == GERMANS and x.step == "move"  # back to the German movement phase
