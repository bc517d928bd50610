"""``explain`` in the Europa "Narvik" variant beyond its attacks: a move's MP along its own path
(E4, the TEC's values ours), a unit's way to a hex, why a unit may not move, where a unit may
retreat and why not elsewhere (E1), the limited option to retreat before combat (E1) and the
last combat when the Norwegians retreated before it (E1). Every figure is read as the game
reads it: the MP of a move is what the game's own search reckons for that path, the hexes
``explain`` offers a retreat are the ones the game offers."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest
from rich.console import Console

from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import Move
from hexwar.rules.orders import Retreat
from hexwar import registry
from hexwar.games.europa.orders import Evade, Truck
from hexwar.games.europa.phases import combat
from hexwar.games.europa.phases.movement import destinations, may_move, why_not_move
from hexwar.rules.ledger import fmt
from hexwar.rules.movement import reach, step_cost
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text


def _decisions(seed, rng_seed=1, limit=400, prefer=lambda o: False):
    """A random Europa game: (state, the deciding side's player, legal, output) at each of
    its first ``limit`` decisions; the orders ``prefer`` likes are played when there are any
    (chosen from the orders legal then: the caller may have given some)."""
    info = registry.get("europa")
    s = info.build().new_state(seed)
    rng = random.Random(rng_seed)
    for _ in range(limit):
        if s.is_over():
            return
        legal = list(s.legal_orders())
        buf = io.StringIO()
        p = terminal(info.presenter, s, {s.current_side()}, {}, Console(file=buf, width=250), None, lambda _: "quit")
        yield s, p, legal, buf
        if s.is_over():  # the caller may have given orders itself
            return
        legal = list(s.legal_orders())
        s.apply(rng.choice([o for o in legal if prefer(o)] or legal))


def _by_hand(g, d, mover, path, enemy):
    """The MP of a path added up here from the chart: each step's cost and the ZoC's exit cost
    (E4), a unit's first hex allowed whatever it costs."""
    q = g.query(d, mover)
    spent = Fraction(0)
    for a, b in zip(path, path[1:]):
        spent += step_cost(g.board, g.chart, d.weather, g.t(mover).movement_class, a, b) + (q.zoc_exit if a in q.zoc else 0)
    return min(spent, q.mp) if len(path) == 2 else spent


def test_E4_a_moves_note_and_ledger_give_the_mp_the_games_search_reckons_for_its_path():
    """Each listed move's (and truck's) note is the MP of its path: the chart's costs added up
    by hand, and the MP the game's own cheapest-path search has spent on reaching that hex;
    within the unit's MP, or its one hex; into an enemy hex the move stops (E4)."""
    moves = trucks = into_enemy = 0
    for seed in (2, 5):
        for s, p, legal, _ in _decisions(seed, limit=300, prefer=lambda o: isinstance(o, (Move, Truck))):
            g, d = s.game, p.presenter.data
            listed = [o for o in legal if isinstance(o, (Move, Truck))]
            for o in random.Random(len(s.log)).sample(listed, min(12, len(listed))):
                mover = d.units[o.truck] if isinstance(o, Truck) else d.units[o.unit]
                enemy = g.context(d, mover.side).enemy
                note, cost = p.presenter.order_note(o)
                led = p.presenter.path_ledger(o.unit, o.path, getattr(o, "truck", ""))
                total = Fraction(led.total)
                assert note == f"{fmt(total)} MP" and cost == float(total)
                assert total == _by_hand(g, d, mover, o.path, enemy)
                mp = g.movement(d, mover)
                assert total <= mp
                last = o.path[-1]
                if last in enemy:
                    into_enemy += 1
                    assert f"{last} holds enemy units: the move stops there  [E4]" in led.render()
                else:  # the search's own reckoning of the cheapest way there
                    r = reach(g.board, g.chart, d.weather, g.t(mover).movement_class, mover.loc, g.query(d, mover))
                    assert total == max(Fraction(0), mp - r.left_at(last)) or len(o.path) == 2
                text = said_text(p.presenter.explain_order(o))
                assert f"= {fmt(total)}" in text and "[E4, TEC authored]" in text and "[14." not in text
                moves += isinstance(o, Move)
                trucks += isinstance(o, Truck)
    assert moves > 300 and trucks >= 1 and into_enemy >= 1, (moves, trucks, into_enemy)


def test_E4_explain_unit_and_hex_takes_the_path_the_game_would_move_it_and_says_why_not_now():
    """``explain UNIT HEX`` gives the ledger of the listed move's own path; for a unit that may
    not move now it says why (what ``may_move`` decides: moved already, absorbed, E4, E5 C);
    an unreachable hex is said to be out of reach with the unit's MP."""
    checked = refused = unreachable = 0
    for s, p, legal, _ in _decisions(3, limit=250, prefer=lambda o: isinstance(o, Move)):
        g, d = s.game, p.presenter.data
        exploit = d.phase == "exploitation"
        if d.phase in ("movement", "exploitation"):  # the reason agrees with the orders the game lists
            movers = {o.unit for o in legal if isinstance(o, Move)}
            for u in (u for u in d.on_map(d.side) if g.ground(u)):
                why = why_not_move(g, d, u, exploit)
                assert not (why and u.id in movers), (u.id, why)
                if u.id in d.absorbed:
                    assert why == f"it is absorbed by {d.absorbed[u.id]} and moves with it (E5 C)"
                elif u.id in d.moved and u.id not in d.carried:
                    assert why == "it has moved already this phase (E4)"
                elif not why and destinations(g, d, u, exploit):
                    assert u.id in movers, u.id
        for o in [o for o in legal if isinstance(o, Move)][:5]:
            text = said_text(p.presenter.explain(f"{o.unit} {o.path[-1]}"))
            assert text.splitlines()[0].startswith(f"movement {' > '.join(o.path)} ")
            assert text == p.presenter.path_ledger(o.unit, o.path).render()
            checked += 1
        if d.phase in ("movement", "exploitation"):
            for u in [u for u in d.on_map(d.side) if g.ground(u) and not may_move(g, d, u, exploit)][:3]:
                way = destinations(g, d, u, exploit)
                if way:
                    dest = sorted(way)[0]
                    assert said_text(p.presenter.explain(f"{u.id} {dest}")).endswith(f"(not this phase: {why_not_move(g, d, u, exploit)})")
                    refused += 1
            u = next((u for u in d.on_map(d.side) if g.ground(u)), None)
            far = next((x for x in sorted(g.board.locations()) if u is not None and x not in destinations(g, d, u, exploit)
                        and x != u.loc), None)
            if u is not None and far is not None:
                assert said_text(p.presenter.explain(f"{u.id} {far}")).startswith(f"{u.id} cannot reach {far} in a ")
                unreachable += 1
    assert checked > 50 and refused > 5 and unreachable > 5, (checked, refused, unreachable)


def test_E1_explain_a_retreat_names_the_hexes_the_game_offers_and_why_not_the_others():
    met = 0
    for seed in range(1, 12):
        for s, p, legal, _ in _decisions(seed, limit=400, prefer=lambda o: type(o).__name__ in ("Attack", "Retreat")):
            d = p.presenter.data
            if d.ask is None or d.ask.what != "retreat":
                continue
            text = said_text(p.presenter.explain_order(legal[0]))
            offered = re.search(r"may retreat to: (.*)", text).group(1)
            assert [x.split(" ")[0] for x in offered.split(", ")] == sorted(d.ask.options)
            u = d.units[d.ask.unit]
            others = set(s.game.board.neighbours(u.loc)) - set(d.ask.options)
            assert {re.match(r"  not (\d+)", ln).group(1) for ln in text.splitlines() if ln.startswith("  not ")} == others
            assert all(isinstance(o, Retreat) for o in legal)
            met += 1
            break
        if met >= 3:
            break
    assert met >= 3


def _evasion_state():
    """A German attack on Norwegians next to Oslo on turn 3, waiting for their choice to
    retreat before combat or stand (E1's limited option)."""
    from hexwar.core.play import PlayState
    from hexwar.core.log import EventLog
    from hexwar.games.europa import EuropaGame
    from hexwar.games.europa.orders import Attack
    from hexwar.games.europa.state import ALLIES, GERMANS, Ask
    from tests.games.test_europa_rules import OSLO, bare, land_neighbour

    g = EuropaGame()
    x = land_neighbour(g, OSLO)
    d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "combat"), turn=3)
    d.phase = "combat"
    g.apply(d, Attack(GERMANS, x, ("I/IR307", "II/IR307")), Dice(1))
    assert d.ask == Ask(ALLIES, "evade", hex=x)
    s = PlayState(g, d, EventLog({"game": "europa", "seed": 1}))
    buf = io.StringIO()
    p = terminal(registry.get("europa").presenter, s, {ALLIES}, {}, Console(file=buf, width=250), None, lambda _: "quit")
    return s, p, list(s.legal_orders()), buf


def test_E1_explain_evade_gives_the_die_the_game_rolls_and_the_odds_if_caught_or_standing():
    s, p, legal, _ = _evasion_state()
    g, d = s.game, p.presenter.data
    c = d.combat
    go = next(o for o in legal if isinstance(o, Evade) and o.go)
    stand = next(o for o in legal if isinstance(o, Evade) and not o.go)
    text = said_text(p.presenter.explain_order(go))
    # the chance to slip away is the share of the die's faces on which the game evades
    slips = 0
    for face in range(1, 7):
        work = d.clone()
        events = g.apply(work, go, Dice.replaying([Roll("retreat option", (face,))] + [Roll("CRT", (1,))]))
        ev = next(e for e in events if e["type"] == "evade")
        if ev["result"] == "retreat":
            slips += 1
        else:  # caught: the attack is fought a column up, as the explanation reckons it
            fought = next(e for e in events if e["type"] == "attack")
            assert fought["shift"] == combat.strengths(g, d, c)[2] + 1
    assert f": they retreat, no combat: {slips}/6 = {slips / 6:.0%}" in text
    caught = ", ".join(f"{r} {float(q):.0%}" for r, q in combat.odds(g, d, replace(c, shift=c.shift + 1)))
    standing = ", ".join(f"{r} {float(q):.0%}" for r, q in combat.odds(g, d, c))
    assert f"else caught: the attack gains a column: {caught}  [E1]" in text
    assert said_text(p.presenter.explain_order(stand)).endswith(f"if the attack is fought as it stands: {standing}  [E1]")
    # the web board's buttons carry the same figures
    assert p.presenter.order_note(go)[0].endswith(f": they retreat, no combat: {slips}/6 = {slips / 6:.0%}; "
                                        f"else caught: the attack gains a column: {caught}")
    assert p.presenter.order_note(stand)[0] == f"if the attack is fought as it stands: {standing}"
    assert d.to_json() == s.data.to_json()  # weighed on copies
    assert f"attacked now by {', '.join(c.attackers)} (E3 D)" in p.presenter.about(c.target)  # the hover of the hex


def test_E1_explain_last_tells_an_attack_the_norwegians_retreated_from_before_combat():
    """On turn 1 the Norwegians retreat before combat by a die (E1): ``explain last`` names the
    attack, its units and the die, where it said 'no combat yet'; a fought attack after it is
    the one shown."""
    for s, p, legal, _ in _decisions(3, limit=600, prefer=lambda o: type(o).__name__ == "Attack"):
        entry = s.log.entries[-1] if s.log.entries else None
        evs = [e for e in (entry.events if entry else []) if e["type"] in ("evade", "attack")]
        if evs and evs[-1]["type"] == "evade" and evs[-1]["result"] == "retreat":
            ev = evs[-1]
            said = said_text(p.presenter.explain("last"))
            assert said.startswith(f"attack on {ev['target']}")
            assert " by " + ", ".join(entry.order["units"]) in said
            assert said.endswith(f"the die was {ev['die']}  [E1]") and "retreated before combat" in said
            break
    else:
        pytest.fail("no retreat before combat met")
    for s, p, legal, _ in _decisions(3, limit=900, prefer=lambda o: type(o).__name__ == "Attack"):
        evs = [e for en in s.log.entries for e in en.events if e["type"] in ("evade", "attack")]
        if evs and evs[-1]["type"] == "attack":
            assert said_text(p.presenter.explain("last")).startswith(f"combat at {evs[-1]['target']} (odds CRT, E1)")
            return
    pytest.fail("no attack fought")


def test_web_hover_over_a_hex_with_a_unit_picked_gives_its_way_there_and_into_an_enemy_hex_stops():
    """The web board's hover, a unit picked: the MP ledger of the listed move there (E4); over
    an enemy-held hex it may reach, that it stops there, and for a unit with an attack
    strength that it must then attack (E3 D)."""
    plain = enemy = 0
    for s, p, legal, _ in _decisions(2, limit=300, prefer=lambda o: isinstance(o, Move)):
        d, g = p.presenter.data, s.game
        for o in [o for o in legal if isinstance(o, Move)][:40]:
            u = d.units[o.unit]
            lines = p.presenter.about(o.path[-1], o.unit)
            assert lines[-1].endswith(p.presenter.path_ledger(o.unit, o.path).render())
            if g.ground_at(d, o.path[-1], "germans" if u.side == "allies" else "allies"):
                must = g.attack(d, u) > 0
                assert lines[-1].startswith(f"held by the enemy: {o.unit} may move in and stop (E4)"
                                            + ("; units sharing a hex with the enemy must attack it (E3 D)" if must else "\n"))
                enemy += 1
            else:
                assert "held by the enemy" not in lines[-1]
                plain += 1
        if enemy >= 2 and plain >= 50:
            return
    pytest.fail(f"moves met: {plain} plain, {enemy} into an enemy hex")


def test_a_units_line_names_it_once():
    """``explain`` and the hover name a unit by its id and, where it has one of its own, its
    name: never 'I/IR4 : ...' for a unit without a name, nor 'Hamar-1a Hamar-1a: ...'."""
    s, p, _, _ = next(_decisions(1, limit=1))
    d = p.presenter.data
    plain = named = 0
    for u in d.on_map():
        line = p.presenter.unit_line(u)
        if u.name and u.name != u.id:
            assert line.startswith(f"{u.id} {u.name}: ")
            named += 1
        else:
            assert line.startswith(f"{u.id}: ")
            plain += 1
    assert plain and named


def test_E5_B_ending_movement_with_units_overstacked_is_given_only_when_typed_twice():
    """Passing the movement (or exploitation) phase with units over the stacking limit leaves
    them adding nothing to the defence (E5 B): typed once, the terminal names them and
    changes nothing; typed again, it is given, and the game flags those very units. The web
    board's pass button carries the same note. A pass that leaves none is given at once."""
    warned = at_once = differ = 0
    for seed in (3, 4, 5):
        for s, p, legal, buf in _decisions(seed, limit=600, prefer=lambda o: type(o).__name__ == "Absorb"):
            d = p.presenter.data
            if d.phase not in ("movement", "exploitation") or not any(type(o).__name__ == "Pass" for o in legal):
                continue
            over = p.presenter.weigh.left_overstacked(next(o for o in legal if type(o).__name__ == "Pass"))
            now = [f"{u.id} at " for u in sorted(d.on_map(d.side), key=lambda u: (u.loc, u.id)) if "overstacked" in u.flags]
            differ += [x.split(" at ")[0] + " at " for x in over] != now  # the pass itself restacks (E5 A)
            if (warned if over else at_once) >= 2:
                continue
            n = len(s.log)
            p.command("pass", legal)
            if not over:
                assert len(s.log) == n + 1 and "Give it again" not in buf.getvalue()
                at_once += 1
                continue
            said = " ".join(buf.getvalue().split())  # as one line, however the console wrapped it
            assert len(s.log) == n and f"over the stacking limit, adding nothing to the defence (E5 B): {', '.join(over)}" in said
            assert said.endswith("Give it again to confirm (type or click it); anything else plays on.")
            assert p.presenter.order_note(legal[[o.text() for o in legal].index("pass")])[0] == \
                f"leaves over the stacking limit (E5 B): {', '.join(over)}"
            p.command("pass", s.legal_orders())
            assert len(s.log) == n + 1
            flagged = sorted((u.loc, u.id) for u in s.data.on_map(d.side) if "overstacked" in u.flags)
            assert [x.split(" at ")[0] for x in over] == [u for _, u in flagged]
            warned += 1
        if warned >= 2 and at_once >= 2 and differ:
            break
    assert warned and at_once and differ, (warned, at_once, differ)


def test_E1_an_attack_explained_before_the_die_names_the_column_it_is_fought_in():
    """``explain`` of a listed attack ends its ledger with the odds and the column the die is
    read in, the very line of the ledger of that attack fought (on a copy; Norwegians asked
    to evade stand, E1)."""
    met = 0
    for s, p, legal, _ in _decisions(4, rng_seed=2, limit=900, prefer=lambda o: type(o).__name__ == "Attack"):
        g, d = s.game, p.presenter.data
        for o in [o for o in legal if type(o).__name__ == "Attack"][:3]:
            text = said_text(p.presenter.explain_order(o))
            said = next(ln.strip() for ln in text.splitlines() if ln.strip().startswith("odds "))
            for k in range(40):  # live dice until it is fought (a turn 1 retreat before combat is not)
                work = d.clone()
                events = g.apply(work, o, Dice(k))
                if work.ask is not None and work.ask.what == "evade":  # the Norwegians stand (E1)
                    events += g.apply(work, Evade("allies", False), Dice(k))
                if any(e["type"] == "attack" for e in events):
                    break
            fought = next(e for e in events if e["type"] == "attack")
            line = next(ln for ln in fought["ledger"]["lines"] if ln["text"].startswith("odds "))
            assert said == f"{line['text']}: {line['value']}  [{line['rule']}]"
            met += 1
        if met >= 6:
            return
    pytest.fail(f"attacks met: {met}")


def test_E1_E3_C_an_interdiction_and_an_air_mission_explained_give_the_chances_the_game_rolls():
    """``explain`` of a naval interdiction gives each result's chance over the die with its
    DRM (E1, the table ours); of an air mission, the enemy AA that fires and the chance it gets
    through (E3 C): both counted here by giving the order on copies for every face of the dice."""
    from itertools import product

    from hexwar.games.europa.orders import Interdict, Mission

    interdicts = missions = 0
    for seed in (2, 3, 5):
        for s, p, legal, _ in _decisions(seed, limit=700, prefer=lambda o: isinstance(o, (Interdict, Mission, Move))):
            g, d = s.game, p.presenter.data
            for o in [o for o in legal if isinstance(o, Interdict)][:1]:
                drm, chances = p.presenter.weigh.interdiction_chances(o)
                seen = {}
                for face in range(1, 7):
                    ev = next(e for e in g.apply(d.clone(), o, Dice.replaying([Roll("interdiction", (face,))]))
                              if e["type"] == "interdict")
                    assert ev["drm"] == drm
                    seen[ev["result"]] = seen.get(ev["result"], 0) + Fraction(1, 6)
                assert seen == chances
                text = said_text(p.presenter.explain_order(o))
                assert ", ".join(f"{r} {float(q):.0%}" for r, q in chances.items()) in text and "(E1, the table ours)" in text
                interdicts += 1
            for o in [o for o in legal if isinstance(o, Mission)][:2]:
                aa, through = p.presenter.weigh.mission_chances(o)
                if len(aa) > 3:
                    continue
                got = Fraction(0)
                for faces in product(range(1, 7), repeat=len(aa)):
                    ev = next(e for e in g.apply(d.clone(), o, Dice.replaying([Roll("AA fire", (f,)) for f in faces]))
                              if e["type"] == "mission")
                    assert ev["aa"] == aa
                    got += Fraction(0 if ev["turned_back"] else 1, 6 ** len(aa))
                assert got == through and f"gets through {float(through):.0%}" in said_text(p.presenter.explain_order(o))
                missions += 1
            if interdicts >= 2 and missions >= 4:
                break
        if interdicts >= 2 and missions >= 4:
            break
    assert interdicts >= 2 and missions >= 4, (interdicts, missions)
    # AA fire, rare in random games: a mission over Norwegians beside Oslo with one AA battery
    from hexwar.core.play import PlayState
    from hexwar.core.log import EventLog
    from hexwar.games.europa import EuropaGame
    from hexwar.games.europa.state import GERMANS, Ask
    from tests.games.test_europa_rules import OSLO, bare, land_neighbour

    g = EuropaGame()
    x = land_neighbour(g, OSLO)
    d = bare(g, ("KG4", OSLO), ("I/IR307", OSLO), ("I/IR4", x), ("AA-1", x), ask=Ask(GERMANS, "air"))
    d.phase, d.air_side = "air", GERMANS
    s = PlayState(g, d, EventLog({"game": "europa", "seed": 1}))
    p = terminal(registry.get("europa").presenter, s, {GERMANS}, {}, Console(file=io.StringIO(), width=250), None, lambda _: "quit")
    o = Mission(GERMANS, "KG4", x)
    aa, through = p.presenter.weigh.mission_chances(o)
    assert aa == ["AA-1"] and through == Fraction(5, 6)
    turned = [next(e for e in g.apply(d.clone(), o, Dice.replaying([Roll("AA fire", (f,))])) if e["type"] == "mission")["turned_back"]
              for f in range(1, 7)]
    assert Fraction(turned.count(False), 6) == through
    assert said_text(p.presenter.explain_order(o)) == (f"KG4 over {x}: AA fire from AA-1: each turns it back on a 6; gets through 83%: +1 column to "
                                  "the attack on it (at most 2 missions count a hex) (E3 C, the AA chart ours)")


def test_E5_C_explain_absorb_and_detach_give_the_stack_before_and_after_and_the_hqs_mp():
    """Absorbing a unit into an HQ (or detaching it) explained: the hex's ground units against
    the limit of E5 A now and after, and the MP the HQ then moves at (its slowest unit's, E5 C),
    the figures of the order given: after it, the game's own count and the HQ's MP are these."""
    from hexwar.games.europa.orders import Absorb, Detach

    met = {Absorb: 0, Detach: 0}
    for s, p, legal, _ in _decisions(3, limit=400, prefer=lambda o: isinstance(o, (Absorb, Detach))):
        g, d = s.game, p.presenter.data
        for o in [o for o in legal if isinstance(o, (Absorb, Detach))][:3]:
            text = said_text(p.presenter.explain_order(o))
            hq = d.units[o.hq]
            after = d.clone()
            g.apply(after, o, Dice(0))
            n0, n1 = g.stack_points(d, hq.loc, hq.side)[0], g.stack_points(after, hq.loc, hq.side)[0]
            assert n1 == n0 + (1 if isinstance(o, Detach) else -1)
            assert f"{n0} ground units now, {n1} after, limit 2" in text
            mp = fmt(g.movement(after, after.units[o.hq]))
            assert text.endswith(f"{o.hq} then moves at {mp} MP (E5 C: its slowest unit's)")
            assert p.presenter.order_note(o)[0] == f"{n0} ground units now, {n1} after, limit 2; the HQ moves at {mp} MP"  # the button
            met[type(o)] += 1
        if all(v >= 2 for v in met.values()):
            return
    pytest.fail(f"met {met}")


def test_E1_explain_assemble_and_breakdown_give_the_strengths_each_way_and_the_stack_before_and_after():
    """A German regiment reassembled from its three battalions (or broken down) explained: the
    counters' attack-defence each way, and the hex's ground units against E5 A's limit now and
    after, as the game counts them once the order is given."""
    from hexwar.games.europa.orders import Assemble, Breakdown

    met = {Assemble: 0, Breakdown: 0}
    for s, p, legal, _ in _decisions(3, rng_seed=4, limit=600, prefer=lambda o: isinstance(o, (Assemble, Breakdown))):
        g, d = s.game, p.presenter.data
        for o in [o for o in legal if isinstance(o, (Assemble, Breakdown))][:2]:
            bns = g.regiments[o.regiment]
            loc = d.units[o.regiment].loc if isinstance(o, Breakdown) else d.units[bns[0]].loc
            after = d.clone()
            g.apply(after, o, Dice(0))
            n0, n1 = g.stack_points(d, loc, o.side)[0], g.stack_points(after, loc, o.side)[0]
            reg = g.t(d.units[o.regiment])
            three = [g.t(d.units[b]) for b in bns]
            text = said_text(p.presenter.explain_order(o))
            assert f"{o.regiment} {reg.attack}-{reg.defence}" in text
            assert f"({sum(t.attack for t in three)}-{sum(t.defence for t in three)} together)" in text
            assert text.endswith(f": {n0} ground units now, {n1} after, limit 2 (E5 A)")
            assert p.presenter.order_note(o)[0] == f"{n0} ground units now, {n1} after, limit 2"  # the button
            assert (n1 < n0) == isinstance(o, Assemble)
            met[type(o)] += 1
        if all(v >= 1 for v in met.values()):
            return
    pytest.fail(f"met {met}")
