"""Position files (issue 54): one moment of a game as YAML a person reads and edits, written
from a save (``hexwar position SAVE --at N -o pos.yaml``), read by the rule queries and by
``hexwar play --from pos.yaml``, which plays on from there; a save played on from a position
replays from it. Errors are one line naming the file, the line and the key."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from hexwar.core.engine import load_game
from hexwar.core.position import PositionError, dump, load
from hexwar.games import registry
from hexwar.ui.cli import app

GAMES = [g.name for g in registry.games()]


def _played(name: str, tmp_path, orders: int = 30, seat: str = "all"):
    info = registry.get(name)
    g = info.build()
    s = g.new_state(5)
    path = tmp_path / f"{name}.hexwar"
    s.attach_save(path)
    s.log.meta.update(scenario=info.default_scenario, board=info.default_board, switches=[], seat=seat)
    s.save.update_meta({"scenario": info.default_scenario, "board": info.default_board, "switches": [], "seat": seat})
    rng = random.Random(5)
    while len(s.log) < orders and not s.is_over():
        s.apply(rng.choice(s.legal_orders()))
    return info, g, s, path


@pytest.mark.parametrize("name", GAMES)
def test_a_position_round_trips_save_position_play_from_the_same_state(name, tmp_path, monkeypatch):
    """save -> ``hexwar position`` -> ``hexwar play --from`` -> the same state; the new game's
    save replays from the position it started at."""
    info, g, s, path = _played(name, tmp_path)
    pos = tmp_path / "pos.yaml"
    r = CliRunner().invoke(app, ["position", str(path), "--at", str(len(s.log)), "-o", str(pos)])
    assert r.exit_code == 0, r.output
    head, data = load(pos)
    assert head["game"] == name and head["seen_by"] == "all"
    assert data.to_json() == s.data.to_json()
    monkeypatch.chdir(tmp_path)
    # the person takes a side not deciding now: the bots play on from the position to its
    # decision, where the person quits (the seat "none" would have the bots play to the end)
    other = next(x for x in info.sides if x != s.current_side())
    r = CliRunner().invoke(app, ["play", "--from", str(pos), "--side", other, "--opponent", info.batch_bot, "--save", "on.hexwar", "--seed", "2"],
                           input="quit\n")
    assert r.exit_code == 0, r.output
    on = load_game(g, tmp_path / "on.hexwar")
    try:
        assert on.log.meta["start"] == s.data.to_json()
        assert on.is_over() or len(on.log) > 0  # the bots played on from the position
    finally:
        on.save.close()


def test_a_position_written_from_a_game_in_progress_carries_only_what_its_seat_sees(tmp_path):
    # 11.0: the Allied seat's position names no face-down German counter
    info, g, s, path = _played("narvik", tmp_path, orders=12, seat="allies")
    pos = tmp_path / "allies.yaml"
    assert CliRunner().invoke(app, ["position", str(path), "-o", str(pos)]).exit_code == 0
    text = pos.read_text()
    hidden = [u.id for u in s.data.units.values() if u.side == "germans" and u.concealed and u.loc]
    assert hidden and "seen_by: allies" in text
    assert not any(f"\n    {uid}:\n" in text for uid in hidden)
    # it cannot be played on: what the Germans hide is a placeholder in it
    r = CliRunner().invoke(app, ["play", "--from", str(pos), "--save", str(tmp_path / "x.hexwar")], input="quit\n")
    assert "does not know what the other side hides" in str(r.exception) and not (tmp_path / "x.hexwar").exists()


def test_the_rule_queries_read_a_position_and_an_edit_shows_in_their_answer(tmp_path):
    """14.1, 10.0: a unit's fatigue set by hand in the file is the fatigue the query reports."""
    info, g, s, path = _played("narvik", tmp_path, orders=8)
    pos = tmp_path / "p.yaml"
    assert CliRunner().invoke(app, ["position", str(path), "-o", str(pos)]).exit_code == 0
    unit = next(u for u in s.data.on_map("allies") if g.t(u).infantry)
    text = pos.read_text()
    block = text.index(f"\n    {unit.id}:\n")
    at = text.index("fatigue: ", block)
    end = text.index("\n", at)
    pos.write_text(text[:at] + "fatigue: 7" + text[end:])
    r = CliRunner().invoke(app, ["fatigue", str(pos), unit.id, "--json"])
    assert r.exit_code == 0, r.output
    import json

    said = json.loads(r.output)
    assert [(u["unit"], u["fp"]) for u in said["units"]] == [(unit.id, 7)] and said["afl"] == 7  # 15.1: its AFL too


def test_a_bad_position_is_one_line_naming_the_file_the_line_and_the_key(tmp_path):
    info, g, s, path = _played("narvik", tmp_path, orders=4)
    pos = tmp_path / "p.yaml"
    pos.write_text(dump(dict(s.log.meta, game="narvik"), s.data, "all"))
    text = pos.read_text()
    at = text.index("fatigue: ")
    line = text[:at].count("\n") + 1
    pos.write_text(text[:at] + "fatigue: lots" + text[text.index("\n", at):])
    with pytest.raises(PositionError) as e:
        load(pos)
    said = str(e.value)
    assert said.startswith(f"{pos}:{line}: state.units.") and ".fatigue: " in said and "\n" not in said
    pos.write_text("kind: something_else\n")
    with pytest.raises(PositionError, match=r":1: kind: not a hexwar position"):
        load(pos)
    pos.write_text("kind: hexwar_position\ngame: narvik\nstate: [\n")
    with pytest.raises(PositionError, match=r"p.yaml:\d+: not YAML"):
        load(pos)
