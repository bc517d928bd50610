"""One view per side (issue 12): nothing a side may not see reaches its player or its bot.

Assault on Narvik: the other side's face-down counters (units and dummies) and secret events;
Kampen om Norge: the other factions' hands and every deck's unused cards. Checked on the
terminal's output (status, list, explain, events, bot orders), the SVG snapshots, the state a
bot chooses from, and ``hexwar replay`` of an unfinished game.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
from rich.console import Console

from hexwar.ai.random_bot import RandomBot
from hexwar.core.engine import run_fast
from hexwar.core.replay import replay
from hexwar.games.kampen import FACTIONS, GERMANS, KampenGame
from hexwar.games.kampen.bots import KampenBot
from hexwar.games.kampen.game import HIDDEN_CARD
from hexwar.games.kampen.play import KampenPresenter, render
from hexwar.games.narvik import Switches, narvik_game
from hexwar.games.narvik.bots import PriorityBot
from hexwar.games.narvik.play import NarvikPresenter
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text


def secret_ids(data, side):
    """The other side's face-down counters now, and their names; not a counter whose
    elimination is on the public record of victory points (29.0), replaced face down since
    (23.4): that it exists is no secret, which face-down counter it is stays one."""
    out: set[str] = set()
    if not hasattr(data, "units"):  # a card game (Kampen om Norge): no counters to hide
        return out
    names = [u.name for u in data.units.values()]
    public = {a.cause.removesuffix(" eliminated") for a in getattr(data, "vp_log", ()) if a.cause.endswith(" eliminated")}
    for u in data.units.values():
        if u.side != side and u.concealed and u.loc is not None and u.id not in public:
            out.add(u.id)
            if u.name and names.count(u.name) == 1:  # "Dummy" names every dummy, the off-map ones too
                out.add(u.name)
    return out


def leaks(text, secrets):
    """The secrets named in ``text`` as words of their own (not inside another id or name);
    the regular expression only for a secret found in it at all (a search of a state's JSON
    for each secret was most of this file's time)."""
    return sorted(s for s in secrets if s in text and re.search(rf"(?<![\w/-]){re.escape(s)}(?![\w/-])", text))


class Spy:
    """A bot that remembers what it was shown."""

    reads_by_kind, reads_menu, thinks, progress = False, False, False, None  # the engine's Bot protocol (hexwar.core.game)

    def __init__(self, bot):
        self.bot, self.name, self.seen = bot, "spy", []

    def choose(self, state, legal):
        self.seen.append((state.data.to_json(), secret_ids_of(state)))
        return self.bot.choose(state, legal)


def secret_ids_of(state):
    real = state._real.data if hasattr(state, "_real") else state.data
    side = state.current_side()
    units = real.units.values() if hasattr(real, "units") else ()  # none in a card game
    return secret_ids(real, side) | {u.id for u in units if u.side != side and u.concealed and u.type == "dummy"}


def test_narvik_bots_choose_from_their_own_view_only():
    for switches in (Switches(), Switches(allied_concealment=True)):
        g = narvik_game(switches)
        for seed in (1,):  # a whole game, every decision of both sides' bots (a second seed cost 9 s)
            spies = {s: Spy(PriorityBot(s, seed)) for s in ("allies", "germans")}
            run_fast(g, seed, spies)
            for spy in spies.values():
                assert spy.seen
                for text, secrets in spy.seen:
                    assert not leaks(text, secrets), leaks(text, secrets)[:5]


def test_kampen_bots_never_see_another_hand_or_a_deck_order():
    g = KampenGame("basic")
    spies = {f: Spy(KampenBot(f, 3)) for f in FACTIONS}
    run_fast(g, 3, spies)
    for f, spy in spies.items():
        for text, _ in spy.seen:
            d = json.loads(text)
            for other in FACTIONS:
                if other != f:
                    assert set(d["hand"][other]) <= {HIDDEN_CARD}
                assert d["deck"][other][: max(d["down"][other], 0)] == [HIDDEN_CARD] * max(d["down"][other], 0)


def _allied_session(seed, script, switches=Switches()):
    g = narvik_game(switches)
    s = g.new_state(seed)
    buf = io.StringIO()
    it = iter(script)
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", seed)}, Console(file=buf, width=200), None,
                     lambda prompt: next(it, "quit"))
    return g, s, p, buf


def test_the_allied_player_never_sees_a_face_down_german_counter(tmp_path):
    for seed in (1, 5):
        g, s, p, buf = _allied_session(seed, ["1"] * 20)
        p.session.snapshots = tmp_path
        p.run()
        assert not s.is_over()  # once it is over every counter is turned up (the next test)
        played = buf.getvalue()
        # bot orders and events on the way: face-down placements are anonymous
        assert not re.search(r"germans: place \S+ \d{4} hidden", played)
        secrets = secret_ids(s.data, "allies") | {u.id for u in s.data.units.values() if u.type == "dummy"}
        buf.truncate(0)
        buf.seek(0)
        d = s.data
        hexes = sorted({u.loc for u in d.on_map("germans")})
        cmds = ["status", "list", "explain last", "map"] + [f"explain {h}" for h in hexes]
        cmds += [f"explain ?{i}" for i in range(1, 25)] + ["explain DUMMY-1", "explain KM-1"]
        it = iter(cmds + ["quit"])
        p.read = lambda prompt: next(it, "quit")
        for c in cmds:
            p.command(c, s.legal_orders())
        out = buf.getvalue().replace("(not 'DUMMY-1')", "").replace("(not 'KM-1')", "")  # the echo of what was typed
        assert not leaks(out, secrets), leaks(out, secrets)
        assert "dummy" not in out.lower()
        for svg in tmp_path.glob("*.svg"):
            assert not leaks(svg.read_text(), secrets), svg


def test_once_the_game_is_over_the_allied_player_sees_every_counter_turned_up(tmp_path):
    """At the end of a game the face-down German counters are turned up for the Allied player,
    as a replay shows them to everyone once it is over: ``explain`` names the dummies, the map
    draws no '?'. Until the last order they stayed face down (the test above)."""
    g, s, p, buf = _allied_session(1, ["1"] * 40)
    p.session.snapshots = tmp_path
    before = None
    for _ in range(200):
        if s.is_over():
            break
        before = {u.id for u in p.session.view().on_map("germans") if u.concealed}
        legal = s.legal_orders()
        if s.current_side() == "germans":
            s.apply(p.session.bots["germans"].choose(s.view_for(("germans",)), legal))
        else:
            s.apply(legal[0])
    assert s.is_over() and before and all(x.startswith("?") for x in before)  # face down to the last order
    dummies = sorted(u.id for u in s.data.on_map("germans") if u.type == "dummy")
    assert dummies and said_text(p.presenter.explain(dummies[0])).startswith(dummies[0])
    svg = p.presenter.map_svg()
    assert ">?<" not in svg and leaks(svg, set(dummies)) == dummies


def test_a_game_only_watched_draws_every_counter_face_up_and_a_hot_seat_none():
    """``hexwar play --side none`` (bots on every side, the person watching) has no one to keep
    a secret from: the map draws the German dummies by name, as explain names them; a hot seat
    (one person, both sides) draws every side's face-down counters face down."""
    g = narvik_game()
    s = g.new_state(1)
    bots = {x: PriorityBot(x, 1) for x in ("allies", "germans")}
    for _ in range(30):
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), s.legal_orders()))
    dummies = {u.id for u in s.data.on_map("germans") if u.type == "dummy"}
    assert dummies and not s.is_over()
    watched = terminal(NarvikPresenter, s, set(), bots, Console(file=io.StringIO()), None, lambda _: "quit").presenter.map_svg()
    assert ">?<" not in watched and leaks(watched, dummies) == sorted(dummies)
    hot = terminal(NarvikPresenter, s, {"allies", "germans"}, {}, Console(file=io.StringIO()), None, lambda _: "quit").presenter.map_svg()
    assert ">?<" in hot and not leaks(hot, dummies)
    # issue 55: the hot seat's explain keeps them face down as its map does, and the watcher's names them
    for humans, named in ((set(), True), ({"allies", "germans"}, False)):
        buf = io.StringIO()
        p = terminal(NarvikPresenter, s, humans, {} if humans else bots, Console(file=buf, width=200), None, lambda _: "quit")
        for h in sorted({s.data.units[x].loc for x in dummies}):
            p.command(f"explain {h}", [])
        assert bool(leaks(buf.getvalue(), dummies)) == named, buf.getvalue()


def test_secret_events_are_the_rolling_sides_alone():
    g = narvik_game()
    for seed in range(40):
        s = g.new_state(seed)
        bots = {x: RandomBot(seed) for x in ("allies", "germans")}
        while not s.is_over() and s.data.turn < 4:
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
        for e in s.log.entries:
            for side in ("allies", "germans"):
                for v in g.visible_events(s.data, e.events, {side}):
                    if v["type"] == "secret" and v["side"] != side:
                        assert v["result"] == "?"
        if any(ev["type"] == "secret" and ev["side"] == "germans" and ev["result"] == "fuhrer_orders"
               for e in s.log.entries for ev in e.events):
            assert g.view(s.data, {"allies"}).fuhrer is False
            return
    raise AssertionError("no Führer orders in 40 games")  # pragma: no cover


def test_the_coalition_player_never_sees_the_german_hand():
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    buf = io.StringIO()
    it = iter(["status", "1", "status", "explain last", "quit"])
    p = terminal(KampenPresenter, s, {"norwegians", "allies"}, {GERMANS: KampenBot(GERMANS, 5)}, Console(file=buf, width=200), None,
                     lambda prompt: next(it, "quit"))
    p.run()
    german_hand = {g.copies[c].name for c in s.data.hand[GERMANS]}
    own = {g.copies[c].name for f in ("norwegians", "allies") for c in s.data.hand[f]}
    played = {g.copies[c].name for f in FACTIONS for c in s.data.deck[f][max(s.data.down[f], 0):]}
    status_rows = [ln for ln in buf.getvalue().splitlines() if re.match(r"^ germans {2,}", ln)]
    assert status_rows and all(re.search(r"\d cards", ln) for ln in status_rows)
    for name in german_hand - own - played:
        assert name not in "\n".join(status_rows)


def test_replay_of_an_unfinished_game_shows_the_players_view(tmp_path):
    env = dict(os.environ, HEXWAR_SNAPSHOTS=str(tmp_path))
    run = [sys.executable, "-m", "hexwar.ui.cli"]
    p = subprocess.run([*run, "play", "narvik", "--seed", "7", "--opponent", "priority", "--save", "s.hexwar"], cwd=tmp_path,
                       input="1\n" * 30 + "quit\n", capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    from hexwar.core.log import SaveFile

    log = SaveFile(tmp_path / "s.hexwar").load()
    g = narvik_game()
    st = replay(g, log)
    assert not st.is_over()
    ever_seen = {ev.get("unit") for e in log.entries for ev in e.events if ev["type"] in ("revealed", "reveal", "dummy_removed")}
    secrets = {u.id for u in st.data.units.values() if u.side == "germans" and u.concealed and u.loc} - ever_seen
    r = subprocess.run([*run, "replay", "s.hexwar", "--json"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and not leaks(r.stdout, secrets), leaks(r.stdout, secrets)
    # another side's eyes, or everyone's, would show the Allied player what the Germans hide (51)
    for side in ("all", "germans"):
        other = subprocess.run([*run, "replay", "s.hexwar", "--json", "--side", side], cwd=tmp_path, capture_output=True,
                               text=True, env=env, timeout=300)
        assert other.returncode == 2 and "unfinished game played as the allies" in other.stderr
        assert not leaks(other.stdout + other.stderr, secrets)


def test_the_web_board_never_shows_the_allies_a_face_down_german_counter():
    """Every answer of the web board's API to the Allied player (state, picks, hovers) is
    checked for the real ids of face-down German counters and dummies (11.0)."""
    import json as js

    pytest.importorskip("starlette.testclient")
    from tests.ui.webclient import board

    for seed in (1, 5):
        g, s, p, _ = _allied_session(seed, [])
        client = board(p)
        texts = []
        for _ in range(25):
            st = client.get("/api/state").json()
            texts.append(js.dumps(st))
            if st["over"] or not st["orders"]:
                break
            client.post("/api/command", json={"line": st["orders"][0]})
        secrets = secret_ids(s.data, "allies") | {u.id for u in s.data.units.values() if u.type == "dummy"}
        assert secrets  # the Germans still hold face-down counters
        for h in sorted({u.loc for u in s.data.on_map("germans") if u.loc}):
            texts.append(js.dumps(client.get("/api/pick", params={"loc": h}).json()))
            texts.append(js.dumps(client.get("/api/about", params={"loc": h}).json()))
        for uid in secrets:
            r = client.get("/api/pick", params={"unit": uid})
            assert r.status_code == 404 and uid in r.json()["error"]  # the id typed is echoed back, nothing more
        assert not leaks("\n".join(texts), secrets), leaks("\n".join(texts), secrets)


@pytest.mark.parametrize("viewer,other", [(GERMANS, "allies"), ("allies", GERMANS)])
def test_advanced_kampen_face_down_ships_and_kept_9_april_cards_stay_hidden(viewer, other):
    """Rules 6.1, 7.0: another faction's face-down ship (which one, or a dummy) and the 9 April
    cards it keeps reach neither the terminal (bot orders, events, status) nor the SVG, until
    a ship is turned face up (interception, combat, landing, raid) or a card is played."""
    g = KampenGame("advanced")
    s = g.new_state(8)
    buf = io.StringIO()
    it = iter(["status", "map", "status", "quit"])
    bots = {f: RandomBot(i + 3) for i, f in enumerate(FACTIONS) if f != viewer}
    bots[viewer] = RandomBot(99)
    p = terminal(KampenPresenter, s, {viewer}, {f: b for f, b in bots.items() if f != viewer}, Console(file=buf, width=250), None,
                     lambda prompt: next(it, "quit"))
    revealed: set[str] = set()
    kept_secret: set[str] = set()
    for _ in range(200):  # the 9 April round and the first rounds after it, as the viewer sees them
        if s.is_over():
            break
        side = s.current_side()
        order = bots[side].choose(s, s.legal_orders())
        events = s.apply(order)
        seen_text = p.session.order_text(order) + "\n" + "\n".join(p.presenter.describe(e) for e in p.session.visible_events(events))
        seen_text += "\n" + render(g, g.view(s.data, {viewer}))
        for x in s.data.ships:
            name = g.fleet[x.id].name
            if x.owner != other or g.fleet[x.id].dummy:
                continue
            if x.up or x.id in s.data.seen.get(viewer, []):
                revealed.add(name)
        hidden = {g.fleet[x.id].name for x in s.data.ships if x.owner == other and not g.fleet[x.id].dummy} - revealed
        assert not leaks(seen_text, hidden), (order, leaks(seen_text, hidden))
        assert "dummy" not in p.session.order_text(order) or order.side == viewer
        if order.kind == "choose" and order.side != viewer:
            kept_secret.add(order.card)
            assert order.card not in seen_text and g.copies[order.copy].name not in seen_text
    assert kept_secret and revealed  # the game got far enough to test both
    p.command("status", [])
    status = buf.getvalue()
    hidden = {g.fleet[x.id].name for x in s.data.ships if x.owner == other and not g.fleet[x.id].dummy} - revealed
    assert not leaks(status, hidden)


def test_replay_frames_show_every_counter_face_up_to_everyone_and_the_enemys_face_down_to_a_side(tmp_path):
    """``hexwar replay --svg`` of a finished game, read with everyone's eyes (the default once it
    is over), draws every counter face up: the German dummies by name, no '?'; read by the
    Allies, the German counters never revealed are '?' and their ids are in no frame (11.0).
    It drew them all face down even for everyone."""
    from typer.testing import CliRunner

    from hexwar.core.log import SaveFile
    from hexwar.sim import parse_setup
    from hexwar.sim.runner import record_one
    from hexwar.ui.cli import app

    _row, log = record_one(parse_setup("narvik"), 2, 4)
    SaveFile(tmp_path / "g.hexwar").create(log)
    st = replay(narvik_game(), log)
    ever_seen = {ev.get("unit") for e in log.entries for ev in e.events if ev["type"] in ("revealed", "reveal", "dummy_removed")}
    secrets = {u.id for u in st.data.units.values() if u.side == "germans" and u.concealed and u.loc} - ever_seen
    assert secrets
    for side in ("all", "allies"):
        res = CliRunner().invoke(app, ["replay", str(tmp_path / "g.hexwar"), "--svg", str(tmp_path / side), "--per-turn",
                                       "--side", side])
        assert res.exit_code == 0, res.output
        last = sorted((tmp_path / side).glob("*.svg"))[-1].read_text()
        if side == "all":
            assert ">?<" not in last and leaks(last, secrets) == sorted(secrets)
        else:
            assert ">?<" in last and not leaks(last, secrets)
