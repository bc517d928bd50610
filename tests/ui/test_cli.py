"""The command line: every command runs on bundled data, with --json, and fails in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hexwar.ui.cli import app
from hexwar.games.common import narvik_rules as NR

runner = CliRunner()


def run_json(*args):
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_map_show_json():
    info = run_json("map", "show", "fixtures/skirmish")
    assert info["kind"] == "hex" and info["locations"] == 111
    assert info["terrain"]["mountain"] == 4 and info["features"]["ridge"] == 5
    assert {"at": "1704", "name": "Nordby", "kinds": ["edge_north", "town", "victory"], "value": 5} in info["places"]


def test_map_render_writes_svg(tmp_path):
    out = tmp_path / "m.svg"
    info = run_json("map", "render", "fixtures/skirmish", "-o", str(out))
    svg = out.read_text()
    assert info["bytes"] == out.stat().st_size and svg.startswith("<svg") and "Portby" in svg and "1812" in svg
    assert svg.splitlines()[1].startswith("<!-- written by hexwar map drawing; sha256 ")  # issue 70: its own, to replace
    run_json("map", "render", "fixtures/areas", "-o", str(tmp_path / "a.svg"))
    assert "Nordby" in (tmp_path / "a.svg").read_text()


def test_reach_json_and_explanation():
    r = run_json("reach", "fixtures/skirmish", "1SG", "--to", "1910")
    dests = {x["to"]: x for x in r["reach"]}
    assert dests["1910"]["mp_left"] == 2 and dests["1910"]["path"] == ["1710", "1810", "1910"]
    assert [ln["rule"] for ln in r["explain"]["lines"]][:2] == ["14.2", "14.2"]
    halved = run_json("reach", "fixtures/skirmish", "1SG", "--mp", "3/2")
    assert {x["to"]: x["mp_left"] for x in halved["reach"]}["2010"] == 0


def test_supply_json():
    r = run_json("supply", "fixtures/skirmish")
    by = {x["unit"]: x for x in r["units"]}
    assert by["1SG"]["supplied"] and by["1SG"]["path"][-1] == "1612"
    assert "19.2" in by["6-1"]["reason"]


def test_fatigue_json():
    r = run_json("fatigue", "fixtures/skirmish", "I-1", "I-2", "--recover")
    assert r["afl"] == 1  # (2 + 0) // 2
    assert r["after_recovery"] == {"I-1": 0, "I-2": 0}


def test_odds_json_is_exact():
    r = run_json("odds", "fixtures/skirmish", "--ad", "4")
    assert r["column"] == "3..5" and sum(float(o["percent"]) for o in r["outcomes"]) == pytest.approx(100)
    assert {o["result"]: o["p"] for o in r["outcomes"]}["0/2"] == "1/3"
    o = run_json("odds", "fixtures/skirmish", "--attack", "7", "--defence", "3")
    assert o["column"] == "2:1"


def test_play_quits_cleanly_without_a_terminal_and_plays_bot_games(tmp_path):
    save = tmp_path / "a.hexwar"
    p = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", "play", "narvik", "--save", str(save)],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert p.returncode == 0 and "game saved; resume with" in p.stdout and save.exists()
    q = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", "play", "narvik", "--side", "none", "--opponent", "random",
                        "--seed", "2", "--save", str(tmp_path / "b.hexwar")], capture_output=True, text=True, timeout=300)
    assert q.returncode == 0 and "game over" in q.stdout
    r = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", "replay", str(tmp_path / "b.hexwar"), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and '"over": true' in r.stdout


@pytest.mark.parametrize(
    "args,code,needle",
    [
        (["reach", "fixtures/skirmish", "NOPE"], 2, "no unit 'NOPE'"),
        (["reach", "fixtures/skirmish", "1SG", "--to", "2414"], 2, "cannot reach 2414"),
        (["map", "show", "nowhere"], 1, "no such maps file"),
        (["odds", "fixtures/skirmish"], 2, "give --target"),
        (["play", "narvik", "--side", "french"], 2, "narvik has no side 'french'; sides: allies, germans, both, none"),
        (["play", "narvik", "--switch", "nope"], 2, "unknown switch"),
        (["play", "narvik", "--load", "/nonexistent.hexwar"], 2, "no such save file"),
    ],
)
def test_errors_are_one_line_without_traceback(args, code, needle):
    p = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", *args], capture_output=True, text=True)
    assert p.returncode == code
    assert needle in p.stderr and "Traceback" not in p.stderr
    assert len([ln for ln in p.stderr.splitlines() if ln.strip()]) == 1


def test_rule_queries_work_on_the_narvik_scenario():
    r = run_json("reach", "narvik/scenario", "6-I/12", "--to", "2803")
    assert r["explain"]["lines"][0]["rule"] == "14.2"  # the Gratangen-Lapphaugen road
    s = run_json("supply", "narvik/scenario", "6-I/12")
    assert s["units"][0]["supplied"] and "19.2" in s["units"][0]["reason"]  # Norwegians
    f = run_json("fatigue", "narvik/scenario", "1/139", "KM-1")
    assert f["afl"] == 0
    o = run_json("odds", "narvik/scenario", "--table")
    assert o["crt"] == "narvik-crt" and len(o["columns"]) == 8


def refusal(args):
    """The one-line error a command refuses with (the CLI prints it; the runner raises it)."""
    from hexwar.ui.cli_common import UserError

    res = runner.invoke(app, args)
    assert isinstance(res.exception, UserError), res.output
    return str(res.exception)


def _saved_narvik(tmp_path, seat, orders=60):
    """A Narvik game played by the priority bots for a while, saved as the ``seat`` side's."""
    from hexwar.games.narvik import narvik_game
    from hexwar.games.narvik.bots import PriorityBot

    g = narvik_game()
    s = g.new_state(5)
    path = tmp_path / f"{seat}.hexwar"
    s.attach_save(path)
    s.log.meta.update(seat=seat)
    bots = {side: PriorityBot(side, 5) for side in ("allies", "germans")}
    while len(s.log) < orders and not s.is_over():
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), s.legal_orders()))
    return g, s, path


def test_19_3_supply_fatigue_and_reach_read_a_saved_game_as_it_stands(tmp_path):
    """A player checking the figures of the game in progress: the queries take a save in
    place of a scenario and read its position as that side sees it."""
    g, s, path = _saved_narvik(tmp_path, "allies")
    d = s.data
    sup = run_json("supply", str(path))
    assert f"turn {d.turn}" in sup["position"] and "as the allies see it" in sup["position"]
    land = {u.id for u in d.on_map("allies") if g.is_land(u) and d.units[u.id].loc != "harstad"}
    assert land and {r["unit"] for r in sup["units"]} == land  # ships and the Harstad box left out (19.2)
    want = g.supplied(d, [d.units[x] for x in sorted(land)])
    assert {r["unit"]: r["supplied"] for r in sup["units"]} == want  # as the game rules them
    ship = next(u.id for u in d.on_map("allies") if g.is_ship(u))
    assert "ships are unaffected" in run_json("supply", str(path), ship)["units"][0]["reason"]
    fat = run_json("fatigue", str(path))
    assert {r["unit"]: r["fp"] for r in fat["units"]} == {r["unit"]: d.units[r["unit"]].fatigue for r in fat["units"]}
    assert any(r["fp"] for r in fat["units"])  # a game under way, not the start
    mover = next(iter(sorted(land)))
    reach = run_json("reach", str(path), mover)
    assert reach["from"] == d.units[mover].loc


def test_11_0_a_query_on_a_save_names_no_counter_its_side_may_not_see(tmp_path):
    """From the Allied seat, the Germans' face-down counters (11.0) are neither listed nor
    answered for: the refusal lists only what the Allies may see."""
    g, s, path = _saved_narvik(tmp_path, "allies")
    hidden = [u.id for u in s.data.units.values() if u.side == "germans" and u.concealed and u.loc]
    assert hidden
    fat = run_json("fatigue", str(path))
    assert not {r["unit"] for r in fat["units"]} & set(hidden)
    said = refusal(["fatigue", str(path), hidden[0]])
    listed = set(said.split("; units: ")[1].split(", "))
    assert said.startswith(f"no unit {hidden[0]!r}") and len(listed) > 20 and not listed & set(hidden)
    assert "no such save file" in refusal(["supply", str(tmp_path / "none.hexwar")])


def test_15_1_odds_of_an_assault_read_a_saved_game_as_it_stands_and_not_face_down_defenders(tmp_path):
    """``hexwar odds my.hexwar --target HEX --attackers ...``: the what-if reads the game in
    progress as the seat sees it (the attacker's fatigue now, not at the start, 15.1 AFL);
    a hex whose defenders are face down is refused with 11.2, naming none of them."""
    from hexwar.rules.assault import assault_sums

    g, s, path = _saved_narvik(tmp_path, "allies", orders=160)  # seed 5: 6-I/15 (2 FP) next to 2814 by then
    d = s.data
    listed = [o for o in g.legal_orders(g.acting(d, "allies")) if o.kind == "land_assault" and len(o.units) == 1
              and not o.artillery and not o.ships and not any(x.concealed for x in d.at(o.target) if x.side == "germans")]
    order = next(o for o in listed if d.units[o.units[0]].fatigue > 0)  # a tired attacker: its AFL shows (15.1)
    att = d.units[order.units[0]]
    r = run_json("odds", str(path), "--target", order.target, "--attackers", att.id)
    assert "as the allies see it" in r["position"] and f"turn {d.turn}" in r["position"]
    defenders = [u.id for u in d.at(order.target) if u.side == "germans"]
    want = assault_sums(d, g.tables, [att.id], defenders, cites=NR.ASSAULT)  # Germans: no 19.2, no defending artillery
    assert r["ad"] == want.differential and r["drm"] == want.drm - (1 if "narvik" in d.bad else 0)
    assert {"text": "attack: attacker AFL", "value": -att.fatigue, "rule": "15.1"} in r["ledger"]["lines"]  # fatigue now
    hidden = next(u for u in d.on_map("germans") if u.concealed)
    said = refusal(["odds", str(path), "--target", hidden.loc, "--attackers", att.id])
    assert said == f"{hidden.loc}: defenders face down: their strength shows when attacked (11.2)"


def test_a_kampen_save_is_refused_by_the_narvik_rule_queries(tmp_path):
    from hexwar.games.kampen import KampenGame

    s = KampenGame("intro-narvik").new_state(1)
    s.attach_save(tmp_path / "k.hexwar")
    s.apply(s.legal_orders()[0])
    assert "a Kampen om Norge game answers no supply query" in refusal(["supply", str(tmp_path / "k.hexwar")])


def test_simulate_game_n_saves_that_game_of_the_batch_to_replay_or_take_over(tmp_path, monkeypatch):
    """``simulate SETUP --seed K --game N`` plays game N of the batch again, says it is the game
    of its row, and saves it; ``replay`` gives its end, ``play --load --upto`` takes it over;
    the save is never overwritten; a row the same build played otherwise is refused loudly,
    and --save without --game is refused."""
    from hexwar.core.engine import load_game
    from hexwar.registry import get
    from hexwar.sim.runner import read_rows

    def refused(args):
        res = runner.invoke(app, args)
        assert res.exit_code != 0
        return str(res.exception)

    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["simulate", "kampen", "--games", "3", "--seed", "2", "--workers", "1"])
    assert res.exit_code == 0, res.output
    csv_path = tmp_path / "sim" / "kampen-intro-narvik_norway_priority-seed2.csv"
    row = next(r for r in read_rows(csv_path) if r["index"] == "1")
    res = runner.invoke(app, ["simulate", "kampen", "--seed", "2", "--game", "1"])
    said = " ".join(res.output.split())
    assert res.exit_code == 0, res.output
    level = get("kampen").wording(get("kampen").build())(row["level"])  # the areas by name, as play says it
    assert f"game 1 of kampen/intro-narvik@norway:priority --seed 2 (game seed {row['seed']}): {level}, {row['orders']} orders; " \
           f"the same game as its row in sim/kampen-intro-narvik_norway_priority-seed2.csv" in said
    save = tmp_path / "kampen-intro-narvik_norway_priority-seed2-game1.hexwar"
    info = get("kampen")
    s = load_game(info.build(), save)
    assert len(s.log) == int(row["orders"]) and s.result().level == row["level"]
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 0 and f"{row['orders']} orders; {level}" in " ".join(res.output.split())
    assert "already exists; a save is never overwritten" in refused(["simulate", "kampen", "--seed", "2", "--game", "1"])
    assert "give --game N too" in refused(["simulate", "kampen", "--save", "x.hexwar"])
    # take it over from order 10, commanding the coalition
    res = runner.invoke(app, ["play", "--load", str(save), "--upto", "10", "--side", "coalition"], input="quit\n")
    assert res.exit_code == 0, res.output
    assert len(load_game(info.build(), save).log) == 10
    assert (tmp_path / f"{save.name.removesuffix('.hexwar')}.all-{row['orders']}-orders.hexwar").exists()
    # a row of this very build that the game played again does not match: refused, never passed in silence
    import csv

    with open(csv_path, newline="") as fh:
        table = list(csv.reader(fh))
    k = next(i for i, r in enumerate(table) if r[1] == "1")
    assert table[k][table[0].index("orders")] == row["orders"]
    table[k][table[0].index("orders")] = str(int(row["orders"]) + 1)
    with open(csv_path, "w", newline="") as fh:
        csv.writer(fh).writerows(table)
    assert "played again differs from its row" in refused(["simulate", "kampen", "--seed", "2", "--game", "1", "--save", "other.hexwar"])


def test_the_command_list_fits_80_columns_and_every_command_shows_examples_that_parse():
    """Issue 53: ``hexwar --help`` lists each command in one line within 80 columns, and each
    command's ``--help`` ends with examples (made from the registry's games) whose words the
    command takes."""
    import os
    import shlex
    import subprocess
    import sys

    import typer

    from hexwar.ui.cli_common import app
    from hexwar.ui.cli_help import examples, with_help

    env = dict(os.environ, COLUMNS="80")
    top = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", "--help"], capture_output=True, text=True, env=env).stdout
    rows = top[top.index("Commands:"):].splitlines()[1:]
    assert rows and all(len(r) <= 80 and not r.endswith("...") for r in rows), rows
    assert all(r.startswith("  ") and r[2] != " " for r in rows if r.strip())  # one line each
    group = with_help(typer.main.get_command(app))
    said = examples()
    assert set(said) == set(group.commands)
    for name, cmd in group.commands.items():
        page = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", name, "--help"], capture_output=True, text=True,
                              env=env).stdout if name in ("play", "map") else ""
        if page:
            assert "Examples:" in page and said[name][0][0] in page
        for typed, what in said[name]:
            words = shlex.split(typed)[1:]
            assert words[0] == name and what
            if name == "odds":
                continue  # the odds command reads its game's own options itself (hexwar odds GAME --help)
            sub = cmd
            words = words[1:]
            if isinstance(cmd, typer.core.TyperGroup):
                sub, words = cmd.commands[words[0]], words[1:]
            sub.make_context(name, [w for w in words if w != "--help"])  # raises on an option it does not take


def test_replay_per_turn_draws_each_turn_as_it_ended_named_by_that_turn(tmp_path):
    """``hexwar replay --svg DIR --per-turn``: one frame per turn, ``turnNN-end.svg`` titled
    "the end of turn N", drawn before the order that began the next turn (issue 55: the frames
    were named by the turn that began)."""
    from typer.testing import CliRunner

    from hexwar.core.replay import replay as replay_log
    from hexwar.core.log import SaveFile
    from hexwar.games.narvik import narvik_game
    from hexwar.sim import parse_setup
    from hexwar.sim.runner import record_one
    from hexwar.ui.cli import app

    _row, log = record_one(parse_setup("narvik"), 2, 4)
    SaveFile(tmp_path / "g.hexwar").create(log)
    final = replay_log(narvik_game(), log).data.turn
    res = CliRunner().invoke(app, ["replay", str(tmp_path / "g.hexwar"), "--svg", str(tmp_path / "f"), "--per-turn"])
    assert res.exit_code == 0, res.output
    frames = sorted(p.name for p in (tmp_path / "f").glob("*.svg"))
    assert frames == [f"turn{k:02d}-end.svg" for k in range(1, final + 1)]
    for k in range(1, final + 1):
        text = (tmp_path / "f" / f"turn{k:02d}-end.svg").read_text()
        assert f"the end of turn {k}" in text and f"the end of turn {k + 1}" not in text


@pytest.mark.parametrize("game", [g.name for g in __import__("hexwar.registry", fromlist=["games"]).games()])
def test_explain_of_nothing_of_that_name_is_an_error_that_says_what_may_be_asked(game):
    """``hexwar explain GAME zzz`` exits 2 with the presenter's refusal on one line (it
    answered it as an explanation and exited 0)."""
    from hexwar.ui.cli_common import UserError

    r = CliRunner().invoke(app, ["explain", game, "zzz"])
    assert isinstance(r.exception, UserError) and r.stdout == ""
    said = str(r.exception)
    assert said.startswith("explain what? ") and said.endswith("(not 'zzz')") and "\n" not in said


@pytest.mark.parametrize("fault,code", [("max", 3), ("parse", 3), ("refusal", 2)])
def test_a_valueerror_of_hexwars_own_bug_is_an_internal_error_not_the_persons_mistake(fault, code, monkeypatch, capsys, tmp_path):
    """A ValueError raised inside a builtin or a library hexwar called (``max()`` of nothing:
    the Kampen recall the bot ladder met) is a bug: exit 3, its traceback kept in the crash
    log. It was said as the person's mistake (``error: max() arg is an empty sequence``,
    exit 2), with nothing kept. A ValueError hexwar raises itself with its words is a
    refusal: one line, exit 2."""
    from typer.models import CommandInfo

    from hexwar.ui import cli

    def broken() -> None:
        if fault == "max":
            max([])
        elif fault == "parse":
            int("x")
        raise ValueError("--attack and --defend count battalions: 1 to 100 each")

    monkeypatch.setattr(app, "registered_commands", [*app.registered_commands, CommandInfo(name="zz-fault", callback=broken)])
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["hexwar", "zz-fault"])
    with pytest.raises(SystemExit) as out:
        cli.main()
    err = capsys.readouterr().err
    assert out.value.code == code and err.count("\n") == 1
    if code == 3:
        assert err.startswith("hexwar: internal error (ValueError: ") and "please report it with" in err
        assert "Traceback" in (tmp_path / "hexwar" / "crash.log").read_text()
    else:
        assert err == "error: --attack and --defend count battalions: 1 to 100 each\n"
        assert not (tmp_path / "hexwar").exists()


def test_explain_reads_a_games_scenario_by_its_name_and_says_which_there_are():
    """``hexwar explain kampen/basic oslo`` explains Oslo at the basic game's start (the name
    compare and ``play --scenario`` use); it was read as a scenario file and refused with a
    data error about the file's kind. A misnamed scenario is one line naming the game's."""
    from hexwar.ui.cli_common import UserError

    r = CliRunner().invoke(app, ["explain", "kampen/basic", "oslo"])
    assert r.exit_code == 0 and r.stdout.startswith("Oslo: germans 2"), r.output
    r = CliRunner().invoke(app, ["explain", "kampen/basc", "oslo"])
    assert isinstance(r.exception, UserError)
    assert str(r.exception) == "kampen has no scenario 'basc'; scenarios: intro-narvik, basic, advanced"


def test_replay_labels_each_order_with_the_turn_it_was_given_in(tmp_path):
    """``hexwar replay``: an order is labelled with the turn it was given in, the order that
    ends a turn too (issue 73: it was labelled with the turn after it, the turn its replay left)."""
    from hexwar.core.replay import replay_entry, replay_start
    from hexwar.core.log import SaveFile
    from hexwar.games.narvik import narvik_game
    from hexwar.sim import parse_setup
    from hexwar.sim.runner import record_one

    _row, log = record_one(parse_setup("narvik"), 2, 4)
    SaveFile(tmp_path / "g.hexwar").create(log)
    st = replay_start(narvik_game(), log.meta)
    given: list[int] = []  # each order's turn: the state's when it was given
    for e in log.entries:
        given.append(st.data.turn)
        replay_entry(st, e)
    res = runner.invoke(app, ["replay", str(tmp_path / "g.hexwar"), "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["log"]
    assert [r["turn"] for r in rows] == given
    assert any(b > a for a, b in zip(given, given[1:])), "the game crossed no turn"
