"""The Narvik hex map against real geography (issue 3): places, fjords, railway, Sweden, Harstad."""

from __future__ import annotations

import importlib.util
from collections import deque
from pathlib import Path

import pytest
import yaml

from hexwar.board import load_board
from hexwar.board.build import _pixel_to_axial, build_hex_map, dump_map
from hexwar.data.loader import data_root

ROOT = data_root()
GEO = yaml.safe_load((ROOT / "maps/narvik/geography.yaml").read_text())
SHARED = Path(__file__).resolve().parents[3] / "shared" / "geography" / "narvik-places.yaml"


@pytest.fixture(scope="module")
def nb():
    return load_board("narvik")


def hex_of(board, lon, lat):
    x, y = board.projection.to_xy(lon, lat)
    return board.hex_at(_pixel_to_axial(x, y, board.hex_km))


def is_water(board, h):
    return board.terrain(h) in ("sea", "coast")


def test_narvik_is_a_port_on_the_peninsula_between_beisfjord_and_rombaken(nb):
    n = nb.find("Narvik")
    assert n == hex_of(nb, 17.4272, 68.4384)
    assert nb.is_a(n, "port") and nb.is_a(n, "town") and nb.place(n).value == 10  # 29.0
    # Rombaken and Beisfjord (checked points) are water, one or two hexes away
    rombaken = hex_of(nb, 17.5888, 68.4595)
    beisfjord = hex_of(nb, 17.3956, 68.4246)
    for h in (rombaken, beisfjord):
        assert is_water(nb, h) and nb.distance(n, h) <= 3
    # a peninsula: every way off it by land leads east; the rest is water
    land_links = [h for h in nb.neighbours(n) if not (nb.border(n, h).is_water or nb.terrain(h) == "sea")]
    assert land_links and all(nb.axial(h).q > nb.axial(n).q for h in land_links)
    water_sides = [h for h in nb.neighbours(n) if nb.border(n, h).is_water or nb.terrain(h) == "sea"]
    assert len(water_sides) >= 4


def test_the_railway_runs_from_narvik_to_the_swedish_border(nb):
    start = nb.find("Narvik")
    sweden = nb.regions["sweden"]
    seen, dq = {start}, deque([start])
    reached = None
    while dq:
        h = dq.popleft()
        if h in sweden or any(x in sweden for x in nb.neighbours(h) if nb.border(h, x).has("rail")):
            reached = h
            break
        for x in nb.neighbours(h):
            if x not in seen and nb.border(h, x).has("rail"):
                seen.add(x)
                dq.append(x)
    assert reached is not None
    assert nb.find("Bjørnfjell") in seen | {reached}
    assert set(nb.regions["railway"]) >= seen


def test_sweden_lies_east_of_the_border(nb):
    sw = nb.regions["sweden"]
    assert len(sw) >= 8
    for h in sw:
        c = nb.geometry(h).centroid
        lon, _ = nb.projection.to_lonlat(c.x, c.y)
        assert lon > 17.9
        assert nb.is_a(h, "sweden")
    assert nb.find("Bjørnfjell") not in sw  # Bjørnfjell station is 1.5 km inside Norway


def test_harstad_is_reached_by_sea_from_the_west_and_north_edges_only(nb):
    links = nb.neighbours("harstad")
    assert links
    for h in links:
        col, row = nb.grid.parse(h)
        assert col == nb.columns[0] or row == nb.rows[0]  # 22.1: west or north edge
        assert is_water(nb, h)
    # ships reach Narvik, Bjerkvik, Ballangen and Rombaksbotn (the rules' 2913) over waterways
    seen, dq = {"harstad"}, deque(["harstad"])
    while dq:
        h = dq.popleft()
        for x in nb.neighbours(h):
            f = nb.border(h, x).features
            if x not in seen and f & {"waterway", "box_link"}:
                seen.add(x)
                dq.append(x)
    for place in ("Narvik", "Bjerkvik", "Ballangen", "Ankenes"):
        assert nb.find(place) in seen, place
    assert hex_of(nb, 17.86, 68.41) in seen  # Rombaksbotn
    assert "2913" in seen and is_water(nb, "2913")  # the sea/coast hex the rules cite (20.1)


def test_places_sit_in_the_hex_of_their_coordinates(nb):
    for key, p in GEO["places"].items():
        h = hex_of(nb, *p["lonlat"])
        if h is None or not p.get("name"):
            continue
        assert nb.place(h) is not None and set(p["kinds"]) <= nb.place(h).kinds, key


@pytest.mark.skipif(not SHARED.exists(), reason="shared geography not beside the checkout")
def test_checked_coordinates_match_the_shared_geography():
    shared = yaml.safe_load(SHARED.read_text())["places"]
    for key in ("narvik", "bjerkvik", "elvegardsmoen", "hartvikvatnet", "lapphaugen", "arstein"):
        assert GEO["places"][key]["lonlat"] == [shared[key]["lon"], shared[key]["lat"]], key
    b = shared["bjornfjell_station"]
    assert GEO["places"]["bjornfjell"]["lonlat"] == [b["lon"], b["lat"]]


def test_setup_bands_5_1(nb):
    assert {nb.grid.parse(h)[1] for h in nb.regions["norwegian_setup"]} == {1, 2, 3}
    assert min(nb.grid.parse(h)[1] for h in nb.regions["german_setup"]) == 5
    assert nb.find("Narvik") in nb.regions["german_setup"]
    assert not set(nb.regions["german_setup"]) & set(nb.regions["sweden"])


def test_victory_hexes_29_0(nb):
    vp = {p.location: p.value for p in nb.places("victory")}
    assert sorted(vp.values()) == [5, 10]
    assert vp["1918"] == 5 and vp[nb.find("Narvik")] == 10  # 29.0: Narvik 10, hex 1918 5


@pytest.mark.skipif(importlib.util.find_spec("global_land_mask") is None, reason="pip install '.[mapbuild]'")
def test_the_build_is_deterministic_and_matches_the_committed_map():
    from hexwar.board.build import land_mask

    a = dump_map(build_hex_map(GEO, land_mask(), "maps/narvik/geography.yaml"))
    b = dump_map(build_hex_map(GEO, land_mask(), "maps/narvik/geography.yaml"))
    assert a == b
    from hexwar.ui.cli_data import MAP

    assert MAP.stamp(a, ".yaml") == (ROOT / "maps/narvik.yaml").read_text()  # as map build writes it: marked (issue 70)
