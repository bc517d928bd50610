"""Every choice the rules give is offered or accepted (issue 13): 15.1 subsets, 18.1.3 AP
splits, 20.1-20.3.1 groups, 20.2 sail-and-embark, 22.3 exits, 29.0 adjacent artillery."""

from __future__ import annotations

import pytest

from hexwar.core.orders import IllegalOrder
from hexwar.games.narvik.bots import PriorityBot
from hexwar.games.narvik.game import narvik_game
from hexwar.games.narvik.orders import (
    AirStrike,
    Embark,
    Exit,
    LandAssault,
    Landing,
    NavalMove,
)
from hexwar.games.narvik.phases.assault import attackers_for
from tests.games.narvik_positions import clear, loaded


@pytest.fixture(scope="module")
def played():
    """A priority-bot game (seed 1) with every position's legal orders."""
    g = narvik_game()
    s = g.new_state(1)
    bots = {side: PriorityBot(side, 1) for side in ("allies", "germans")}
    seen = []
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        seen.append((s.clone(), legal))
        s.apply(bots[side].choose(s, legal))
    return g, s, seen


def test_15_1_each_eligible_unit_may_attack_alone_or_with_others(played):
    g, _, seen = played
    checked = 0
    for st, legal in seen:
        by_target: dict[str, set[tuple[str, ...]]] = {}
        for o in legal:
            if isinstance(o, LandAssault):
                by_target.setdefault(o.target, set()).add(o.units)
        for target, sets in by_target.items():
            side = next(o.side for o in legal if isinstance(o, LandAssault))
            units = attackers_for(g, st.data, side, target)
            infantry = [u for u in units if not g.t(st.data.units[u]).is_artillery]
            assert tuple(units) in sets  # all of them
            assert all((u,) in sets for u in infantry)  # each one alone
            checked += len(units) > 1
    assert checked  # the game had assaults with a choice of attackers


def test_15_1_a_typed_subset_is_checked_in_full(played):
    g, _, seen = played
    for st, legal in seen:
        multi = [o for o in legal if isinstance(o, LandAssault) and len(o.units) > 1]
        if multi:
            o = multi[0]
            with pytest.raises(IllegalOrder, match="15.1"):
                st.clone().apply(LandAssault(o.side, o.target, (o.units[0], o.units[0])))
            with pytest.raises(IllegalOrder):
                st.clone().apply(LandAssault(o.side, o.target, ("NOBODY",)))
            return
    pytest.fail("no assault with two attackers")


def test_18_1_3_the_german_splits_ap_among_attacks(played):
    _, _, seen = played
    splits = [o for _, legal in seen for o in legal if isinstance(o, AirStrike) and o.mission == "ships" and len(o.allocation) > 1]
    assert splits and all(sum(a for _, a in o.allocation) == o.ap for o in splits)
    for st, legal in seen:  # any part of the AP on an assault (18.1.1), the rest kept for others
        full = [o for o in legal if isinstance(o, LandAssault) and o.ap == st.data.tracks["ap"] and o.ap > 1]
        if full:
            assert any(o.ap < full[0].ap for o in legal if isinstance(o, LandAssault) and o.ap)


def test_20_1_ships_in_one_hex_sail_and_land_as_a_group(played):
    _, _, seen = played
    assert any(isinstance(o, NavalMove) and len(o.ships) > 1 for _, legal in seen for o in legal)
    # two loaded ships on an empty beach (2112, Bjerkvik's) land as one group (20.3), two
    # battalions: 6 points, within 13.2
    st = next(st for st, legal in seen if any(isinstance(o, NavalMove) for o in legal)).clone()
    clear(st.data)
    for ship, unit in (("CL-1", "1SG"), ("CL-2", "1IG")):
        loaded(st.data, ship, unit, "2112")
    groups = [o for o in st.legal_orders() if isinstance(o, Landing) and len(o.ships) > 1]
    assert [o.ships for o in groups] == [("CL-1", "CL-2")]
    st.apply(groups[0])
    for sid in groups[0].ships:
        assert sid not in st.data.cargo  # every ship of the group unloaded at once (20.2)
    assert {st.data.units[u].loc for u in ("1SG", "1IG")} == {"2112"}


def test_20_2_a_ship_sails_into_a_port_and_embarks_in_one_action(played):
    _, _, seen = played
    for st, legal in seen:
        via = [o for o in legal if isinstance(o, Embark) and o.path]
        if via:
            o = via[0]
            st = st.clone()
            st.apply(o)
            assert st.data.units[o.ship].loc == o.path[-1] and st.data.cargo[o.ship] == o.unit
            return
    pytest.fail("no sail-and-embark offered")


def test_22_3_exit_is_part_of_a_movement_action_and_costs_1_mp(played):
    g, _, seen = played
    exits = [(st, o) for st, legal in seen for o in legal if isinstance(o, Exit)]
    assert exits
    for st, o in exits[:50]:
        end = o.path[-1] if o.path else st.data.units[o.unit].loc
        assert g.board.is_a(end, "edge_north") or g.board.is_a(end, "edge_south")
        assert not st.data.exits_banned
    st, o = exits[0]
    st = st.clone()
    st.data.exits_banned = True
    with pytest.raises(IllegalOrder, match="22.3"):
        st.apply(o)


def test_29_0_adjacent_artillery_in_an_assault_scores_the_german(played):
    g, s, _ = played
    for e in s.log.entries:
        for i, ev in enumerate(e.events):
            if ev["type"] == "assault" and s.data.units[ev["attackers"][0]].side == "allies":
                arts = [a for a in ev["attackers"] if g.t(s.data.units[a]).is_artillery]
                if arts and not ev["artillery"] and not ev["ships"]:
                    assert any(x["type"] == "vp" and "naval/artillery" in x["cause"] for x in e.events[i:])
                    return
    pytest.skip("no assault with adjacent artillery in this game")


def test_capped_choices_can_be_typed_in_the_words_the_list_uses(played):
    """What the list leaves out a player types (hexwar play): every offered order of those
    kinds reads back from its own text."""
    from hexwar.games.narvik.orders import Disembark, parse_text

    kinds = (LandAssault, Landing, NavalMove, Exit, Embark, Disembark, AirStrike)
    n = 0
    for _, legal in played[2][::5]:
        for o in legal:
            if isinstance(o, kinds) and not (isinstance(o, AirStrike) and o.mission == "recon"):
                assert parse_text(o.text(), o.side) == o, o.text()
                n += 1
    assert n > 100
    assert parse_text("assault 2506 with", "allies") is None and parse_text("exit A via", "allies") is None
