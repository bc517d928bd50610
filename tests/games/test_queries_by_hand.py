"""Issue 71: positions set up by hand from the Assault on Narvik rulebook's text, each query's
answer worked out here on paper, section by section.

Each position clears the map of the scenario's counters and puts a few on clear hexes around
2208 (a clear hex whose six hexsides carry no river, ridge or fjord): 2207 and 2108 are its
neighbours in clear terrain, 2206 and 2107 one further west. The charts are ours
(``tables/narvik``), and the figures below read them:

- British battalion (brit_bn): strength 4, MP 3, FL 14, 3 stacking points, leaves ZoC for 2 MP;
  1SG, 1IG, 2SWB are the 24th Guards Brigade (17.0: one formation).
- German mountain company 2/139: strength 2, FL 18. Norwegian battalion 6-I/12: strength 3.
- British battery RA-1: strength 3 (16.1). Light tank 3H-TK: strength 2 (16.2).
- CRT (15.1), by AD: <=-3: 3/0 2/0 2/0 1/0 1/0 1/1; -2..-1: 2/0 2/0 1/0 1/0 1/1 0/1;
  0: 2/0 1/0 1/0 1/1 0/1 0/1; 1..2: 1/0 1/0 1/1 0/1 0/1 1/2; 3..4: 1/0 1/1 0/1 0/1 1/2 0/2;
  7..9: 0/1 0/1 1/2 0/2 0/2 0/3. A modified die is read off the table's edge (1 or 6).
  DRMs: +1 an attacking tank (16.2), +1 an attacking formation of two or more (17.0), -1 bad
  weather at Narvik (7.0).
- Air table (18.1.1), 1-3 AP: 2D6 of 7-10 adds 1 to the attack, 11-12 adds 2, else 0.

The odds are those of ``hexwar odds``; every other answer is that of the query named.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from hexwar.games.common import queries
from hexwar.games.narvik import narvik_game
from hexwar.registry import Position

TARGET, WEST, NORTH_WEST = "2208", "2207", "2108"  # NORTH_WEST: next to both 2207 and 2208


@pytest.fixture(scope="module")
def game():
    return narvik_game()


def blank(game, weather="winter"):
    """The scenario's state with every counter off the map: the action phase of turn 2."""
    d = game.new_state(1).data.clone()
    for u in list(d.units.values()):
        if u.loc is not None:
            d.remove(u.id, "removed")
    d.weather, d.bad, d.bases, d.landed, d.turn = weather, [], [], [], 2
    d.tracks["ap"] = 0
    d.fatigue_log = []
    return d


def put(d, uid, loc, fp=0):
    d.place(uid, loc)
    d.units[uid].fatigue, d.units[uid].concealed = fp, False
    return d


def pos(game, d):
    return Position(game, d, None, "a position by hand")


def odds(game, d, attackers, target=TARGET, support=(), ap=0):
    ans = queries.assault_odds(pos(game, d), target, list(attackers), list(support), ap)
    return {o["result"]: F(o["p"]) for o in ans["outcomes"]}, ans


# --- 15.1: the assault --------------------------------------------------------------------------


def test_15_1_one_battalion_against_a_company_is_column_1_2(game):
    # AD = 4 - 2 = 2: column 1..2: 1/0 on 1-2, 1/1 on 3, 0/1 on 4-5, 1/2 on 6
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    got, ans = odds(game, d, ["1SG"])
    assert ans["ad"] == 2 and ans["drm"] == 0
    assert got == {"1/0": F(1, 3), "1/1": F(1, 6), "0/1": F(1, 3), "1/2": F(1, 6)}


def test_15_1_17_0_the_average_fatigue_is_rounded_down_and_a_formation_of_two_adds_one(game):
    # attackers' AFL (5 + 2) / 2 = 3.5 -> 3: attack 4 + 4 - 3 = 5; defence 2 - 4 = -2; AD 7:
    # column 7..9; 1SG and 1IG are both 24 Gds: DRM +1 (17.0): rows 2,3,4,5,6,6
    d = put(put(put(blank(game), "1SG", WEST, 5), "1IG", NORTH_WEST, 2), "2/139", TARGET, 4)
    got, ans = odds(game, d, ["1SG", "1IG"])
    assert ans["ad"] == 7 and ans["drm"] == 1
    assert got == {"0/1": F(1, 6), "1/2": F(1, 6), "0/2": F(1, 3), "0/3": F(1, 3)}


def test_15_1_16_2_an_attacking_tank_adds_its_strength_and_one_to_the_die(game):
    # attack 4 + 2 = 6, AD 4: column 3..4; DRM +1 (16.2): rows 2,3,4,5,6,6
    d = put(put(put(blank(game), "1SG", WEST), "3H-TK", NORTH_WEST), "2/139", TARGET)
    got, ans = odds(game, d, ["1SG", "3H-TK"])
    assert ans["ad"] == 4 and ans["drm"] == 1
    assert got == {"1/1": F(1, 6), "0/1": F(1, 3), "1/2": F(1, 6), "0/2": F(1, 3)}


def test_7_0_bad_weather_at_narvik_takes_one_from_the_die(game):
    # AD 2 as in the first test; DRM -1: rows 1,1,2,3,4,5: 1/0 1/0 1/0 1/1 0/1 0/1
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    d.bad = ["narvik"]
    got, ans = odds(game, d, ["1SG"])
    assert ans["drm"] == -1
    assert got == {"1/0": F(1, 2), "1/1": F(1, 6), "0/1": F(1, 3)}


def test_19_2_an_unsupplied_allied_defender_takes_6_fp_before_the_afl(game):
    # no Base anywhere: 1SG takes +6 FP first: defence 4 - 6 = -2; attack 2: AD 4: column
    # 3..4: 1/0, 1/1, 0/1, 0/1, 1/2, 0/2 (the old query read column -2..-1 here)
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    got, ans = odds(game, d, ["2/139"], target=WEST)
    assert ans["ad"] == 4
    assert got == {"1/0": F(1, 6), "1/1": F(1, 6), "0/1": F(1, 3), "1/2": F(1, 6), "0/2": F(1, 6)}
    row = queries.supply(pos(game, d), ["1SG"]).data["units"][0]
    assert row["supplied"] is False and row["penalised"] is True and "+6 FP" in row["reason"]


def test_19_2_a_supplied_defender_takes_no_penalty(game):
    # a Base in its hex (19.3: on a Base is supplied): defence 4, AD 2 - 4 = -2: column -2..-1
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    d.bases = [WEST]
    got, ans = odds(game, d, ["2/139"], target=WEST)
    assert ans["ad"] == -2
    assert got == {"2/0": F(1, 3), "1/0": F(1, 3), "1/1": F(1, 6), "0/1": F(1, 6)}
    assert queries.supply(pos(game, d), ["1SG"]).data["units"][0]["penalised"] is False


def test_19_2_a_unit_landed_this_turn_takes_no_penalty_without_a_line(game):
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    d.landed = ["1SG"]
    got, ans = odds(game, d, ["2/139"], target=WEST)
    assert ans["ad"] == -2  # as supplied: no +6 FP
    row = queries.supply(pos(game, d), ["1SG"]).data["units"][0]
    assert row["supplied"] is False and row["penalised"] is False and "landed amphibiously" in row["reason"]


def test_19_2_norwegians_are_never_penalised(game):
    # 6-I/12 (strength 3), no Base: AD 2 - 3 = -1: column -2..-1
    d = put(put(blank(game), "6-I/12", WEST), "2/139", TARGET)
    got, ans = odds(game, d, ["2/139"], target=WEST)
    assert ans["ad"] == -1
    assert got == {"2/0": F(1, 3), "1/0": F(1, 3), "1/1": F(1, 6), "0/1": F(1, 6)}
    assert "Norwegians are never penalised (19.2)" in queries.supply(pos(game, d), ["6-I/12"]).data["units"][0]["reason"]


def test_16_1_allied_artillery_within_two_hexes_supports_the_defence(game):
    # RA-1 in 2206, next to 2207: defence 4 + 3 = 7 (supplied on its Base): AD 2 - 7 = -5:
    # column <=-3: 3/0, 2/0, 2/0, 1/0, 1/0, 1/1
    d = put(put(put(blank(game), "1SG", WEST), "RA-1", "2206"), "2/139", TARGET)
    d.bases = [WEST]
    got, ans = odds(game, d, ["2/139"], target=WEST)
    assert ans["ad"] == -5
    assert got == {"3/0": F(1, 6), "2/0": F(1, 3), "1/0": F(1, 3), "1/1": F(1, 6)}


def test_18_1_1_air_support_weighs_every_air_roll(game):
    # 2 AP: +0 on 2-6 (15/36), +1 on 7-10 (18/36), +2 on 11-12 (3/36). 1SG supplied (Base in
    # 2206, a line of one hex out of the company's ZoC): AD -2, -1 (column -2..-1) or 0:
    # 2/0 = 33/36 * 1/3 + 3/36 * 1/6 = 23/72; 1/0 = 1/3; 1/1 = 1/6; 0/1 = 33/36 * 1/6 + 3/36 * 1/3 = 13/72
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    d.bases, d.tracks["ap"] = ["2206"], 2
    got, ans = odds(game, d, ["2/139"], target=WEST, ap=2)
    assert {c["ad"]: F(c["p"]) for c in ans["columns"]} == {-2: F(15, 36), -1: F(18, 36), 0: F(3, 36)}
    assert got == {"2/0": F(23, 72), "1/0": F(1, 3), "1/1": F(1, 6), "0/1": F(13, 72)}


def test_10_1_a_battalion_at_its_fatigue_limit_is_no_attacker(game):
    d = put(put(blank(game), "1SG", WEST, 14), "2/139", TARGET)
    with pytest.raises(ValueError, match=r"1SG is at its fatigue limit \(14 FP\).*\(10\.1\)"):
        odds(game, d, ["1SG"])


def test_16_1_artillery_cannot_assault_alone(game):
    d = put(put(blank(game), "RA-1", WEST), "2/139", TARGET)
    with pytest.raises(ValueError, match=r"artillery cannot assault alone \(16\.1\)"):
        odds(game, d, ["RA-1"])


def test_15_1_an_attacker_must_stand_next_to_its_target(game):
    d = put(put(blank(game), "1SG", "2206"), "2/139", TARGET)
    with pytest.raises(ValueError, match=r"not eligible to assault 2208: 1SG.*\(15\.1\)"):
        odds(game, d, ["1SG"])


# --- 14.0, 13.2, 12.1, 10.1: where a unit can move ---------------------------------------------


def test_14_1_a_battalion_in_the_clear_spends_1_mp_a_hex(game):
    # MP 3 in winter; clear 1 MP a hex (14.1): next door 2 left, two hexes 1, three 0
    d = put(blank(game), "1SG", TARGET)
    rows = {r["to"]: r for r in queries.reach(pos(game, d), "1SG").data["reach"]}
    assert rows[WEST]["mp_left"] == 2 and rows["2206"]["mp_left"] == 1
    assert rows[WEST]["path"] == [TARGET, WEST]


def test_13_2_a_third_battalion_may_not_end_in_a_hex_of_two(game):
    # 1IG and 2SWB in 2108: 3 + 3 = 6 points, the limit; 1SG would make 9 (13.2)
    d = put(put(put(blank(game), "1IG", NORTH_WEST), "2SWB", NORTH_WEST), "1SG", TARGET)
    ans = queries.reach(pos(game, d), "1SG")
    assert NORTH_WEST not in {r["to"] for r in ans.data["reach"]}
    refused = {r["to"]: r for r in ans.data["refused"]}
    assert refused[NORTH_WEST]["rule"] == "13.2" and "exceeds the limit 6 by 3" in refused[NORTH_WEST]["refused"]
    with pytest.raises(ValueError, match=r"1SG may not end a move at 2108: .*exceeds the limit 6 by 3 \(13\.2\)"):
        queries.reach(pos(game, d), "1SG", to=NORTH_WEST)


def test_10_1_a_battalion_at_its_limit_has_no_move(game):
    d = put(blank(game), "1SG", TARGET, 14)
    ans = queries.reach(pos(game, d), "1SG")
    assert ans.data["reach"] == [] and ans.data["refused"]
    assert {r["rule"] for r in ans.data["refused"]} == {"10.1"}
    assert any("may not move now: 1SG is at its fatigue limit" in str(x) for x in ans.shown)


def test_22_1_a_battalion_in_the_harstad_box_is_told_it_leaves_by_sea(game):
    # the box has no land way out: the game refuses it any move (22.1), which reach says
    # rather than "no way leads there"
    d = put(blank(game), "1SG", "harstad")
    with pytest.raises(ValueError, match=r"1SG may not move to 2503: 1SG is in the Harstad box: it leaves by sea \(22\.1\)"):
        queries.reach(pos(game, d), "1SG", to="2503")


def test_12_1_leaving_an_enemy_zoc_costs_2_mp_more(game):
    # 1SG in 2207, next to 2/139 in 2208 (12.0): to 2206, 1 MP of clear + 2 to leave the
    # ZoC = 3: no MP left
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    rows = {r["to"]: r for r in queries.reach(pos(game, d), "1SG").data["reach"]}
    assert rows["2206"]["mp_left"] == 0


# --- 19.1, 10.0: supply and fatigue by each side's rules -----------------------------------------


def test_19_1_a_german_unit_traces_no_line_its_arrivals_are_safe(game):
    d = put(put(blank(game), "1SG", WEST), "2/139", TARGET)
    row = queries.supply(pos(game, d), ["2/139"]).data["units"][0]
    assert row["supplied"] is None and row["reason"].startswith("German units trace no line of supply (19.1)")
    assert "are safe" in row["reason"] and "19.4" not in row["reason"]


def test_19_1_an_allied_unit_on_the_railway_puts_the_german_arrivals_at_risk(game):
    railway = sorted(game.railway - {game.narvik})[0]
    d = put(put(blank(game), "1SG", railway), "2/139", TARGET)
    row = queries.supply(pos(game, d), ["2/139"]).data["units"][0]
    assert "at risk" in row["reason"] and railway in row["reason"]


def test_15_1_the_afl_of_the_units_named_is_their_average_rounded_down(game):
    d = put(put(blank(game), "1SG", WEST, 5), "1IG", NORTH_WEST, 2)
    assert queries.fatigue(pos(game, d), ["1SG", "1IG"]).data["afl"] == 3  # (5 + 2) / 2 = 3.5 -> 3


def test_10_0_a_fatigue_set_by_hand_shows_as_set_by_hand(game):
    from hexwar.rules.fatigue import add_fatigue, explain_fatigue

    d = put(blank(game), "1SG", WEST)
    add_fatigue(d, game.tables, "1SG", "movement_action")  # the log now accounts for its FP
    logged = d.units["1SG"].fatigue
    d.units["1SG"].fatigue = 9  # edited in the file
    row = queries.fatigue(pos(game, d), ["1SG"]).data["units"][0]
    assert row["fp"] == 9 and row["by_hand"] == 9 - logged
    led = explain_fatigue(d, game.tables, "1SG")
    assert led.total == 9
    assert sum(int(ln.value) for ln in led.lines) == 9  # the causes add up to what it shows
    assert "set by hand" in led.lines[-1].text


def test_21_0_recovery_is_asked_on_a_copy(game):
    # 21.0 (our chart): 8 FP recovered by a unit below its limit: 9 -> 1; the position keeps 9
    d = put(blank(game), "1SG", WEST, 9)
    ans = queries.fatigue(pos(game, d), ["1SG"], recover=True)
    assert ans.data["after_recovery"] == {"1SG": 1} and d.units["1SG"].fatigue == 9


# --- E1, E6: the Europa variant's attacks at a position ------------------------------------------
#
# Our Europa charts (tables/europa): a German infantry battalion attacks 2, a British regular
# battalion defends 2 (a disrupted one, half: E1), a Norwegian battalion defends 2. An attacker
# without attack supply (within 3 hexes of a source or an HQ in general supply) is halved (E1).
# Rough and forest shift one column left (E6). The odds CRT (E1), rounded for the defender:
# 1:2: AE AE AR AR AD AD; 1:1: AE AR AD AD DD EX; 2:1: AR AD DD EX DR DR. A Norwegian
# defender on turn 1 rolls first: 1-4 it retreats before combat, 5-6 it stands (E1).
# 0438 is a coast hex (clear, E6) with 0537 and 0538 clear next to it, no river between;
# 0638 is rough with 0637 and 0738 clear next to it.


@pytest.fixture(scope="module")
def europa():
    from hexwar import registry

    return registry.get("europa").build("campaign", "europa", ())


def europa_blank(g, turn=3):
    d = g.new_state(1).data.clone()
    for u in list(d.units.values()):
        if u.loc is not None:
            d.remove(u.id, "removed")
    d.turn, d.support, d.attacked, d.fought, d.out_of_supply = turn, {}, [], [], []
    return d


def europa_odds(g, d, target, attackers):
    from hexwar.games.europa import _attack_odds

    ans = _attack_odds(Position(g, d, None, "a position by hand"), target, ",".join(attackers))
    return {r: F(p) for r, p in ans.data["odds"].items()}, ans


def test_e1_two_unsupplied_battalions_halved_attack_at_1_1(europa):
    # attack (2 + 2) / 2 = 2 (no attack supply: halved, E1) against 2 in clear: 1:1
    d = europa_blank(europa)
    for uid, at in (("1SG", "0438"), ("I/IR307", "0537"), ("II/IR307", "0538")):
        d.place(uid, at)
    assert europa.attack_supplied(d, "germans") == {"I/IR307": False, "II/IR307": False}
    got, ans = europa_odds(europa, d, "0438", ["I/IR307", "II/IR307"])
    assert [c["column"] for c in ans.data["columns"]] == ["1:1"]
    assert got == {"AE": F(1, 6), "AR": F(1, 6), "AD": F(1, 3), "DD": F(1, 6), "EX": F(1, 6)}


def test_e6_rough_shifts_the_odds_one_column_for_the_defender(europa):
    # 2 against 2 in rough: 1:1 shifted one left: 1:2: AE, AR, AD a third each
    d = europa_blank(europa)
    for uid, at in (("1SG", "0638"), ("I/IR307", "0637"), ("II/IR307", "0738")):
        d.place(uid, at)
    got, ans = europa_odds(europa, d, "0638", ["I/IR307", "II/IR307"])
    assert [c["column"] for c in ans.data["columns"]] == ["1:2"] and ans.data["columns"][0]["shift"] == -1
    assert got == {"AE": F(1, 3), "AR": F(1, 3), "AD": F(1, 3)}


def test_e1_a_disrupted_defender_defends_at_half(europa):
    # defence 2 disrupted: 1; attack 2 (halved): 2:1: AR, AD, DD, EX one in six, DR one in three
    from hexwar.games.europa.state import DISRUPTED

    d = europa_blank(europa)
    for uid, at in (("1SG", "0438"), ("I/IR307", "0537"), ("II/IR307", "0538")):
        d.place(uid, at)
    d.units["1SG"].flags.append(DISRUPTED)
    got, ans = europa_odds(europa, d, "0438", ["I/IR307", "II/IR307"])
    assert ans.data["columns"][0]["defence"] == "1" and [c["column"] for c in ans.data["columns"]] == ["2:1"]
    assert got == {"AR": F(1, 6), "AD": F(1, 6), "DD": F(1, 6), "EX": F(1, 6), "DR": F(1, 3)}


def test_e1_one_battalion_alone_attacks_at_1_2(europa):
    # attack 2 halved = 1 against 2: 1:2
    d = europa_blank(europa)
    for uid, at in (("1SG", "0438"), ("I/IR307", "0537")):
        d.place(uid, at)
    got, _ = europa_odds(europa, d, "0438", ["I/IR307"])
    assert got == {"AE": F(1, 3), "AR": F(1, 3), "AD": F(1, 3)}


def test_e1_turn_1_norwegians_retreat_before_combat_on_1_to_4(europa):
    # I/IR1 (defence 2) in 0438, turn 1, one battalion attacking from 0538 (0437 is left free
    # to retreat to): 1-4 it retreats before combat (no fight, 2/3); 5-6 it stands and the
    # 1:2 column is read (attack 2 halved = 1): AE, AR, AD 1/3 * 1/3 = 1/9 each
    d = europa_blank(europa, turn=1)
    for uid, at in (("I/IR1", "0438"), ("I/IR307", "0538")):
        d.place(uid, at)
    got, _ = europa_odds(europa, d, "0438", ["I/IR307"])
    nofight = sum((p for r, p in got.items() if r.startswith("no fight")), F(0))
    assert nofight == F(2, 3)
    assert {r: p for r, p in got.items() if not r.startswith("no fight")} == {"AE": F(1, 9), "AR": F(1, 9), "AD": F(1, 9)}
