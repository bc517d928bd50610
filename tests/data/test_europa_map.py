"""The Europa "Narvik" map (26 km hexes, E1) against real geography: places in the hex of
their coordinates, distances between towns at the map's scale, the seven ports of E2, the
railways of 1940, Sweden east of the border, fjords as hexside features, and the build."""

from __future__ import annotations

import importlib.util
import math
from collections import deque
from pathlib import Path

import pytest
import yaml

from hexwar.board import load_board
from hexwar.board.build import _pixel_to_axial, build_hex_map, dump_map
from hexwar.board.build_areas import haversine_km
from hexwar.data.loader import data_root

ROOT = data_root()
GEO = yaml.safe_load((ROOT / "maps/europa/geography.yaml").read_text())
SHARED = Path(__file__).resolve().parents[3] / "shared" / "geography" / "narvik-places.yaml"


@pytest.fixture(scope="module")
def eb():
    return load_board("europa")


def hex_of(board, lon, lat):
    x, y = board.projection.to_xy(lon, lat)
    return board.hex_at(_pixel_to_axial(x, y, board.hex_km))


def test_the_scale_is_europas_16_miles_a_hex_E1(eb):
    assert eb.hex_km == 26.0 and abs(16 * 1.609344 - eb.hex_km) < 0.3


def test_places_sit_in_the_hex_of_their_coordinates(eb):
    for key, p in GEO["places"].items():
        h = hex_of(eb, *p["lonlat"])
        assert h is not None, key
        assert eb.place(h) is not None and set(p["kinds"]) <= eb.place(h).kinds, key


@pytest.mark.parametrize("a,b", [("oslo", "bergen"), ("oslo", "trondheim"), ("trondheim", "narvik"),
                                 ("kristiansand", "stavanger"), ("bergen", "trondheim"), ("namsos", "mo_i_rana"),
                                 ("oslo", "kristiansand"), ("narvik", "tromso"), ("andalsnes", "dombas")])
def test_hex_distances_match_great_circle_distances(eb, a, b):
    """The sinusoidal projection keeps distances: hexes x 26 km within one hex (plus 6%) of the
    great-circle distance between the towns, from 90 km to 900 km apart."""
    pa, pb = GEO["places"][a]["lonlat"], GEO["places"][b]["lonlat"]
    km = haversine_km(tuple(pa), tuple(pb))
    hexes = eb.distance(eb.find(GEO["places"][a]["name"]), eb.find(GEO["places"][b]["name"]))
    # a hex path is never shorter than the straight line and at most 2/sqrt(3) longer, plus rounding
    assert km - 1.5 * eb.hex_km <= hexes * eb.hex_km <= km * 2 / math.sqrt(3) * 1.06 + 1.5 * eb.hex_km, (a, b, km, hexes)


def test_the_seven_ports_of_E2_are_ports_on_the_coast(eb):
    names = {p.name for p in eb.places("victory")}
    assert names == {"Stavanger", "Åndalsnes", "Namsos", "Narvik", "Kristiansand", "Bergen", "Trondheim"}
    for p in eb.places("victory"):
        assert eb.is_a(p.location, "port") and eb.terrain(p.location) == "coast", p.name
        assert any(eb.terrain(n) in ("sea", "coast") for n in eb.neighbours(p.location)), p.name


def test_sixteen_mobilisation_centres_E1(eb):
    centres = {p.location for p in eb.places("mobilisation")}
    assert len(centres) == 16
    assert not centres & set(eb.regions["sweden"])


def _rail_connected(eb, a, b):
    start, goal = eb.find(a), eb.find(b)
    seen, dq = {start}, deque([start])
    while dq:
        h = dq.popleft()
        if h == goal:
            return True
        for n in eb.neighbours(h):
            if n not in seen and eb.border(h, n).has("rail"):
                seen.add(n)
                dq.append(n)
    return False


@pytest.mark.parametrize("a,b", [("Oslo", "Trondheim"), ("Oslo", "Bergen"), ("Oslo", "Kristiansand"),
                                 ("Dombås", "Åndalsnes"), ("Trondheim", "Namsos"), ("Egersund", "Stavanger"),
                                 ("Narvik", "Kiruna")])
def test_the_railways_of_1940_join_their_towns(eb, a, b):
    assert _rail_connected(eb, a, b)


def test_no_railway_joins_bodo_or_mo_i_rana_to_the_south_in_1940(eb):
    assert not _rail_connected(eb, "Trondheim", "Mo i Rana") and not _rail_connected(eb, "Narvik", "Bodø")


def test_sweden_lies_east_of_the_border_and_norway_west(eb):
    sweden = set(eb.regions["sweden"])
    for name in ("Kiruna", "Storlien", "Charlottenberg"):
        assert eb.find(name) in sweden
    for p in eb.places("victory"):
        assert p.location not in sweden
    assert eb.find("Halden") not in sweden and eb.find("Kongsvinger") not in sweden


def test_fjords_are_hexside_features_between_land_hexes(eb):
    fjords = [(a, b) for a, b, f in eb.sides() if "fjord" in f]
    assert len(fjords) >= 10
    for a, b in fjords:
        assert eb.terrain(a) != "sea" and eb.terrain(b) != "sea"


def test_the_sea_reaches_every_port_from_the_open_sea(eb):
    """Every port touches water joined to the map's western edge (sea zones for naval movement)."""
    water = {h for h in eb.locations() if eb.terrain(h) in ("sea", "coast")}
    edge = [h for h in water if eb.grid.parse(h)[0] == 1]
    seen, dq = set(edge), deque(edge)
    while dq:
        h = dq.popleft()
        for n in eb.neighbours(h):
            if n in water and n not in seen and (eb.terrain(h) == "sea" or eb.terrain(n) == "sea" or eb.border(h, n).has("waterway")):
                seen.add(n)
                dq.append(n)
    for p in eb.places("port"):
        if p.location in eb.regions["sweden"]:
            continue
        assert p.location in seen, p.name


@pytest.mark.skipif(not SHARED.exists(), reason="shared geography not beside the checkout")
def test_checked_coordinates_match_the_shared_geography():
    shared = yaml.safe_load(SHARED.read_text())["places"]
    assert GEO["places"]["narvik"]["lonlat"] == [shared["narvik"]["lon"], shared["narvik"]["lat"]]
    b = shared["bjornfjell_station"]
    assert GEO["places"]["bjornfjell"]["lonlat"] == [b["lon"], b["lat"]]


@pytest.mark.skipif(importlib.util.find_spec("global_land_mask") is None, reason="pip install '.[mapbuild]'")
def test_the_build_is_deterministic_and_matches_the_committed_map():
    from hexwar.board.build import land_mask

    # built once: the committed map was built by another process at another time, so a build
    # that matches it is deterministic (a second build here cost 6 s and proved less)
    a = dump_map(build_hex_map(GEO, land_mask(), "maps/europa/geography.yaml"))
    from hexwar.ui.cli_data import MAP

    assert MAP.stamp(a, ".yaml") == (ROOT / "maps/europa.yaml").read_text()  # as map build writes it: marked (issue 70)
