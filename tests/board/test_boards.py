"""HexBoard and AreaBoard behind one Board protocol, and hex -> area aggregation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.board import AreaBoard, Board, BoardError, HexBoard, load_board
from hexwar.board.areaboard import nearest_partition
from hexwar.board.generate import random_hex_spec
from hexwar.rules.movement import MoveQuery, reach
from hexwar.rules.supply import supply_status
from hexwar.rules.zoc import projects_into
from hexwar.games.common import narvik_rules as NR
from tests.conftest import F, hex_board


def test_both_backends_satisfy_the_protocol(board):
    assert isinstance(board, Board)
    assert isinstance(load_board("fixtures/areas"), Board)


def test_hex_board_borders_and_places(board):
    # 14.2: 1710-1810 is joined by a road; 2306-2307 is not
    assert board.border("1710", "1810").is_road
    assert not board.border("2306", "2307").is_road
    assert board.border("1812", "1711").has("fjord") and board.border("1812", "1711").is_water
    assert board.is_a("1612", "port") and board.is_a("harstad", "box")
    assert board.find("Portby") == "1612"
    assert board.label("1612") == "1612 (Portby)"
    with pytest.raises(BoardError):
        board.border("1710", "1712")
    with pytest.raises(BoardError):
        board.terrain("9999")


def test_map_edges_22(board):
    assert board.is_a("1504", "edge_north") and board.is_a("1504", "edge_west")
    assert board.is_a("2014", "edge_south") and board.is_a("2410", "edge_east")
    assert not board.is_a("2010", "edge_north")
    assert {p.location for p in board.places("edge_north")} == {f"{c:02d}04" for c in range(15, 25)}


def test_harstad_box_links_to_sea_edge_hexes(board):
    assert sorted(board.neighbours("harstad")) == ["1504", "1505", "1506"]
    assert board.border("harstad", "1504").has("box_link")
    assert board.terrain("harstad") == "box"


def test_graph_carries_attributes(board):
    g = board.graph()
    assert g.number_of_nodes() == len(board.locations()) == 10 * 11 + 1
    assert g.nodes["1914"]["terrain"] == "mountain"
    assert "port" in g.nodes["1612"]["places"]
    assert "ridge" in g.edges["1611", "1612"]["features"]


def test_hex_geometry_tiles_the_plane(board):
    a, b = board.geometry("1710"), board.geometry("1810")
    assert a.area == pytest.approx(3.0**2 * 3**0.5 / 2, rel=1e-9)  # hexagon with 3 km across flats
    assert a.intersection(b).area == pytest.approx(0, abs=1e-9)
    assert a.touches(b)
    assert a.distance(board.geometry("2010")) > 0


def test_area_board_from_yaml():
    ab = load_board("fixtures/areas")
    assert ab.kind == "area"
    assert ab.border("north", "west").has("fjord")
    assert ab.border("mid", "south").has("lake") and ab.border("mid", "south").is_water
    assert ab.distance("north", "south") == 2
    assert ab.is_a("north", "victory") and ab.place("north").value == 5
    assert ab.geometry("mid").area > 0
    assert ab.neighbours("harstad") == ["sea-1"]


def test_from_hexes_derives_fjord_borders_and_unions():
    hb = HexBoard.load("fixtures/fjord")
    ab = AreaBoard.from_hexes(hb, {"west": ["0101", "0102"], "east": ["0201", "0202"]})
    assert ab.border("west", "east").features == frozenset({"fjord"})
    assert ab.geometry("west").area == pytest.approx(hb.geometry("0101").area * 2)
    assert ab.members["east"] == ["0201", "0202"]


def test_from_hexes_mixed_border_is_not_a_fjord():
    hb = hex_board(columns=(1, 2), rows=(1, 2), hexsides={"0101/0201": ["fjord"], "0101/0202": ["road"]})
    ab = AreaBoard.from_hexes(hb, {"w": ["0101", "0102"], "e": ["0201", "0202"]})
    assert ab.border("w", "e").features == frozenset({"road"})


def test_from_hexes_refuses_bad_partitions(board):
    with pytest.raises(BoardError, match="in both"):
        AreaBoard.from_hexes(board, {"a": ["1710"], "b": ["1710"]})
    with pytest.raises(BoardError, match="not a hex"):
        AreaBoard.from_hexes(board, {"a": ["9999"]})


def test_from_hexes_aggregates_places_and_boxes(board):
    part = nearest_partition(board, {"n": "1705", "s": "2012", "w": "1612"}, terrains={"clear", "coast", "town", "forest", "mountain", "glacier"})
    ab = AreaBoard.from_hexes(board, part)
    assert ab.is_a("n", "victory") and ab.is_a("w", "port")
    assert set(ab.neighbours("n")) >= {"w"}
    assert sum(len(v) for v in part.values()) == sum(1 for h in board.hexes() if board.terrain(h) != "sea")


def singleton_areas(hb: HexBoard) -> AreaBoard:
    return AreaBoard.from_hexes(hb, {h: [h] for h in hb.hexes()})


@given(st.integers(0, 10_000))
def test_hex_and_area_backends_agree_on_equivalent_maps(seed):
    """An area board of one-hex areas must give the same rule answers as the hex board."""
    hb = HexBoard(random_hex_spec(seed, 9, 8))
    ab = singleton_areas(hb)
    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    hs = hb.hexes()
    start = hs[seed % len(hs)]
    enemy = {hs[(seed * 7 + 3) % len(hs)], hs[(seed * 13 + 5) % len(hs)]} - {start}
    zoc = frozenset(n for e in enemy for n in projects_into(hb, e))
    assert zoc == frozenset(n for e in enemy for n in projects_into(ab, e))
    for mclass in ("leg", "heavy"):
        q = MoveQuery(F(5), zoc, frozenset(enemy), F(2))
        rh = reach(hb, chart, "winter", mclass, start, q)
        ra = reach(ab, chart, "winter", mclass, start, q)
        assert rh.mp_left == ra.mp_left
    bases = [hs[(seed * 3) % len(hs)]]
    sh = supply_status(hb, chart, "winter", "leg", hs, bases, zoc, [], NR.MAX_SUPPLY_LINE)
    sa = supply_status(ab, chart, "winter", "leg", hs, bases, zoc, [], NR.MAX_SUPPLY_LINE)
    assert sh == sa
    for a, b in [(hs[0], hs[-1]), (start, hs[len(hs) // 2])]:
        assert hb.distance(a, b) == ab.distance(a, b)
