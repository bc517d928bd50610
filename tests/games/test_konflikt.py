"""Konflikt '47 scenario templates (seed 002) on the skirmish ruleset, on the hex table and on
the area table cut from it: the d6 chart, the turn-6 die, set-up, reserves and outflanking,
hidden set-up, objectives, the documents, bases, scoring, and whole games bot against bot."""

from __future__ import annotations

import pytest

from hexwar.ai.random_bot import RandomBot
from hexwar.core.dice import Dice, Roll
from hexwar.core.engine import run_fast
from hexwar.core.orders import IllegalOrder, Move
from hexwar.games.konflikt import KonfliktGame, victory
from hexwar.games.konflikt.bots import KonfliktBot
from hexwar.games.konflikt.orders import Down, Enter, Leave
from hexwar.games.konflikt.state import FLANK, RESERVE, SIDES
from hexwar.games.konflikt.table import konflikt_table
from hexwar.ui.play import terminal

TEMPLATES = ("envelopment", "maximum_attrition", "point_defence", "hold_until_relieved", "top_secret", "demolition")


def bots(seed):
    return {s: KonfliktBot(s, seed + i) for i, s in enumerate(SIDES)}


def until(g, seed, stop, bot=None):
    """Play with random bots from ``seed`` until ``stop(state)``; return the state."""
    s = g.new_state(seed)
    b = bot or {x: RandomBot(seed * 5 + i) for i, x in enumerate(SIDES)}
    while not s.is_over() and not stop(s):
        s.apply(b[s.current_side()].choose(s, s.legal_orders()))
    return s


@pytest.mark.parametrize("board", ["table", "table-areas"])
@pytest.mark.parametrize("template", TEMPLATES)
def test_2_every_scenario_plays_to_the_end_bot_against_bot(template, board):
    g = KonfliktGame(template, board)
    view, log = run_fast(g, 1, bots(1), record=True)
    d = view.data
    res = view.result()
    assert res.over and d.turn in (6, 7) and res.level.startswith(g.spec_of(d).title)
    assert d.turn == d.last_turn  # 1: the game ends at the end of turn 6 or 7
    assert not [u for u in d.units.values() if u.pool in (RESERVE, "first wave", FLANK)]  # 3.4: none left waiting


def test_1_the_d6_chart_chooses_the_scenario():
    g = KonfliktGame("random")
    seen = set()
    for seed in range(30):
        dice = Dice(seed)
        d = g.initial_state(seed, dice)
        face = dice.rolls[0].faces[0]
        assert dice.rolls[0].purpose == "scenario" and g.spec_of(d).d6 == face
        seen.add(d.template)
    assert seen == set(TEMPLATES)


def test_1_after_turn_6_a_die_decides_a_seventh_turn():
    g = KonfliktGame("maximum_attrition", "table-areas")
    lengths = {}
    for seed in range(12):
        view, log = run_fast(g, seed, bots(seed), record=True)
        ev = next(e for entry in log.entries for e in entry.events if e["type"] == "game_length")
        assert ev["last_turn"] == (6 if ev["face"] <= 3 else 7) == view.data.turn
        lengths[ev["last_turn"]] = True
    assert set(lengths) == {6, 7}


def test_the_area_table_is_cut_from_the_hex_table():
    hexes, areas = konflikt_table("table"), konflikt_table("table-areas")
    assert len(hexes.depth) == 24 * 15 and len(areas.depth) == 18
    # 2.4, 2.5: the centre is equidistant from both players' edges on either table
    for t in (hexes, areas):
        assert t.depth[t.centre]["north"] == t.depth[t.centre]["south"]
    # digest 4.1: 3 inches are the next hex, or the same area; 6 inches the next area
    assert hexes.within("1208", "1209", 3) and not hexes.within("1208", "1210", 3)
    assert areas.within("c2", "c2", 3) and not areas.within("c2", "c3", 3) and areas.within("c2", "c3", 6)
    # 3.5: north's left hand is the east edge, south's the west
    assert hexes.side_edge("north", "left") == hexes.edge_locs["east"]
    assert hexes.side_edge("south", "left") == hexes.edge_locs["west"]


def test_2_1_set_up_at_least_half_of_the_defender_in_his_zone_at_least_half_of_the_attacker_in_the_first_wave():
    g = KonfliktGame("envelopment")
    s = until(g, 3, lambda s: s.data.turn >= 1)
    d = s.data
    att, dfn = d.attacker, g.other(d.attacker)
    mine = [u for u in d.units.values() if u.side == dfn]
    on_table = [u for u in mine if u.loc is not None or u.pool == "eliminated"]
    assert 2 * len(on_table) >= len(mine)
    zone = set(g.zone(d, dfn))
    assert all(u.loc in zone for u in on_table if u.loc is not None)
    theirs = [u for u in d.units.values() if u.side == att]
    assert all(u.loc is None for u in theirs if u.pool != "eliminated") or d.turn >= 1
    events = [e for e in s.log.entries for e in e.events if e["type"] == "assigned" and e["side"] == att]
    assert 2 * sum(1 for e in events if e.get("where") == "first wave") >= len(theirs)


def test_3_4_reserves_come_on_from_turn_2_after_an_order_test_at_minus_1():
    g = KonfliktGame("envelopment", "table-areas")

    def reserve_can_enter(s):
        return any(isinstance(o, Enter) and s.data.units[o.unit].pool == RESERVE for o in s.legal_orders())

    s = until(g, 4, reserve_can_enter)
    d = s.data
    assert d.turn >= 2  # 3.4: reserves do nothing in turn 1
    o = next(o for o in s.legal_orders() if isinstance(o, Enter) and d.units[o.unit].pool == RESERVE)
    morale = g.t.units[d.units[o.unit].type].morale
    need = morale - 1
    fail = s.clone()
    events = g.enter(fail.data, o, Dice.replaying([Roll(f"order test {o.unit}", (6, 6))]))
    test = next(e for e in events if e["type"] == "order_test")
    assert test["needs"] == need and not test["passed"] and fail.data.units[o.unit].pool == RESERVE
    ok = s.clone()
    events = g.enter(ok.data, o, Dice.replaying([Roll(f"order test {o.unit}", (1, 1))]))
    assert next(e for e in events if e["type"] == "order_test")["passed"] and ok.data.units[o.unit].loc == o.at
    s.apply(o)  # played: its die is spent whatever the test gave
    assert o.unit in s.data.acted


def test_3_5_outflankers_come_on_their_side_edge_24_inches_from_their_own_edge_plus_6_a_turn():
    g = KonfliktGame("maximum_attrition", "table")
    s = until(g, 6, lambda s: s.data.turn >= 1)
    d = s.data
    u = next(u for u in d.units.values() if u.loc is None and u.pool != "eliminated")
    u.pool = FLANK
    d.flank[u.id] = "left"
    edge = d.edge[u.side]
    for turn, inches in ((2, None), (3, 24), (4, 30), (5, 36)):
        d.turn = turn
        spots = g.entries(d, u)
        if inches is None:
            assert spots == []
            continue
        assert spots and set(spots) <= set(g.table.side_edge(edge, "left"))
        assert max(g.table.depth[x][edge] for x in spots) <= inches < max(g.table.depth[x][edge] for x in g.table.side_edge(edge, "left"))


def test_3_5_an_enemy_outflank_whose_direction_the_view_hides_never_comes_on_in_a_search_of_that_view():
    # 3.5: an outflank's direction is its owner's secret; the other side's view has no entry
    # for it, and a search playing that view on into turn 3 met the unit (KeyError, a crash
    # of the bot ladder): the unit stays off the table for the search, never guessed
    g = KonfliktGame("maximum_attrition", "table")
    s = until(g, 6, lambda s: s.data.turn >= 1)
    d = s.data
    u = next(u for u in d.units.values() if u.loc is None and u.pool != "eliminated")
    u.pool = FLANK
    d.flank[u.id] = "left"
    d.turn = 4
    assert g.entries(d, u) and g.has_die(d, u)
    other = next(x for x in SIDES if x != u.side)
    seen = s.view_for((other,)).data
    assert u.id not in seen.flank
    seen.turn = 4
    assert g.entries(seen, seen.units[u.id]) == [] and not g.has_die(seen, seen.units[u.id])
    g.start_turn(seen, Dice(), [])  # the bag of order dice for the view's turn: the outflanker has none in it


def test_3_1_hidden_units_are_off_the_enemy_map_and_revealed_by_infantry_within_12_inches():
    g = KonfliktGame("point_defence", "table")
    for seed in range(20):
        s = until(g, seed, lambda s: s.data.turn >= 1)
        d = s.data
        hidden = [u for u in d.on_map() if u.concealed]
        if hidden:
            break
    else:  # pragma: no cover
        raise AssertionError("no hidden set-up in 20 games")
    h = hidden[0]
    enemy = g.other(h.side)
    assert g.cover(h.loc)  # 3.1: only in cover
    v = g.view(d, [enemy])
    assert v.units[h.id].loc is None and g.view(d, [h.side]).units[h.id].loc == h.loc
    # an enemy infantry unit 4 hexes (12") away reveals it; 5 hexes does not
    inf = next(u for u in d.units.values() if u.side == enemy and g.infantry(u))
    spot = next(x for x in g.table.depth if g.board.distance(x, h.loc) == 5 and not d.at(x))
    d.place(inf.id, spot)
    g.after_order(d, [])
    assert h.concealed
    spot = next(x for x in g.table.depth if g.board.distance(x, h.loc) == 4 and not d.at(x))
    d.place(inf.id, spot)
    events = []
    g.after_order(d, events)
    assert not h.concealed and events[0]["type"] == "revealed"


def test_2_3_an_objective_changes_hands_with_infantry_within_3_inches_and_no_enemy():
    g = KonfliktGame("point_defence", "table")
    s = until(g, 2, lambda s: s.data.turn >= 1)
    d = s.data
    loc = next(iter(d.objectives))
    for u in list(d.on_map()):
        d.remove(u.id, "removed")
    inf = {side: next(u for u in d.units.values() if u.side == side and g.infantry(u)) for side in SIDES}
    near = next(x for x in g.table.depth if g.board.distance(x, loc) == 1)
    d.place(inf[d.attacker].id, near)
    assert victory.controller(g, d, loc, 3) == d.attacker
    far = next(x for x in g.table.depth if g.board.distance(x, loc) == 2)
    d.place(inf[d.attacker].id, far)
    assert victory.controller(g, d, loc, 3) == ""
    d.place(inf[d.attacker].id, near)
    d.place(inf[g.other(d.attacker)].id, loc)
    assert victory.controller(g, d, loc, 3) == ""  # contested: nobody


def test_2_5_the_documents_are_seized_by_infantry_and_win_when_carried_off_ones_own_edge():
    g = KonfliktGame("top_secret", "table-areas")
    s = until(g, 1, lambda s: s.data.turn >= 1 and s.data.todo == [])
    d = s.data
    assert d.marker == g.table.centre and not d.carrier
    side = s.current_side()
    inf = next(u for u in d.units.values() if u.side == side and g.infantry(u) and u.pool != "eliminated")
    d.place(inf.id, d.marker)
    g.after_order(d, [])
    assert d.carrier == inf.id
    d.place(inf.id, g.table.edge_locs[d.edge[side]][0])
    g.after_order(d, [])
    assert d.marker == inf.loc
    d.side = side
    d.acted = [x for x in d.acted if x != inf.id]
    assert Leave(side, inf.id) in g.legal_orders(d)
    g.apply(d, Leave(side, inf.id), Dice(0))
    assert d.over and g.result(d).winner == side


def test_2_6_a_base_falls_to_an_enemy_unit_next_to_it_at_the_end_of_a_turn():
    g = KonfliktGame("demolition", "table")
    s = until(g, 5, lambda s: s.data.turn >= 1)
    d = s.data
    side = SIDES[0]
    base = d.base_at[side]
    enemy = next(u for u in d.units.values() if u.side != side and u.pool != "eliminated")
    spot = next(x for x in g.table.depth if g.board.distance(x, base) == 1 and not d.at(x))
    d.place(enemy.id, spot)
    d.bag = []
    events = []
    g.end_turn(d, Dice(0), events)
    assert side in d.razed and any(e["type"] == "base_destroyed" and e["side"] == side for e in events)


def test_3_6_attrition_doubles_the_winners_kills_and_caps_the_loser():
    g = KonfliktGame("point_defence", "table")
    s = until(g, 2, lambda s: s.data.turn >= 1)
    d = s.data
    w, loser = SIDES
    kills = {side: [u for u in d.units.values() if u.side == side][:2] for side in SIDES}
    for u in kills[loser] + kills[w]:
        d.remove(u.id, "eliminated")
    a = victory.attrition(g, d, w)
    cost = {side: sum(g.t.units[u.type].cost for u in victory.lost(g, d, side)) for side in SIDES}
    assert all(cost.values())
    assert a[w] == 2 * cost[loser] and a[loser] == min(cost[w], a[w] - 10)


def test_3_6_attrition_counts_an_exit_at_its_vp_times_the_units_cost_the_rules_example():
    """3.6: "An Envelopment exit (3 VP) by a 100-pt unit = 300 attrition"; a unit in the
    enemy's zone earns its 2 VP x cost too (2.1); no cap in a VP scenario."""
    from hexwar.games.konflikt.state import EXITED

    g = KonfliktGame("envelopment", "table")
    s = until(g, 3, lambda s: s.data.turn >= 1)
    d = s.data
    att = d.attacker
    mine = [u for u in d.units.values() if u.side == att]
    before = victory.attrition(g, d, None)[att]
    hundred = next(u for u in mine if g.t.units[u.type].cost == 100) if any(
        g.t.units[u.type].cost == 100 for u in mine) else mine[0]
    if hundred.loc is not None:
        d.remove(hundred.id, EXITED)
    else:
        hundred.pool = EXITED
    assert hundred.pool == EXITED
    cost = g.t.units[hundred.type].cost
    after = victory.attrition(g, d, None)[att]
    assert after - before == 3 * cost  # 3 VP x cost: 300 for a 100-point unit
    zone = set(g.zone(d, g.other(att)))
    inside = [u for u in d.on_map(att) if u.loc in zone]
    held = victory.attrition(g, d, None)[att]
    assert held == (3 * sum(g.t.units[u.type].cost for u in d.units.values() if u.side == att and u.pool == EXITED)
                    + 2 * sum(g.t.units[u.type].cost for u in inside)
                    + 1 * sum(g.t.units[u.type].cost for u in victory.lost(g, d, g.other(att))))


def test_3_6_the_losers_cap_applies_in_the_objective_scenarios_only():
    """3.6: "The loser's total is capped at (winner's total - 10)" is said of the objective
    scenarios; in a VP scenario (Maximum Attrition, 2.2) the loser keeps what it scored."""
    g = KonfliktGame("maximum_attrition", "table")
    s = until(g, 2, lambda s: s.data.turn >= 1)
    d = s.data
    w, loser = SIDES
    for u in [u for u in d.units.values() if u.side == w][:3] + [u for u in d.units.values() if u.side == loser][:1]:
        d.remove(u.id, "eliminated")
    a = victory.attrition(g, d, w)
    cost = {side: sum(g.t.units[u.type].cost for u in victory.lost(g, d, side)) for side in SIDES}
    assert a[loser] == cost[w] > a[w] - 10  # not capped: 1 VP x cost of each kill (2.2)
    assert a[w] == cost[loser]


@pytest.mark.parametrize("short,outright", [(1, False), (0, True), (-60, True)])
def test_3_6_an_outright_victory_needs_a_lead_of_20_percent_of_the_forces(short, outright):
    """3.6: "It needs >= 200 more attrition than the enemy; otherwise the battle is a draw"
    at 1,000-point forces: 20% of the forces' value (their mean here), rounded up."""
    import math

    g = KonfliktGame("point_defence", "table")
    d = g.new_state(2).data
    force = [sum(g.t.units[u.type].cost for u in d.units.values() if u.side == s) for s in SIDES]
    need = math.ceil(0.2 * sum(force) / 2)
    for a, b, first in ((1000, 1000 - need + short, SIDES[0]), (1000 - need + short, 1000, SIDES[1])):
        who, said = victory.outright(g, d, {SIDES[0]: a, SIDES[1]: b})
        assert who == (first if outright else None), (a, b, need, said)
        assert ("win outright" in said) == outright != said.startswith("a draw on attrition") and f"{need}" in said
    assert victory.outright(g, d, {SIDES[0]: 700, SIDES[1]: 700})[0] is None


def test_3_6_the_game_over_event_gives_the_attrition_verdict():
    g = KonfliktGame("maximum_attrition", "table")
    s = g.new_state(5)
    b = {x: RandomBot(i) for i, x in enumerate(SIDES)}
    while not s.is_over():
        s.apply(b[s.current_side()].choose(s, s.legal_orders()))
    over = next(ev for e in s.log.entries for ev in e.events if ev["type"] == "game_over")
    assert over["on_attrition"].startswith(("a draw on attrition", f"{SIDES[0]} win outright", f"{SIDES[1]} win outright"))


def test_the_view_gives_each_side_the_same_choices_and_illegal_orders_change_nothing():
    g = KonfliktGame("envelopment", "table-areas")
    s = g.new_state(9)
    b = {x: RandomBot(i) for i, x in enumerate(SIDES)}
    for _ in range(200):
        if s.is_over():
            break
        d = s.data
        assert g.legal_orders(g.view(d, [s.current_side()])) == s.legal_orders()
        before = d.to_json()
        with pytest.raises(IllegalOrder):
            g.apply(d, Move(s.current_side(), "A1", ("a1", "zz")), Dice(0))
        with pytest.raises(IllegalOrder):
            g.apply(d, Down(g.other(s.current_side()), "A1"), Dice(0))
        assert d.to_json() == before
        s.apply(b[s.current_side()].choose(s, s.legal_orders()))


def test_3_4_3_5_the_terminal_says_where_a_unit_waits_off_the_table_and_groups_them_so():
    """Set-up off the table reads 'put A3 in the first wave', 'send A5 outflanking on the
    right' (the other side: 'the side is secret'), and status lists the units by where
    they wait ('first wave: A3 A4; reserve: A6'), not 'A3 first wave, A4 first wave, ...'."""
    import io

    from rich.console import Console

    from hexwar.games.konflikt.play import KonfliktPresenter, say

    assert say({"type": "assigned", "side": "allies", "unit": "A3", "where": "first wave"}).startswith("allies put A3 in the first wave")
    assert say({"type": "assigned", "side": "allies", "unit": "A6", "where": "reserve"}).startswith("allies put A6 in reserve")
    assert say({"type": "assigned", "side": "allies", "unit": "A5", "where": "outflank right"}).startswith(
        "allies send A5 outflanking on the right")
    assert "the side is secret" in say({"type": "assigned", "side": "allies", "unit": "A5"})
    g = KonfliktGame("hold_until_relieved")
    s = g.new_state(4)
    buf = io.StringIO()
    p = terminal(KonfliktPresenter, s, set(SIDES), {}, Console(file=buf, width=200), None, lambda _: "quit")
    waiting: dict[tuple[str, str], list[str]] = {}
    for _ in range(12):
        o = next((o for o in s.legal_orders() if getattr(o, "where", "") in ("first wave", "reserve")), s.legal_orders()[0])
        if getattr(o, "where", "") in ("first wave", "reserve"):
            waiting.setdefault((o.side, o.where), []).append(o.unit)
        s.apply(o)
    p.command("status", [])
    rows = {ln.split()[0]: ln for ln in buf.getvalue().splitlines() if ln.split() and ln.split()[0] in SIDES}
    assert len({side for side, _ in waiting}) == 2 and len(waiting) >= 3
    assert all(f"{where}: {' '.join(sorted(units))}" in rows[side] for (side, where), units in waiting.items())


def test_k47_no_supply_an_assaulted_british_unit_takes_no_fatigue_before_the_die():
    """The scenarios have no supply rule. The host ruleset's 19.2 (+6 FP for an unsupplied
    defender of the supply side, before the assault) needs a base to trace to, and the table
    has none: applied, it gave every British unit assaulted 6 FP first."""
    british = 0
    for seed in range(1, 40):
        view, log = run_fast(KonfliktGame("maximum_attrition"), seed, bots(seed), record=True)
        d = view.data
        for e in log.entries:
            for ev in e.events:
                if ev["type"] == "fatigue":
                    assert ev["cause"] != "unsupplied_attacked", ev
                if ev["type"] == "assault":
                    british += any(d.units[x].nation == "british" for x in ev["defenders"])
        if british >= 10:
            return
    raise AssertionError(f"only {british} assaults on British units met")


@pytest.mark.parametrize("damage,may_hold", [(7, True), (9, False)])
def test_2_4_the_defenders_second_unit_at_the_objective_has_a_damage_value_of_7_or_less(damage, may_hold, monkeypatch):
    """2.4: the defender sets up "1 infantry squad + 1 other unit within 6 inches of the
    objective. The other unit may be anything with a Damage value of 7+ or less": a tank of
    9+ is offered the reserve and the flanks, never the objective (our tank counter is 7+,
    authored; here made 9+ to see the rule bite)."""
    from hexwar.games.konflikt import setup
    from hexwar.games.konflikt.orders import Assign

    g = KonfliktGame("hold_until_relieved")
    monkeypatch.setitem(g.t.units, "tank", g.t.units["tank"].model_copy(update={"damage": damage}))  # the chart may be shared
    s = g.new_state(1)
    while not any(isinstance(o, Assign) for o in s.legal_orders()):  # the roles and the table side
        s.apply(s.legal_orders()[0])
    defender = g.other(s.data.attacker)
    s.apply(next(o for o in s.legal_orders() if isinstance(o, Assign) and o.where == "table"))  # the squad
    d = s.data
    mine = sorted((u for u in d.units.values() if u.side == defender), key=lambda u: u.id)
    tank = next(u for u in mine if u.type == "tank")
    for u in mine:
        if u.loc is None and u is not tank:
            u.pool = RESERVE  # the others waiting: the tank is the one to set up next
    assert setup.unset(g, d, defender) == [tank]
    offered = setup.legal_assign(g, d, defender)
    assert bool([o for o in offered if o.where == "table"]) == may_hold, [o.text() for o in offered]
    assert may_hold or [o.where for o in offered] == [RESERVE]  # too heavy: it waits in reserve
