"""The first hour at the table (issue 53): every game opens on a briefing, ``brief`` gives it
again, the scenarios are terms ``rules`` knows, and ``wait`` lets the decisions that need
nothing of the person pass (Assault on Narvik's reactions, 9.1), so a Narvik turn of five
moves takes fewer commands than with a ``pass`` typed at every reaction."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from hexwar.core.orders import Move
from hexwar import registry
from hexwar.games.narvik.bots import PriorityBot
from hexwar.ui.play import terminal
from hexwar.ui.presenter import briefing
from hexwar.ui.session import Session
from hexwar.ui.words import said_text

GAMES = [g.name for g in registry.games()]


def _presenter(name: str, seed: int = 3):
    info = registry.get(name)
    s = info.build().new_state(seed)
    humans = set(info.seats[info.default_seat])
    bots = {side: info.bot(info.default_bot if info.bots[info.default_bot].fast else "random", side, seed)
            for side in info.sides if side not in humans}
    return info, info.presenter(Session(s, humans, bots, None, None))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_opens_on_a_briefing_that_names_the_scenario_and_the_persons_side(name):
    info, p = _presenter(name)
    text = "\n".join(briefing(p))
    assert p.title in text and "You command the" in text and "brief to read this again" in text
    assert all(side in text for side in p.session.humans)


@pytest.mark.parametrize("name", ["narvik", "kampen", "europa", "konflikt"])
def test_a_briefing_gives_the_aims_the_length_the_forces_and_the_decision_before_you(name):
    _, p = _presenter(name)
    heads = [line for line in briefing(p) if line.endswith(":") and not line.startswith(" ")]
    assert {"Aims and victory:", "Length:", "Your forces:", "The decision before you:"} <= set(heads)


def test_narvik_briefing_reads_the_vp_charts_and_never_names_a_face_down_counter():
    # 25.1, 29.0: the levels and the VP causes come from the charts; 11.0: face-down counters are counted
    _, p = _presenter("narvik")
    text = "\n".join(briefing(p))
    g = p.game
    assert all(level in text for _, _, level, _ in g.victory_levels.bands)
    assert f"up to {g.spec.turns} weekly turns" in text
    hidden = [u for u in p.s.data.units.values() if u.side == "germans" and u.concealed and u.loc is not None]
    assert hidden and f"{len(hidden)} of them face down" in text
    assert not any(f" {u.id}" in text or f"{u.id}," in text for u in hidden)


def _run(lines: list[str], seed: int = 5, humans=("allies",)):
    info = registry.get("narvik")
    s = info.build().new_state(seed)
    buf = io.StringIO()
    it = iter(lines)
    t = terminal(info.presenter, s, set(humans), {"germans": PriorityBot("germans", seed)}, Console(file=buf, width=200),
                 None, lambda prompt: next(it, "quit"))
    t.run()
    return buf.getvalue(), s


def test_the_terminal_opens_a_new_game_on_its_briefing_and_brief_gives_it_again():
    out, _ = _run(["brief", "quit"])
    assert out.count("The decision before you:") == 2 and "designate a Base (19.4)" in out


def test_rules_knows_the_scenario_names():
    out, _ = _run(["rules assault-on-narvik", "quit"])
    assert "a scenario of this game" in out


def _turn_commands(use_wait: bool, seed: int = 5, moves: int = 5, turns: int = 1) -> tuple[int, str]:
    """Commands a person types to play Narvik's first ``turns`` turns moving five units a turn,
    passing otherwise (9.0, 9.1): ``pass`` at every reaction, or ``wait``."""
    info = registry.get("narvik")
    s = info.build().new_state(seed)
    buf = io.StringIO()
    typed: list[str] = []
    moved: set[str] = set()
    on = [1]

    def read(prompt: str) -> str:
        if s.data.turn > turns or len(typed) > 400:
            return "quit"
        if s.data.turn != on[0]:
            on[0] = s.data.turn
            moved.clear()
        ask = s.game.pending(s.data)
        legal = s.legal_orders()
        line = "1"
        if ask is not None and ask.what == "action" and len(moved) < moves:
            toward = [o for o in legal if isinstance(o, Move) and o.unit not in moved]  # toward Narvik: the fight
            o = min(toward, key=lambda o: (s.game.board.distance(o.path[-1], s.game.narvik), o.text()), default=None)
            if o is not None:
                moved.add(o.unit)
                line = o.text()
            else:
                line = "wait" if use_wait else "pass"
        elif ask is not None and ask.what in ("action", "reaction"):
            line = "wait" if use_wait else "pass"
        typed.append(line)
        return line

    terminal(info.presenter, s, {"allies"}, {"germans": PriorityBot("germans", seed)}, Console(file=buf, width=200),
             None, read).run()
    assert s.data.turn > turns or s.is_over()
    return len(typed) - 1, buf.getvalue()  # the last line read is the quit


def test_wait_lets_the_reactions_pass_so_a_narvik_turn_takes_fewer_commands():
    before, _ = _turn_commands(use_wait=False)
    after, out = _turn_commands(use_wait=True)
    assert "waited: you passed" in out
    assert after < before, (before, after)


def test_wait_stops_where_the_person_must_decide_and_says_so():
    """9.0, 9.1: after ``wait`` the person is asked again only at a decision that is no reaction."""
    info = registry.get("narvik")
    s = info.build().new_state(5)
    buf = io.StringIO()
    asked: list[str] = []
    state = {"waited": False}

    def read(prompt: str) -> str:
        ask = s.game.pending(s.data)
        asked.append(ask.what if ask else "")
        if state["waited"] or len(asked) > 200:
            return "quit"
        if ask is not None and ask.what in ("action", "reaction"):
            state["waited"] = True
            return "wait"
        return "1"

    terminal(info.presenter, s, {"allies"}, {"germans": PriorityBot("germans", 5)}, Console(file=buf, width=200),
             None, read).run()
    assert state["waited"] and "waited: you passed" in buf.getvalue()
    assert asked[-1] != "reaction"  # where the wait ended: an action, results to take, or a new turn


def test_the_web_board_opens_on_the_briefing_and_its_wait_button_lets_the_reactions_pass(tmp_path):
    pytest.importorskip("starlette.testclient")
    import json

    from starlette.testclient import TestClient

    from hexwar.web.server import TOKEN_HEADER, WebGame, make_app

    info = registry.get("narvik")
    s = info.build().new_state(5)
    s.attach_save(tmp_path / "n.hexwar")
    app = make_app(WebGame(info.presenter(Session(s, {"allies"}, {"germans": PriorityBot("germans", 5)},
                                                  tmp_path / "n.hexwar", tmp_path))))
    c = TestClient(app, base_url="http://127.0.0.1:8000", headers={TOKEN_HEADER: app.token})
    st = c.get("/api/state").json()
    assert any("The decision before you:" in line for line in st["history"])
    page = c.get(f"/?token={app.token}").text
    assert 'id="wait"' in page and 'id="brief"' in page
    for _ in range(40):  # the initial decisions, to the first action or reaction
        ask = s.game.pending(s.data)
        if ask is not None and ask.what in ("action", "reaction") and s.current_side() == "allies":
            break
        st = c.post("/api/command", content=json.dumps({"line": "1"}), headers={"Content-Type": "application/json"}).json()
    st = c.post("/api/command", content=json.dumps({"line": "wait"}), headers={"Content-Type": "application/json"}).json()
    assert any("waited: you passed" in line for line in st["history"])
    ask = s.game.pending(s.data)
    assert s.is_over() or s.current_side() != "allies" or ask.what != "reaction"


@pytest.mark.parametrize("name", GAMES)
def test_every_kind_of_order_met_in_random_play_is_explained_before_it_is_given(name):
    """Issue 53: ``explain`` of any order says what it does (with its section) or what it risks,
    never only a placeholder: every kind offered in random games of every game is tried."""
    import random
    from collections import defaultdict

    info = registry.get(name)
    met: dict[str, str] = {}
    for sc, bd, sw in info.conformance_variants()[:2]:
        s = info.build(sc, bd, sw).new_state(1)
        p = info.presenter(Session(s, set(info.sides), {}, None, None))
        rng = random.Random(1)
        for _ in range(150):
            if s.is_over():
                break
            legal = s.legal_orders()
            kinds: dict[str, list] = defaultdict(list)
            for o in legal:
                kinds[o.kind].append(o)
            for kind, orders in kinds.items():
                if kind not in met:
                    o = rng.choice(orders)
                    met[kind] = said_text(p.explain_order(o))
                    said = met[kind].removeprefix(o.text()).strip(" :")
                    assert len(said) > 12 and "nothing to weigh" not in said, (name, kind, met[kind])
            s.apply(rng.choice(legal))
    assert len(met) >= 3, (name, sorted(met))  # several kinds met, each explained


def test_explain_takes_a_short_order_and_says_why_a_unit_cannot_get_there():
    # 14.1: 7-Alta (MP 4 in winter) cannot reach 2306: the cheapest way's ledger says why
    out, _ = _run(["1", "1", "explain move 7-Alta 2306", "explain move 7-Alta 2303", "quit"], seed=7)
    assert "7-Alta cannot reach 2306 in one movement action from 2403 (MP 4, winter): the cheapest way costs more" in out
    assert "MP left: -" in out
    assert "movement 2403 > 2303" in out  # a short order that is legal: its own ledger


def test_explain_a_ship_with_cargo_says_where_it_may_land_and_why_not_here():
    # 20.2, 20.3: the cargo, the beaches and ports it may land at, and why not where it stands
    out, _ = _run(["1", "1", "embark 1IG on CL-1", "explain CL-1", "quit"], seed=7)
    assert "carries 1IG (20.2)" in out and "it may land at: " in out and "(20.1, 20.3)" in out


@pytest.mark.parametrize("name", ["narvik", "kampen", "europa", "konflikt", "skirmish"])
def test_a_scripted_first_hour_in_the_terminal_to_the_end_of_turn_one(name, tmp_path):
    """Issue 53's first hour, scripted as a person types it: the briefing, ``explain`` of each
    kind of order met before giving one, ``wait`` where it may, an ``undo``, a ``save``, and on
    to the end of the first turn (or of the game); no traceback, every explanation more than a
    placeholder, the save a game that loads."""
    import random

    from hexwar.core.engine import load_game

    info = registry.get(name)
    g = info.build()
    s = g.new_state(4)
    path = tmp_path / f"{name}.hexwar"
    s.attach_save(path)
    humans = set(info.seats[info.default_seat])
    bots = {side: info.bot(info.default_bot if info.bots[info.default_bot].fast else "random", side, 4)
            for side in info.sides if side not in humans}
    buf = io.StringIO()
    rng = random.Random(4)
    typed: list[str] = ["brief"]
    explained: set[str] = set()
    plan = iter(["brief"])
    state = {"undone": False, "saved": False, "n": 0}

    def read(prompt: str) -> str:
        line = next(plan, None)
        if line is not None:
            return line
        state["n"] += 1
        if s.is_over() or s.data.turn > 1 or state["n"] > 300:
            return "quit"
        legal = s.legal_orders()
        fresh = [i for i, o in enumerate(legal, 1) if o.kind not in explained]
        if fresh:
            i = fresh[0]
            explained.add(legal[i - 1].kind)
            typed.append(f"explain {i}")
            return f"explain {i}"
        if not state["undone"] and any(e.order.get("side") in humans for e in s.log.entries):
            state["undone"] = True
            typed.append("undo")
            return "undo"
        if not state["saved"]:
            state["saved"] = True
            typed.append("save copy.hexwar")
            return f"save {tmp_path / 'copy.hexwar'}"
        if any(o.kind == "pass" for o in legal) and rng.random() < 0.3:
            typed.append("wait")
            return "wait"
        typed.append(str(rng.randrange(len(legal)) + 1))
        return typed[-1]

    t = terminal(info.presenter, s, humans, bots, Console(file=buf, width=160), path, read)
    assert t.run() == 0
    out = buf.getvalue()
    assert "Traceback" not in out and out.count("The decision before you:") + out.count("You command the") >= 2
    assert "nothing to weigh" not in out and explained
    assert state["undone"] and "took back" in out and state["saved"] and (tmp_path / "copy.hexwar").exists()
    assert s.is_over() or s.data.turn > 1 or state["n"] > 300
    back = load_game(g, path)
    assert back.data.to_json() == s.data.to_json()


def test_kampen_areas_are_tinted_by_who_holds_them_and_the_legend_says_so():
    # 1.3: who holds an area; 2.3: the airfields' ranges, dashed, named in the legend
    from hexwar.games.kampen.play import TINTS, holders

    info = registry.get("kampen")
    g = info.build()
    d = g.new_state(3).data
    tints = holders(g, d)
    for a, (colour, word) in tints.items():
        there = [f for f in ("germans", "norwegians", "allies") if d.bn[f].get(a)]
        assert there and (word == f"held by the {there[0]}" and colour == TINTS[there[0]] or len(there) == 2)
    assert {w for _, w in tints.values()} >= {"held by the germans", "held by the norwegians"}
    svg = info.render(g, d, title="t")
    assert "held by the germans" in svg and "air range of an airfield" in svg


def test_8_0_every_random_event_result_reads_as_words_with_its_consequence():
    # 8.0-8.4, 24.0: no raw identifier such as game_end_neutrality_pact reaches the person
    from hexwar.games.narvik.play import say as describe

    g = registry.get("narvik").build()
    results = {res for table in (g.open_events, g.allied_secret, g.german_secret) for res, _ in table.entries.values()}
    for res in results:
        said = describe({"type": "open_event", "roll": [6, 5], "result": res, "rule": "8.3"})
        assert "_" not in said, said
    said = describe({"type": "open_event", "roll": [6, 5], "result": "game_end_neutrality_pact", "rule": "8.3"})
    assert "the game ends at the end of this turn" in said and "24.0" in said


@pytest.mark.parametrize("name", GAMES)
def test_after_an_undo_the_same_order_meets_the_same_bot_answer(name):
    """Issue 53: a bot put back as it stood (its dice and memory) answers the same position and
    order the same way after an ``undo``."""
    import random

    info = registry.get(name)
    s = info.build().new_state(6)
    humans = set(info.seats[info.default_seat])
    bot = info.default_bot if info.bots[info.default_bot].fast else "random"
    session = Session(s, humans, {side: info.bot(bot, side, 6) for side in info.sides if side not in humans})
    rng = random.Random(6)

    def play_until_bots_answered(first_order):
        answers = []
        s.apply(first_order)
        for _ in range(60):
            if s.is_over():
                break
            if s.current_side() in humans:
                if answers:
                    break
                s.apply(rng.choice(s.legal_orders()))
                continue
            answers.append(session.bot_move()[1].text())
        return answers

    for _ in range(300):  # to a decision of the person's after which a bot answers
        if s.current_side() in humans:
            legal = s.legal_orders()
            o = legal[-1]
            before = len(s.log.entries)
            rng_state = rng.getstate()
            first = play_until_bots_answered(o)
            if first:
                break
        else:
            session.bot_move()
    assert first, name
    session.undo(len(s.log.entries) - before)
    rng.setstate(rng_state)
    again = play_until_bots_answered(o)
    assert again == first


@pytest.mark.parametrize("seed", range(6))
def test_11_1_the_german_bot_keeps_its_counters_face_down_unless_flipping_gains_something(seed):
    """11.0, 11.1: a face-down counter hides what it is; the priority bot flips one only next to
    the enemy (to attack or hold with a ZoC, 12.0), or in its own action to send one hunter at a
    time (9.0), never a row of them in a reaction."""
    from hexwar.games.narvik.bots import _Context

    g = registry.get("narvik").build()
    s = g.new_state(seed)
    bots = {side: PriorityBot(side, seed) for side in ("allies", "germans")}
    flipped_in_reactions = 0
    while not s.is_over() and s.data.turn == 1:
        side = s.current_side()
        view = s.view_for((side,))
        o = bots[side].choose(view, s.legal_orders())
        if o.kind == "reveal":
            c = _Context(g, view.data, side)
            near = c.enemy_dist(s.data.units[o.unit].loc)
            ask = g.pending(s.data)
            assert near <= 1 or (ask.what == "action" and near <= 4), (o.text(), near, ask.what)
            flipped_in_reactions += ask.what == "reaction"
        s.apply(o)
    assert flipped_in_reactions <= 3


def test_20_3_a_fleets_sailings_are_grouped_by_where_they_lead_in_a_list_a_person_reads():
    """20.1-20.3: ``list sail cl-1`` (hundreds of destinations) in at most MAX_FOLDED lines,
    by where they lead: the shores its cargo may land on, the ones the Germans hold, the
    Allied ports, the coast, open sea; every order shown is one of those sailings."""
    from hexwar.ui.commands import MAX_FOLDED

    out, _ = _run(["1", "1", "embark 1IG on CL-1", "list sail cl-1", "quit"], seed=7)
    end = out.rindex("a number gives its order")
    block = out[out.rindex("a number gives its order", 0, end):end].splitlines()[1:]  # the last list shown
    long = [ln for ln in block if "sail CL-1" in ln and len(ln) > 200]  # a few long paths wrap at 200 columns
    assert len(block) - len(long) <= MAX_FOLDED, len(block)
    text = "\n".join(block)
    for words in ("to a beach or port where cargo may land (20.3)", "to a shore the Germans hold", "out at sea",
                  "along the coast", "more: list sail cl-1 <place> opens them"):
        assert words in text, words
    assert all("sail CL-1" in ln for ln in block if ln.strip()[:1].isdigit())


def test_a_narvik_first_hour_to_the_end_of_the_game_with_a_landing_found_through_why_not(tmp_path):
    """Issue 53's Narvik session, scripted as a person types it, to the end of the game: the
    briefing; ``explain`` of each kind of order met; a battalion embarked, ``explain`` of its
    ship naming where it may land (20.2, 20.3), the ship sailed there and the landing given;
    ``wait`` wherever a pass may be; an ``undo`` and a ``save``; at the end the result, the VP
    by source (29.0) and how to replay the save."""
    import random
    import re

    from hexwar.core.engine import load_game
    from hexwar.games.narvik.orders import NavalMove

    info = registry.get("narvik")
    g = info.build()
    s = g.new_state(7)
    path = tmp_path / "n.hexwar"
    s.attach_save(path)
    buf = io.StringIO()
    rng = random.Random(7)
    explained: set[str] = set()
    st = {"n": 0, "embarked": False, "asked": False, "spot": None, "sailed": False, "landed": False,
          "undone": False, "saved": False}

    def read(prompt: str) -> str:
        st["n"] += 1
        if s.is_over() or st["n"] > 2500:
            return "quit"
        legal = s.legal_orders()
        ask = g.pending(s.data)
        fresh = [i for i, o in enumerate(legal, 1) if o.kind not in explained]
        if fresh:
            explained.add(legal[fresh[0] - 1].kind)
            return f"explain {fresh[0]}"
        if ask.what == "action" and not st["landed"]:
            if not st["embarked"]:
                o = next((o for o in legal if o.kind == "embark" and o.text().endswith(" on CL-1")), None)
                if o is not None:
                    st["embarked"] = True
                    return o.text()
            elif not st["asked"]:
                st["asked"] = True
                return "explain CL-1"
            elif st["spot"] is None:
                said = buf.getvalue()
                st["spot"] = re.search(r"it may land at: (\d{4})", said).group(1)
            if st["spot"] and not st["sailed"]:
                ways = [o for o in legal if isinstance(o, NavalMove) and o.ships == ("CL-1",) and o.path[-1] == st["spot"]]
                if ways:
                    st["sailed"] = True
                    return min(ways, key=lambda o: len(o.path)).text()
            if st["sailed"]:
                land = next((o for o in legal if o.text().startswith(f"land CL-1 at {st['spot']}")), None)
                if land is not None:
                    st["landed"], st["land_at"] = True, len(s.log.entries)
                    return land.text()
        if st["landed"] and not st["undone"] and any(e.order.get("side") == "allies"
                                                     for e in s.log.entries[st["land_at"] + 1:]):  # not the landing
            st["undone"] = True
            return "undo"
        if st["undone"] and not st["saved"]:
            st["saved"] = True
            return f"save {tmp_path / 'copy.hexwar'}"
        if any(o.kind == "pass" for o in legal):
            return "wait"
        return str(rng.randrange(len(legal)) + 1)

    terminal(info.presenter, s, {"allies"}, {"germans": PriorityBot("germans", 7)}, Console(file=buf, width=200),
             path, read).run()
    out = buf.getvalue()
    assert "The decision before you:" in out and "Traceback" not in out
    assert st["embarked"] and re.search(r"carries \S+ \(20\.2\)", out)
    assert st["spot"] and st["sailed"] and st["landed"], st
    assert f"lands at {st['spot']}" in out  # the landing, as the event says it, kept by the undo after it
    assert any(ev["type"] == "landed" and ev["at"] == st["spot"] for e in s.log.entries for ev in e.events)
    assert "waited: you passed" in out and "took back" in out and (tmp_path / "copy.hexwar").exists()
    assert s.is_over(), st["n"]
    end = "".join(out[out.rindex("game over"):].split())  # a long path wraps, within it or at a space
    assert "VPbysource:" in end and f"hexwarreplay{path}" in end and "thegameendedafterturn" in end
    assert load_game(g, path).data.to_json() == s.data.to_json()
