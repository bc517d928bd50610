"""Hex coordinates: conversions, distance, hexsides, lines (hexes.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.board import hexes
from hexwar.board.hexes import Axial, DEFAULT_GRID as G

cols = st.integers(0, 99)
axials = st.builds(Axial, st.integers(-60, 60), st.integers(-60, 60))


@given(cols, cols)
def test_offset_axial_round_trip(c, r):
    assert hexes.axial_to_offset(*hexes.offset_to_axial(c, r)) == (c, r)
    assert G.parse(G.format(c, r)) == (c, r)


@given(axials)
def test_axial_offset_round_trip(a):
    assert hexes.offset_to_axial(*hexes.axial_to_offset(*a)) == a


@given(axials, axials, axials)
def test_distance_is_a_metric(a, b, c):
    assert hexes.distance(a, b) == hexes.distance(b, a) >= 0
    assert (hexes.distance(a, b) == 0) == (a == b)
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)


@given(axials, st.integers(0, 5))
def test_every_hexside_is_shared_by_exactly_two_hexes(a, d):
    side = hexes.hexside(a, d)
    n = hexes.neighbour(a, d)
    assert set(side.hexes()) == {a, n}
    assert hexes.hexside(n, (d + 3) % 6) == side
    # no third hex names this side
    owners = [h for h in hexes.hex_range(a, 2) for dd in range(6) if hexes.hexside(h, dd) == side]
    assert set(owners) == {a, n}


@given(axials, st.integers(0, 6))
def test_ring_and_range_sizes(a, r):
    ring = hexes.ring(a, r)
    assert len(ring) == (1 if r == 0 else 6 * r) == len(set(ring))
    assert all(hexes.distance(a, h) == r for h in ring)
    assert len(list(hexes.hex_range(a, r))) == 1 + 3 * r * (r + 1)


@given(axials, axials)
def test_line_is_connected_and_has_distance_plus_one_hexes(a, b):
    ln = hexes.line(a, b)
    assert ln[0] == a and ln[-1] == b
    assert len(ln) == hexes.distance(a, b) + 1
    assert all(hexes.distance(x, y) == 1 for x, y in zip(ln, ln[1:]))


@pytest.mark.parametrize("a,b", [("2008", "2107"), ("1711", "1812"), ("1811", "1812"), ("1712", "1812"), ("1710", "1810"), ("2306", "2307"), ("2305", "2406")])
def test_cited_hexes_are_adjacent_under_odd_q(a, b):
    # rules 14.2, 16.1, 20.1, 20.6 name these pairs as neighbours ("Cited hexes")
    assert hexes.distance_ids(a, b) == 1
    assert b in hexes.neighbour_ids(a)


@pytest.mark.parametrize("a,b,d", [("1610", "1612", 2), ("1813", "1911", 2), ("2106", "2406", 3)])
def test_cited_distances(a, b, d):
    assert hexes.distance_ids(a, b) == d


def test_bad_ids_are_refused():
    with pytest.raises(hexes.HexIdError):
        G.parse("18A2")
    with pytest.raises(hexes.HexIdError):
        G.parse("181")


def test_sight_line_along_a_hexside_16_1():
    # 1813 -> 1911 runs exactly along the 1812/1912 hexside
    sl = hexes.sight_line(G.to_axial("1813"), G.to_axial("1911"))
    along = {frozenset(G.from_axial(h) for h in s.hexes()) for s in sl.along}
    assert along == {frozenset({"1812", "1912"})}
    assert len(sl.sides) == 2


@given(axials, st.integers(0, 5))
def test_hexside_segment_is_shared_edge(a, d):
    n = hexes.neighbour(a, d)
    p, q = hexes.hexside_segment(hexes.hexside(a, d))
    ca, cn = hexes.center_xy(a), hexes.center_xy(n)
    # both ends are equidistant from the two centres (the shared edge)
    for pt in (p, q):
        da = ((pt[0] - ca[0]) ** 2 + (pt[1] - ca[1]) ** 2) ** 0.5
        dn = ((pt[0] - cn[0]) ** 2 + (pt[1] - cn[1]) ** 2) ** 0.5
        assert abs(da - dn) < 1e-9
