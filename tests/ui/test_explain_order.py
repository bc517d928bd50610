"""``explain <order>``: a listed order weighed before it is given, by its number or its text
(a number that is a hex id names the hex). Assault on Narvik shows an assault's ledger up to
the CRT column and the exact odds of every result (15.1), a move's MP step by step along its
own path (14.0-14.2); Kampen om Norge an attack's battalion dice and chance (4.2); the Europa
variant an attack as ``explain attack`` gives it (E1). Nothing is applied."""

from __future__ import annotations

import io
import random

from rich.console import Console

from hexwar import registry
from hexwar.games.kampen.odds import combat_odds
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text


def _until(name, want, seed=5, rng_seed=1, after=50, side=None):
    """A random game of ``name`` played until ``side`` may give an order ``want`` accepts."""
    info = registry.get(name)
    s = info.build().new_state(seed)
    rng = random.Random(rng_seed)
    for i in range(5000):
        assert not s.is_over()
        legal = list(s.legal_orders())
        hits = [o for o in legal if want(o)]
        if hits and i >= after and side in (None, s.current_side()):
            buf = io.StringIO()
            p = terminal(info.presenter, s, {s.current_side()}, {}, Console(file=buf, width=200), None, lambda _: "quit")
            return s, p, legal, hits, buf
        s.apply(rng.choice(legal))
    raise AssertionError("no such order met")


def test_15_1_explain_an_assault_by_its_number_gives_its_ledger_before_the_die_and_its_exact_odds():
    s, p, legal, hits, buf = _until("narvik", lambda o: type(o).__name__ == "LandAssault", side="allies")
    before = s.data.to_json()
    for o in hits:
        p.command(f"explain {legal.index(o) + 1}", legal)
    said = buf.getvalue().split("\n")
    assert s.data.to_json() == before  # weighed on a copy
    for o in hits:
        start = said.index(o.text())
        block = said[start:said.index("", start) if "" in said[start:] else None]
        block = block[:next(i for i, ln in enumerate(block) if ln.startswith("before the die: ")) + 1]
        odds = p.presenter.assault_odds(o)
        assert block[-1] == f"before the die: {odds}"
        assert block[1] == "land assault (15.1)"
        ad = next(ln for ln in block if ln.startswith("  attack differential (AD): "))
        if not o.ap:  # one column: the ledger's AD is the odds' AD
            assert f"AD {int(ad.split(': ')[1].split()[0]):+d}," in odds
        assert any(ln.startswith("  CRT column ") for ln in block)
        assert not any(ln.startswith(("  die:", "  = ", "  modified roll")) for ln in block)  # no die yet


def test_14_0_explain_a_move_by_its_text_costs_its_own_path():
    s, p, legal, hits, _buf = _until("narvik", lambda o: type(o).__name__ == "Move" and len(o.path) > 2, after=0)
    for o in hits[:10]:
        text = said_text(p.presenter.explain_order(p.listed_order(o.text(), legal)))
        lines = text.splitlines()
        assert lines[0] == o.text() and lines[1].startswith(f"movement {' > '.join(o.path)} (")
        assert lines[-1] == f"  = {p.presenter.path_cost(o.unit, o.path)}"


def test_explain_a_number_past_the_list_says_so_and_a_hex_id_names_the_hex():
    s, p, legal, _hits, buf = _until("narvik", lambda o: type(o).__name__ == "Move", after=0)
    assert p.listed_order("99999", legal) == f"no order 99999: the list has {len(legal)} (list shows them)"
    assert p.listed_order("2101", legal) is None and p.listed_order("1SG", legal) is None  # the game's own explain
    p.command("explain 2101", legal)
    assert buf.getvalue().startswith("2101")  # the hex, not order 2101
    assert p.listed_order("3", legal) is legal[2]


def _kampen_move(o):
    """(last area, destination) of a move on foot or by a card's move; None for other orders."""
    if type(o).__name__ == "KMove":
        return o.src, o.dst
    if type(o).__name__ == "PlayCard" and o.slot == "move" and o.path:
        return (o.path[-2] if len(o.path) > 1 else o.src), o.path[-1]
    return None


def test_4_2_kampen_an_attack_order_gives_its_dice_and_exact_chance_before_cards():
    """A move into an enemy area, on foot or by a card, is an attack (4.1): its note is the
    command line's exact chance for the same battalions, defenders and fjord (4.2); a group
    joining an attack counts the groups already there. Every move order of random games is
    checked until each of the three is met."""
    info = registry.get("kampen")
    checked = {"KMove": 0, "PlayCard": 0, "joining": 0}
    for seed in range(12):
        s, rng = info.build().new_state(seed), random.Random(seed)
        while not s.is_over() and not all(checked.values()):
            legal = list(s.legal_orders())
            p = terminal(info.presenter, s, {s.current_side()}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
            g, d = p.presenter.game, p.presenter.data
            for o in legal:
                if _kampen_move(o) is None:
                    continue
                last, dst = _kampen_move(o)
                dn = sum(d.bn[f].get(dst, 0) for f in ("germans", "norwegians", "allies")
                         if (o.side == "germans") != (f == "germans"))
                note, chance = p.presenter.order_note(o)
                if not dn:  # no enemy there: no attack to weigh
                    assert note == "" and chance is None
                    continue
                if d.attacks.get(dst):  # joining groups already attacking: their battalions count too
                    total = sum(gr.n for gr in d.attacks[dst]) + o.n
                    assert note.startswith(f"attack: {total} battalions against {dn}, "), note
                    checked["joining"] += 1
                    continue
                want = combat_odds(g, o.n, dn, (last, dst) in g.water)["attacker_wins"]  # a first group
                assert chance == float(want) and f"takes the area {float(want):.0%} before cards" in note
                said = said_text(p.presenter.explain_order(o))  # what the order does (4.1, a card's text), then the same odds
                assert said.startswith(f"{p.presenter.order_line(o)}: ") and said.endswith(note), said  # by its names
                checked[type(o).__name__] += 1
            s.apply(rng.choice(legal))
    assert all(checked.values()), checked


def test_europa_explain_a_listed_attack_is_explain_attack():
    s, p, legal, hits, _buf = _until("europa", lambda o: type(o).__name__ == "Attack", seed=4, rng_seed=2, after=20)
    for o in hits[:3]:
        text = said_text(p.presenter.explain_order(p.listed_order(str(legal.index(o) + 1), legal)))
        assert text.startswith(o.text() + "\n" + said_text(p.presenter.explain(o.text())))
        assert "exact odds: " in text


def _fly(p, order, sums):
    """The air mission flown by the game itself on a copy of the German view, its 2D6 rolls
    scripted to these sums: the events."""
    from hexwar.core.dice import Dice, Roll

    work = p.presenter.data.clone()
    events = []
    from hexwar.games.narvik.phases.air import strike
    strike(p.presenter.game, work, order, Dice.replaying([Roll("air table", (max(1, t - 6), min(6, t - 1))) for t in sums]), events)
    return work, events


def test_18_1_3_air_odds_on_ships_and_infantry_are_the_game_s_own_strikes_counted_over_every_roll():
    """The chances an air mission's note gives are what the game's own strike does, flown on
    a copy for every 2D6 sum of every attack (weighted 1..6..1 in 36): ships sunk or left
    damaged (18.1.3, a damaged ship sinking at a second damage), the FP an infantry hex's
    units gain (18.1.2); with and without a DRM (18.1)."""
    from fractions import Fraction
    from itertools import product

    info = registry.get("narvik")
    s, rng = info.build().new_state(21), random.Random(3)
    two = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    seen = set()
    for _ in range(4000):
        if s.is_over() or ({k for k, _ in seen} >= {"ships", "split", "infantry"} and any(m for _, m in seen)):
            break
        legal = list(s.legal_orders())
        air = [o for o in legal if type(o).__name__ == "AirStrike" and o.mission in ("ships", "infantry")]
        if air:
            p = terminal(info.presenter, s, {"germans"}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
            for o in air:
                kind = "infantry" if o.mission == "infantry" else "split" if len(o.allocation) > 1 else "ships"
                m, chances = p.presenter.air_chances(o)
                if (kind, m != 0) in seen:
                    continue
                seen.add((kind, m != 0))
                counted: dict = {}
                n = 1 if o.mission == "infantry" else len(o.allocation)
                for sums in product(range(2, 13), repeat=n):
                    w = 1
                    for t in sums:
                        w *= two[t]
                    work, events = _fly(p, o, sums)
                    if o.mission == "infantry":
                        (ev,) = [e for e in events if e["type"] == "air_interdiction"]
                        key = ("fp", ev["infantry"] * 2)
                        counted[key] = counted.get(key, 0) + w
                    else:
                        for sid in {sid for sid, _a in o.allocation}:
                            u = work.units[sid]
                            key = (sid, 2 if u.pool is not None else 1 if "damaged" in u.flags else 0)
                            counted[key] = counted.get(key, 0) + w
                want = {(k, v): p_ for k, d_ in chances.items() for v, p_ in d_.items() if p_}
                assert {k: v for k, v in counted.items() if v} == want, o.text()
                assert said_text(p.presenter.explain_order(o)).startswith(f"{o.text()}: ") and "%" in p.presenter.order_note(o)[0]
        s.apply(rng.choice(legal))
    assert {k for k, _ in seen} == {"ships", "split", "infantry"} and any(m for _, m in seen), seen  # a DRM met too


def test_20_3_1_a_landing_into_enemies_is_weighed_as_an_amphibious_assault_and_face_down_defenders_stay_unknown():
    """A landing into a hex the enemy holds is an amphibious assault (20.3.1): explain gives
    its ledger, land strengths halved, and its odds; while a defender there is face down,
    only that is said: no strength, no counter named (11.2)."""
    info = registry.get("narvik")
    s, rng = info.build().new_state(1), random.Random(1)
    met = set()
    while not s.is_over() and len(met) < 2:
        legal = list(s.legal_orders())
        p = None
        for o in legal:
            if type(o).__name__ != "Landing":
                continue
            p = p or terminal(info.presenter, s, {"allies"}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
            if not p.presenter.contested(o):
                assert p.presenter.order_note(o)[0] == ""  # an uncontested landing: nothing to weigh
                continue
            hidden = [u.id for u in s.data.at(o.target) if u.side == "germans" and u.concealed]
            text = said_text(p.presenter.explain_order(o))
            if hidden:
                assert text == f"{o.text()}: defenders face down: their strength shows when attacked (11.2)"
                assert not any(h in text for h in hidden)
            else:
                lines = text.splitlines()
                assert any("strength halved" in ln and ln.endswith("[20.3.1]") for ln in lines)
                assert lines[-1] == f"before the die: {p.presenter.assault_odds(o)}" and "%" in lines[-1]
                assert not any(ln.startswith("  die:") for ln in lines)
            met.add(bool(hidden))
        s.apply(rng.choice(legal))
    assert met == {True, False}
