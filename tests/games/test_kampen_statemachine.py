"""A hypothesis state machine plays Kampen om Norge (Scenario 1 and the basic game) through
the game API and checks invariants after every order: battalions are conserved (S1) or only
created by reinforcement cards (basic), cards are never lost, hands and decks keep their
sizes, and no two enemies share an area outside a combat."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hexwar.core.orders import IllegalOrder, Pass
from hexwar.games.kampen import ALLIES, FACTIONS, GERMANS, NORWAY, kampen_game
from hexwar.games.kampen import GAME as INFO
from hexwar.games.kampen.orders import KMove

S1 = kampen_game("intro-narvik")
BASIC = kampen_game("basic")


class KampenPlay(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 10_000), basic=st.booleans())
    def start(self, seed, basic):
        self.g = BASIC if basic else S1
        self.s = self.g.new_state(seed)
        x = self.s.data
        self.start_total = sum(sum(v.values()) for v in x.bn.values())

    @precondition(lambda self: not self.s.is_over())
    @rule(data=st.data())
    def play(self, data):
        legal = self.s.legal_orders()
        assert legal, self.s.data.step
        kinds = sorted({o.kind for o in legal})
        kind = data.draw(st.sampled_from(kinds))
        self.s.apply(data.draw(st.sampled_from([o for o in legal if o.kind == kind])))

    @precondition(lambda self: not self.s.is_over())
    @rule(src=st.sampled_from(sorted(S1.land)), dst=st.sampled_from(sorted(S1.land)), n=st.integers(1, 9))
    def refused_orders_change_nothing(self, src, dst, n):
        o = KMove(self.s.current_side(), src, dst, n)
        if o in self.s.legal_orders():
            return
        before = self.s.data.to_json()
        with pytest.raises(IllegalOrder):
            self.s.apply(o)
        assert self.s.data.to_json() == before

    @precondition(lambda self: self.s.is_over())
    @rule()
    def finished_games_take_no_orders(self):
        assert self.s.legal_orders() == []
        assert self.s.data.ended
        with pytest.raises(IllegalOrder):
            self.s.apply(Pass(self.s.current_side()))

    @invariant()
    def battalions_conserved(self):
        x = self.s.data
        on_board = sum(sum(v.values()) for v in x.bn.values())
        pending = sum(g.n for gs in x.attacks.values() for g in gs)
        if x.combat:
            pending += sum(g.n for g in x.combat.groups)
        total = on_board + pending + sum(x.losses.values()) + x.recalled  # 2.4: the Allies' recall
        if self.g is S1:
            assert total == self.start_total
        else:  # basic: new battalions come only from phase 3, cards and the Allied landing
            assert total >= self.start_total
        for f in FACTIONS:
            assert all(n > 0 for n in x.bn[f].values())

    @invariant()
    def the_rules_that_always_hold(self):
        # cards never lost and hands in their limits (2.4), no enemies in one area outside a
        # combat (4.2): the registry's check, which the conformance suite runs too
        assert INFO.broken(self.g, self.s.data) == []


KampenPlay.TestCase.settings = settings(max_examples=60, stateful_step_count=120, deadline=None)
test_kampen_state_machine = KampenPlay.TestCase


ADVANCED = kampen_game("advanced")


class AdvancedPlay(RuleBasedStateMachine):
    """The advanced game (rules 5-8) from its 9 April round on. Battalions are counted exactly:
    every one on the board, attacking, lost or recalled was placed, landed, dropped or
    mobilised by an event; ship cards are never created or lost, only sunk or removed; every
    card (play decks and 9 April cards) is in a hand, a deck, the 9 April choice or the box;
    no enemies share an area outside combat; the player to move sees the same legal orders in
    his own view as the full state gives (nothing hidden decides what he may do)."""

    @initialize(seed=st.integers(0, 10_000))
    def start(self, seed):
        self.g = ADVANCED
        self.s = self.g.new_state(seed)
        self.created = 0
        self.sunk: set[int] = set()

    @precondition(lambda self: not self.s.is_over())
    @rule(data=st.data())
    def play(self, data):
        legal = self.s.legal_orders()
        assert legal, self.s.data.step
        kinds = sorted({o.kind for o in legal})
        kind = data.draw(st.sampled_from(kinds))
        for e in self.s.apply(data.draw(st.sampled_from([o for o in legal if o.kind == kind]))):
            t = e["type"]
            if t in ("placed", "arrive"):
                self.created += e["n"]
            elif t == "attack" and e["from"] == "sea/air":
                self.created += e["n"]
            elif t == "resistance" and e["mobilised"]:
                self.created += 1

    @precondition(lambda self: self.s.is_over())
    @rule()
    def finished_games_take_no_orders(self):
        assert self.s.legal_orders() == [] and self.s.data.ended

    @invariant()
    def battalions_counted_exactly(self):
        x = self.s.data
        on_board = sum(sum(v.values()) for v in x.bn.values())
        pending = sum(g.n for gs in x.attacks.values() for g in gs)
        if x.combat:
            pending += sum(g.n for g in x.combat.groups)
            if x.combat.arrivals:  # sea or air arrivals that lost, waiting to withdraw (4.2 step 8)
                pending += sum(x.combat.retreating.values())
        assert on_board + pending + sum(x.losses.values()) + x.recalled == self.created

    @invariant()
    def the_rules_that_always_hold(self):
        # every card and ship card where it may be (2.4, 6.1), no Allied ship in the closed
        # seas (5.1), no dummy ship after the 9 April round (6.1), no enemies in one area
        # outside a combat: the registry's check
        assert INFO.broken(self.g, self.s.data) == []

    @invariant()
    def a_sunk_ship_stays_sunk(self):
        from hexwar.games.kampen.state import SUNK

        sunk = {s.id for s in self.s.data.ships if s.at == SUNK}
        assert self.sunk <= sunk
        self.sunk = sunk

    @invariant()
    def the_view_gives_the_same_choices(self):
        if self.s.is_over():
            return
        x = self.s.data
        side = self.s.current_side()
        seats = (side,) if side == GERMANS else (NORWAY, ALLIES)
        assert self.g.legal_orders(self.g.view(x, seats)) == self.g.legal_orders(x)


AdvancedPlay.TestCase.settings = settings(max_examples=18, stateful_step_count=250, deadline=None)
test_kampen_advanced_state_machine = AdvancedPlay.TestCase
