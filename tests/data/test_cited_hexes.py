"""Every hex the Assault on Narvik rules cite holds, on the play map, what the rules say of it
(digest "Cited hexes"; the hand edits that make it so: maps/narvik/geography.yaml ``cited``)."""

from __future__ import annotations

import pytest

from hexwar.board import load_board
from hexwar.rules.fire import can_fire, line_of_fire
from hexwar.rules.naval import naval_destinations
from hexwar.games.common import narvik_rules as NR

WATER = ("sea", "coast")


@pytest.fixture(scope="module")
def nb():
    return load_board("narvik")


def test_14_2_1710_1810_joined_by_road_2306_2307_not(nb):
    assert nb.distance("1710", "1810") == 1 and nb.border("1710", "1810").has("road")
    assert nb.distance("2306", "2307") == 1 and not nb.border("2306", "2307").has("road")
    assert "sea" not in (nb.terrain("2306"), nb.terrain("2307"))


def test_20_1_2008_2107_water_without_a_waterway(nb):
    assert nb.terrain("2008") in WATER and nb.terrain("2107") in WATER
    assert not nb.border("2008", "2107").has("waterway")
    assert "2107" not in [p[1] for p in naval_destinations(nb, "2008", "harstad").values() if len(p) > 1]


@pytest.mark.parametrize("src,dst", [("1610", "1612"), ("1813", "1911")])
def test_16_1_a_ridge_blocks_fire(nb, src, dst):
    assert nb.distance(src, dst) == 2
    assert nb.terrain(src) != "sea" and nb.terrain(dst) != "sea"
    assert not can_fire(nb, src, dst, 2)
    assert "ridge" in line_of_fire(nb, src, dst, 2, NR.ARTILLERY_FIRE).render()


def test_16_1_2305_fires_on_2406(nb):
    assert nb.distance("2305", "2406") == 1 and can_fire(nb, "2305", "2406", 2)


def test_20_5_a_ship_in_2106_cannot_bombard_2406(nb):
    assert nb.terrain("2106") in WATER and nb.distance("2106", "2406") == 3
    assert not can_fire(nb, "2106", "2406", 3, adjacent_exception=False)
    assert "ridge" in line_of_fire(nb, "2106", "2406", 3, NR.NAVAL_FIRE, adjacent_exception=False).render()


def test_20_6_1812_a_non_mountain_coast_hex_with_fjord_hexsides(nb):
    assert nb.terrain("1812") == "coast"
    for h in ("1811", "1711", "1712"):
        assert nb.border("1812", h).has("fjord"), h
        assert nb.terrain(h) not in ("sea", "coast", "mountain"), h  # land a ferry may put units on


def test_20_1_2913_is_reached_from_harstad_through_a_map_edge(nb):
    assert nb.terrain("2913") in WATER
    path = naval_destinations(nb, "harstad", "harstad")["2913"]
    assert path[0] == "harstad" and (nb.is_a(path[1], "edge_west") or nb.is_a(path[1], "edge_north"))


def test_22_1_harstad_reaches_every_sea_or_coast_hex_of_the_west_and_north_edges(nb):
    links = set(nb.neighbours("harstad"))
    edge = {h for h in nb.hexes() if nb.terrain(h) in WATER and (nb.is_a(h, "edge_west") or nb.is_a(h, "edge_north"))}
    assert links == edge and {"0101", "0401"} <= links


def test_29_0_the_victory_hexes(nb):
    vp = {p.location: p.value for p in nb.places("victory")}
    assert vp == {"1918": 5, nb.find("Narvik"): 10}


def test_19_1_narvik_a_port_and_town_on_the_railway(nb):
    n = nb.find("Narvik")
    assert nb.is_a(n, "port") and nb.is_a(n, "town") and n in nb.regions["railway"]
