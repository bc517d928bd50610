"""Orders as a person reads them (the presenter's ``order_line``): Kampen om Norge's texts name
areas, card copies and ships by ids (``play togtransport#75 move 1 kongsvinger>rena>tynset``);
its lists, cards, hints and the bots' turn say them by name, and the typed text still gives
the order."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from hexwar import registry
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text


def _random_orders(scenario: str, seeds: range, decisions: int = 500):
    """Every listed order of random games of Kampen om Norge, with the terminal of its decision."""
    info = registry.get("kampen")
    for seed in seeds:
        s, rng = info.build(scenario).new_state(seed), random.Random(seed)
        for _ in range(decisions):
            if s.is_over():
                break
            legal = s.legal_orders()
            p = terminal(info.presenter, s, set(info.sides), {}, Console(file=io.StringIO()), None, lambda _: "quit")
            yield p, legal
            s.apply(rng.choice(legal))


@pytest.mark.parametrize("scenario", ["basic", "advanced"])
def test_kampen_orders_are_listed_by_the_names_of_their_areas_cards_and_ships(scenario):
    """No copy number, no area id, no underscore on screen: each area an order names is said
    by its name (2.1, the map's), each card by its card's, a path's steps by arrows; and the
    line, typed as shown, gives the same order as its text and its number do."""
    g = registry.get("kampen").build(scenario)
    names = {a: g.board.label(a) for a in g.board.locations()}
    kinds: set[str] = set()
    for p, legal in _random_orders(scenario, range(3)):
        for i, o in enumerate(legal, 1):
            line = p.presenter.order_line(o)
            assert not re.search(r"#\d|_|>", line), (o.text(), line)
            for token in re.split(r"[\s>,]+", o.text()):
                if token in names:  # an area (or sea area): by its name (Mo i Rana, Sea area I)
                    assert p.presenter.place_word(token) in line, (o.text(), line)
            if type(o).__name__ not in kinds:  # one of each kind: typed as shown, it is the order
                kinds.add(type(o).__name__)
                picked = p.parse(line, legal)
                assert picked is not None and picked.text() == o.text(), (line, picked)
                assert p.parse(o.text(), legal) == o and p.parse(str(i), legal) == o
    assert {"KMove", "PlayCard", "Fight", "Cash", "PlaceBn"} <= kinds, kinds
    if scenario == "advanced":
        assert {"PlaceShip", "Sail"} <= kinds, kinds


def test_kampen_list_finds_an_order_by_a_name_with_its_letters_and_the_bots_turn_says_names():
    """``list bjørnfjell`` finds the moves to Bjørnfjell, as ``list bjornfjell`` does; the list
    shows them by name; a bot's order is printed by name too."""
    info = registry.get("kampen")
    s = info.build().new_state(1)
    buf = io.StringIO()
    bots = {side: info.bot("priority", side, 1) for side in info.sides if side != "norwegians"}
    p = terminal(info.presenter, s, {"norwegians"}, bots, Console(file=buf, width=200), None, lambda _: "quit")
    while s.current_side() != "norwegians":
        p.bot_move()
    said = buf.getvalue()
    assert "germans: move 1 Mosjøen → Mo i Rana" in said and "mo_i_rana" not in said
    legal = s.legal_orders()
    for word in ("bjørnfjell", "bjornfjell"):
        buf.truncate(0)
        buf.seek(0)
        p.list_orders(legal, word)
        rows = [ln.split(None, 1) for ln in buf.getvalue().splitlines() if ln.strip()]
        want = [o for o in legal if "bjornfjell" in o.text()]
        assert want and [r[1] for r in rows] == [p.presenter.order_line(o) for o in want]
        assert all("Bjørnfjell" in r[1] for r in rows)


def test_kampen_on_hexes_names_an_unnamed_hex_by_its_number_in_orders_and_events():
    # the hex board of Kampen's intro (nordland-hex) has 527 land hexes without a name: an
    # order or event that names one says its number, never an empty name ("to   [4.1]")
    info = registry.get("kampen")
    g = info.build("intro-narvik", "nordland-hex")
    p = terminal(info.presenter, g.new_state(1), set(info.sides), {}, Console(file=io.StringIO()), None, lambda _: "quit")
    s, rng, unnamed = p.presenter.s, random.Random(1), 0
    for _ in range(200):
        if s.is_over():
            break
        legal = s.legal_orders()
        for o in legal:
            line = p.presenter.order_line(o)
            assert not re.search(r"→ *$|→ +→|  ", line), (o.text(), line)
        for e in s.apply(rng.choice(legal)):
            said = p.presenter.describe(e)
            assert not re.search(r"\b(to|from|at|in) {2,}", said), said
            unnamed += bool(re.search(r"\bto \d{4}\b", said))
    assert unnamed  # moves to unnamed hexes were met, and said by number


@pytest.mark.parametrize("board", ["norway", "nordland-areas"])
def test_s1_kampen_says_who_wins_by_the_names_of_the_objectives_held(board):
    """S1: "Germany wins: it still occupies Narvik, Bjørnfjell" at the game's end, in its
    standing and in ``hexwar replay``'s last line (the registry's ``words_in``), never the
    areas' ids (``narvik, bjornfjell``), which the rules' result keeps as they were saved."""
    info = registry.get("kampen")
    g = info.build("intro-narvik", board)
    from hexwar.board.base import place_name

    ids = [a for a in g.board.locations() if place_name(g.board, a) != a]
    said: list[str] = []
    for seed in range(12):
        s = g.new_state(seed)
        bots = {side: info.bot("priority", side, seed) for side in info.sides}
        p = terminal(info.presenter, s, set(), bots, Console(file=io.StringIO()), None, lambda _: "quit")
        while not s.is_over():
            s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), s.legal_orders()))
            standing = str(p.presenter.status_lines()[-1])  # "standing: in progress (Germany wins: ...)"
            assert not any(re.search(rf"\b{re.escape(a)}\b", standing) for a in ids), standing
            said.append(standing)
        level = s.result().level
        for line in (p.presenter.final_line(), info.wording(g)(level)):
            assert not any(re.search(rf"\b{re.escape(a)}\b", line) for a in ids), (level, line)
            said.append(line)
        held = level.partition("still occupies ")[2]
        for a in filter(None, held.split(", ")):
            assert place_name(g.board, a) in said[-1], (level, said[-1])
    assert any("still occupies Bjørnfjell" in line or "Narvik" in line for line in said), said
    assert any(line.startswith("standing: in progress (") and "occupies" in line for line in said)


def test_4_2_kampen_explain_last_names_the_combats_area_and_counts_a_die_as_one():
    """4.2: ``explain last`` names the area of the last combat by its name (Bjørnfjell, not
    bjornfjell), and a ledger line of one die says "1 die"."""
    info = registry.get("kampen")
    g = info.build("basic")
    seen_one = False
    for seed in range(6):
        s = g.new_state(seed)
        bots = {side: info.bot("priority", side, seed) for side in info.sides}
        p = terminal(info.presenter, s, set(info.sides), {}, Console(file=io.StringIO()), None, lambda _: "quit")
        for _ in range(400):
            if s.is_over():
                break
            events = s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), s.legal_orders()))
            rolls = [e for e in events if e["type"] == "combat_roll"]
            if not rolls:
                continue
            said = said_text(p.presenter.explain("last"))
            area = rolls[-1]["area"]
            assert said.startswith(f"combat at {p.presenter.place_word(area)}:"), said
            assert not re.search(r"\b1 dice\b", said), said
            seen_one |= bool(re.search(r"\b1 die\b", said))
    assert seen_one  # a line of one die was met
    from hexwar.games.kampen.cards import card_text

    text = card_text(g.cards, g.copies, "gebirgsjager")  # 2.4: the card's face, as explain and the web board show it
    assert text is not None and "+1 combat die (" in text and "1 combat dice" not in text


def test_kampen_explain_takes_an_area_by_the_name_it_is_shown_by_and_names_its_borders():
    """An area is shown by its name everywhere (Mo i Rana, Bjørnfjell), so ``explain`` takes
    that name, with or without its letters and in any case, as well as the area's id; the
    answer names the area and its neighbours (2.1) the same way, and the objectives line (S1)
    says them by name too."""
    from hexwar.board.base import place_name

    info = registry.get("kampen")
    s = info.build().new_state(1)
    p = terminal(info.presenter, s, {"germans"}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
    g = p.presenter.game
    for area in ("mo_i_rana", "bjornfjell", "narvik"):
        name = place_name(g.board, area)
        said = {said_text(p.presenter.explain(w)) for w in (area, name, name.upper(), name.lower(), area.replace("_", " "))}
        assert len(said) == 1, said
        text = said.pop()
        assert text.startswith(f"{name}: germans ") and "_" not in text
        borders = text.splitlines()[1]
        assert all(place_name(g.board, n) in borders for n in g.nbrs[area]), borders
    assert said_text(p.presenter.explain("Bjørnfjell")) == said_text(p.presenter.explain("bjørnfjell")) == said_text(p.presenter.explain("bjornfjell"))
    assert said_text(p.presenter.explain("Mo i Ran")).startswith("explain what? an area (e.g. Narvik, Mo i Rana)")
    goals = p.presenter.goal_lines()[0]
    assert "objectives: Narvik, Bjørnfjell, Bardufoss:" in goals and "bjornfjell" not in goals
