"""The analysis board (issue 54) without a browser: every game's analyst sets a position up and
gives the rules' figures; the rulebooks' worked examples set up by edits; an illegal position
flagged, not refused; a refused edit changes nothing; a saved position plays on; the page's
API behind the board's guard; ``hexwar analyse`` on the command line."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from typer.testing import CliRunner

from hexwar.core.position import load
from hexwar import registry
from hexwar.ui.analysis import AnalysisBoard, Pick
from hexwar.ui.cli import app
from hexwar.ui.cli_common import UserError
from hexwar.web.analysis import WebAnalysis, make_analysis_app

ANALYSED = [g.name for g in registry.games() if g.analysis is not None]


def board_of(name: str, scenario: str | None = None, folder: Path = Path(".")) -> AnalysisBoard:
    info = registry.get(name)
    sc = scenario or info.default_scenario
    g = info.build(sc)
    head = {"game": name, "scenario": sc, "board": info.default_board, "switches": [], "seed": 0, "seen_by": "all"}
    return AnalysisBoard(info, g, g.new_state(0).data, head, folder, name)


def text(b: AnalysisBoard, pick: Pick) -> str:
    return "\n".join(ln for f in b.figures(pick) for ln in [f.title, *f.lines])


def test_every_bundled_game_has_an_analysis_board():
    assert set(ANALYSED) >= {"narvik", "europa", "kampen", "konflikt", "skirmish"}


@pytest.mark.parametrize("name", ANALYSED)
def test_each_game_sets_a_piece_down_picks_it_and_takes_it_back(name, tmp_path):
    b = board_of(name, folder=tmp_path)
    snap = b.snapshot()
    assert snap["pieces"] and snap["tracks"] and snap["svg"].startswith("<svg")
    off = next((p for p in snap["pieces"] if p["loc"] is None), None)
    if off is None:  # every counter on the map: one goes to the tray first
        off = snap["pieces"][0]
        b.edit({"do": "place", "piece": off["id"], "loc": None})
        assert next(p for p in b.analyst.pieces(b.data) if p.id == off["id"]).loc is None
    land = [h for h in sorted(b.game.board.locations()) if b.game.board.terrain(h) not in ("sea", "box")]
    spot = next((p["loc"] for p in snap["pieces"] if p["loc"] and p["loc"] in land), land[0])
    before = b.data.to_json()
    said = b.edit({"do": "place", "piece": off["id"], "loc": spot})
    assert "placed at" in said and b.placed is not None
    placed = next(p for p in b.analyst.pieces(b.data) if p.id == b.placed)
    assert placed.loc == spot
    snap = b.snapshot(Pick(b.placed))
    assert snap["figures"], "a picked piece has figures"
    b.edit({"do": "undo"})
    assert b.data.to_json() == before


# --- the rulebooks' worked examples ---------------------------------------------------------


def test_narvik_14_1_a_british_battalion_ma_3_enters_a_mountain_hex_in_winter_by_the_minimum_move():
    b = board_of("narvik")
    b.edit({"do": "place", "piece": "1SG", "loc": "0303"})  # rough, next to the mountain hex 0404
    b.edit({"do": "set", "key": "weather", "value": "winter"})
    fig = b.figures(Pick("1SG"))[0]
    assert fig.labels["0404"] == "min" and fig.marks["0404"] == "reach"
    way = text(b, Pick("1SG", "0404"))
    assert "enter 0404 (mountain = mountain): 4  [14.1]" in way
    assert "costs 4 > MP 3: allowed as the one-hex minimum move  [14.1]" in way
    b.edit({"do": "set", "key": "weather", "value": "good"})  # the chart's good section: no minimum move
    assert b.figures(Pick("1SG"))[0].labels.get("0404") != "min"


def test_kampen_example_1_three_battalions_across_mjosa_panzer_and_speidertropp_against_bakhold():
    b = board_of("kampen", "basic")
    b.edit({"do": "set", "piece": "norwegians@gjovik", "key": "battalions", "value": 0})
    for _ in range(3):
        b.edit({"do": "place", "piece": "germans", "loc": "gjovik"})
    assert b.placed == "germans@gjovik"
    b.edit({"do": "place", "piece": "norwegians", "loc": "hamar"})
    pick = Pick(None, "hamar", ("germans@gjovik",), ("panzer", "speidertropp"), ("bakhold",))
    fig = b.figures(pick)[0]
    assert "dice: attacker 2, defender 1" in fig.lines
    assert fig.marks == {"hamar": "target", "gjovik": "attacker"}
    # without the cards: floor(3/2) = 1 die against 1 (4.2: halved across a fjord or lake)
    assert "dice: attacker 1, defender 1" in b.figures(Pick(None, "hamar", ("germans@gjovik",)))[0].lines
    with pytest.raises(ValueError, match="where a round's move reaches"):
        b.analyst.figures(b.data, Pick(None, "hamar", ("germans@oslo",)))
    assert "attackers come from where a round's move reaches Hamar (4.1)" in text(b, Pick(None, "hamar", ("germans@oslo",)))


def test_europa_e5_a_two_ground_units_a_hex_and_e5_c_an_hq_absorbs_its_divisions_unit():
    b = board_of("europa")
    for u in ("163HQ", "I/IR307", "II/IR307"):
        b.edit({"do": "place", "piece": u, "loc": "1744"})
    assert any(p.startswith("1744: germans overstacked, 3 ground units") for p in b.problems())
    assert "absorbed" in {f.key for f in b.analyst.fields(b.data, "II/IR307")}
    b.edit({"do": "set", "piece": "II/IR307", "key": "absorbed", "value": "163HQ"})
    assert not any(p.startswith("1744") for p in b.problems())
    assert "germans at 1744: 2 ground units of 2" in text(b, Pick("II/IR307"))
    b.edit({"do": "place", "piece": "163HQ", "loc": "1644"})  # an HQ moved takes its absorbed units along
    assert b.data.units["II/IR307"].loc == "1644" and b.data.units["I/IR307"].loc == "1744"


def test_land_assault_odds_on_the_board_are_those_of_hexwar_odds(tmp_path):
    """15.1: the board's distribution is the query's: both read the same sums."""
    b = board_of("skirmish", folder=tmp_path)
    d = b.data
    att = next(u for u in d.on_map("allies") if b.game.tables.types[u.type].infantry)
    foe = next(u for u in d.on_map("germans") if b.game.tables.types[u.type].infantry)
    g = b.game
    next_door = next(h for h in sorted(g.board.neighbours(foe.loc)) if not d.at(h) and g.board.terrain(h) == "clear")
    b.edit({"do": "place", "piece": att.id, "loc": next_door})  # an attacker must stand next to its target (15.1)
    d = b.data
    fig = b.analyst.figures(d, Pick(None, foe.loc, (att.id,)))[0]
    chances = [Fraction(ln.split(": ")[1].split(" = ")[0]) for ln in fig.lines if ln.startswith("  ") and "/" in ln.split(":")[0]]
    assert sum(chances) == 1 and fig.marks[foe.loc] == "target"
    path = b.save("here", "a test")
    r = CliRunner().invoke(app, ["odds", str(path), "--target", foe.loc, "--attackers", att.id, "--json"])
    assert r.exit_code == 0, r.output
    assert [Fraction(o["p"]) for o in json.loads(r.output)["outcomes"]] == chances


# --- flagged, not refused -------------------------------------------------------------------


def test_an_illegal_narvik_position_is_flagged_with_its_rule_and_kept():
    b = board_of("narvik")
    for u in ("1SG", "1IG", "2SWB"):  # three battalions, 9 points in a hex of 6 (13.2)
        b.edit({"do": "place", "piece": u, "loc": "0303"})
    b.edit({"do": "set", "piece": "1SG", "key": "fatigue", "value": 30})
    sea = next(h for h in b.game.board.locations() if b.game.board.terrain(h) == "sea")
    b.edit({"do": "place", "piece": "PL-1", "loc": sea})
    flags = b.problems()
    assert any("0303" in p and "exceeds the limit 6" in p and "(13.2)" in p for p in flags)
    assert any("1SG has 30 FP, over its limit" in p for p in flags)
    assert any(p.startswith("PL-1 is a land unit at sea") for p in flags)
    assert b.data.units["PL-1"].loc == sea  # kept as set up: a table that went wrong is checked, not refused


@given(ops=st.lists(st.tuples(st.sampled_from(["place", "set", "undo", "bogus"]), st.integers(0, 10_000),
                              st.sampled_from(["fatigue", "face_down", "weather", "turn", "vp.allies", "ap", "nope"]),
                              st.one_of(st.integers(-5, 60), st.booleans(), st.sampled_from(["good", "winter", "x"]))),
                    max_size=12))
@settings(max_examples=40, deadline=None)
def test_a_refused_edit_leaves_the_position_as_it_was_and_undo_goes_back_one_edit(ops):
    b = board_of("narvik")
    ids = sorted(b.data.units)
    locs = sorted(b.game.board.locations())
    history = [b.data.to_json()]
    for do, n, key, value in ops:
        before = b.data.to_json()
        piece = ids[n % len(ids)] if n % 3 else None
        op = {"do": do, "piece": piece, "key": key, "value": value,
              "loc": None if n % 7 == 0 else locs[n % len(locs)] if n % 5 else "nowhere"}
        try:
            b.edit(op)
        except ValueError as e:
            assert str(e) and "\n" not in str(e)
            assert b.data.to_json() == before, f"a refused {op} changed the position"
            continue
        if do == "undo":
            history.pop()
            assert b.data.to_json() == history[-1]
        else:
            history.append(b.data.to_json())


# --- save and play on; the page's API; the command line ---------------------------------------


def test_a_saved_position_loads_as_it_was_set_up_and_plays_on(tmp_path, monkeypatch):
    b = board_of("narvik", folder=tmp_path)
    b.edit({"do": "place", "piece": "1SG", "loc": "2403"})
    b.edit({"do": "set", "key": "ap", "value": 7})
    b.edit({"do": "set", "key": "phase", "value": "action"})
    path = b.save("table", "turn 1 as on my table")
    head, data = load(path)
    assert data.to_json() == b.data.to_json() and head["note"] == "turn 1 as on my table"
    with pytest.raises(ValueError, match="file name"):
        b.save("../elsewhere")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["play", "narvik", "--from", str(path), "--side", "none", "--opponent", "priority", "--save", "on.hexwar"],
                           input="quit\n")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "on.hexwar").is_file()


def test_the_page_api_edits_through_the_guard_and_refuses_bad_input_in_a_line(tmp_path):
    web = WebAnalysis(board_of("narvik", folder=tmp_path))
    guard = make_analysis_app(web, token="k")
    c = TestClient(guard, base_url="http://127.0.0.1")
    assert c.get("/api/analysis").status_code == 403  # no key: no answer
    h = {"X-Hexwar-Token": "k"}
    assert c.get("/", params={"token": "k"}).text.count('name="hexwar-token" content="k"') == 1
    r = c.post("/api/edit", headers=h, json={"do": "place", "piece": "1SG", "loc": "0303", "pick": {"piece": "1IG"}})
    assert r.status_code == 200 and r.json()["pick"]["piece"] == "1SG"
    assert any(f["title"] == "reach of 1SG" for f in r.json()["figures"])
    before = web.board.data.to_json()
    for bad in ({"do": "place", "piece": "1SG", "loc": "9999"}, {"do": "set", "piece": "1SG", "key": "fatigue", "value": "x"},
                {"do": "set", "piece": ["1SG"], "key": "fatigue", "value": 1}, {"do": "fly"}):
        r = c.post("/api/edit", headers=h, json=bad)
        assert r.status_code == 422 and "\n" not in r.json()["error"], bad
    assert web.board.data.to_json() == before
    assert c.post("/api/edit", headers={**h, "Origin": "http://evil.example"}, json={"do": "undo"}).status_code == 403
    assert c.get("/api/analysis", headers=h, params={"piece": "1SG", "loc": "0404"}).json()["figures"][0]["marks"]["0404"] == "path"
    r = c.post("/api/save", headers=h, json={"name": "mine"})
    assert r.status_code == 200 and "--from" in r.json()["play"] and (tmp_path / "mine.yaml").is_file()
    assert c.post("/api/save", headers=h, json={"name": "/etc/x"}).status_code == 422


def test_hexwar_analyse_no_web_prints_the_flags_and_refuses_a_wrong_file_in_a_line(tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["analyse", "europa", "--no-web", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert any("E5 A" in p for p in out["problems"]) and out["pieces"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: hexwar_position\ngame: narvik\nstate: [1\n")
    r = runner.invoke(app, ["analyse", "narvik", "--from", str(bad), "--no-web"])
    assert isinstance(r.exception, UserError) and "bad.yaml:4: not YAML" in str(r.exception)
    b = board_of("kampen", "basic", folder=tmp_path)
    path = b.save("k")
    r = runner.invoke(app, ["analyse", "narvik", "--from", str(path), "--no-web"])
    assert isinstance(r.exception, UserError) and "hexwar analyse kampen --from" in str(r.exception)


def test_a_board_from_a_save_in_progress_shows_only_what_its_seat_saw(tmp_path):
    """The player set up no secret of the other side: a save in progress is read with its
    seat's eyes, and no face-down German counter is named on the board (11.0)."""
    info = registry.get("narvik")
    g = info.build()
    s = g.new_state(5)
    path = tmp_path / "g.hexwar"
    s.attach_save(path)
    s.save.update_meta({"scenario": info.default_scenario, "board": info.default_board, "switches": [], "seat": "allies"})
    rng = random.Random(5)
    while len(s.log) < 10:
        s.apply(rng.choice(s.legal_orders()))
    hidden = {u.id for u in s.data.units.values() if u.side == "germans" and u.concealed}
    s.save.close()
    assert hidden
    from hexwar.ui.cli_saves import _analysed

    head, data, _, game = _analysed(info, path, None, None, [])
    b = AnalysisBoard(info, game, data, head, tmp_path)
    seen = json.dumps(b.snapshot())
    assert head["seen_by"] == "allies" and not any(f'"{x}"' in seen for x in hidden)


def test_hexwar_explain_reads_a_position_file_as_explain_does_in_play(tmp_path):
    """14.1 in the terminal: the way of a unit to a hex in a position set up on the board."""
    b = board_of("narvik", folder=tmp_path)
    b.edit({"do": "place", "piece": "1SG", "loc": "0303"})
    path = b.save("mountain")
    r = CliRunner().invoke(app, ["explain", str(path), "1SG", "0404", "--json"])
    assert r.exit_code == 0, r.output
    lines = json.loads(r.output)["lines"]
    assert "  costs 4 > MP 3: allowed as the one-hex minimum move  [14.1]" in lines


def test_a_counter_given_twice_in_a_position_file_is_flagged_with_both_lines_and_the_later_kept(tmp_path):
    """A unit in two places on a copied table: the file gives 1SG twice; YAML keeps the later,
    the board says so with both lines (flagged, not refused), and a save writes it once."""
    b = board_of("narvik", folder=tmp_path)
    text = b.save("copy").read_text()
    start = text.index("    1SG:\n")
    block = text[start:text.index("      flags: []\n", start) + len("      flags: []\n")]
    units = text.index("  units:\n") + len("  units:\n")  # 1SG at 0303 first, then its own block later
    bad = tmp_path / "twice.yaml"
    bad.write_text(text[:units] + block.replace("loc: harstad", "loc: '0303'") + text[units:])
    r = CliRunner().invoke(app, ["analyse", "narvik", "--from", str(bad), "--no-web", "--json"])
    assert r.exit_code == 0, r.output
    flags = json.loads(r.output)["problems"]
    assert any(p.startswith("state.units.1SG is given twice (lines ") and p.endswith("the later is kept") for p in flags)
    from hexwar.ui.cli_common import read_position

    head, data, g = read_position(bad, registry.get("narvik"), "analyse")
    assert data.units["1SG"].loc == "harstad"  # the later block
    board = AnalysisBoard(registry.get("narvik"), g, data, head, tmp_path)
    assert any("given twice" in p for p in board.problems())
    board.save("mended")
    assert not any("given twice" in p for p in board.problems())


def test_save_position_replaces_only_its_own_position_and_never_someone_elses_file(tmp_path):
    # issue 70: "save position" and "play on here" replaced any .yaml of the folder
    web = WebAnalysis(board_of("narvik", folder=tmp_path))
    guard = make_analysis_app(web, token="k")
    c = TestClient(guard, base_url="http://127.0.0.1")
    h = {"X-Hexwar-Token": "k"}
    (tmp_path / "docker-compose.yml").write_text("services: {}\n")
    (tmp_path / "notes.yaml").write_text("mine\n")
    for name in ("docker-compose.yml", "notes", "notes.yaml"):
        for route, body in (("/api/save", {"name": name}), ("/api/play", {"name": name, "seat": "allies"})):
            r = c.post(route, headers=h, json=body)
            assert r.status_code == 422 and "hexwar replaces only a file it wrote" in r.json()["error"], (route, name)
    assert (tmp_path / "docker-compose.yml").read_text() == "services: {}\n" and (tmp_path / "notes.yaml").read_text() == "mine\n"
    assert c.post("/api/save", headers=h, json={"name": "mine"}).status_code == 200
    assert c.post("/api/save", headers=h, json={"name": "mine"}).status_code == 200  # its own, unchanged: replaced
    r = c.post("/api/save", headers=h, json={"name": "é" * 120})  # 245 bytes: fits (it answered 500)
    assert r.status_code == 200 and Path(r.json()["saved"]).is_file()
    assert c.post("/api/save", headers=h, json={"name": "é" * 126}).status_code == 422  # 257 bytes: one line


def test_play_on_here_keeps_one_play_board_and_stops_it_with_the_analysis_board(tmp_path):
    # issue 70: each "play on here" left a server running (30 calls: 30 ports, 60 threads)
    import threading

    web = WebAnalysis(board_of("narvik", folder=tmp_path))
    before = threading.active_count()
    try:
        first = web.play_on("one", "allies")
        assert "url" in first, first
        board = web.playing
        second = web.play_on("two", "allies")
        assert "the board of the last play-on is closed" in second["said"]
        assert not board.thread.is_alive() and board.state.save._lock_fd is None  # its server and save let go
        assert threading.active_count() <= before + 3
    finally:
        web.stop()
    assert web.playing is None and threading.active_count() <= before + 1
