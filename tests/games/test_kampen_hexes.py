"""Kampen om Norge on hexes at a declared scale (issue 72): the conversion of maps/nordland-hex.yaml,
"an adjacent area" as hex steps (kampen/steps.py), and reach before results (kampen/reach.py)."""

from __future__ import annotations

import networkx as nx
import pytest

from hexwar.board.conversion import land_graph, median_step
from hexwar.data.loader import DataError, Library
from hexwar import registry
from hexwar.games.kampen import reach
from hexwar.games.kampen.orders import KMove, PlayCard
from hexwar.games.kampen.phases.combat import retreat_areas
from hexwar.games.kampen.state import ALLIES, GERMANS, NORWAY

INFO = registry.get("kampen")


def _game(board: str):  # type: ignore[no-untyped-def]
    return INFO.build("intro-narvik", board)


def test_4_1_s1_forces_reach_every_objective_in_time_on_the_default_hex_board():
    """Done when (issue 72): on the default hex board each faction can reach each objective its
    enemy holds before S1 ends, all its battalions in time, as on the area map, asked of the
    game's own moves (not a distance table)."""
    g = _game("nordland-hex")
    r = reach.reach(g, "nordland-hex")
    assert r.length == 3  # S1: 6 Allied cards, a hand of 3, one drawn a round at least (4.4)
    assert r.late() == [] and r.few() == []
    assert r.rounds["Allies"] == {"Narvik": 1, "Bjørnfjell": 1, "Bardufoss": 1}
    assert r.rounds["Norwegians"]["Narvik"] == 1 and r.rounds["Germans"]["Bardufoss"] == 1
    area = reach.reach(_game("norway"), "norway")
    assert {f: {o: k for o, k in row.items()} for f, row in area.rounds.items()} == r.rounds  # the area map's


def test_4_1_one_hex_a_round_leaves_the_allied_main_body_short_as_the_old_board_did():
    """The first hex version (one hex a round) is still there by name: its Allies reach Narvik
    with one battalion of six (Gratangen's), the Germans Bardufoss never: the artefact the
    issue found."""
    r = reach.reach(_game("nordland-hex-step1"), "step1")
    assert r.late() == [("Germans", "Bardufoss")] and r.rounds["Allies"]["Bardufoss"] is None
    assert ("Allies", "Narvik", 1, 6) in r.few() and ("Allies", "Bjørnfjell", 1, 6) in r.few()


def test_the_derived_step_is_the_median_of_the_land_steps_between_neighbouring_towns():
    """Golden: the 15 borders of S1's areas measured on the 15 km hexes (Bjørnfjell-Narvik 2
    ... Finnmark-Tromsø 13); their median, 5, is the default a round's move."""
    conv = _game("nordland-hex").board.conversion
    assert conv is not None and conv.derived and conv.hex_km == 15
    assert sorted(conv.measured) == [2, 2, 4, 4, 4, 4, 5, 5, 5, 5, 6, 7, 7, 9, 13]
    assert conv.area_step == median_step(conv.measured) == 5
    assert _game("nordland-hex-km20").board.conversion.area_step == 3  # bigger hexes, fewer steps
    assert _game("nordland-areas").step == 1 and _game("norway").step == 1


def test_4_1_an_ordinary_move_on_hexes_goes_one_area_step_through_land_free_of_the_enemy():
    """Every hex within 5 land steps not passing an enemy, and every enemy hex next to one
    within 4 (an attack), is a listed move of the Allies at Harstad; nothing else is."""
    g = _game("nordland-hex")
    s = g.new_state(1)
    d = s.data
    d.faction = d.side = ALLIES
    d.hand[ALLIES] = []
    here = g.loc("harstad")
    foes = {a for f in (GERMANS,) for a, n in d.bn[f].items() if n}
    land = land_graph(g.board).subgraph(g.land).copy()
    free = land.subgraph([a for a in land if a not in foes])
    dist = nx.single_source_shortest_path_length(free, here, cutoff=g.step)
    want = {b for b, k in dist.items() if 1 <= k}
    want |= {b for a, k in dist.items() if k < g.step for b in land[a] if b in foes}
    got = {o.dst for o in g.legal_orders(d) if isinstance(o, KMove) and o.src == here}
    assert got == want and len(got) > 20
    for o in g.legal_orders(d):
        if isinstance(o, KMove) and o.src == here:
            assert len(o.via) + 1 <= g.step and not set(o.via) & foes


def test_4_2_step_8_a_retreat_on_hexes_goes_one_area_step_never_across_a_fjord_for_the_germans():
    g = _game("nordland-hex")
    d = g.new_state(1).data
    narvik = g.loc("narvik")
    opts = retreat_areas(g, d, [GERMANS], narvik)
    assert opts and all(0 < nx.shortest_path_length(land_graph(g.board), narvik, b) <= g.step for b in opts)
    no_water = land_graph(g.board).copy()
    no_water.remove_edges_from(g.water)
    assert all(nx.shortest_path_length(no_water, narvik, b) <= g.step for b in opts)
    assert len(retreat_areas(g, d, [NORWAY], narvik)) >= len(opts)  # Norway may cross water (S1)


def test_rask_forflytning_on_hexes_goes_beyond_an_ordinary_move_up_to_two_area_steps():
    g = _game("nordland-hex")
    d = g.new_state(3).data
    rapid = [c for c in g.copies if c.card == "rask_forflytning"]
    assert rapid
    d.hand[GERMANS] = [rapid[0].id]
    plays = [o for o in g.legal_orders(d) if isinstance(o, PlayCard) and o.card == "rask_forflytning"]
    assert plays and all(g.step < len(o.path) <= 2 * g.step for o in plays)


def test_a_conversion_file_with_a_bad_step_is_one_line_naming_the_file_and_key(tmp_path):
    import shutil

    from hexwar.data.loader import data_root

    for folder in ("maps", "oob", "tables"):
        shutil.copytree(data_root() / folder, tmp_path / folder)
    p = tmp_path / "maps" / "nordland-hex.yaml"
    p.write_text(p.read_text().replace("  value: derived", "  value: 0"))
    with pytest.raises(DataError) as e:
        Library(tmp_path).load("maps", "nordland-hex")
    assert "maps/nordland-hex.yaml" in str(e.value) and "area_step" in str(e.value)


def test_the_s1_ending_names_the_places_on_every_board():
    """A result line says Narvik, not 1622 (issue 72): the game's words (``words_in``), which the
    play loop, replay and the batch's one-game command read the result with."""
    from hexwar.games.kampen.phases import victory

    for board in ("norway", "nordland-hex", "nordland-areas"):
        g = _game(board)
        d = g.new_state(1).data
        level = INFO.wording(g)(victory.standing(g, d)[1])
        assert level == "Germany wins: it still occupies Narvik, Bjørnfjell", (board, level)


def test_4_1_the_analysis_board_reads_a_rounds_move_and_the_fjord_off_the_games_own_moves():
    """The analysis board's reach and its attackers (issue 72: the rule lives once): on hexes the
    Allies at Harstad reach what the game lists, Narvik among it, five hexes off; on the area map
    Harstad-Narvik is a fjord border and the dice are halved (4.2), as the game's move says."""
    from hexwar.games.kampen.analysis import KampenAnalyst
    from hexwar.ui.analysis import Pick

    for board, halved in (("norway", True), ("nordland-hex", False)):
        g = _game(board)
        d = g.new_state(1).data
        har, nar = g.loc("harstad"), g.loc("narvik")
        listed = reach.moves_from(g, d, ALLIES, har)
        fig = KampenAnalyst(g).figures(d, Pick(piece=f"allies@{har}"))[0]
        assert {x for x, m in fig.marks.items() if m == "reach"} == set(listed) and nar in listed
        fight = KampenAnalyst(g).figures(d, Pick(loc=nar, attackers=(f"allies@{har}",)))[0]
        assert ("(across fjord/lake: halved)" in fight.lines[1]) is halved is reach.across_water(g, listed[nar])
        with pytest.raises(ValueError, match="where a round's move reaches"):
            KampenAnalyst(g).figures(d, Pick(loc=nar, attackers=(f"allies@{g.loc('tromso')}",)))


def test_a_conversions_name_out_of_range_is_no_board():
    """``nordland-hex-step0`` or 2 km hexes are refused by name, in one line, before any game."""
    from hexwar.sim.setups import parse_setup

    for name in ("nordland-hex-step0", "nordland-hex-km2", "nordland-hex-km500", "nordland-areas-step3"):
        with pytest.raises(ValueError, match=f"no board '{name}'"):
            parse_setup(f"kampen@{name}")
    assert parse_setup("kampen@nordland-hex-km20-step3").board == "nordland-hex-km20-step3"
