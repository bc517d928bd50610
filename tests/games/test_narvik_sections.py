"""Assault on Narvik: one test per rule section that only the random-play state machine
exercised before (issue 13, "honest coverage"): each checks the section's own behaviour
from its text (../shared/rules/assault-on-narvik.md)."""

from __future__ import annotations

import pytest

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Pass
from hexwar.games.narvik import narvik_game
from hexwar.games.narvik.orders import AirStrike, ArtilleryInterdiction, DeclareMas, DesignateBase, LandAssault, ShipFunction
from hexwar.games.narvik.phases import air, initial, naval
from hexwar.games.narvik.state import ALLIES, GERMANS, Ask
from hexwar.rules.stacking import ABOARD

from .test_narvik_game import clear, put, scripted, to_action


@pytest.fixture(scope="module")
def g():
    return narvik_game()


def german_at_2215(g, bases=("2212",)):
    s = to_action(g)
    d = s.data
    clear(d)
    d.bases = list(bases)
    put(d, "9/139", "2215")
    return s, d


# --- 13.0, 13.1 naval stacking ------------------------------------------------------------------


def test_13_1_ships_and_the_units_aboard_them_never_count_for_stacking(g):
    from hexwar.rules.stacking import stack

    s, d = german_at_2215(g)
    sea = "2213"
    for uid in ("1SG", "1IG"):  # two battalions: 6 points, the limit (13.2)
        put(d, uid, sea)
    assert stack(g.board, d, g.tables, sea, ALLIES).points == 6
    for ship in ("Warspite", "CL-1", "CL-2", "DD-1", "DD-2", "LC-1", "PUF-1"):  # unlimited ships
        put(d, ship, sea)
    put(d, "2SWB", sea)
    d.units["2SWB"].flags.append(ABOARD)
    d.cargo = {"DD-1": "2SWB"}
    rep = stack(g.board, d, g.tables, sea, ALLIES)
    assert rep.points == 6 and rep.ok  # a third battalion aboard a ship does not count
    d.units["2SWB"].flags.remove(ABOARD)
    assert not stack(g.board, d, g.tables, sea, ALLIES).ok  # ashore it would: 9 > 6


# --- 16.1.1 artillery interdiction --------------------------------------------------------


def test_16_1_1_supplied_artillery_fires_2_fp_per_strength_once_a_turn(g):
    s, d = german_at_2215(g)
    put(d, "RA-1", "2214")  # adjacent, strength 3
    put(d, "1SG", "2214")
    o = ArtilleryInterdiction(ALLIES, ("RA-1",), "2215")
    assert o in s.legal_orders()
    before = d.units["9/139"].fatigue
    ev = g.apply(d, o, Dice(0))
    assert any(e["type"] == "art_interdiction" for e in ev)
    assert d.units["9/139"].fatigue - before == 2 * 3  # 2 FP per strength point
    assert "fired" in d.units["RA-1"].flags
    d.ask = Ask(ALLIES, "action")
    d.initiative = ALLIES
    assert not any(isinstance(x, ArtilleryInterdiction) for x in g.legal_orders(d))  # once a turn


def test_16_1_1_artillery_two_hexes_away_may_fire_three_may_not(g):
    s, d = german_at_2215(g)
    put(d, "RA-1", "2313")  # 2 hexes from 2215, supplied from the Narvik Base by 2312
    put(d, "1SG", "2313")
    assert [x.artillery for x in g.legal_orders(d) if isinstance(x, ArtilleryInterdiction)] == [("RA-1",)]
    put(d, "RA-1", "2212")  # 3 hexes: out of range
    put(d, "1SG", "2212")
    assert g.board.distance("2212", "2215") == 3
    assert not [x for x in g.legal_orders(d) if isinstance(x, ArtilleryInterdiction)]


def test_16_1_1_and_19_2_unsupplied_artillery_cannot_interdict(g):
    s, d = german_at_2215(g, bases=())  # no Base: no line of supply (19.3)
    put(d, "RA-1", "2214")
    put(d, "1SG", "2214")
    assert not [x for x in g.legal_orders(d) if isinstance(x, ArtilleryInterdiction)]
    before = d.to_json()
    with pytest.raises(IllegalOrder, match="supplied"):
        s.apply(ArtilleryInterdiction(ALLIES, ("RA-1",), "2215"))
    assert d.to_json() == before


# --- 18.1.2 air interdiction of infantry ----------------------------------------------------


def test_18_1_2_every_infantry_unit_in_the_hex_takes_twice_the_result_but_not_aboard(g):
    s, d = german_at_2215(g)
    sea = next(h for h in g.board.hexes() if g.board.terrain(h) == "coast" and g.board.distance(h, "2215") > 3)
    put(d, "1SG", sea)
    put(d, "1IG", sea)
    put(d, "LC-1", sea)
    put(d, "2SWB", sea)
    d.units["2SWB"].flags.append(ABOARD)
    d.cargo = {"LC-1": "2SWB"}
    d.tracks["ap"] = 8
    d.ask = Ask(GERMANS, "action")
    d.initiative = GERMANS
    o = AirStrike(GERMANS, "infantry", sea, 8)
    assert o in g.legal_orders(d)
    inf, _ = g.air.result(8, 9, air.drm(g, d, sea))
    assert inf > 0
    before = {u: d.units[u].fatigue for u in ("1SG", "1IG", "2SWB")}
    g.apply(d, o, scripted(("air table", (4, 5))))
    assert d.units["1SG"].fatigue - before["1SG"] == 2 * inf
    assert d.units["1IG"].fatigue - before["1IG"] == 2 * inf
    assert d.units["2SWB"].fatigue == before["2SWB"]  # aboard: immune
    assert d.tracks["ap"] == 0


# --- 18.2 Allied emergency air support --------------------------------------------------------


def test_18_2_mas_is_offered_each_air_phase_until_declared_and_modifies_every_roll_that_turn(g):
    s = g.new_state(2)
    seen = 0
    while not s.is_over() and s.data.turn <= 3:
        ask = s.data.ask
        if ask is not None and ask.what == "mas":
            seen += 1
            declare = s.data.turn == 2
            s.apply(DeclareMas(ALLIES, declare))
            if declare:
                d = s.data
                assert d.mas and d.mas_used
                hexes = ["2212", "1812", "2503"]
                with_mas = [air.drm(g, d, h) for h in hexes]
                d.mas = False
                assert [m - air.drm(g, d, h) for m, h in zip(with_mas, hexes)] == [g.air.drms["mas"][0]] * 3
                d.mas = True
            continue
        s.apply(s.legal_orders()[0])
    assert seen == 2  # turns 1 and 2; not asked again once used (once per game)
    assert not s.data.mas  # and only for the turn it was declared


# --- 19.2 Allied supply ---------------------------------------------------------------------


def _german_assault_on(g, d, defender, landed=False):
    clear(d)
    put(d, defender, "2214")
    put(d, "9/139", "2215")
    if landed:
        d.landed.append(defender)
    d.initiative = GERMANS
    d.ask = Ask(GERMANS, "action")
    before = d.units[defender].fatigue
    ev = g.apply(d, LandAssault(GERMANS, "2214", ("9/139",)), scripted(("CRT", (1,))))
    return [e for e in ev if e["type"] == "fatigue" and e.get("cause") == "unsupplied_attacked"], before


def test_19_2_an_allied_unit_without_a_line_takes_6_fp_when_attacked(g):
    s, d = german_at_2215(g, bases=())
    extra, before = _german_assault_on(g, d, "1SG")
    assert [(e["unit"], e["fp"]) for e in extra] == [("1SG", 6)]


def test_19_2_not_with_a_line_not_after_a_landing_and_never_norwegians(g):
    s, d = german_at_2215(g, bases=("2212",))
    assert _german_assault_on(g, d, "1SG")[0] == []  # 2214 is 2 hexes from the Narvik Base
    s, d = german_at_2215(g, bases=())
    assert _german_assault_on(g, d, "1SG", landed=True)[0] == []  # landed this turn
    s, d = german_at_2215(g, bases=())
    assert _german_assault_on(g, d, "6-I/12")[0] == []  # Norwegians are never penalised


# --- 19.4 Bases --------------------------------------------------------------------------------


def test_19_4_bases_are_ports_held_by_allied_land_units_at_most_two_and_lost_to_a_german(g):
    s = g.new_state(5)
    d = s.data
    clear(d)
    for uid, h in (("1SG", "2212"), ("1IG", "2110"), ("2SWB", "2408")):
        put(d, uid, h)
    put(d, "6-I/12", "2214")  # not a port: never a candidate
    assert initial.base_candidates(g, d) == ["2110", "2212", "2408"]
    d.ask = Ask(ALLIES, "base")
    g.apply(d, DesignateBase(ALLIES, "2212"), Dice(0))
    assert d.bases == ["2212"] and d.ask.what == "base"
    with pytest.raises(IllegalOrder, match="19.4"):
        g.apply(d, DesignateBase(ALLIES, "2214"), Dice(0))
    g.apply(d, DesignateBase(ALLIES, "2110"), Dice(0))
    assert d.bases == ["2212", "2110"] and (d.ask is None or d.ask.what != "base")  # two: no more asked
    # a German land unit occupying a Base takes it for good, +5 VP (29.0)
    from hexwar.games.narvik.phases.common import check_bases

    d.remove("1SG", "removed")
    put(d, "9/139", "2212")
    before = d.vp[GERMANS]
    events: list = []
    check_bases(g, d, events)
    assert d.bases == ["2110"] and d.bases_lost == ["2212"] and d.vp[GERMANS] - before == 5


# --- 20.6 special naval functions ---------------------------------------------------------------


def test_20_6_a_puffer_base_supplies_but_gives_no_air_modifier(g):
    s, d = german_at_2215(g, bases=())
    coast = "2213"  # non-mountain coast next to 2214, outside the German ZoC
    assert g.board.terrain(coast) == "coast" and not g.board.is_a(coast, "port")
    put(d, "1SG", "2214")
    put(d, "PUF-1", coast)
    assert not g.supplied(d, [d.units["1SG"]])["1SG"]
    assert naval.function_ok(g, d.units["PUF-1"], "base")
    assert not naval.function_ok(g, d.units["LC-1"], "base")  # Puffers only (A39)
    d.units["PUF-1"].flags.append("base")
    assert g.supplied(d, [d.units["1SG"]])["1SG"]
    assert air.drm(g, d, coast) == 0  # no Air Table Base modifier
    d.bases = [coast]
    assert air.drm(g, d, coast) == g.air.drms["allied_base"][0]  # as a designated Base would


def test_20_6_a_ferry_at_1812_carries_infantry_across_the_fjord_but_never_a_puffer_artillery(g):
    s, d = german_at_2215(g)
    put(d, "1SG", "1811")
    put(d, "RA-1", "1811")
    put(d, "PUF-1", "1812")
    d.ask, d.initiative = Ask(ALLIES, "action"), ALLIES
    assert ShipFunction(ALLIES, "PUF-1", "crossing") in g.legal_orders(d)
    g.apply(d, ShipFunction(ALLIES, "PUF-1", "crossing"), Dice(0))
    from hexwar.games.narvik.phases.movement import crossings

    assert "1812" in crossings(g, d, d.units["1SG"])
    assert crossings(g, d, d.units["RA-1"]) == []  # 20.6: never by Puffer


# --- 24.0 and 25.x the end and who won ---------------------------------------------------------


def _end_turn(g, s):
    d = s.data
    d.initiative = ALLIES
    d.ask = Ask(ALLIES, "action")
    s.apply(Pass(ALLIES))
    return s.apply(Pass(GERMANS))


def test_24_0_the_game_ends_at_the_end_of_turn_10(g):
    s = to_action(g)
    s.data.turn = 9
    _end_turn(g, s)
    assert not s.data.over and s.data.turn == 10
    s = to_action(g)
    s.data.turn = 10
    ev = _end_turn(g, s)
    assert s.data.over and any(e["type"] == "game_over" and e["turn"] == 10 for e in ev)


def test_24_0_a_random_event_ends_it_early(g):
    s = to_action(g)
    s.data.turn, s.data.game_end_turn = 4, 4
    _end_turn(g, s)
    assert s.data.over


def test_25_0_end_of_game_vp_for_narvik_and_1918_then_the_level(g):
    s = to_action(g)
    d = s.data
    clear(d)
    d.turn = 10
    put(d, "1SG", g.narvik)
    put(d, "1IG", "1918")
    d.vp = {GERMANS: 0, ALLIES: 0}
    ev = _end_turn(g, s)
    assert s.data.vp[ALLIES] == 10 + 5  # 29.0: Narvik 10, hex 1918 5, scored in the final check
    assert sorted(e["vp"] for e in ev if e["type"] == "vp") == [5, 10]
    assert "Allied Strategic Triumph" in s.result().level  # 0 - 15 = -15 (25.1)


@pytest.mark.parametrize("diff,level", [(-11, "Allied Strategic Triumph"), (-10, "Allied Marginal Victory"),
                                        (-6, "Allied Marginal Victory"), (-5, "Draw"), (0, "Draw"), (5, "Draw"),
                                        (6, "German Marginal Victory"), (10, "German Marginal Victory"), (11, "Allied Disaster")])
def test_25_1_victory_levels_by_the_vp_differential(g, diff, level):
    """German VP - Allied VP; A43 reads the printed overlap at +-10 as the marginal level."""
    vp = {GERMANS: max(diff, 0), ALLIES: max(-diff, 0)}
    assert g.victory_levels.level(vp)[:2] == (diff, level)
