"""The Europa "Narvik" variant's rules (digest Part 2, E1-E5), each on a small position built on
the campaign map: the sequence of play (E3), movement into and out of enemy hexes (E4),
ownership (E4), stacking and HQs (E5), and E1's special rules (breakdowns, trucks,
mobilisation, artillery stores, disruption, supply states, retreat before combat, naval
interdiction and stranded sailors), with the odds CRT's exact odds in every column."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import IllegalOrder, Move, Pass
from hexwar.data.loader import DataError
from hexwar.games.europa import EuropaGame, Switches
from hexwar.games.europa.orders import (
    Absorb,
    Assemble,
    Attack,
    Breakdown,
    Detach,
    Evade,
    Interdict,
    Mission,
    Truck,
)
from hexwar.games.europa.phases import combat, movement, reinforce
from hexwar.games.europa.state import ALLIES, DISRUPTED, GERMANS, OVERSTACKED, Ask
from hexwar.rules.combat import odds_column_index, odds_outcomes

OSLO, HONEFOSS, NARVIK, TRONDHEIM, SETERMOEN, HAMAR = "1845", "1743", "2508", "1530", "2607", "1841"


@pytest.fixture(scope="module")
def g():
    return EuropaGame()


def fixed(*rolls: tuple[str, int]) -> Dice:
    return Dice.replaying([Roll(p, (f,)) for p, f in rolls])


def bare(g, *placed: tuple[str, str], ask: Ask | None = None, turn: int = 2):
    """A state with only ``placed`` units on the map (the German movement phase of ``turn``)."""
    d = g.new_state(1).data
    for u in list(d.on_map()):
        d.remove(u.id, "removed")
    d.absorbed.clear()
    for uid, at in placed:
        d.place(uid, at)
    d.turn = turn
    d.side = GERMANS
    d.phase = "movement"
    d.ask = ask or Ask(GERMANS, "move")
    d.out_of_supply = []
    return d


def land_neighbour(g, h, avoid=()):
    return next(n for n in g.board.neighbours(h) if n not in avoid and g.board.terrain(n) not in ("sea",)
                and not g.board.border(h, n).is_water and n not in g.sweden)


# --- E3 sequence ------------------------------------------------------------------------------


def test_E3_a_game_turn_is_the_german_player_turn_then_the_allied_one(g):
    st = g.new_state(3)
    assert st.data.side == GERMANS and st.data.ask.what == "move" and st.data.turn == 1
    seen = []
    while st.data.turn == 1 and not st.is_over():
        legal = st.legal_orders()
        order = next((o for o in legal if isinstance(o, Pass)), legal[0])
        for e in st.apply(order):
            if e["type"] in ("phase_end", "player_turn"):
                seen.append((e["type"], e["side"], e.get("phase", "")))
    phases = [(s, p) for t, s, p in seen if t == "phase_end"]
    assert phases[:2] == [(GERMANS, "movement"), (GERMANS, "combat")] or phases[:3] == [
        (GERMANS, "movement"), (GERMANS, "air"), (GERMANS, "combat")]
    assert ("player_turn", ALLIES, "") in seen and (GERMANS, "exploitation") in phases
    assert phases.index((GERMANS, "exploitation")) < phases.index((ALLIES, "movement"))


def test_E1_a_turn_is_four_days_from_9_april(g):
    assert g.date(1) == "9 April 1940" and g.date(2) == "13 April 1940" and g.date(16) == "8 June 1940"


# --- E4 movement ------------------------------------------------------------------------------


def test_E4_a_unit_may_enter_an_enemy_hex_and_stop_but_never_pass_through(g):
    x = land_neighbour(g, OSLO)
    d = bare(g, ("I/IR307", OSLO), ("I/IR4", x))
    dest = movement.destinations(g, d, d.units["I/IR307"], False)
    assert x in dest and dest[x][-1] == x
    assert all(x not in path[1:-1] for path in dest.values())
    assert not any(x in path[:-1] for h, path in dest.items() if h != x)


def test_E4_not_directly_from_one_enemy_hex_into_another(g):
    x = land_neighbour(g, OSLO)
    y = land_neighbour(g, x, avoid=(OSLO,))
    d = bare(g, ("I/IR307", x), ("I/IR4", x), ("I/IR1", y))
    dest = movement.destinations(g, d, d.units["I/IR307"], False)
    assert y not in dest or len(dest[y]) > 2 and dest[y][-2] != x


def test_E3_E_exploitation_moves_only_combat_motorized_units_and_never_into_a_defended_hex(g):
    x = land_neighbour(g, OSLO)
    d = bare(g, ("Pz40", OSLO), ("I/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "exploit"))
    assert not movement.may_move(g, d, d.units["I/IR307"], True)
    assert movement.may_move(g, d, d.units["Pz40"], True)
    assert x not in movement.destinations(g, d, d.units["Pz40"], True)
    assert x in movement.destinations(g, d, d.units["Pz40"], False)


def test_E4_ownership_goes_to_the_last_side_alone_in_the_hex(g):
    d = bare(g, ("I/IR307", HONEFOSS), ("I/IR4", HONEFOSS))
    d.owner[HONEFOSS] = ALLIES
    ev: list = []
    g.update_owners(d, ev)
    assert d.owner[HONEFOSS] == ALLIES and not ev  # both there: the last sole occupant keeps it
    d.remove("I/IR4", "eliminated")
    g.update_owners(d, ev)
    assert d.owner[HONEFOSS] == GERMANS and ev[0]["type"] == "owner"


def test_E4_halved_movement_keeps_fractions(g):
    d = bare(g, ("I/IR307", OSLO))
    u = d.units["I/IR307"]
    u.flags.append(DISRUPTED)
    d.out_of_supply = ["I/IR307"]
    assert g.movement(d, u) == Fraction(3, 4)  # 3 MP, halved twice (E1 disruption, out of supply)


# --- E5 stacking and headquarters ----------------------------------------------------------


def test_E5_two_ground_units_and_one_artillery_battalion_the_rest_overstacked(g):
    d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("I/IR324", OSLO), ("AR234", OSLO), ("Pz40", OSLO), ("Rad-163", OSLO))
    ev: list = []
    g.restack(d, ev)
    over = sorted(u.id for u in d.at(OSLO) if u.has(OVERSTACKED))
    assert over == ["II/IR324"] or len(over) == 1  # a third battalion; the tank and the company stack free
    assert not d.units["AR234"].has(OVERSTACKED) and not d.units["Pz40"].has(OVERSTACKED)
    assert g.defence(d.units[over[0]]) == 0  # E5 B: adds nothing to the defence


def test_E5_C_an_hq_absorbs_its_own_formation_and_frees_the_stack(g):
    d = bare(g, ("163HQ", OSLO), ("I/IR307", OSLO), ("II/IR307", OSLO), ("I/IR193", OSLO))
    hq = d.units["163HQ"]
    assert {u.id for u in movement.absorbable(g, d, hq)} == {"I/IR307", "II/IR307"}  # not 69th Division's
    st_before = g.stack_points(d, OSLO, GERMANS)[0]
    g.apply(d, Absorb(GERMANS, "163HQ", "I/IR307"), fixed())
    assert g.stack_points(d, OSLO, GERMANS)[0] == st_before - 1
    # with absorbed units an HQ moves at its slowest unit's rating (E5 C)
    d.absorbed["Pz40"] = "163HQ"
    d.place("Pz40", OSLO)
    assert g.movement(d, hq) == min(g.mp["ger_div_hq"], g.mp["ger_tank_bn"], g.mp["ger_inf_bn"])


def test_E5_C_2_a_norwegian_hq_absorbs_a_norwegian_unit_before_any_allied_one(g):
    d = bare(g, ("6DivHQ", NARVIK), ("1SG", NARVIK), ("I/IR15", NARVIK), ask=Ask(ALLIES, "move"))
    d.side = ALLIES
    hq = d.units["6DivHQ"]
    assert [u.id for u in movement.absorbable(g, d, hq)] == ["I/IR15"]
    d.absorbed["I/IR15"] = "6DivHQ"
    assert [u.id for u in movement.absorbable(g, d, hq)] == ["1SG"]


def test_E5_C_a_non_mountain_division_hq_enters_mountains_only_along_a_transportation_line(g):
    """E5 C: "Non-mountain division headquarters may not enter mountain hexes ... except while
    moving along a transportation line"; a mountain division's HQ and the infantry may. At 1644
    (forest) the mountain hex 1643 lies along a road or railway, 1543 off any."""
    b = g.board
    assert b.terrain("1643") == b.terrain("1543") == "mountain"
    assert {"road", "rail"} & set(b.border("1644", "1643").features) and not {"road", "rail"} & set(b.border("1644", "1543").features)
    d = bare(g, ("163HQ", "1644"), ("I/IR307", "1644"))
    hq = movement.destinations(g, d, d.units["163HQ"], False)
    foot = movement.destinations(g, d, d.units["I/IR307"], False)
    assert "1643" in hq and hq.get("1543") != ("1644", "1543")  # into the mountains along the line only
    assert movement.path_ledger(g, d, d.units["I/IR307"], ("1644", "1543")).total == 3  # infantry climbs straight in
    hills = {x for x in foot if b.terrain(x) == "mountain"}
    assert {x for x in hq if b.terrain(x) == "mountain"} <= hills
    assert all(b.terrain(x) != "mountain" or all({"road", "rail"} & set(b.border(p[i - 1], p[i]).features)
                                                 for i in range(1, len(p)) if b.terrain(p[i]) == "mountain")
               for x, p in hq.items())  # every mountain hex on every path entered along a line
    led = movement.path_ledger(g, d, d.units["163HQ"], ("1644", "1543"))
    assert led.total is None  # refused, with the ledger saying why
    d2 = bare(g, ("3GebHQ", "1644"))
    assert "1543" in movement.destinations(g, d2, d2.units["3GebHQ"], False)  # a mountain division's HQ may


def test_E5_C_a_moving_hq_carries_what_it_absorbed(g):
    d = bare(g, ("163HQ", OSLO), ("I/IR307", OSLO))
    g.apply(d, Absorb(GERMANS, "163HQ", "I/IR307"), fixed())
    move = next(o for o in g.legal_orders(d) if isinstance(o, Move) and o.unit == "163HQ")
    g.apply(d, move, fixed())
    assert d.units["I/IR307"].loc == move.path[-1]
    assert not any(isinstance(o, Move) and o.unit == "I/IR307" for o in g.legal_orders(d))


# --- E1 breakdowns and trucks ------------------------------------------------------------------


def test_E1_three_battalions_in_a_hex_reassemble_into_their_regiment_and_break_down_again(g):
    d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("III/IR307", OSLO))
    assert Assemble(GERMANS, "IR307") in g.legal_orders(d)
    g.apply(d, Assemble(GERMANS, "IR307"), fixed())
    assert d.units["IR307"].loc == OSLO and d.units["I/IR307"].pool == "assembled"
    assert g.stack_points(d, OSLO, GERMANS)[0] == 1  # one counter where there were three
    # once a phase (authored): a side could break down and reassemble without end
    assert Breakdown(GERMANS, "IR307") not in g.legal_orders(d)
    before = d.to_json()
    with pytest.raises(IllegalOrder, match="once this phase already"):
        g.apply(d, Breakdown(GERMANS, "IR307"), fixed())
    assert d.to_json() == before
    d.reorganised = []  # the next phase (reinforce._start, movement.run_exploitation)
    g.apply(d, Breakdown(GERMANS, "IR307"), fixed())
    assert {d.units[b].loc for b in ("I/IR307", "II/IR307", "III/IR307")} == {OSLO} and d.units["IR307"].pool == "broken_down"


def test_E5_C_a_unit_is_detached_once_a_phase_and_absorbed_again_at_its_end(g):
    """E5 C: the phasing player "absorbs at phase start, detaches during the phase, re-absorbs
    at phase end". A unit detached and absorbed again is not detached a second time in the
    phase: the search bot as the Allies detached and absorbed an artillery battery 99,714
    times in one exploitation phase (the bot ladder, Europa, priority v search:8)."""
    d = bare(g, ("163HQ", OSLO), ("I/IR307", OSLO))
    g.apply(d, Absorb(GERMANS, "163HQ", "I/IR307"), fixed())
    g.apply(d, Detach(GERMANS, "163HQ", "I/IR307"), fixed())
    g.apply(d, Absorb(GERMANS, "163HQ", "I/IR307"), fixed())  # the phase's end: back in its HQ
    assert Detach(GERMANS, "163HQ", "I/IR307") not in g.legal_orders(d)
    before = d.to_json()
    with pytest.raises(IllegalOrder, match="detached from its HQ once this phase already"):
        g.apply(d, Detach(GERMANS, "163HQ", "I/IR307"), fixed())
    assert d.to_json() == before
    d.reorganised = []  # the next phase
    assert Detach(GERMANS, "163HQ", "I/IR307") in g.legal_orders(d)


def test_E1_no_reassembly_with_a_battalion_elsewhere(g):
    d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("III/IR307", HONEFOSS))
    assert Assemble(GERMANS, "IR307") not in g.legal_orders(d)
    with pytest.raises(IllegalOrder, match="E1"):
        g.apply(d, Assemble(GERMANS, "IR307"), fixed())


def test_E1_a_truck_carries_one_battalion_equivalent_of_infantry(g):
    d = bare(g, ("Truck-1", OSLO), ("I/IR307", OSLO), ("IR324", OSLO), ("AR234", OSLO))
    trucks = [o for o in g.legal_orders(d) if isinstance(o, Truck)]
    assert trucks and {o.unit for o in trucks} == {"I/IR307"}  # not the regiment (3), not the guns
    o = max(trucks, key=lambda o: len(o.path))
    g.apply(d, o, fixed())
    assert d.units["I/IR307"].loc == o.path[-1] == d.units["Truck-1"].loc
    assert "I/IR307" in d.moved  # it has had its move


# --- E1 mobilisation, stores, sailors ----------------------------------------------------------


def test_E1_a_captured_mobilisation_centre_loses_that_turns_troops(g):
    d = bare(g, ("I/IR307", HAMAR), turn=2)
    d.owner[HAMAR] = GERMANS
    d.side, d.phase, d.step, d.ask = ALLIES, "reinforcement", 0, None
    ev: list = []
    reinforce._mobilise(g, d, ev)
    assert d.units["Hamar-2a"].pool == "lost"
    assert d.units["Voss-2a"].loc == g.hex("Voss")  # a centre the Allies still hold raises its battalion
    assert any(e["type"] == "lost" and e["unit"] == "Hamar-2a" and e["rule"] == "E1" for e in ev)


def test_E1_a_captured_artillery_store_gives_an_artillery_formed_battalion_within_3_hexes(g):
    d = bare(g, ("I/IR307", HONEFOSS))
    d.owner[HONEFOSS] = ALLIES
    g.update_owners(d, [])
    assert HONEFOSS in d.stores_taken and d.forming == [HONEFOSS]
    options = reinforce.form_hexes(g, d, HONEFOSS)
    assert options and all(g.board.distance(h, HONEFOSS) <= 3 for h in options) and HONEFOSS not in options
    # the store's artillery never comes (turn 2)
    d.side, d.turn = ALLIES, 2
    reinforce._mobilise(g, d, [])
    assert d.units["Hønefoss-art2"].pool == "lost"


def test_E1_interdiction_sinks_the_narvik_flotilla_and_its_sailors_land_on_turn_2(g):
    d = bare(g, ("GJR139", NARVIK), ("Z-Flotilla", NARVIK), ask=Ask(ALLIES, "move"), turn=1)
    d.side = ALLIES
    d.owner[NARVIK] = GERMANS
    assert Interdict(ALLIES, NARVIK) in g.legal_orders(d)
    ev = g.apply(d, Interdict(ALLIES, NARVIK), fixed(("interdiction", 5)))  # 5 +1 (turns 1-2) = 6: sunk
    e = next(x for x in ev if x["type"] == "interdict")
    assert e["result"] == "sunk" and e["sunk"] == ["Z-Flotilla"] and d.sailors_turn == 2
    assert d.blockaded[NARVIK] == 2
    d.turn, d.side = 2, GERMANS
    ev2: list = []
    reinforce._sailors(g, d, ev2)
    assert {u.id for u in d.at(NARVIK)} >= {"MarRgt", "Mar-1", "Mar-2", "Mar-3", "Mar-4"}


def test_E1_a_blockaded_port_is_no_german_supply_source(g):
    d = bare(g, ("GJR139", NARVIK))
    d.owner[NARVIK] = GERMANS
    assert NARVIK in g.sources(d, GERMANS)
    d.blockaded[NARVIK] = d.turn
    assert NARVIK not in g.sources(d, GERMANS)


def test_E1_the_skagerrak_is_never_interdicted(g):
    d = bare(g, ("I/IR307", OSLO), ask=Ask(ALLIES, "move"))
    d.side = ALLIES
    assert OSLO not in movement.interdict_targets(g, d)


# --- E1 supply states --------------------------------------------------------------------------


def test_E1_out_of_general_supply_halves_movement_and_attack(g):
    far = g.hex("Dombås")
    d = bare(g, ("I/IR307", far))
    for h in list(d.owner):
        d.owner[h] = ALLIES
    assert g.supplied(d, GERMANS, g.rules.general_supply.hexes)["I/IR307"] is False
    d.owner[OSLO] = GERMANS
    near = bare(g, ("I/IR307", land_neighbour(g, OSLO)))
    assert g.supplied(near, GERMANS, g.rules.general_supply.hexes)["I/IR307"] is True
    d.out_of_supply = ["I/IR307"]
    assert g.movement(d, d.units["I/IR307"]) == Fraction(3, 2)
    x = land_neighbour(g, far)
    d.place("I/IR9", x)
    c = combat.Combat(GERMANS, x, ["I/IR307"], ["I/IR9"])
    att, _, _, led = combat.strengths(g, d, c)
    assert att == 1 and any("halved" in ln.text for ln in led.lines)


# --- combat ------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(8))
def test_E1_every_odds_column_gives_its_results_with_their_exact_chances(g, i):
    col = g.crt.columns[i]
    dist = dict(odds_outcomes(g.crt, col.attack, col.defence))
    assert sum(dist.values()) == 1
    for r in set(col.results):
        assert dist[r] == Fraction(col.results.count(r), 6)
    assert set(col.results) <= set(g.crt.codes)


def test_E1_disruption_results_appear_and_disruption_halves_the_defence(g):
    assert any("AD" in c.results for c in g.crt.columns) and any("DD" in c.results for c in g.crt.columns)
    x = land_neighbour(g, OSLO)
    d = bare(g, ("I/IR307", OSLO), ("I/IR4", x))
    d.owner[OSLO] = GERMANS
    c = combat.Combat(GERMANS, x, ["I/IR307"], ["I/IR4"])
    att, dfn, shift, _ = combat.strengths(g, d, c)
    d.units["I/IR4"].flags.append(DISRUPTED)
    att2, dfn2, shift2, _ = combat.strengths(g, d, c)
    assert dfn2 == dfn / 2
    assert odds_column_index(g.crt, att2, dfn2, shift2) == odds_column_index(g.crt, att, dfn, shift) + 1


def test_E1_a_disrupted_unit_does_not_attack_and_recovers_at_its_next_player_turn(g):
    d = bare(g, ("I/IR307", OSLO))
    u = d.units["I/IR307"]
    u.flags.append(DISRUPTED)
    assert g.attack(d, u) == 0 and OSLO not in g.zoc(d, GERMANS)
    d.step = 0
    reinforce._start(g, d, [])
    assert not u.has(DISRUPTED)


def test_E3_D_units_sharing_a_hex_with_the_enemy_must_attack_it(g):
    d = bare(g, ("I/IR307", HONEFOSS), ("I/IR4", HONEFOSS), ask=Ask(GERMANS, "combat"))
    d.phase = "combat"
    legal = g.legal_orders(d)
    assert Pass(GERMANS) not in legal and Attack(GERMANS, HONEFOSS, ("I/IR307",)) in legal
    before = d.to_json()
    with pytest.raises(IllegalOrder, match="must attack"):
        g.apply(d.clone(), Pass(GERMANS), fixed())
    assert d.to_json() == before


def test_E1_turn_1_norwegians_retreat_before_combat_on_a_die_of_1_to_4(g):
    x = land_neighbour(g, OSLO)
    for die, evaded in ((4, True), (5, False)):
        d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "combat"), turn=1)
        d.phase = "combat"
        dice = fixed(("retreat before combat", die)) if evaded else fixed(("retreat before combat", die), ("CRT", 3))
        ev = g.apply(d, Attack(GERMANS, x, ("I/IR307", "II/IR307")), dice)
        e = next(e for e in ev if e["type"] == "evade")
        assert e["result"] == ("retreat" if evaded else "stand") and e["rule"] == "E1"
        assert (d.ask.what == "retreat") == evaded
        assert any(e["type"] == "attack" for e in ev) != evaded


def test_E1_later_turns_the_limited_retreat_option_is_the_defenders_choice(g):
    x = land_neighbour(g, OSLO)
    d = bare(g, ("I/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "combat"), turn=3)
    d.phase = "combat"
    g.apply(d, Attack(GERMANS, x, ("I/IR307",)), fixed())
    assert d.ask == Ask(ALLIES, "evade", hex=x)
    # caught on a 4: the attack gains a column (authored)
    ev = g.apply(d, Evade(ALLIES, True), fixed(("retreat option", 4), ("CRT", 3)))
    att = next(e for e in ev if e["type"] == "attack")
    assert any("caught" in ln["text"] for ln in att["ledger"]["lines"])


def test_E1_free_retreat_switch_needs_no_die():
    g2 = EuropaGame(switches=Switches(free_retreat=True))
    x = land_neighbour(g2, OSLO)
    d = bare(g2, ("I/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "combat"), turn=3)
    d.phase = "combat"
    g2.apply(d, Attack(GERMANS, x, ("I/IR307",)), fixed())
    ev = g2.apply(d, Evade(ALLIES, True), fixed())
    assert next(e for e in ev if e["type"] == "evade")["die"] == 0 and d.ask.what == "retreat"


def test_EX_the_attacker_loses_at_least_the_defence_it_destroyed(g):
    x = land_neighbour(g, OSLO)
    d = bare(g, ("I/IR307", OSLO), ("II/IR307", OSLO), ("III/IR307", OSLO), ("I/IR4", x), ask=Ask(GERMANS, "combat"), turn=3)
    d.phase = "combat"
    d.owner[OSLO] = GERMANS
    g.apply(d, Attack(GERMANS, x, ("I/IR307", "II/IR307", "III/IR307")), fixed())
    c = d.combat
    att, dfn, shift, _ = combat.strengths(g, d, c)
    col = g.crt.columns[odds_column_index(g.crt, att, dfn, shift + 0)]
    face = col.results.index("EX") + 1 if "EX" in col.results else None
    if face is None:
        pytest.skip("no EX in this column")
    ev = g.apply(d, Evade(ALLIES, False), fixed(("CRT", face)))
    lost = [e["unit"] for e in ev if e["type"] == "eliminated" and e["unit"] != "I/IR4"]
    assert d.units["I/IR4"].pool == "eliminated"
    assert sum(g.t(d.units[u]).attack for u in lost) >= g.t(d.units["I/IR4"]).defence and len(lost) == 1


def test_aa_fire_turns_a_mission_back_on_a_6(g):
    x = land_neighbour(g, OSLO)
    d = bare(g, ("KG4", OSLO), ("I/IR307", OSLO), ("I/IR4", x), ("AA-1", x), ask=Ask(GERMANS, "air"))
    d.phase, d.air_side = "air", GERMANS
    g.apply(d, Mission(GERMANS, "KG4", x), fixed(("AA fire", 6)))
    assert d.support.get(x, 0) == 0
    d2 = bare(g, ("KG4", OSLO), ("I/IR307", OSLO), ("I/IR4", x), ("AA-1", x), ask=Ask(GERMANS, "air"))
    d2.phase, d2.air_side = "air", GERMANS
    g.apply(d2, Mission(GERMANS, "KG4", x), fixed(("AA fire", 5)))
    assert d2.support[x] == 1


# --- E2 victory ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n,winner", [(7, GERMANS), (5, GERMANS), (3, ALLIES), (0, ALLIES)])
def test_E2_the_seven_ports_decide(g, n, winner):
    d = bare(g)
    for i, h in enumerate(g.victory_ports):
        d.owner[h] = GERMANS if i < n else ALLIES
    d.over = True
    assert g.result(d).winner == winner


def test_E2_a_tie_band_is_broken_by_victory_points(g):
    d = bare(g)
    for i, h in enumerate(g.victory_ports):
        d.owner[h] = GERMANS if i < 4 else ALLIES
    d.over = True
    assert g.result(d).winner is None
    d.vp = {GERMANS: 2, ALLIES: 1}
    assert g.result(d).winner == GERMANS and "VP" in g.result(d).level


# --- data ---------------------------------------------------------------------------------------


def test_a_scenario_naming_an_unknown_unit_type_is_refused_with_file_and_key(tmp_path):
    import shutil

    from hexwar.data.loader import Library, data_root

    root = tmp_path / "data"
    for sub in ("maps", "oob", "tables"):
        shutil.copytree(data_root() / sub, root / sub)
    p = root / "oob/europa/campaign.yaml"
    p.write_text(p.read_text().replace("type: ger_tank_bn", "type: ger_panzer"), encoding="utf-8")
    with pytest.raises(DataError) as e:
        EuropaGame("campaign", Library(root))
    assert "oob/europa/campaign.yaml" in str(e.value) and "ger_panzer" in str(e.value)


# --- invariants over random play ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12])
def test_random_play_keeps_the_variants_invariants(g, seed):
    """After every order of a random game: every counter is somewhere exactly once; no ground
    unit stands in Sweden or at sea; an absorbed unit shares its HQ's hex (E5 C); a key hex's
    owner is a side (E4); a regiment and its battalions are never on the map together (E1)."""
    from hexwar.ai.random_bot import RandomBot
    from hexwar.games.europa import GAME as INFO

    st = g.new_state(seed)
    n = len(st.data.units)
    bots = {GERMANS: RandomBot(seed), ALLIES: RandomBot(seed + 1)}
    steps = 0
    while not st.is_over():
        st.apply(bots[st.current_side()].choose(st, st.legal_orders()))
        steps += 1
        assert len(st.data.units) == n
        assert INFO.broken(g, st.data) == []  # the registry's check, which the conformance suite runs too
    assert steps > 50 and st.data.turn == g.spec.turns


def test_validate_reports_a_broken_europa_chart_with_file_key_and_rule(tmp_path):
    """``hexwar validate`` covers the variant's data: a die band that leaves a face uncovered and a
    scenario with 15 mobilisation centres are both reported, with file and key, at once."""
    import shutil

    from hexwar.data.loader import data_root
    from hexwar.registry import validate_tree

    root = tmp_path / "data"
    for sub in ("maps", "oob", "tables"):
        shutil.copytree(data_root() / sub, root / sub)
    rules = root / "tables/europa/rules.yaml"
    rules.write_text(rules.read_text().replace("{lo: 5, hi: 6, result: stand", "{lo: 6, hi: 6, result: stand"), encoding="utf-8")
    sc = root / "oob/europa/campaign.yaml"
    sc.write_text(sc.read_text().replace("  Halden: [{turn: 1", "  Nohalden: [{turn: 1").replace("  Fredrikstad: [{turn: 1, type: nor_inf_bn, source: authored}, {turn: 2, type: nor_inf_bn, source: authored}]\n", ""),
                  encoding="utf-8")
    probs, _ = validate_tree(root)
    text = "\n".join(str(p) for p in probs)
    assert "tables/europa/rules.yaml" in text and "turn1_retreat" in text and "1-6" in text
    assert "oob/europa/campaign.yaml" in text and "E1 says 16" in text


@pytest.mark.parametrize("seed", [1, 2])
def test_a_priority_game_runs_to_the_end_and_replays_from_its_log(g, seed):
    from hexwar.core.engine import run_fast
    from hexwar.core.replay import replay
    from hexwar.games.europa.bots import PriorityBot

    st, log = run_fast(g, seed, {s: PriorityBot(s, seed) for s in (GERMANS, ALLIES)}, record=True)
    assert st.is_over() and st.data.turn == 16 and st.result().level
    assert replay(g, log).data.to_json() == st.data.to_json()


def test_hexwar_odds_europa_gives_the_column_and_exact_chances_E1():
    import json

    from typer.testing import CliRunner

    from hexwar.ui.cli import app

    res = CliRunner().invoke(app, ["odds", "europa", "--attack", "7", "--defend", "3", "--json"])
    js = json.loads(res.output)
    assert js["column"] == "2:1" and sum(Fraction(p) for p in js["odds"].values()) == 1
    assert js["odds"]["DD"] == "1/6"
    res = CliRunner().invoke(app, ["odds", "europa", "--attack", "7", "--defend", "3"])
    assert "rounded for the defender" in res.output.splitlines()[0]
