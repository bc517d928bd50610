"""Kampen om Norge's advanced game (rules 5-8): Example 4 (the 9 April round) replayed card by
card and die by die, and the rules of ships, the 9 April round and 8.3 one by one."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import IllegalOrder, Pass
from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, kampen_game
from hexwar.games.kampen import ships as S
from hexwar.games.kampen.orders import (
    AddShip,
    Choose,
    Fight,
    Intercept,
    Land,
    PlaceBn,
    PlaceShip,
    Sail,
    Withdraw,
)
from hexwar.games.kampen.state import RAID, REMOVED, RESERVE, SUNK, TO_PLACE


@pytest.fixture(scope="module")
def g():
    return kampen_game("advanced")


def april_card(g, f, card, nth=0):
    return [c for c in g.april_decks[f] if g.copies[c].card == card][nth]


def ship(g, name):
    return next(c.id for c in g.fleet if c.name == name)


def play(g, data, orders, dice):
    events = []
    for o in orders:
        events += g.apply(data, o, dice)
    return events


def legal(g, data, kind, **kw):
    for o in g.legal_orders(data):
        if type(o).__name__ == kind and all(getattr(o, k) == v for k, v in kw.items()):
            return o
    raise AssertionError(f"{kind} {kw} not legal; legal: {[o.text() for o in g.legal_orders(data)][:30]}")


def start(g, drawn=()):
    """A 9 April game whose Allies drew ``drawn`` among their 9 ships (the draw is a shuffle)."""
    data = g.initial_state(4, Dice(4))
    if drawn:
        al = [s for s in data.ships if s.owner == ALLIES]
        want = {ship(g, n) for n in drawn}
        keep = [s for s in al if s.id in want] + [s for s in al if s.id not in want]
        for i, s in enumerate(keep):
            s.at = TO_PLACE if i < 9 else RESERVE
    return data


def choose(g, data, f, cards):
    for card, nth in cards:
        play(g, data, [Choose(f, april_card(g, f, card, nth), card)], Dice(0))


def test_example_4_the_9_april_round_card_by_card_and_die_by_die(g):
    data = start(g, drawn=("Warspite", "Lett krysser med jagere"))
    x = data
    hipper, karlsruhe, warspite, light = (ship(g, n) for n in ("Admiral Hipper", "Karlsruhe", "Warspite", "Lett krysser med jagere"))
    # opening: DE keeps 2 Fallskjermtropp, Bombefly, Bløff/trusler, Gebirgsjäger; NO Kystfort,
    # Jagerfly, Ubåt; AL Rekognoseringsfly, Stupbombefly, Forsterkninger (7.0)
    assert x.stage == "april9" and x.step == "choose" and data.side == GERMANS
    choose(g, data, GERMANS, [("fallskjermtropp", 0), ("fallskjermtropp", 1), ("bombefly", 0), ("bloff_trusler", 0), ("gebirgsjager", 0)])
    choose(g, data, NORWAY, [("kystfort", 0), ("jagerfly_no", 0), ("ubat", 0)])
    choose(g, data, ALLIES, [("rekognoseringsfly", 0), ("stupbombefly", 0), ("forsterkninger_al", 0)])
    assert [g.copies[c].card for c in x.hand[GERMANS]].count("fallskjermtropp") == 2
    assert len(x.box[GERMANS]) == 4 and len(x.box[NORWAY]) == 2 and len(x.box[ALLIES]) == 3  # the rest back in the box
    # 7.0 placement: Norway first (1 in Finnmark at once, 1 in Oslo or next to it, 2 on
    # mobilisation points, Eidsvoll & Norge face up outside VIII)
    assert x.bn[NORWAY] == {"finnmark": 1} and data.side == NORWAY
    assert {o.area for o in g.legal_orders(data)} == {"oslo", *g.nbrs["oslo"]}
    play(g, data, [PlaceBn(NORWAY, "oslo", 1), PlaceBn(NORWAY, "hamar", 1), PlaceBn(NORWAY, "voss", 1)], Dice(0))
    assert "VIII" not in {o.sea for o in g.legal_orders(data)}
    play(g, data, [legal(g, data, "PlaceShip", sea="VI")], Dice(0))
    # Germany: Admiral Hipper and Karlsruhe in III, off Stavanger; the rest in I and II
    play(g, data, [PlaceShip(GERMANS, hipper, "Admiral Hipper", "III"), PlaceShip(GERMANS, karlsruhe, "Karlsruhe", "III")], Dice(0))
    while x.step == "ships" and data.side == GERMANS:
        o = next(o for o in g.legal_orders(data) if o.sea == ("I" if o.ship % 2 else "II"))
        play(g, data, [o], Dice(0))
    # the Allies send a reconnaissance plane over III: 6 and 2, one ship seen: Admiral Hipper
    dice = Dice.replaying([Roll("reconnaissance", (6, 2)), Roll("ship sighted", (0,), "choice", 2)])
    events = play(g, data, [legal(g, data, "PlayCard", card="rekognoseringsfly", target="III")], dice)
    seen = next(e for e in events if e["type"] == "sighted")
    assert seen["faces"] == [6, 2] and seen["ships"] == ["Admiral Hipper"]
    assert x.seen[ALLIES] == [hipper]
    assert [s.id for s in g.view(x, [ALLIES]).ships if s.at == "III"] == [hipper, -1]  # Hipper known, Karlsruhe a card back
    assert "ships" not in g.visible_events(x, events, [NORWAY])[-1]
    # ... and places Warspite and «Lett krysser med jagere» there, the others away from Germans
    assert "I" not in {o.sea for o in g.legal_orders(data)} and "II" not in {o.sea for o in g.legal_orders(data)}
    play(g, data, [PlaceShip(ALLIES, warspite, "Warspite", "III"), PlaceShip(ALLIES, light, "Lett krysser med jagere", "III")], Dice(0))
    while x.step == "ships":
        play(g, data, [next(o for o in g.legal_orders(data) if isinstance(o, PlaceShip) and o.sea == "VIII")], Dice(0))
    # 7.1 interception in III: Germany does not try; the Allies roll one die per German
    # ship, 5 and 3: one is intercepted, drawn at random: Admiral Hipper, face up
    assert x.step == "intercept" and data.side == GERMANS
    dice = Dice.replaying([Roll("interception", (5, 3)), Roll("intercepted ship", (0,), "choice", 2),
                           Roll("sea: Stupbombefly", (3,)), Roll("sea: Admiral Hipper", (1,)), Roll("sea: Warspite", (5,)),
                           Roll("resistance stavanger", (6,)), Roll("Bløff/trusler", (3,))])
    play(g, data, [Pass(GERMANS)], dice)
    events = play(g, data, [Intercept(ALLIES, "III")], dice)
    icpt = next(e for e in events if e["type"] == "interception")
    assert icpt["faces"] == [5, 3] and icpt["caught"] == ["Admiral Hipper"]
    assert x.ships[hipper].caught and x.ships[hipper].up and not x.ships[karlsruhe].caught
    # 7.1 movement: Fallskjermtropp on Stavanger; Norway's Jagerfly sends it to Haugesund
    assert x.step == "move" and all(isinstance(o, Pass) or o.card == "fallskjermtropp" for o in g.legal_orders(data))
    play(g, data, [legal(g, data, "PlayCard", card="fallskjermtropp", target="stavanger")], dice)
    assert data.side == NORWAY and x.step == "divert"
    play(g, data, [legal(g, data, "PlayCard", card="jagerfly_no", target="haugesund")], dice)
    assert x.bn[GERMANS] == {"haugesund": 1}
    # 7.2a sea combat in III: Germany may add the undiscovered Karlsruhe, and declines
    play(g, data, [Pass(GERMANS)], dice)  # the second Fallskjermtropp stays in hand
    assert x.step == "add" and data.side == GERMANS
    assert AddShip(GERMANS, karlsruhe, "Karlsruhe") in g.legal_orders(data)
    play(g, data, [Pass(GERMANS)], dice)
    assert x.sea.a == [hipper] and sorted(x.sea.d) == sorted([warspite, light])
    # step 1: no German card (Bombefly needs an airfield on III's coast, 5.1); step 2: the
    # Allies' Stupbombefly rolls 3, nothing sunk; step 4: Hipper rolls 1; step 5: Warspite
    # rolls 5 and sinks the only German ship: no more dice; step 6: Germany loses 1 card
    assert x.step == "sea_defend" and data.side == ALLIES
    top = x.deck[GERMANS][0]
    down = x.down[GERMANS]
    events = play(g, data, [legal(g, data, "PlayCard", card="stupbombefly")], dice)
    shots = [(e["by"], e["face"], e["result"]) for e in events if e["type"] == "sea_shot"]
    assert shots == [("Stupbombefly", 3, "miss"), ("Admiral Hipper", 1, "miss"), ("Warspite", 5, "sink")]
    assert x.ships[hipper].at == SUNK and x.down[GERMANS] == down - 1 and x.deck[GERMANS][-1] == top
    assert next(e for e in events if e["type"] == "cards_lost")["n"] == 1
    assert not x.ships[warspite].up and not x.ships[light].up  # step 8: face down again
    # raiding: none (no battleship or heavy cruiser in VI-VIII); landing: Karlsruhe, revealed,
    # lands a battalion in Stavanger
    assert x.step == "land"
    play(g, data, [Land(GERMANS, karlsruhe, "Karlsruhe", "stavanger"), Pass(GERMANS)], dice)
    assert x.step == "fort" and data.side == NORWAY  # Kystfort could answer a landing in a point city
    events = play(g, data, [Pass(NORWAY)], dice)
    # Norway's resistance in Stavanger: a 6, one Norwegian battalion there (Fig. 4c)
    res = next(e for e in events if e["type"] == "resistance")
    assert res["area"] == "stavanger" and res["face"] == 6 and res["mobilised"]
    # 7.2b land combat, Germany attacking: Bløff/trusler rolls 3, Norway must withdraw
    assert x.step == "attack" and data.side == GERMANS and x.combat.area == "stavanger"
    events = play(g, data, [legal(g, data, "PlayCard", card="bloff_trusler")], dice)
    assert next(e for e in events if e["type"] == "bluff")["face"] == 3
    assert not any(e["type"] == "combat_roll" for e in events)  # no dice combat
    assert data.side == NORWAY and [o.area for o in g.legal_orders(data)] == ["egersund"]  # the only available area
    play(g, data, [Withdraw(NORWAY, "egersund")], dice)
    # Fig. 4d: DE 1 in Haugesund, DE 1 in Stavanger, NO 1 in Egersund
    assert x.bn[GERMANS] == {"haugesund": 1, "stavanger": 1}
    assert x.bn[NORWAY].get("egersund") == 1 and "stavanger" not in x.bn[NORWAY]
    assert dice.left() == 0  # every die of the example, in its order
    # 7.3: Norway mobilises (outside the excerpt); 7.4 the 9 April cards leave play
    assert x.step == "mobilise"
    for f in (GERMANS, NORWAY, ALLIES):
        assert all(g.copies[c].april9 for c in x.hand[f])


def test_7_4_the_9_april_round_ends_with_hands_drawn_and_dummies_gone(g):
    state = g.new_state(11)
    from hexwar.ai.random_bot import RandomBot

    bot = RandomBot(3)
    while state.data.stage:
        state.apply(bot.choose(state, state.legal_orders()))
    x = state.data
    assert x.turn == 1 and x.faction == GERMANS
    for f, n in ((GERMANS, 5), (NORWAY, 3), (ALLIES, 3)):
        assert len(x.hand[f]) == n and not any(g.copies[c].april9 for c in x.hand[f])  # 7.4
        assert all(g.copies[c].april9 for c in x.box[f])
    assert all(s.at in (REMOVED,) for s in x.ships if g.fleet[s.id].dummy)  # 6.1: dummies go after 9 April
    assert sum(1 for s in x.ships if s.owner == ALLIES and s.at == RESERVE) >= 9 - 2  # the Home Fleet waits (7.4)


def test_8_1_allied_ships_never_sail_into_the_mined_seas_and_eidsvoll_moves_one_area(g):
    state = g.new_state(5)
    from hexwar.ai.random_bot import RandomBot

    bot = RandomBot(5)
    seen_allied = False
    while not state.is_over() and state.data.turn < 4:
        legal = state.legal_orders()
        for o in legal:
            if isinstance(o, Sail):
                assert len(o.path) <= 2
                if o.side == ALLIES:
                    seen_allied = True
                    assert not set(o.path) & {"I", "II"}  # 5.1, 8.1
                if o.side == NORWAY:
                    assert len(o.path) == 1  # 6.1: Eidsvoll & Norge moves 1 area
            if isinstance(o, PlaceShip) and o.side == ALLIES:
                assert o.sea not in ("I", "II")
        state.apply(bot.choose(state, legal))
    assert seen_allied


def ordinary(g, seed=2):
    """A game past its 9 April round (random play), for the 8.x rules."""
    from hexwar.ai.random_bot import RandomBot

    state = g.new_state(seed)
    bot = RandomBot(seed)
    while state.data.stage:
        state.apply(bot.choose(state, state.legal_orders()))
    return state


def test_8_1_interception_one_die_per_enemy_ship_a_5_or_6_catches_one_drawn_at_random(g):
    state = ordinary(g)
    x = state.data
    for s in x.ships:
        if s.at not in (SUNK, REMOVED):
            s.at = RESERVE if s.owner == ALLIES else RAID if s.owner == GERMANS else SUNK
    de = [ship(g, n) for n in ("Scharnhorst", "Blücher", "Köln")]
    al = ship(g, "Renown")
    for i in de:
        x.ships[i].at = "V"
    x.ships[al].at = "IV"
    x.faction, x.step, state.data.side = ALLIES, "seamove", ALLIES
    dice = Dice.replaying([Roll("interception", (6, 2, 5)), Roll("intercepted ship", (2,), "choice", 3),
                           Roll("intercepted ship", (0,), "choice", 2)])
    events = play(g, x, [Sail(ALLIES, (al,), "Renown", ("V",)), Intercept(ALLIES, "V")], dice)
    caught = next(e for e in events if e["type"] == "interception")["caught"]
    assert caught == ["Köln", "Scharnhorst"]  # two successes: two ships, drawn at random
    assert x.ships[al].tried  # it tried: it moves no further this round (8.1 step 1)


def test_8_2_a_sunk_battleship_costs_two_cards_and_eidsvoll_chased_is_sunk(g):
    state = ordinary(g)
    x = state.data
    warspite = ship(g, "Warspite")
    down = x.down[ALLIES]
    from hexwar.games.kampen.phases import sea

    sea.sink(g, x, x.ships[warspite], Dice(0), [], "test", "8.2")
    assert x.down[ALLIES] == down - 2  # 8.2 step 6: battleships and carriers cost 2 cards
    en = ship(g, "Eidsvoll & Norge")
    assert g.fleet[en].cls.chased_sinks and g.fleet[en].cls.cards_lost == 0  # 6.1


def test_5_2_the_allied_card_requirements_in_the_advanced_game(g):
    state = ordinary(g)
    x = state.data
    for s in x.ships:
        if s.owner == ALLIES:
            s.at = RESERVE
    assert not S.allied_support(g, x, "narvik", "ship")
    x.ships[ship(g, "Renown")].at = "VII"
    assert S.allied_support(g, x, "narvik", "ship") and S.allied_support(g, x, "narvik", "gunship")
    assert not S.allied_support(g, x, "narvik", "carrier") or any(x.bn[ALLIES].get(a) for a in g.airfields)
    x.ships[ship(g, "Ark Royal")].at = "VII"
    assert S.allied_support(g, x, "narvik", "carrier")  # 6.1: Jagerfly off a carrier


def test_8_3_german_reinforcements_need_the_seas_south_free_of_allied_ships(g):
    from hexwar.games.kampen.phases.reinforcement import german_seas

    state = ordinary(g)
    x = state.data
    for s in x.ships:
        if s.at not in (SUNK, REMOVED):
            s.at = RESERVE if s.owner == ALLIES else RAID
    ok, capped = german_seas(g, x)
    assert ok == {"I", "II", "III", "IV", "V", "VI", "VII"} and not capped  # no Allied ship anywhere
    x.ships[ship(g, "Renown")].at = "IV"
    x.ships[ship(g, "Köln")].at = "V"
    x.ships[ship(g, "Emden")].at = "V"
    ok, capped = german_seas(g, x)
    assert ok == {"I", "II", "III"} and capped == {"V": 2}  # V: 1 battalion per German ship there


def test_7_2_raiders_take_allied_cards_and_come_home_for_6_symbols(g):
    data = start(g)
    x = data
    from hexwar.games.kampen.phases import april

    x.todo = ["raid"]
    for s in x.ships:
        if s.owner == GERMANS:
            s.at = "VIII" if g.fleet[s.id].name in ("Scharnhorst", "Admiral Hipper") else "I"
    x.hand = {f: [] for f in x.hand}
    down = x.down[ALLIES]
    april.advance(g, x, Dice(0), [])
    assert x.step == "raid"
    play(g, x, [legal(g, x, "Raid", name="Scharnhorst"), legal(g, x, "Raid", name="Admiral Hipper")], Dice(0))
    assert x.down[ALLIES] == down - 3  # 2 for the battleship, 1 for the heavy cruiser (7.2)
    assert {x.ships[ship(g, "Scharnhorst")].at, x.ships[ship(g, "Admiral Hipper")].at} == {RAID}


def test_an_illegal_advanced_order_is_refused_and_leaves_the_state_untouched(g):
    data = start(g)
    before = data.to_json()
    with pytest.raises(IllegalOrder):
        g.apply(data, PlaceShip(ALLIES, 0, "Scharnhorst", "I"), Dice(0))
    with pytest.raises(IllegalOrder):
        g.apply(data, Fight(GERMANS, "III"), Dice(0))
    assert data.to_json() == before
