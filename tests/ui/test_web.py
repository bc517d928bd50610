"""The local web board (issue 14, first slice): the page and its JSON API play the same game
as the terminal loop, through the side's own view; malformed requests get a 4xx; the server
binds to the loopback interface only."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette.testclient")  # needs httpx2 (or httpx), from the test extra

from rich.console import Console  # noqa: E402

from hexwar.core.engine import load_game  # noqa: E402
from hexwar.games.kampen import ALLIES, FACTIONS, GERMANS, NORWAY, KampenGame  # noqa: E402
from hexwar.games.kampen.bots import KampenBot  # noqa: E402
from hexwar.games.kampen.play import KampenPresenter  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402
from hexwar.games.narvik.bots import PriorityBot  # noqa: E402
from hexwar.games.narvik.play import NarvikPresenter  # noqa: E402
from hexwar.rules.ledger import fmt  # noqa: E402
from hexwar.web.server import serve  # noqa: E402
from hexwar.ui.play import terminal  # noqa: E402
from tests.ui.webclient import board  # noqa: E402


def narvik_client(tmp_path, side=ALLIES):
    g = narvik_game()
    s = g.new_state(3)
    path = tmp_path / "w.hexwar"
    s.attach_save(path)
    other = GERMANS if side == ALLIES else ALLIES
    p = terminal(NarvikPresenter, s, {side}, {other: PriorityBot(other, 3)}, Console(), path, lambda _: "quit", snapshots=tmp_path)
    return board(p), s, path, g


def test_the_page_and_the_state_show_the_allied_orders_and_a_map_from_the_allied_view(tmp_path):
    client, s, _, _ = narvik_client(tmp_path)
    page = client.get("/", params={"token": client.app.token})
    assert page.status_code == 200 and "/api/command" in page.text
    st = client.get("/api/state").json()
    assert st["side"] == ALLIES and st["yours"] and st["orders"]
    assert st["svg"].startswith("<svg") and 'data-loc="2212"' in st["svg"]
    assert "9/139" not in st["svg"]  # German counters are face down to the Allied player (11.0)


def test_orders_by_click_text_undo_and_resume_from_the_save(tmp_path):
    client, s, path, g = narvik_client(tmp_path)
    for _ in range(4):  # the first listed order each time, as a click would send it
        st = client.get("/api/state").json()
        if not st["yours"]:
            break
        r = client.post("/api/command", json={"line": st["orders"][0]})
        assert r.status_code == 200
    n = len(s.log)
    assert n >= 2
    undone = client.post("/api/command", json={"line": "undo"}).json()
    assert "took back" in undone["output"] and len(s.log) < n
    assert load_game(g, path).log.entries == s.log.entries  # the save follows the game


def test_an_illegal_order_is_refused_with_its_reason_and_changes_nothing(tmp_path):
    client, s, _, _ = narvik_client(tmp_path)
    client.get("/api/state")
    before = s.to_json()
    r = client.post("/api/command", json={"line": "move 1SG 0101>3212"})
    assert r.status_code == 200 and ("not understood" in r.json()["output"] or "refused" in r.json()["output"])
    assert s.to_json() == before


@pytest.mark.parametrize("body,status", [(b"not json", 400), (b'{"line": 3}', 422), (b'{"nope": "x"}', 422),
                                         (b'["pass"]', 422), (b'{"line": "' + b"x" * 3000 + b'"}', 422),
                                         (b'{"line": "  "}', 422)])
def test_malformed_requests_get_a_4xx_and_change_nothing(tmp_path, body, status):
    client, s, _, _ = narvik_client(tmp_path)
    client.get("/api/state")
    before = s.to_json()
    r = client.post("/api/command", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status and r.json()["error"]
    assert s.to_json() == before


def test_unknown_paths_methods_and_foreign_hosts_are_refused(tmp_path):
    client, *_ = narvik_client(tmp_path)
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/command").status_code == 405
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400  # DNS rebinding


def test_the_server_binds_to_the_loopback_interface_only(tmp_path):
    client, s, _, _ = narvik_client(tmp_path)
    with pytest.raises(ValueError, match="loopback"):
        serve(client.app, host="0.0.0.0", open_browser=False)  # refused before anything listens


def test_kampen_plays_on_the_web_board_and_hides_the_german_hand(tmp_path):
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    bots = {GERMANS: KampenBot(GERMANS, 5)}
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, bots, Console(), None, lambda _: "quit")
    client = board(p)
    st = client.get("/api/state").json()
    assert st["side"] in (NORWAY, ALLIES) and st["yours"]
    out = client.post("/api/command", json={"line": "status"}).json()["output"]
    assert "objectives" in out
    german_cards = {g.copies[c].name for c in s.data.hand[GERMANS]}
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("germans"))
    assert not any(name in row for name in german_cards)  # counted, never named
    played = 0
    while st["yours"] and played < 6:
        st = client.post("/api/command", json={"line": st["orders"][0]}).json()
        played += 1
    assert played and len(s.log) >= played


def to_first_assault(client, s, bots_seed=3):
    """Play the first listed order (a bot for the Germans) until the Allies may assault."""
    for _ in range(400):
        st = client.get("/api/state").json()
        if st["over"]:
            return None
        assaults = [i for i, o in enumerate(st["orders"]) if o.startswith("assault ") and " ap " not in o]
        if assaults:
            return st, assaults
        order = PriorityBot(ALLIES, bots_seed).choose(s.view_for((ALLIES,)), s.legal_orders())
        client.post("/api/command", json={"line": order.text()})
    return None


def test_picking_a_unit_gives_its_moves_with_their_mp_and_an_enemy_hex_its_assaults_with_exact_odds_15_1(tmp_path):
    from fractions import Fraction

    from hexwar.core.dice import Dice, Roll

    client, s, _, g = narvik_client(tmp_path)
    found = to_first_assault(client, s)
    assert found is not None
    st, assaults = found
    i = assaults[0]
    target = st["marks"][i]["t"]
    picked = client.get("/api/pick", params={"loc": target}).json()
    onto = [o for o in picked["orders"] if o["t"] == target and o["text"].startswith("assault")]
    assert onto and picked["about"][0].startswith(target)
    attacker = st["marks"][i]["u"][0]  # the hover, an attacker picked: an assault, never a move in (14.1)
    hover = client.get("/api/about", params={"loc": target, "unit": attacker}).json()["about"]
    assert hover[-1] == f"held by the enemy: {attacker} may assault it, not move in (15.1)"
    for o in onto[:3]:
        order = next(x for x in s.legal_orders() if x.text() == o["text"])
        if any(u.concealed for u in s.data.at(target) if u.side == GERMANS):
            assert "face down" in o["note"]
            continue
        # the odds shown equal the six CRT die faces fought on copies of the game (15.1)
        hits = Fraction(0)
        for face in range(1, 7):
            work = s.data.clone()
            try:
                g.apply(work, order, Dice.replaying([Roll("CRT", (face,))]))
            except Exception:
                pass
            hits += Fraction(int(work.last_combat["result"].split("/")[1]) >= 1, 6)
        assert f"defender loses >=1 {float(hits):.0%}" in o["note"]
    # a unit picked: every order of it, each move with the MP its path costs (14.0)
    mover = next(o for o in st["orders"] if o.startswith("move ")) if any(o.startswith("move ") for o in st["orders"]) else None
    if mover:
        unit = mover.split()[1]
        mine = client.get("/api/pick", params={"loc": st["marks"][st["orders"].index(mover)]["f"], "unit": unit}).json()
        moves = [o for o in mine["orders"] if o["text"].startswith("move ")]
        assert moves and all(o["u"] == [unit] and o["note"].endswith("MP") and o["cost"] >= 1 for o in moves)


def test_hover_and_pick_refuse_what_is_not_there_with_a_4xx(tmp_path):
    client, s, _, _ = narvik_client(tmp_path)
    assert client.get("/api/about", params={"loc": "2212"}).json()["about"][0].startswith("2212 (Narvik)")
    assert client.get("/api/about", params={"loc": "9999"}).status_code == 404
    assert client.get("/api/pick").status_code == 422
    assert client.get("/api/pick", params={"unit": "9/139"}).status_code == 404  # a face-down German (11.0)
    st = client.get("/api/state").json()
    assert {"tracks", "marks", "hand", "bot"} <= set(st) and len(st["marks"]) == len(st["orders"])


def test_a_ship_picked_in_the_harstad_box_sails_by_the_shortest_voyage_20_1(tmp_path):
    client, s, _, g = narvik_client(tmp_path)
    for _ in range(60):  # the priority bot's orders until the Allies may sail
        st = client.get("/api/state").json()
        if any(o.startswith("sail ") for o in st["orders"]):
            break
        order = PriorityBot(ALLIES, 3).choose(s.view_for((ALLIES,)), s.legal_orders())
        client.post("/api/command", json={"line": order.text()})
    sails = [(o, m) for o, m in zip(st["orders"], st["marks"]) if o.startswith("sail ") and len(m["u"]) == 1]
    assert sails
    ship, frm = sails[0][1]["u"][0], sails[0][1]["f"]
    picked = client.get("/api/pick", params={"loc": frm, "unit": ship}).json()
    voyages = [o for o in picked["orders"] if o["text"].startswith(f"sail {ship} ")]
    assert voyages and all(o["note"] == f"{len(o['text'].split()[2].split('>')) - 1} hexes" for o in voyages)
    # the short order takes the fewest hexes to a destination (20.1)
    dest = max({o["t"] for o in voyages}, key=lambda t: sum(o["t"] == t for o in voyages))
    fewest = min(o["cost"] for o in voyages if o["t"] == dest)
    n = len(s.log)
    client.post("/api/command", json={"line": f"sail {ship} {dest}"})
    given = s.log.entries[n].order
    assert given["kind"] == "naval_move" and given["path"][-1] == dest and len(given["path"]) == fewest


def test_europa_plays_on_the_web_board_with_exact_attack_odds_E1(tmp_path):
    """The third game on the same page: its tracks, a pick, and an attack's note giving the
    odds CRT's exact chances, which equal the six die faces fought on copies (E1)."""
    from fractions import Fraction

    from hexwar.core.dice import Dice, Roll
    from hexwar.games.europa import EuropaGame
    from hexwar.games.europa.bots import PriorityBot as EuropaBot
    from hexwar.games.europa.orders import Evade
    from hexwar.games.europa.play import EuropaPresenter

    g = EuropaGame()
    s = g.new_state(3)
    p = terminal(EuropaPresenter, s, {"germans"}, {"allies": EuropaBot("allies", 3)}, Console(), None, lambda _: "quit", snapshots=tmp_path)
    client = board(p)
    st = client.get("/api/state").json()
    assert st["side"] == "germans" and any("ports (E2)" in t for t in st["tracks"])
    assert 'data-loc="2508"' in st["svg"]  # Narvik
    picked = client.get("/api/pick", params={"loc": "1845"}).json()
    assert picked["about"][0].startswith("1845") and any("owned by the germans" in a for a in picked["about"])
    for _ in range(60):  # pass phases until the German combat phase offers an attack
        st = client.get("/api/state").json()
        attacks = [o for o in st["orders"] if o.startswith("attack ")]
        if attacks:
            break
        client.post("/api/command", json={"line": "pass" if "pass" in st["orders"] else st["orders"][0]})
    assert attacks
    order = next(o for o in s.legal_orders() if o.text() == attacks[0])
    note, _ = p.presenter.order_note(order)
    dist = {}
    norwegian = all(u.nation == "norway" for u in g.ground_at(s.data, order.target, "allies"))
    for face in range(1, 7):
        work = s.data.clone()
        crt = [Roll("CRT", (face,))]
        if norwegian and s.data.turn == 1:  # E1: on turn 1 a 6 makes the Norwegians stand
            ev = g.apply(work, order, Dice.replaying([Roll("retreat before combat", (6,))] + crt))
        elif norwegian:  # later turns the defender may evade: it stands here
            g.apply(work, order, Dice.replaying([]))
            ev = g.apply(work, Evade("allies", False), Dice.replaying(crt))
        else:
            ev = g.apply(work, order, Dice.replaying(crt))
        res = next(e["result"] for e in ev if e["type"] == "attack")
        dist[res] = dist.get(res, Fraction(0)) + Fraction(1, 6)
    assert dist and all(f"{r} {p}" in note for r, p in dist.items())


def test_a_thinking_search_bot_shows_time_and_playouts_on_the_page_never_its_cards(tmp_path):
    """Issue 17: the page shows how the bot's search stands while it thinks (time and
    playouts, polled from /api/progress), as the terminal does; never an order it weighs,
    which would name the cards in its hand (2.4)."""
    import re

    from hexwar.ai.search import SearchBot
    from hexwar.games.kampen.search import search_hooks

    ticks = iter(range(10**9))
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    bot = SearchBot(GERMANS, 1, 0.05, clock=lambda: next(ticks) * 0.001, max_iterations=6, **search_hooks())
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: bot}, Console(), None, lambda _: "quit")
    client = board(p)
    assert client.get("/api/progress").json() == {"line": ""}
    st = client.get("/api/state").json()  # the Germans open: the search has played its round
    assert st["yours"]
    line = client.get("/api/progress").json()["line"]
    assert re.fullmatch(r"germans \(search\) is thinking: \d+\.\d/0\.05 s, \d+ playouts(, clear: answered early)?", line)
    cards = {g.copies[c].card for c in s.data.hand[GERMANS]} | {g.copies[c].name for c in s.data.hand[GERMANS]}
    assert not any(c in line for c in cards)


def test_kampen_a_second_copy_of_a_card_says_its_orders_are_under_the_first_2_4(tmp_path):
    """Two copies of one card play alike, so the orders list one of them (a discard, a card
    move): the board shows those orders under the first copy and says so on the second,
    never on a copy that has orders of its own or is the only one of its card."""
    import random

    g = KampenGame("basic")
    seen = 0
    for seed in range(4):
        s = g.new_state(seed)
        p = terminal(KampenPresenter, s, set(FACTIONS), {}, Console(), None, lambda _: "quit")
        rng = random.Random(seed)
        while not s.is_over() and len(s.log) < 400:
            hand = p.presenter.hand()
            for card in hand:
                same = [c for c in hand if c["faction"] == card["faction"]
                        and g.copies[c["id"]].card == g.copies[card["id"]].card]
                first_with_orders = next((c for c in same if c["orders"]), None)
                if card["orders"] or first_with_orders is None or same.index(first_with_orders) > same.index(card):
                    assert "note" not in card, card
                else:
                    assert "under the first" in card["note"]
                    seen += 1
            s.apply(rng.choice(s.legal_orders()))
    assert seen  # the case came up


def test_konflikt_on_the_web_board_notes_moves_assaults_and_order_tests_and_never_a_hidden_unit(tmp_path):
    """Konflikt '47 on the page: a unit picked lists its orders with their notes (a move's MP,
    14.0; an assault's odds, 15.1; coming on, the order test's chance or none in the first
    wave, 3.4); the enemy's hidden units are neither pickable nor in any note (3.1)."""
    import random
    import re

    from hexwar import registry

    info = registry.get("konflikt")
    s = info.build("point_defence").new_state(6)
    p = terminal(info.presenter, s, {"allies"}, {"germans": info.bot("priority", "germans", 6, 0.1)}, Console(), None,
                    lambda _: "quit", snapshots=tmp_path)
    client = board(p)
    rng = random.Random(1)
    seen: set[str] = set()
    unseen = 0  # decisions with an enemy unit hidden on the table
    for _ in range(150):
        st = client.get("/api/state").json()
        if s.is_over() or seen >= {"move", "assault", "enter"}:
            break
        hidden = [u for u in s.data.units.values() if u.side == GERMANS and u.concealed and u.loc is not None]
        unseen += bool(hidden)
        for h in hidden:
            assert client.get("/api/pick", params={"unit": h.id}).status_code == 404
        for unit in sorted({u for m in st["marks"] for u in m["u"]})[:3]:
            notes = client.get("/api/pick", params={"unit": unit}).json()["orders"]
            for o in notes:
                kind = o["text"].split()[0]
                if kind == "move":
                    assert re.fullmatch(r"(\d+ )?(\d+/\d+|\d+) MP", o["note"]), o
                elif kind == "assault":
                    assert re.match(r"AD [+-]\d+, DRM [+-]\d+: defender loses >=1 \d+%", o["note"]), o
                elif kind == "enter":
                    assert re.fullmatch(r"first wave: no order test  \[1\]|order test 2D6 <= \d+ \(morale \d+, -1\): "
                                        r"\d+%  \[3\.[45]\]", o["note"]), o
                else:
                    continue
                seen.add(kind)
                for h in hidden:
                    assert h.loc not in o["note"] and h.id not in o["note"]
        fights = [o for o in st["orders"] if o.startswith("assault ")]
        foes = [u.loc for u in p.session.view().units.values() if u.side == GERMANS and u.loc is not None]
        moves = [o for o in st["orders"] if o.startswith("move ")]
        if not fights and moves and foes:  # close with the enemy to meet assaults
            line = min(moves, key=lambda o: min(s.game.board.distance(o.split(">")[-1], f) for f in foes))
        else:
            line = fights[0] if fights else rng.choice(st["orders"])
        client.post("/api/command", json={"line": line})
    assert seen >= {"move", "assault", "enter"} and unseen >= 3, (seen, unseen)


def test_europa_on_the_web_board_a_pass_leaving_units_overstacked_says_so_and_waits_for_a_second_click_E5_B(tmp_path):
    """The full orders list carries the pass's note (the units it leaves over the stacking
    limit, E5 B); the first click changes nothing and says so, the second gives it; a move
    picked with its unit carries its MP (E4)."""
    from hexwar.games.europa import EuropaGame
    from hexwar.games.europa.bots import PriorityBot as EuropaBot
    from hexwar.games.europa.play import EuropaPresenter

    g = EuropaGame()
    s = g.new_state(3)
    while not (s.current_side() == "allies" and s.data.phase == "movement"):
        s.apply(EuropaBot(s.current_side(), 3).choose(s.view_for((s.current_side(),)), s.legal_orders()))
    p = terminal(EuropaPresenter, s, {"allies"}, {"germans": EuropaBot("germans", 3)}, Console(), None, lambda _: "quit", snapshots=tmp_path)
    client = board(p)
    st = client.get("/api/state").json()
    i = st["orders"].index("pass")
    over = p.presenter.weigh.left_overstacked(s.legal_orders()[i])
    assert over and st["notes"] == {str(i): f"leaves over the stacking limit (E5 B): {', '.join(over)}"}
    # a naval interdiction is placed at its port: picking the port shows it with its chances (E1)
    inter = next(o for o in s.legal_orders() if type(o).__name__ == "Interdict")
    row = next(o for o in client.get("/api/pick", params={"loc": inter.port}).json()["orders"] if o["text"] == inter.text())
    assert row["t"] == inter.port and row["note"] == p.presenter.order_note(inter)[0] and "blockade" in row["note"]
    n = len(s.log)
    st = client.post("/api/command", json={"line": "pass"}).json()
    assert len(s.log) == n and "Give it again to confirm" in " ".join(str(h) for h in st["history"][-2:])
    client.post("/api/command", json={"line": "pass"})
    assert len(s.log) > n and s.log.entries[n].order["kind"] == "pass"
    while not (s.current_side() == "allies" and s.data.phase == "movement"):
        s.apply(EuropaBot(s.current_side(), 3).choose(s.view_for((s.current_side(),)), s.legal_orders()))
    move = next(o for o in s.legal_orders() if type(o).__name__ == "Move" and len(o.path) > 2)
    picked = client.get("/api/pick", params={"loc": move.path[0], "unit": move.unit}).json()
    row = next(o for o in picked["orders"] if o["text"] == move.text())
    total = p.presenter.path_ledger(move.unit, move.path).total
    assert row["note"] == f"{fmt(total)} MP" and row["cost"] == float(total)


def test_europa_on_the_web_board_evade_and_stand_carry_their_odds_in_the_full_list_E1():
    """Evade and stand name no unit and no place, so no pick on the map shows them: the full
    list carries their notes (the evasion's chance, the odds caught or standing, E1); the
    orders a pick shows carry none there."""
    from tests.ui.test_europa_explain import _evasion_state

    s, p, legal, _ = _evasion_state()
    st = board(p).get("/api/state").json()
    assert st["orders"] == ["evade", "stand"]
    assert st["notes"] == {str(i): p.presenter.order_note(o)[0] for i, o in enumerate(legal)}
    assert "they retreat, no combat: 3/6 = 50%" in st["notes"]["0"] and st["notes"]["1"].startswith("if the attack is fought")


def test_the_api_answers_an_order_with_data_a_refusal_with_its_rule_and_sends_the_map_only_when_it_changed(tmp_path):
    """Issue 73: the web API speaks data. An order's outcome is a record (given with its
    events, refused with its reason and rule, not understood with why), the terminal's words
    are made from the same record, and a page that holds the map (its ``svg_id``) is not sent
    it again until it changes."""
    from hexwar.ui.commands import outcome_lines

    client, s, _, _ = narvik_client(tmp_path)
    st = client.get("/api/state").json()
    assert st["svg"].startswith("<svg") and len(st["svg_id"]) == 16
    assert client.get("/api/state", params={"have": st["svg_id"]}).json()["svg"] is None  # the page has it
    assert client.get("/api/state", params={"have": "0" * 16}).json()["svg"] == st["svg"]  # another map: sent
    while not any(o.startswith("move ") for o in st["orders"]):  # on to the first action: the base, then move
        st = client.post("/api/command", json={"line": st["orders"][-1]}).json()
        assert st["outcome"]["kind"] == "given" and st["svg"] is not None  # a base chosen changes the map
    unit, start = next(o for o in st["orders"] if o.startswith("move ")).split(" ")[1:3]
    start = start.split(">")[0]
    before = s.to_json()
    r = client.post("/api/command", json={"line": f"move {unit} {start}>0101", "have": st["svg_id"]}).json()
    assert r["outcome"] == {"kind": "refused", "order": f"move {unit} {start}>0101",
                            "reason": f"{start} and 0101 are not adjacent", "rule": "14.0"}
    assert r["svg"] is None and r["svg_id"] == st["svg_id"] and s.to_json() == before  # nothing changed
    assert outcome_lines(r["outcome"]) == [f"refused: {start} and 0101 are not adjacent (14.0)"]
    assert f"refused: {start} and 0101 are not adjacent (14.0)" in r["output"]  # the terminal's line, from the record
    unread = client.post("/api/command", json={"line": "base 9999"}).json()["outcome"]
    assert unread["kind"] == "not understood" and unread["why"].startswith("not understood")
    assert client.post("/api/command", json={"line": "status"}).json()["outcome"] is None  # a command, not an order
    moved = client.post("/api/command", json={"line": st["orders"][st["orders"].index("pass")], "have": st["svg_id"]}).json()
    assert moved["outcome"]["kind"] == "given" and moved["outcome"]["order"]


def test_explain_on_the_web_is_data_each_ledger_line_with_its_rule_and_the_terminal_says_the_same(tmp_path):
    """Issue 73: an explanation reaches the page as data (its sentences, and each ledger's
    lines with their values and rules), and the terminal's text is made from the same record:
    a unit's fatigue ledger (10.0), a move's MP ledger step by step (14.0-14.2)."""
    from hexwar.ui.commands import outcome_lines

    client, s, _, _ = narvik_client(tmp_path)
    st = client.get("/api/state").json()
    while not any(o.startswith("move ") for o in st["orders"]):
        st = client.post("/api/command", json={"line": st["orders"][-1]}).json()
    n, move = next((i, o) for i, o in enumerate(st["orders"]) if o.startswith("move ") and o.count(">") >= 1)
    unit = move.split(" ")[1]
    before = s.to_json()
    r = client.post("/api/command", json={"line": f"explain {unit}"}).json()
    parts = r["outcome"]["parts"]
    assert r["outcome"]["kind"] == "explained" and r["outcome"]["asked"] == unit
    assert parts[0]["text"].startswith(unit)
    fatigue = next(p["ledger"] for p in parts if "ledger" in p and p["ledger"]["title"].startswith(f"fatigue of {unit}"))
    assert fatigue["total"] == 0  # a battalion that has not marched yet (10.0)
    assert outcome_lines(r["outcome"])[0] in r["output"]  # the terminal's words, from the same record
    way = client.post("/api/command", json={"line": f"explain {n + 1}"}).json()
    led = next(p["ledger"] for p in way["outcome"]["parts"] if "ledger" in p)
    steps = [ln for ln in led["lines"] if ln["rule"]]
    assert len(steps) == move.count(">") and all(ln["rule"] in ("14.1", "14.2") for ln in steps)  # one a hex entered
    assert sum(ln["value"] for ln in steps) == led["total"]
    assert f"  = {led['total']}" in way["output"]
    assert s.to_json() == before  # explaining changes nothing


def test_the_server_draws_the_map_again_only_when_the_game_moved_on(tmp_path, monkeypatch):
    """Issue 73: a state call between orders reuses the map drawn for this position; an order
    or an undo (a new position) draws it again."""
    client, s, _, _ = narvik_client(tmp_path)
    from hexwar.games.narvik.play import NarvikPresenter

    drawn = []
    real = NarvikPresenter.map_svg
    monkeypatch.setattr(NarvikPresenter, "map_svg", lambda self, layer="": drawn.append(len(s.log)) or real(self, layer))
    first = client.get("/api/state").json()
    again = client.get("/api/state").json()
    assert len(drawn) == 1 and again["svg"] == first["svg"]
    client.post("/api/command", json={"line": first["orders"][-1]})
    assert len(drawn) == 2
    client.post("/api/command", json={"line": "undo"})
    back = client.get("/api/state").json()
    assert len(drawn) == 3 and back["svg_id"] == first["svg_id"]  # the same position, the same map


def test_an_explained_ledger_reads_the_same_in_the_terminal_as_the_ledger_itself_fractions_too():
    """The page and the terminal read one record; a fraction is written as the ledger writes
    it (3 1/2 MP, not 7/2)."""
    from fractions import Fraction

    from hexwar.rules.ledger import Ledger
    from hexwar.ui.commands import outcome_lines
    from hexwar.ui.words import said_data

    led = Ledger("movement 1710 > 1810 > 1910", total=Fraction(7, 2))
    led.add("enter 1810 (forest)", 2, "14.1").add("road 1810-1910", Fraction(1, 2), "14.2").add("MP left", Fraction(3, 2))
    record = {"kind": "explained", "asked": "1", "parts": said_data(["move A 1710>1810>1910", led])}
    assert outcome_lines(record) == ["move A 1710>1810>1910\n" + led.render()]
    assert record["parts"][1]["ledger"]["total"] == "3 1/2" and record["parts"][1]["ledger"]["lines"][0]["value"] == 2
