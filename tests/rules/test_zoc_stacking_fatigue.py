"""ZoC (12.0), stacking (13.2) and fatigue (10.0, 15.1 AFL, 21.0)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.state import Unit
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.zoc import AMPHIBIOUS, explain_zoc, projects_into, zoc_of
from hexwar.games.common import narvik_rules as NR


def test_12_0_zoc_covers_the_six_neighbours(board, tables, state):
    st = state.data
    # I-2 (German infantry coy, fresh, visible) at 2110
    assert set(projects_into(board, "2110")) == set(board.neighbours("2110"))
    assert set(board.neighbours("2110")) <= zoc_of(board, st, tables, "germans")


def test_12_0_no_zoc_across_water_hexsides(board):
    # 1812 has fjord hexsides to 1811, 1711, 1712
    assert set(projects_into(board, "1812")).isdisjoint({"1811", "1711", "1712"})
    assert "1912" in projects_into(board, "1812")
    # and none into or out of the Harstad box
    assert "harstad" not in projects_into(board, "1504")


def test_12_0_units_without_zoc(board, tables, state):
    st = state.data
    base = zoc_of(board, st, tables, "germans")
    st.units["I-2"].concealed = True
    assert not set(board.neighbours("2110")) <= zoc_of(board, st, tables, "germans")
    st.units["I-2"].concealed = False
    st.units["I-2"].fatigue = tables.types["ger_coy"].fatigue_limit
    assert "at its fatigue limit" in explain_zoc(board, st, tables, "2111", "germans", NR.ZOC).render()
    st.units["I-2"].fatigue = 0
    st.units["I-2"].flags.append(AMPHIBIOUS)
    assert zoc_of(board, st, tables, "germans") != base
    # artillery and tanks have no ZoC
    assert zoc_of(board, st, tables, "allies") == frozenset(
        n for u in ("1SG", "1IG", "6-1") for n in projects_into(board, st.units[u].loc)
    )


def test_12_0_explain_zoc_rules_as_zoc_of_does_on_every_hex_with_units_in_the_harstad_box(board, tables, state):
    """explain <hex> says a hex is in a side's ZoC exactly where the game's ZoC puts it: units
    in the Harstad box project none onto the map's edge hexes (12.0, 22.1), nor does the map
    into the box."""
    st = state.data
    st.place("1SG", "harstad")  # a battalion in the box, beside the edge hexes it links to
    assert any(board.terrain(n) != "box" for n in board.neighbours("harstad"))
    for side in ("allies", "germans"):
        zoc = zoc_of(board, st, tables, side)
        for loc in board.locations():
            led = explain_zoc(board, st, tables, loc, side, NR.ZOC)
            assert (led.total == "in ZoC") == (loc in zoc), (side, loc, led.render())
            assert "1SG at harstad" not in led.render()


def test_13_2_stacking_points_and_limit(board, tables, state):
    st = state.data
    # 1612: 1IG (bn, 3) + RA1 (art, free)
    rep = stacking.stack(board, st, tables, "1612", "allies")
    assert rep.points == 3 and rep.ok
    # adding two more battalions makes 9 > 6
    extra = [Unit("X1", "allied_bn", "allies", "british"), Unit("X2", "allied_bn", "allies", "british")]
    rep = stacking.stack(board, st, tables, "1612", "allies", extra=extra)
    assert rep.points == 9 and rep.excess == 3 and not rep.ok
    assert rep.message(NR.STACK) == "1612: allies stack 9 points exceeds the limit 6 by 3 (13.2)"
    # companies count 1: six German companies fit, seven do not
    coys = [Unit(f"C{i}", "ger_coy", "germans", "german") for i in range(7)]
    assert stacking.stack(board, st, tables, "2305", "germans", extra=coys[:1]).points == 4  # KM bn 3 + 1
    assert not stacking.stack(board, st, tables, "2306", "germans", extra=coys).ok
    assert stacking.stack(board, st, tables, "2306", "germans", extra=coys[:6]).ok


def test_13_2_1_harstad_is_unlimited(board, tables, state):
    many = [Unit(f"B{i}", "allied_bn", "allies", "british") for i in range(10)]
    rep = stacking.stack(board, state.data, tables, "harstad", "allies", extra=many)
    assert rep.ok and rep.limit is None and rep.points == 30


def test_13_2_violations_lists_every_overstack(board, tables, state):
    st = state.data
    assert stacking.violations(board, st, tables) == []
    st.place("1IG", "1710")
    st.place("6-1", "1710")
    v = stacking.violations(board, st, tables)
    assert [(r.loc, r.excess) for r in v] == [("1710", 3)]


def test_10_1_fatigue_clamped_to_limit_and_zero(tables, state):
    st = state.data
    fl = tables.types["allied_bn"].fatigue_limit
    ch = fat.add_fatigue(st, tables, "1SG", "crt_point", times=3)
    assert (ch.asked, ch.applied, ch.after) == (18, fl, fl) and fat.at_limit(tables, st.units["1SG"])
    # extra FP at the limit have no effect (10.1)
    assert fat.add_fatigue(st, tables, "1SG", "movement_action").applied == 0
    fat.add_fatigue(st, tables, "1IG", "advance")
    assert st.units["1IG"].fatigue == 0  # floor 0
    # tanks and artillery never take FP (16.1, 16.2)
    assert fat.add_fatigue(st, tables, "TK1", "crt_point").after == 0
    assert fat.add_fatigue(st, tables, "RA1", "crt_point").after == 0


def test_15_1_afl_rounds_down_and_ignores_non_infantry(tables, state):
    st = state.data
    st.units["1SG"].fatigue, st.units["1IG"].fatigue, st.units["6-1"].fatigue = 5, 2, 0
    assert fat.average_fatigue_level(st, tables, ["1SG", "1IG", "6-1", "TK1"], "15.1")[0] == 2  # 7 / 3
    assert fat.average_fatigue_level(st, tables, ["TK1", "RA1"], "15.1")[0] == 0  # no infantry
    led = fat.average_fatigue_level(st, tables, ["1SG", "1IG"], "15.1")[1].render()
    assert "7 / 2 rounded down" in led and "[15.1]" in led


def test_21_0_end_of_turn_recovery(tables, state):
    st = state.data
    fl = tables.types["allied_bn"].fatigue_limit
    st.units["1SG"].fatigue = fl  # at limit: -4
    st.units["1IG"].fatigue = 11  # not at limit: -8
    st.units["6-1"].fatigue = 5  # -8, floor 0
    fat.end_of_turn_recovery(st, tables)
    assert (st.units["1SG"].fatigue, st.units["1IG"].fatigue, st.units["6-1"].fatigue) == (fl - 4, 3, 0)
    led = fat.explain_fatigue(st, tables, "1SG").render()
    assert "recovery" in led and "[21.0]" in led


@given(st.lists(st.tuples(st.sampled_from(["movement_action", "assault", "crt_point", "advance", "retreat_hex"]), st.integers(1, 3)), max_size=30))
def test_fatigue_always_within_0_and_limit(game, causes):
    st_ = game.new_state(0).data
    for cause, times in causes:
        fat.add_fatigue(st_, game.tables, "6-1", cause, times=times)
        assert 0 <= st_.units["6-1"].fatigue <= game.tables.types["nor_bn"].fatigue_limit


def test_13_2_points_by_location_are_each_units_size_points_aboard_and_free_kinds_none():
    """13.2, 13.1: at every decision of a seeded Assault on Narvik game, each hex's stacking
    points for a side are its units' points by size (company 1, battalion 3), none for the
    kinds that stack free nor for a unit aboard a ship; one coming ashore counts its size."""
    import random

    from hexwar.ai import RandomBot
    from hexwar.core.dice import Dice
    from hexwar.core.play import order_dice
    from hexwar.games.narvik import narvik_game

    g = narvik_game()
    st = g.tables.stacking
    d = g.initial_state(6, order_dice(6, -1))
    rng, bot = random.Random(6), RandomBot(6)
    aboard = 0
    while not d.over:
        for side in ("allies", "germans"):
            want: dict[str, int] = {}
            for u in d.side_units(side):
                t = g.tables.types[u.type]
                free = t.kind in st.free_kinds or stacking.ABOARD in u.flags
                want[u.loc] = want.get(u.loc, 0) + (0 if free else st.points.get(t.size, 0))
                if stacking.ABOARD in u.flags and t.kind not in st.free_kinds:
                    aboard += 1
                    assert stacking.unit_points(g.tables, u, ashore=True) == st.points[t.size]
            assert stacking.points_by_location(d, g.tables, side) == want
        g.apply(d, bot.choose(None, g.legal_orders(d)), Dice(rng=rng))
    assert aboard > 10
