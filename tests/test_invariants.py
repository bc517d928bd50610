"""Each game's invariants (``GameInfo.broken``, checked by the conformance suite after every
order of random and bot games) hold in a fresh game and name the break when one is made: a
check that never fires would be a test that cannot fail."""

from __future__ import annotations

import pytest

from hexwar.core.invariants import placement
from hexwar.core.state import UnitState, Unit
from hexwar import registry
from hexwar.games.narvik.state import HARSTAD
from hexwar.rules.stacking import ABOARD
from tests.games.narvik_positions import loaded, put


def _fresh(name, scenario=None, seed=1):
    info = registry.get(name)
    g = info.build(scenario)
    return info, g, g.new_state(seed).data


@pytest.mark.parametrize("name", sorted(i.name for i in registry.games()))
def test_a_fresh_game_breaks_nothing(name):
    info, g, d = _fresh(name)
    assert info.broken(g, d) == []


def test_placement_names_a_counter_in_two_places_nowhere_or_off_the_board():
    s = UnitState("demo", "demo", 1, units={"a": Unit("a", "inf", "x", "x", loc="0101", pool=None),
                                            "b": Unit("b", "inf", "x", "x", loc=None, pool="reinforcements")})
    assert placement(s, {"0101"}) == []
    s.units["b"].pool = None
    s.units["a"].loc = "9999"
    out = placement(s, {"0101"})
    assert "a is at '9999', which is not on the board" in out and "b is nowhere: neither at a location nor in a pool" in out
    s.units["b"].pool = "limbo"
    assert "b is in the pool 'limbo', which demo does not have" in placement(s, {"0101", "9999"})


def test_placement_finds_a_location_index_that_missed_a_move():
    s = UnitState("demo", "demo", 1, units={"a": Unit("a", "inf", "x", "x", loc="0101", pool=None)})
    assert [u.id for u in s.at("0101")] == ["a"]  # the index is built
    object.__setattr__(s.units["a"], "loc", "0102")  # a move the index is not told about
    out = placement(s, {"0101", "0102"})
    assert any("the location index says 0101 holds ['a']" in x for x in out), out


def test_13_2_narvik_invariants_name_an_overstacked_hex():
    info, g, d = _fresh("narvik")
    for uid in ("1SG", "1IG", "2SWB"):  # three battalions, 9 points, where 6 may stand
        put(d, uid, "1315")
    assert info.broken(g, d) == ["1315: allies stack 9 points exceeds the limit 6 by 3 (13.2)"]


def test_20_2_narvik_invariants_name_cargo_out_of_place():
    info, g, d = _fresh("narvik")
    loaded(d, "DD-1", "1SG", "1315")
    assert info.broken(g, d) == []
    d.place("1SG", "1415")  # the battalion is not where its ship is
    assert info.broken(g, d) == ["20.2: DD-1 (at 1315) carries 1SG, which is at 1415"]
    d.place("1SG", "1315")
    d.cargo["DD-2"] = "1SG"  # carried twice
    assert any("1SG is aboard both DD-1 and DD-2" in x for x in info.broken(g, d))
    d.cargo = {}
    assert info.broken(g, d) == ["20.2: 1SG is marked aboard, but no ship carries it"]
    d.units["1SG"].flags.remove(ABOARD)


def test_22_2_20_1_narvik_invariants_name_a_unit_in_sweden_a_ship_ashore_and_a_battalion_at_sea():
    info, g, d = _fresh("narvik")
    swede = sorted(g.sweden)[0]
    mountain = next(x for x in g.board.locations() if g.board.terrain(x) == "mountain" and x not in g.sweden)
    sea = next(x for x in g.board.locations() if g.board.terrain(x) == "sea")
    put(d, "1SG", swede)
    put(d, "DD-1", mountain)
    put(d, "1IG", sea)
    assert sorted(info.broken(g, d)) == [
        f"13.1, 20.1: the ship DD-1 is in {mountain}, a mountain hex, not at sea or on a coast",
        f"14.1: 1IG stands in the all-sea hex {sea}, not aboard a ship",
        f"22.2: 1SG stands in Sweden at {swede}: a unit entering Sweden is interned at once"]
    loaded(d, "DD-2", "1IG", sea)  # aboard a ship there, it may
    assert not any("1IG" in x for x in info.broken(g, d))


def test_narvik_invariants_name_fatigue_ap_vp_dummies_and_enemies_in_one_hex():
    info, g, d = _fresh("narvik")
    d.units["KM-1"].fatigue = 99
    d.tracks["ap"] = 31
    d.vp["allies"] = d.vp.get("allies", 0) + 1
    put(d, "1SG", d.units["KM-2"].loc)
    d.place("DUMMY-1", HARSTAD)  # a sixth dummy cannot come from the five; stand one elsewhere instead
    d.units["13/139"].type = "dummy"
    put(d, "13/139", "2212")
    text = "\n".join(info.broken(g, d))
    limit = g.t(d.units["KM-1"]).fatigue_limit
    assert f"10.1: KM-1 has 99 FP, outside 0..{limit}" in text
    assert "18.1: 31 AP, outside 0..30" in text
    assert "29.0: allies have" in text and "but the VP log gives them" in text
    assert "14.1, 15.3.1: land units of both sides stand in 2312" in text
    assert "11.2: 6 dummies in play, never more than 5" in text


def test_kampen_invariants_name_a_lost_card_a_full_hand_and_enemies_in_one_area():
    info, g, d = _fresh("kampen", "intro-narvik")
    lost = d.hand["germans"].pop()
    assert info.broken(g, d) == ["2.4: the germans' cards in hand, deck, box and 9 April choice are not the cards of their deck"]
    d.hand["germans"].append(lost)
    d.hand["norwegians"].append(d.deck["norwegians"].pop())  # a fourth card in a hand of three
    assert any(x.startswith("2.4: norwegians holds 4 cards, the hand is 3") for x in info.broken(g, d))
    d.deck["norwegians"].append(d.hand["norwegians"].pop())
    area = next(iter(d.bn["germans"]))
    d.bn["norwegians"][area] = 1
    d.step = "move"
    assert info.broken(g, d) == [f"4.2: Germany and its enemies share {area} outside a combat"]
    d.step = "attack"  # a combat: both sides stand in the attacked area until it is fought
    assert info.broken(g, d) == []


def test_6_1_kampen_advanced_invariants_name_an_allied_ship_in_the_closed_seas():
    info, g, d = _fresh("kampen", "advanced")
    ship = next(s for s in d.ships if s.owner == "allies" and not g.fleet[s.id].dummy)
    ship.at = sorted(g.mined)[0]
    assert f"5.1: the Allied ship {ship.id} is in {ship.at}, closed to Allied ships" in info.broken(g, d)


def test_E1_europa_invariants_name_a_regiment_on_the_map_with_its_battalions():
    info, g, d = _fresh("europa")
    reg, bn = next((r, b) for r, bns in sorted(g.regiments.items()) for b in bns if d.units[b].loc is not None)
    d.place(reg, d.units[bn].loc)
    assert any(x.startswith(f"E1: the regiment {reg} and its battalions") for x in info.broken(g, d))


def test_E5_europa_invariants_name_an_overstack_left_unflipped_between_combats():
    from hexwar.games.europa.state import OVERSTACKED

    info, g, d = _fresh("europa")
    loc = "1845"  # the set-up has six German ground units here: the first movement flips or splits them
    here = [u for u in d.at(loc) if g.ground(u) and u.id not in d.absorbed and g.stack_cost(u, loc)[0]]
    assert len(here) > 2
    d.phase, d.combat = "movement", None
    assert info.broken(g, d) == []  # E5 A: during movement the limits wait for the phase's end
    d.phase = "combat"
    assert any(f"not flipped overstacked in {loc} in the combat phase" in x for x in info.broken(g, d))
    for u in here[2:]:
        u.flags.append(OVERSTACKED)  # E5 B: flipped, they no longer count
    assert not any(f" in {loc} " in x for x in info.broken(g, d))


def test_13_2_skirmish_and_konflikt_invariants_name_an_overstacked_location():
    for name in ("skirmish", "konflikt"):
        info, g, d = _fresh(name)
        side = info.sides[0]
        loc = sorted(g.board.locations())[0]
        for u in d.units.values():
            if u.side == side:
                d.place(u.id, loc)
        assert any(x.startswith(f"{loc}: {side} stack") and x.endswith("(13.2)") for x in info.broken(g, d)), name
