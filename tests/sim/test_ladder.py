"""The bot ladder (issue 57): ratings with intervals, camps that win together, games that
are the same games wherever they are played, and a ladder file that resumes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hexwar import registry
from hexwar.sim import ladder
from hexwar.sim.ladder import Entrant, LadderError, Plan
from hexwar.sim.stats import bradley_terry
from hexwar.ui.cli import app


def test_entrants_are_the_fast_bots_the_batch_bot_first_then_the_search_at_each_budget():
    info = registry.get("narvik")
    names = [e.name for e in ladder.entrants(info, [8, 32])]
    assert names == ["priority", "random", "search:8", "search:32"]
    with pytest.raises(LadderError, match="no search bot"):
        ladder.entrants(registry.get("skirmish"), [8])
    with pytest.raises(LadderError, match="whole number from 1"):
        Entrant.parse("search:0")


def test_camps_are_the_sides_that_win_together_kampen_1_2():
    # Kampen om Norge 1.2: Norway and the Allies win together, one camp of the ladder
    info = registry.get("kampen")
    assert ladder.camps(info.build(), info.sides) == [("germans",), ("norwegians", "allies")]
    narvik = registry.get("narvik")
    assert ladder.camps(narvik.build(), narvik.sides) == [("allies",), ("germans",)]


def test_a_ladder_game_with_the_search_bot_is_the_same_game_when_played_again():
    # a budget in playouts, seeded dice: no clock decides anything
    a = ladder.play("kampen", "intro-narvik", 3, "search:6", "priority")
    b = ladder.play("kampen", "intro-narvik", 3, "search:6", "priority")
    for r in (a, b):
        for t in r["think"]:
            t.pop("seconds")
    assert a == b
    assert a["think"][0]["decisions"] > 0 and a["think"][0]["playouts"] <= 6 * a["think"][0]["decisions"]
    assert a["think"][1]["playouts"] == 0  # the priority bot makes none
    assert a["won"] in (0, 1, None) and (a["won"] is None) == (a["winner"] is None)


def test_a_game_that_does_not_end_stops_the_ladder_and_is_never_a_draw(monkeypatch):
    # the Europa search bot detached and absorbed one battery to the engine's cap of orders
    # (E5 C, mended): the ladder recorded it as a game without a winner
    monkeypatch.setattr(ladder, "MAX_ORDERS", 10)  # the game takes 37
    with pytest.raises(LadderError, match="kampen intro-narvik round 0, priority v random: the game did not end in 10 orders"):
        ladder.play("kampen", "intro-narvik", 0, "priority", "random")


def test_a_bot_that_reads_a_menu_plays_the_ladder_too():
    # Narvik's random bot chooses a kind of order first, from a menu, not from a list
    row = ladder.play("narvik", "scenario", 0, "random", "priority")
    assert row["think"][0] == {"decisions": 0, "seconds": 0.0, "playouts": 0} and row["think"][1]["decisions"] > 0
    assert row["row"]["reveals_germans"] >= 0 and row["turn"] >= 1


def test_the_ladder_file_resumes_and_a_line_torn_by_a_crash_is_played_again(tmp_path):
    info = registry.get("kampen")
    plan = Plan("kampen", ("intro-narvik",), tuple(ladder.entrants(info, [])), 2)
    path = tmp_path / "kampen.jsonl"
    seen: list[int] = []
    rows = ladder.run(plan, path, jobs=1, on_game=lambda row, done, total: seen.append(total))
    assert len(rows) == 2 * 2 * 2 and seen[0] == 8  # two rounds of every ordered pairing of two bots
    assert {(r["first"], r["second"]) for r in rows} == {(a, b) for a in ("priority", "random") for b in ("priority", "random")}
    assert all(r["commit"] and r["build"] for r in rows)
    seen.clear()
    assert len(ladder.run(plan, path)) == 8 and seen == []  # nothing left to play
    text = path.read_text()
    path.write_text(text[: text.rfind("\n", 0, len(text) - 1) + 1] + text.splitlines()[-1][:30])  # the last game torn
    assert len(ladder.read(path)) == 7 and not path.read_text().endswith("\n")  # a reader leaves the file alone
    again = ladder.run(plan, path)
    assert path.read_text().endswith("\n") and len(path.read_text().splitlines()) == 8  # its writer cut the torn line
    assert len(again) == 8 and sorted(map(ladder.key, again)) == sorted(map(ladder.key, rows))
    path.write_text(path.read_text() + "not json\n")
    with pytest.raises(LadderError, match="line 9 is not a ladder game"):
        ladder.read(path)




def test_bradley_terry_orders_the_players_by_strength_and_anchors_one_at_zero():
    # 0 beats 1 three times in four, 1 beats 2 three times in four, from both seats
    games = ([(0, 1, 1.0)] * 15 + [(1, 0, 0.0)] * 15 + [(0, 1, 0.0)] * 5 + [(1, 0, 1.0)] * 5
             + [(1, 2, 1.0)] * 15 + [(2, 1, 0.0)] * 15 + [(1, 2, 0.0)] * 5 + [(2, 1, 1.0)] * 5)
    fit = bradley_terry(games, 3, anchor=1)
    r = fit["ratings"]
    assert r[1] == 0 and fit["low"][1] == fit["high"][1] == 0
    assert r[0] > 100 and r[2] < -100 and fit["low"][0] > 0 and fit["high"][2] < 0
    # 3 to 1 odds are 191 Elo; the prior pulls a little towards 0
    assert 150 < r[0] < 191 and abs(r[0] + r[2]) < 1
    assert abs(fit["edge"]) < 1  # each seat won as often


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=30))
def test_bradley_terry_turned_round_every_result_turns_the_ratings_and_the_edge_round(games):
    fit = bradley_terry(games, 3)
    mirror = bradley_terry([(a, b, 1 - s) for a, b, s in games], 3)
    for x, y in zip(fit["ratings"], mirror["ratings"]):
        assert x == pytest.approx(-y, abs=1e-6)
    assert fit["edge"] == pytest.approx(-mirror["edge"], abs=1e-6)
    for lo, x, hi in zip(fit["low"], fit["ratings"], fit["high"]):
        assert lo <= x <= hi


def test_ratings_count_each_bots_games_against_itself_apart():
    rows = [{"first": a, "second": b, "won": w, "think": [{"decisions": 2, "seconds": 0.2, "playouts": 8}] * 2}
            for a, b, w in [("priority", "priority", 1), ("priority", "priority", None), ("search:4", "search:4", 0),
                            ("search:4", "priority", 0), ("priority", "search:4", 1), ("random", "priority", 1)]]
    fit = ladder.ratings(rows, "priority")
    by = {e["entrant"]: e for e in fit["entrants"]}
    assert [e["entrant"] for e in fit["entrants"]] == ["priority", "random", "search:4"]
    assert by["priority"]["self"] == {"games": 2, "first": 0, "second": 1}
    assert by["search:4"]["self"] == {"games": 1, "first": 1, "second": 0}
    assert by["search:4"]["games"] == 2 and by["search:4"]["score"] == 2 and by["random"]["score"] == 0
    assert by["search:4"]["elo"] > 0 > by["random"]["elo"]
    assert by["search:4"]["playouts"] == 4  # 8 playouts over 2 decisions


def test_hexwar_ladder_plays_writes_its_page_and_plot_and_refuses_what_it_cannot_play(tmp_path):
    out = tmp_path / "ladder"
    r = CliRunner().invoke(app, ["ladder", "kampen", "--scenario", "intro-narvik", "--playouts", "4", "--rounds", "1",
                                 "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout[r.stdout.index("{"):])
    assert got["games"] == 9  # priority, random and search:4, every ordered pairing once
    fig = got["figures"]["intro-narvik"]
    assert {e["entrant"] for e in fig["entrants"]} == {"priority", "random", "search:4"}
    page = (out / "README.md").read_text()
    assert "## Kampen om Norge" in page and "| search:4 |" in page and "Between equal bots" in page
    assert (out / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for args, says in ((["ladder", "skirmish", "--playouts", "4", "--out", str(out)], "no search bot"),
                       (["ladder", "kampen", "--scenario", "nowhere", "--out", str(out)], "no scenario 'nowhere'"),
                       (["ladder", "kampen", "--playouts", "0", "--out", str(out)], "--playouts")):
        bad = CliRunner().invoke(app, args)
        assert bad.exit_code != 0 and says in f"{bad.output}{bad.exception}", bad.output
    assert len(ladder.read(out / "kampen.jsonl")) == 9  # the refusals played nothing
