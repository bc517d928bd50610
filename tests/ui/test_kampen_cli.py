"""Kampen om Norge in the terminal: play loop, saves, undo, the map, explain, exact odds."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hexwar.ui.bots_turn import bot_summary
from hexwar.core.engine import load_game
from hexwar.core.replay import replay
from hexwar.core.log import EventLog
from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, KampenGame
from hexwar.games.kampen.bots import KampenBot, win_chance
from hexwar.games.kampen.play import KampenPresenter, say, say_in, words_in
from hexwar.rules.dicecombat import summary
from hexwar.ui.cli import app
from hexwar.ui.play import terminal

runner = CliRunner()


def scripted(lines):
    it = iter(lines)
    return lambda prompt: next(it, "quit")


def test_kampen_play_loop_status_map_explain_undo_save_and_resume(tmp_path):
    g = KampenGame("intro-narvik")
    path = tmp_path / "k.hexwar"
    s = g.new_state(3)
    s.attach_save(path)
    buf = io.StringIO()
    bots = {GERMANS: KampenBot(GERMANS, 3)}
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, bots, Console(file=buf, width=140), path,
                     scripted(["help", "status", "map", "explain narvik", "explain last", "1", "2", "undo", "1", "quit"]))
    assert p.run() == 0
    text = buf.getvalue()
    assert "Kampen om Norge" in text and "objectives" not in text.split("help")[0]
    assert "Harstad (fjord/lake: attack dice halved" in text  # S1: Harstad is across a fjord
    assert "took back" in text
    svgs = list(tmp_path.glob("k.hexwar.round*.svg"))
    assert svgs and "AL 3" in svgs[0].read_text()  # the Allied stack at Harstad
    # the hand of the German bot is never shown to the coalition player
    assert re.search(r"germans .* \d cards", text)  # counted, not named
    resumed = load_game(g, path)
    assert resumed.log.entries == s.log.entries


def test_kampen_status_names_each_factions_areas_as_the_map_does_with_their_battalions():
    """'Bjørnfjell 1, Mo i Rana 1, Narvik 1', by name, where it read 'bjornfjell:1 mo_i_rana:1'."""
    from hexwar.board.base import place_name

    g = KampenGame("intro-narvik")
    s = g.new_state(4)
    buf = io.StringIO()
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {}, Console(file=buf, width=250), None, scripted([]))
    p.command("status", [])
    rows = {ln.split()[0]: ln for ln in buf.getvalue().splitlines() if ln.strip()}
    for f in (GERMANS, NORWAY, ALLIES):
        held = ", ".join(f"{a} {n}" for a, n in sorted((place_name(g.board, a), n) for a, n in s.data.bn[f].items()))
        assert f" {held} " in rows[f] and "Bjørnfjell" in buf.getvalue()


def test_kampen_play_explains_cards_states_the_objectives_and_warns_before_the_last_order():
    """explain <card> gives its timing (2.4) and effect with provenance; status says how S1 is
    won and ends; the order that ends the game must be typed twice (seed 1: a German withdrawal
    in the last Allied round ends it, S1)."""
    g = KampenGame("intro-narvik")
    s = g.new_state(1)
    bots = {f: KampenBot(f, 1) for f in (GERMANS, NORWAY, ALLIES)}
    while not s.is_over():
        s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
    last = s.log.entries[-1]
    assert last.order["kind"] == "withdraw" and not last.rolls
    before = replay(g, EventLog(dict(s.log.meta), s.log.entries[:-1]))
    text = g.orders.from_dict(last.order).text()
    buf = io.StringIO()
    p = terminal(KampenPresenter, before, {GERMANS}, {NORWAY: bots[NORWAY], ALLIES: bots[ALLIES]}, Console(file=buf, width=160), None,
                     scripted(["explain gebirgsjäger", "explain Jagerfly", "status", text, "status", text]))
    assert p.run() == 0
    out = buf.getvalue()
    assert "Gebirgsjäger (Mountain troops), germans card" in out and "own round, combat step 1 (green triangle, phase 2)" in out
    assert "cancels Bombefly or Jagerbomber" in out  # the air type, named by its cards
    n = sum(1 for cp in g.copies if cp.card == "gebirgsjager")
    sym = {cp.symbols for cp in g.copies if cp.card == "gebirgsjager"}
    assert len(sym) == 1 and f"in this game: {n} copies with {sym.pop()} reinforcement symbol" in out  # how many in the decks
    assert "Germany wins if it still holds any of them" in out and "the Allies draw their last unused card (3 left)" in out
    warned = out.index("this order ends the game: the Allies drew their last unused card (S1)")
    assert "standing" in out[warned:]  # the status after the warning: the game went on
    assert before.is_over() and out.rstrip().endswith(words_in(g)(before.result().level))  # the areas by name


def test_kampen_bots_play_scenario_1_to_the_end_through_the_game_api():
    g = KampenGame("intro-narvik")
    for seed in range(5):
        s = g.new_state(seed)
        bots = {f: KampenBot(f, seed) for f in (GERMANS, NORWAY, ALLIES)}
        while not s.is_over():
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
        assert s.result().over and s.data.ended


def test_4_2_odds_cli_is_exact_and_agrees_with_enumeration():
    res = runner.invoke(app, ["odds", "kampen", "--attack", "3", "--defend", "1", "--fjord", "--cards", "panzer=1,speidertropp",
                              "--defend-cards", "bakhold", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["attacker_dice"] == 2 and d["defender_dice"] == 1  # Example 1: Bakhold cancelled
    assert Fraction(d["attacker_wins"]) == Fraction(181, 216) == summary(2, 1, 3, 1)["attacker_wins"]
    assert abs(win_chance(2, 1) - 181 / 216) < 1e-12
    bad = runner.invoke(app, ["odds", "kampen", "--attack", "3"])
    assert bad.exit_code != 0 and "--defend" in str(bad.exception)
    unknown = runner.invoke(app, ["odds", "kampen", "--attack", "3", "--defend", "2", "--cards", "tiger"])
    assert unknown.exit_code != 0 and "unknown card 'tiger'" in str(unknown.exception)


@pytest.mark.parametrize("flag,cards", [("--cards", "panzer=1,panzer=2"), ("--cards", "bombefly,jagerbomber"),
                                        ("--defend-cards", "bakhold,bakhold")])
def test_4_2_step_1_odds_refuse_two_cards_of_one_type_on_one_side(flag, cards):
    """One card of each type per side and combat; Bombefly and Jagerbomber are one type (4.2 step 1)."""
    res = runner.invoke(app, ["odds", "kampen", "--attack", "3", "--defend", "2", flag, cards])
    assert res.exit_code != 0 and "one card per type (4.2 step 1)" in str(res.exception)


def test_play_kampen_from_the_cli_on_the_hex_board(tmp_path):
    save = tmp_path / "h.hexwar"
    res = runner.invoke(app, ["play", "kampen", "--board", "nordland-hex", "--side", "none", "--opponent", "random",
                              "--seed", "2", "--save", str(save)])
    assert res.exit_code == 0, res.output
    assert "game over" in res.output
    meta = __import__("hexwar.core.log", fromlist=["SaveFile"]).SaveFile(save).load().meta
    assert meta["board"] == "nordland-hex" and meta["scenario"] == "intro-narvik"


def test_replay_of_a_kampen_save_writes_frames_with_the_battalions(tmp_path):
    g = KampenGame("intro-narvik")
    path = tmp_path / "r.hexwar"
    s = g.new_state(4)
    s.log.meta.update(seat="none")  # bots on every side: a game only watched, every side's eyes (51)
    s.attach_save(path)
    bots = {f: KampenBot(f, 4) for f in (GERMANS, NORWAY, ALLIES)}
    for _ in range(12):
        s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
    player = terminal(KampenPresenter, s, set(), {}, Console(), None, lambda _: "quit")
    res = runner.invoke(app, ["replay", str(path), "--svg", str(tmp_path / "frames")])
    assert res.exit_code == 0, res.output
    frames = sorted((tmp_path / "frames").glob("*.svg"))
    assert len(frames) == 12 and "DE " in frames[-1].read_text()
    # the events read as the play loop said them: the areas by their names (Bjørnfjell)
    res = runner.invoke(app, ["replay", str(path), "--side", "all"])
    lines = [ln.strip() for ln in res.output.splitlines()]
    flat = " ".join(res.output.split())  # the console wraps long lines
    said = [player.presenter.describe(e) for e in (e for entry in s.log.entries for e in entry.events)]
    assert said and all(" ".join(line.split()) in flat for line in said)
    assert any(line != say(e) for line, e in zip(said, (e for entry in s.log.entries for e in entry.events)))
    # the orders too, as the play loop's lists showed them: areas, cards and ships by name
    # (the presenter's order_line, the registry's words_in), never an id (#, _, >)
    orders = [g.orders.from_dict(entry.order) for entry in s.log.entries]
    shown = [player.presenter.order_line(o) for o in orders]
    assert all(f"{o.side}: {line}" in " ".join(flat.split()) for o, line in zip(orders, shown)), flat
    assert any(line != o.text() for line, o in zip(shown, orders))
    said_orders = [ln.split(": ", 1)[1] for ln in lines if re.match(r"\d+ t\d+ ", ln)]
    assert len(said_orders) == len(orders) and not any(re.search(r"[#_>]", ln) for ln in said_orders), said_orders
    # the cards too by their names, as the hand shows them
    assert say_in(g)({"type": "card", "faction": GERMANS, "how": "played", "card": "gebirgsjager", "rule": "2.4"}) \
        == "germans played Gebirgsjäger  [2.4]"
    assert lines[-1].endswith(f"battalions: germans {s.result().vp['germans']}, norwegians {s.result().vp['norwegians']}, "
                              f"allies {s.result().vp['allies']}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
def test_scripted_kampen_tmux_session(tmp_path):
    """A real terminal: help, status, explain, a move, undo, pass, map, quit, reload, continue."""
    script = Path(__file__).resolve().parents[1] / "tmux_kampen_session.sh"
    env = dict(os.environ, HEXWAR_PYTHON=sys.executable, WORKDIR=str(tmp_path))
    p = subprocess.run(["bash", str(script)], capture_output=True, text=True, env=env, timeout=240)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert "RESUMED OK" in p.stdout


def test_the_bots_turn_summed_up_names_the_areas_as_the_events_do():
    """'the norwegians placed a unit 3 times (Gjøvik, Oslo, Voss)', not the data's ids."""
    g = KampenGame("basic")
    s = g.new_state(4)
    p = terminal(KampenPresenter, s, {ALLIES}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
    moves = [g.kmove(NORWAY, "gjovik", "hamar", 1), g.kmove(NORWAY, "hamar", "lillehammer", 1)]
    assert bot_summary(p.presenter, moves) == "while you waited: the norwegians moved 2 times (Hamar, Lillehammer)"


def test_a_long_list_counts_the_orders_by_the_word_they_begin_with_as_typed():
    """'125 legal orders: move 48, pass 1, play 76', the words 'list' filters by and the web
    board groups by; it said 'card 76, kmove 48', names the player never types."""
    g = KampenGame("basic")
    s = g.new_state(7)
    buf = io.StringIO()
    p = terminal(KampenPresenter, s, {GERMANS}, {}, Console(file=buf, width=200), None, lambda _: "quit")
    legal = s.legal_orders()
    p.list_orders(legal)
    head = next(ln for ln in buf.getvalue().splitlines() if "legal orders:" in ln)
    counts = dict(part.rsplit(" ", 1) for part in head.split(": ", 1)[1].split(", "))
    assert len(counts) > 1 and sum(map(int, counts.values())) == len(legal)
    assert all(int(n) == sum(1 for o in legal if o.text().split(" ", 1)[0] == word) for word, n in counts.items())
    assert {"move", "play"} <= set(counts)
