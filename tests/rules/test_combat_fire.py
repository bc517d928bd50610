"""CRTs (15.1 differential, Europa odds), assault sums (15.1, 16.1, 16.2, 17.0), line of fire (16.1, 20.5)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.dice import Dice
from hexwar.rules.assault import assault_sums
from hexwar.rules.combat import (
    diff_column_index,
    diff_outcomes,
    odds_column_index,
    odds_outcomes,
    resolve_differential,
    resolve_odds,
)
from hexwar.rules.fire import can_fire, fire_zone, line_of_fire
from hexwar.rules.ledger import Line
from hexwar.games.common import narvik_rules as NR


@pytest.fixture(scope="module")
def crt(game):
    return game.tables.crt


@pytest.fixture(scope="module")
def odds(game):
    return game.tables.odds


@given(st.integers(-20, 20), st.integers(-8, 8), st.integers(-3, 3))
def test_outcomes_are_a_distribution(game, ad, drm, shift):
    dist = diff_outcomes(game.tables.crt, ad, drm, shift)
    assert sum(p for _, p in dist) == 1 and all(p > 0 for _, p in dist)
    od = odds_outcomes(game.tables.odds, max(0, ad + 10), 5, drm, shift)
    assert sum(p for _, p in od) == 1


def test_columns_clamp_at_the_table_edges(crt):
    assert diff_column_index(crt, -50) == 0 and diff_column_index(crt, 50) == len(crt.columns) - 1
    assert diff_column_index(crt, 0, shift=+10) == len(crt.columns) - 1
    assert diff_column_index(crt, 0, shift=-10) == 0


def test_modified_rolls_off_the_table_read_the_edge_rows(crt):
    col = crt.columns[diff_column_index(crt, 1)]
    assert diff_outcomes(crt, 1, drm=+9) == [(col.results[5], Fraction(1))]
    assert diff_outcomes(crt, 1, drm=-9) == [(col.results[0], Fraction(1))]


def test_differential_outcomes_match_the_column(crt):
    # column 1..2 with no DRM: each face is 1/6
    col = crt.columns[2]
    want = Counter(col.results)
    got = dict(diff_outcomes(crt, 2))
    assert got == {r: Fraction(n, 6) for r, n in want.items()}


def test_resolution_rolls_through_dice_and_explains(crt):
    d = Dice(3)
    res = resolve_differential(crt, [Line("1SG", 3, "15.1"), Line("1IG", 3, "15.1")], [Line("I-1", 1, "15.1")], [Line("tank", 1, "16.2")], d, NR.COMBAT)
    assert d.rolls[0].purpose == "CRT" and res.die == d.rolls[0].faces[0]
    assert res.row == min(6, res.die + 1)
    text = res.ledger.render()
    assert "attack differential (AD): 5" in text and "CRT column" in text and "exact odds" in text
    # the same roll replayed gives the same result
    res2 = resolve_differential(crt, [Line("a", 6)], [Line("d", 1)], [Line("t", 1)], Dice.replaying(d.rolls), NR.COMBAT)
    assert (res2.attacker, res2.defender) == (res.attacker, res.defender)


def test_odds_rounded_for_the_defender(odds):
    label = lambda a, d: odds.columns[odds_column_index(odds, a, d)].label  # noqa: E731
    assert label(5, 2) == "2:1"  # 2.5:1 -> 2:1
    assert label(6, 2) == "3:1"
    assert label(3, 4) == "1:2"  # 0.75 -> 1:2
    assert label(1, 9) == "1:2"  # below the table: first column
    assert label(50, 1) == "6:1"
    assert label(5, 1) == "4:1"  # no 5:1 column
    assert odds.columns[odds_column_index(odds, 6, 2, shift=-1)].label == "2:1"
    res = resolve_odds(odds, [Line("a", 6)], [Line("d", 2)], [], Dice(1))
    assert res.result in odds.codes and res.column == "3:1"


def test_assault_sums_drms(game, state):
    st = state.data
    t = game.tables
    st.units["1SG"].fatigue, st.units["1IG"].fatigue = 4, 1
    s = assault_sums(st, t, ["1SG", "1IG", "TK1"], ["I-1"], cites=NR.ASSAULT)
    drms = {ln.rule: ln.value for ln in s.drms}
    assert drms == {"16.2": 1, "17.0": 1}  # one attacking tank; 24 Gds with two units
    assert s.attack_total == 3 + 3 + 2 - 2  # AFL (4+1)//2 = 2
    assert s.defence_total == 1 - 2  # I-1 (strength 1) starts at 2 FP: AFL 2; a side may go negative
    st.units["I-1"].fatigue = 0
    s2 = assault_sums(st, t, ["1SG"], ["RA1"], cites=NR.ASSAULT)
    assert {ln.rule: ln.value for ln in s2.drms} == {"16.1": 2}  # artillery alone defends
    s3 = assault_sums(st, t, ["1SG"], ["TK1"], cites=NR.ASSAULT)
    assert {ln.rule: ln.value for ln in s3.drms} == {"16.2": -1}


def test_16_1_ridge_blocks_fire_unless_adjacent(board):
    assert not can_fire(board, "1610", "1612", 2)  # ridge 1611/1612
    assert not can_fire(board, "1813", "1911", 2)  # along the ridge 1812/1912
    assert can_fire(board, "2305", "2406", 2)  # adjacent over a ridge
    assert can_fire(board, "1710", "1712", 2)  # no ridge
    assert not can_fire(board, "1710", "1713", 2)  # range 3 > 2
    assert "along the ridge 1812/1912" in line_of_fire(board, "1813", "1911", 2, NR.ARTILLERY_FIRE).render()


def test_20_5_ship_cannot_bombard_across_a_ridge(board):
    assert board.distance("2106", "2406") == 3
    assert not can_fire(board, "2106", "2406", 4, adjacent_exception=False)
    assert can_fire(board, "2106", "2306", 4, adjacent_exception=False)


def test_16_1_20_5_fire_zone_is_every_hex_can_fire_reaches(board):
    # the zone a gun or ship reaches from its hex is can_fire's answer for every location:
    # the ridge cases above included, never the firer's own hex, never beyond range
    assert {"1712"} <= fire_zone(board, "1710", 2) and "1713" not in fire_zone(board, "1710", 2)
    assert "1612" not in fire_zone(board, "1610", 2) and "1911" not in fire_zone(board, "1813", 2)
    assert "2406" in fire_zone(board, "2305", 2) and "2406" not in fire_zone(board, "2106", 4, adjacent_exception=False)
    for src in ("1710", "1813", "2305", "2106"):
        for rng, adj in ((2, True), (4, False)):
            want = {x for x in board.locations() if not board.is_a(x, "box") and x != src
                    and board.distance(src, x) <= rng and can_fire(board, src, x, rng, adj)}
            assert fire_zone(board, src, rng, adj) == want and src not in want


def test_fire_along_a_clear_hexside_may_take_either_side():
    from tests.conftest import hex_board

    # 1813 -> 1911 runs along 1812/1912. A ridge on one side only (1813/1912) leaves the
    # other side (1813/1812, 1812/1911) clear: the fire passes. Ridges on both sides block.
    one = hex_board(columns=(17, 20), rows=(9, 14), hexsides={"1813/1912": ["ridge"]})
    assert can_fire(one, "1813", "1911", 2)
    both = hex_board(columns=(17, 20), rows=(9, 14), hexsides={"1813/1912": ["ridge"], "1812/1813": ["ridge"]})
    assert not can_fire(both, "1813", "1911", 2)


@given(st.integers(0, 12), st.booleans(), st.integers(1, 6))
def test_4_2_group_dice_is_battalion_dice_of_one_group(n, halved, cap):
    from hexwar.rules.dicecombat import battalion_dice, group_dice

    assert group_dice(n, halved, cap) == battalion_dice([(n, halved)], cap)


@given(st.lists(st.tuples(st.integers(0, 7), st.booleans()), max_size=4), st.integers(1, 6))
def test_4_2_battalion_dice_count_the_first_battalions_to_the_cap_unhalved_first(groups, cap):
    """4.2 read battalion by battalion: line the battalions up, those that give a whole die
    first, take the first ``cap``; each unhalved one is a die, every two halved ones a die."""
    from hexwar.rules.dicecombat import battalion_dice, sum_dice

    line = sorted((h for n, h in groups for _ in range(n)))[:cap]  # False (unhalved) first
    want = line.count(False) + line.count(True) // 2
    assert battalion_dice(groups, cap) == want
    assert sum_dice(sum(n for n, h in groups if not h), sum(n for n, h in groups if h), cap) == want
