"""A hypothesis state machine plays random legal orders through whole games of Assault on
Narvik and checks the invariants after every order (issue 4 quality bar)."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hexwar.core.orders import IllegalOrder, Move
from hexwar.games.narvik import Switches, narvik_game
from hexwar.games.narvik.game import ABOARD, HARSTAD
from hexwar.games.narvik.state import NarvikData
from hexwar.rules import stacking

GAME = narvik_game()
RANDOM_SETUP = narvik_game(Switches(random_setup=True))


class NarvikPlay(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10_000), random_setup=st.booleans())
    def start(self, seed, random_setup):
        self.g = RANDOM_SETUP if random_setup else GAME
        self.s = self.g.new_state(seed)

    @precondition(lambda self: not self.s.is_over())
    @rule(data=st.data())
    def play(self, data):
        legal = self.s.legal_orders()
        assert legal, self.s.data.ask
        kinds = sorted({o.kind for o in legal})
        kind = data.draw(st.sampled_from(kinds))
        order = data.draw(st.sampled_from([o for o in legal if o.kind == kind]))
        self.s.apply(order)

    @precondition(lambda self: self.s.is_over())
    @rule()
    def finished_games_take_no_orders(self):
        assert self.s.legal_orders() == []
        assert self.s.result().over and self.s.result().level
        with pytest.raises(IllegalOrder):
            self.s.apply(Move(self.s.current_side(), "KM-1", ("2212", "2312")))

    @precondition(lambda self: not self.s.is_over())
    @rule(pick=st.integers(0, 1000))
    def refused_orders_change_nothing(self, pick):
        before = self.s.data.to_json()
        units = sorted(self.s.data.units)
        bogus = Move(self.s.current_side(), units[pick % len(units)], ("0101", "0102", "0103", "0104", "0105"))
        with pytest.raises(IllegalOrder):
            self.s.apply(bogus)
        assert self.s.data.to_json() == before

    @invariant()
    def every_unit_in_exactly_one_place(self):
        for u in self.s.data.units.values():
            assert (u.loc is None) != (u.pool is None), u
            if u.loc is not None:
                assert u.loc in self.g.board
            else:
                assert u.pool in NarvikData.POOLS

    @invariant()
    def fatigue_within_0_and_the_limit(self):
        for u in self.s.data.units.values():
            assert 0 <= u.fatigue <= self.g.tables.types[u.type].fatigue_limit

    @invariant()
    def no_land_units_of_both_sides_in_one_hex_outside_combat(self):
        d = self.s.data
        if d.combat is not None:
            return
        for loc in {u.loc for u in d.on_map() if u.loc != HARSTAD}:
            sides = {u.side for u in d.at(loc) if self.g.is_land(u) or self.g.is_dummy(u)}
            sides -= {u.side for u in d.at(loc) if u.has(ABOARD)} - {u.side for u in d.at(loc) if not u.has(ABOARD) and not self.g.is_ship(u)}
            assert len(sides) <= 1, (loc, [u.id for u in d.at(loc)])

    @invariant()
    def stacking_holds_between_decisions(self):
        d = self.s.data
        if d.combat is not None or d.arrivals:
            return
        assert stacking.violations(self.g.board, d, self.g.tables) == []

    @invariant()
    def vp_totals_equal_their_logged_causes(self):
        d = self.s.data
        for side, vp in d.vp.items():
            assert vp == sum(e.vp for e in d.vp_log if e.side == side)

    @invariant()
    def ap_within_0_and_30(self):
        assert 0 <= self.s.data.tracks.get("ap", 0) <= 30

    @invariant()
    def dummies_never_more_than_five(self):
        d = self.s.data
        assert sum(1 for u in d.on_map() if self.g.is_dummy(u)) <= 5


TestNarvikPlay = NarvikPlay.TestCase
TestNarvikPlay.settings = settings(max_examples=8, stateful_step_count=250, deadline=None)
