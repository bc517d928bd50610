"""Position files (issue 54): one moment of a game as YAML a person reads and edits, written
from a save (``hexwar position SAVE --at N -o pos.yaml``), read by the rule queries and by
``hexwar play --from pos.yaml``, which plays on from there; a save played on from a position
replays from it. Errors are one line naming the file, the line and the key."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from hexwar.core.engine import load_game
from hexwar.core.position import PositionError, dump, load
from hexwar import registry
from hexwar.ui.cli import app
from hexwar.ui.cli_common import UserError

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


# --- issue 70: a position is read safely and checked whole before anything is asked of it -------


def _position(tmp_path, name: str = "narvik") -> tuple[str, object]:
    info, g, s, path = _played(name, tmp_path, orders=12)
    return dump(dict(s.log.meta, game=name), s.data, "all"), s


@pytest.mark.parametrize("what,text,needle", [
    ("aliases", "lol0: &a [x, x, x]\nlol1: &b [*a, *a, *a]\n", ":2: not YAML (aliases (*name) are not allowed"),
    ("nesting 10,000 deep", "deep: " + "[" * 10_000 + "]" * 10_000 + "\n", ":1: not YAML (nested deeper than 32 levels)"),
    ("UTF-16", "kind: hexwar_position\n".encode("utf-16"), ": UTF-16 or UTF-32 text"),
    ("a byte that is no UTF-8", b"kind: hexwar_position\n# \xff\n", ":2: not UTF-8 text"),
])
def test_a_position_file_that_is_no_plain_yaml_is_refused_before_it_is_parsed(tmp_path, what, text, needle):
    p = tmp_path / "pos.yaml"
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(PositionError) as e:
        load(p)
    assert str(e.value).startswith(str(p)) and needle in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("what", ["/dev/zero", "a FIFO", "a folder", "5 MB"])
def test_a_position_that_is_no_regular_file_of_a_sane_size_is_refused_without_waiting(tmp_path, what):
    import os

    p = tmp_path / "pos.yaml"
    if what == "/dev/zero":
        p = type(p)("/dev/zero")
    elif what == "a FIFO":
        os.mkfifo(p)  # no writer: reading it would wait for ever
    elif what == "a folder":
        p.mkdir()
    else:
        p.write_text("# " + "x" * 5_000_000 + "\n")
    with pytest.raises(PositionError, match="not a position file|a position file is at most"):
        load(p)


def test_a_key_the_state_does_not_have_is_refused_at_its_line(tmp_path):
    text, _ = _position(tmp_path)
    p = tmp_path / "pos.yaml"
    p.write_text(text.replace("      fatigue: 0\n", "      fatigue: 0\n      strength: 99\n", 1))
    line = p.read_text().splitlines().index("      strength: 99") + 1
    with pytest.raises(PositionError, match=rf"pos.yaml:{line}: state\.units\.[^.]+\.strength: not a key of a narvik position"):
        load(p)


@pytest.mark.parametrize("edit,needle", [
    (lambda d: setattr(d, "phase", "nuke"), "the phase is 'nuke'; narvik has initial, events, air, action, end"),
    (lambda d: setattr(d, "weather", "tornado"), "the weather is 'tornado'"),
    (lambda d: setattr(next(u for u in d.units.values() if u.loc), "loc", "9999"), "which is not on the board"),
    (lambda d: setattr(next(u for u in d.units.values() if u.loc), "type", "death_star"), "'death_star', which this game does not have"),
    (lambda d: setattr(next(u for u in d.units.values() if u.loc), "fatigue", -3), "fatigue is never below 0"),
    (lambda d: setattr(d, "turn", 99), "the turn is 99; this game's turns are 1 to 10"),
])
def test_a_state_the_game_cannot_play_on_is_refused_by_the_game_itself(tmp_path, edit, needle):
    # issue 70: play --from started such games and failed orders later ("internal error")
    text, s = _position(tmp_path)
    _, data = load_text(tmp_path, text)
    edit(data)
    assert any(needle in p for p in s.game.state_problems(data))
    p = tmp_path / "bad.yaml"
    p.write_text(dump(dict(s.log.meta, game="narvik"), data, "all"))
    r = CliRunner().invoke(app, ["play", "--from", str(p), "--side", "none", "--opponent", "priority",
                                 "--save", str(tmp_path / "new.hexwar")])
    # one line naming the file, the line and the key (hexwar.ui.cli.main prints it)
    assert isinstance(r.exception, UserError) and re.match(rf"{re.escape(str(p))}:\d+: state\.", str(r.exception))
    assert not (tmp_path / "new.hexwar").exists()
    r = CliRunner().invoke(app, ["fatigue", str(p), "1/139"])
    assert isinstance(r.exception, UserError) and needle in str(r.exception)


def load_text(tmp_path, text):
    p = tmp_path / "good.yaml"
    p.write_text(text)
    return load(p)


@pytest.mark.parametrize("name", GAMES)
def test_every_state_of_play_and_every_sides_view_of_it_is_one_its_game_accepts(name):
    # the check must never refuse a state the game itself reached (nor a side's view of it)
    info = registry.get(name)
    for sc, bd, sw in info.conformance_variants()[:3]:
        g = info.build(sc, bd, sw)
        s = g.new_state(7)
        rng = random.Random(7)
        for _ in range(400):
            assert g.state_problems(s.data) == []
            for side in info.sides:
                assert g.state_problems(g.view(s.data, [side]), [side]) == []
            if s.is_over():
                break
            s.apply(rng.choice(s.legal_orders()))


@pytest.mark.parametrize("seat", ["allies", "both", "batch"])
def test_the_readme_chain_save_position_every_query_play_on(seat, tmp_path, monkeypatch):
    """Issue 71: ``position SAVE -o pos.yaml``, then every query on it, then ``play --from
    pos.yaml``, for a seat's save (written as the seat saw it for the queries; with
    ``--show-secrets`` to play on), a hot seat's (both sides: it saw everything) and a
    batch's (``simulate --game``: nobody's seat, every side shown)."""
    monkeypatch.chdir(tmp_path)
    run = CliRunner().invoke
    if seat == "batch":
        r = run(app, ["simulate", "narvik", "--games", "2", "--seed", "1", "--game", "1", "--save", "g.hexwar"])
    else:
        r = run(app, ["play", "narvik", "--side", seat, "--opponent", "priority", "--save", "g.hexwar", "--seed", "3"],
                input="1\n" * 12 + "quit\n")
    assert r.exit_code == 0, r.output
    r = run(app, ["position", "g.hexwar", "--at", "8", "-o", "pos.yaml"])
    assert r.exit_code == 0, r.output
    if seat == "allies":  # the seat's eyes: the queries read it; play on needs what the Germans hid
        r = run(app, ["play", "--from", "pos.yaml", "--save", "on.hexwar"], input="quit\n")
        assert r.exit_code != 0 and "--show-secrets" in str(r.exception)
        assert "as the allies see it" in run(app, ["supply", "pos.yaml", "--json"]).output
        r = run(app, ["position", "g.hexwar", "--at", "8", "--show-secrets", "-o", "pos.yaml"])
        assert r.exit_code == 0 and "as everyone sees it" in r.output, r.output
    head, data = load(tmp_path / "pos.yaml")
    unit = next(u.id for u in sorted(data.units.values(), key=lambda u: u.id)
                if u.loc and u.side == "allies" and not u.concealed and u.type.endswith("_bn"))
    for query in (["reach", "pos.yaml", unit], ["supply", "pos.yaml"], ["fatigue", "pos.yaml"],
                  ["explain", "pos.yaml", unit], ["odds", "pos.yaml", "--table"]):
        r = run(app, [*query, "--json"] if query[0] != "explain" else query)
        assert r.exit_code == 0, (query, r.output)
    r = run(app, ["play", "--from", "pos.yaml", "--save", "on.hexwar"], input="quit\n")
    assert r.exit_code == 0 and "saved" in r.output and (tmp_path / "on.hexwar").exists(), r.output
