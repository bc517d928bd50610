"""The Norway board against the digest's board facts (Kampen om Norge 2.3, Examples, S1)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hexwar.board.areaboard import AreaBoard
from hexwar.games.kampen import kampen_game


@pytest.fixture(scope="module")
def b():
    return AreaBoard.load("norway")


@pytest.fixture(scope="module")
def g():
    return kampen_game("basic")


def fj(b, a, c):
    return bool(b.border(a, c).features & {"fjord", "lake"})


def test_2_3_forty_four_land_areas_eight_seas_six_point_cities_twelve_mobilisation_points(b, g):
    assert len(g.land) == 44
    assert sorted(s for s in b.locations() if b.terrain(s) == "sea") == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
    assert sorted(g.point_cities) == sorted(["oslo", "kristiansand", "stavanger", "bergen", "trondheim", "narvik"])
    assert sorted(g.mobilisation) == sorted(["ostfold", "kongsvinger", "hamar", "gjovik", "honefoss", "kongsberg", "voss",
                                             "andalsnes", "steinkjer", "mosjoen", "bardufoss", "tromso"])
    assert {"sweden", "denmark"} <= {a for a in b.locations() if b.terrain(a) == "unusable"}


def test_board_facts_L1_to_L25_land_adjacency_and_fjords(b):
    n = lambda a: set(b.neighbours(a))  # noqa: E731
    assert "honefoss" in n("oslo")                                         # L1
    assert "hamar" in n("kongsvinger") and not fj(b, "kongsvinger", "hamar")  # L2, L3
    assert "hamar" in n("gjovik") and fj(b, "gjovik", "hamar")                # L4 (Mjøsa)
    assert "tynset" in n("oppdal")                                          # L5
    assert fj(b, "andalsnes", "alesund") and fj(b, "andalsnes", "kristiansund")  # L6-L8
    assert "dombas" in n("andalsnes") and not fj(b, "andalsnes", "dombas")  # L9
    assert {x for x in n("andalsnes") if b.terrain(x) == "land"} == {"alesund", "kristiansund", "dombas"}  # L10
    assert "bjornfjell" in n("tysfjord")                                    # L11
    assert "bardufoss" in n("bjornfjell") and not fj(b, "bjornfjell", "bardufoss")  # L12
    assert "narvik" in n("tysfjord") and not fj(b, "tysfjord", "narvik")    # L13
    assert "bardufoss" not in n("tysfjord")                                 # L14
    assert "tromso" in n("bardufoss")                                       # L15
    assert "narvik" in n("bardufoss")                                       # L16 (uncertain; held)
    for a in ("gratangen", "narvik", "tysfjord"):                           # L17, L18
        assert fj(b, "harstad", a)
    assert fj(b, "stavanger", "haugesund")                                  # L19, L20
    assert {x for x in n("stavanger") if b.terrain(x) == "land"} == {"haugesund", "egersund"}  # L21, L22
    assert fj(b, "bergen", "haugesund")                                     # L23
    assert any(fj(b, "bergen", x) for x in n("bergen") if b.terrain(x) == "land" and x != "haugesund")  # L24
    assert any(b.terrain(x) == "land" for x in n("oslo"))                   # L25


def test_board_facts_S1_to_S11_seas_and_coasts(b, g):
    for a in ("haugesund", "stavanger", "egersund"):
        assert "III" in b.border(a, "III").b or "III" in b.border(a, "III").a  # S1
    assert b.is_a("I", "mined") and b.is_a("II", "mined")                    # S2
    assert set(b.neighbours("VIII")) == {"II", "III", "IV", "V", "VI", "VII"}  # S3
    assert g.german_coast["oslo"] and not g.allied_coast["oslo"]            # S8
    assert g.allied_coast["andalsnes"] and g.allied_coast["tromso"]          # S9, S10
    assert "VII" not in g.coasts["bardufoss"]                                # S11


def test_board_facts_A1_A3_air_range(g):
    assert "kristiansand" not in g.reach["bardufoss"]                        # A1
    for f in g.airfields:
        if f != "bardufoss":
            assert "kristiansand" in g.reach[f]
    assert "trondheim" in g.airfields                                        # A2
    assert {"harstad", "narvik", "bjornfjell"} <= g.reach["trondheim"]       # A3
    assert not g.reach["trondheim"] & {"gratangen", "bardufoss", "tromso"}
    assert "oslo" in g.from_germany and "narvik" not in g.from_germany       # A4


def test_L27_scenario_1_lies_in_the_top_third(b):
    lat = {a: b.centers[a][1] for a in b.centers}
    cut = min(v for v in lat.values()) + 2 * (max(lat.values()) - min(lat.values())) / 3
    for a in ("narvik", "bjornfjell", "tromso", "bardufoss", "gratangen", "harstad", "tysfjord"):
        assert lat[a] > cut - 2.0, a  # Mosjøen sits at the southern edge of the top third


@pytest.mark.skipif(importlib.util.find_spec("global_land_mask") is None, reason="pip install '.[mapbuild]'")
def test_the_norway_build_is_deterministic_and_matches_the_committed_map(tmp_path):
    from typer.testing import CliRunner

    from hexwar.ui.cli import app

    dest = tmp_path / "norway.yaml"
    res = CliRunner().invoke(app, ["map", "build", "norway", "-o", str(dest)])
    assert res.exit_code == 0, res.output
    committed = Path(__file__).resolve().parents[2] / "maps" / "norway.yaml"
    assert dest.read_text() == committed.read_text()


def test_map_render_norway_draws_every_land_area_with_its_name(b):
    from hexwar.ui.render import render_svg

    svg = render_svg(b)
    for a in ("Narvik", "Bergen", "Trondheim", "Åndalsnes", "Kristiansand", "Finnmark"):
        assert f">{a}<" in svg
    assert svg.count("<path") >= 44 + 8
