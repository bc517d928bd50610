"""A hypothesis state machine plays random legal orders through whole games of Assault on
Narvik and checks the invariants after every order (issue 4 quality bar)."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hexwar.core.orders import IllegalOrder, Move
from hexwar.games.narvik import GAME as INFO
from hexwar.games.narvik import Switches, narvik_game

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
    def the_rules_that_always_hold(self):
        # every counter in one place, fatigue in 0..FL (10.1), no land units of both sides
        # in one hex (14.1), cargo (20.2), stacking after every order (13.2), VP = their logged
        # causes (29.0), AP in 0..30 (18.1), at most five dummies (11.2): the registry's check
        assert INFO.broken(self.g, self.s.data) == []


TestNarvikPlay = NarvikPlay.TestCase
TestNarvikPlay.settings = settings(max_examples=8, stateful_step_count=250, deadline=None)
