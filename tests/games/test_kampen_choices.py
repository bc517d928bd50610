"""Kampen om Norge choices the rules give (issue 13): the attacker picks which groups take its
losses (4.2 step 6), the must-play discard is per faction (4.4)."""

from __future__ import annotations

from types import SimpleNamespace

from hexwar.games.kampen.phases import cards
from hexwar.games.kampen.phases.combat import default_losses, legal_losses, take_losses
from hexwar.games.kampen.state import ALLIES, GERMANS, NORWAY, AttackGroup


def _combat(groups, akill, att=GERMANS):
    return SimpleNamespace(groups=groups, akill=akill, att=att, al_lost=0)


def test_4_2_step_6_the_attacker_chooses_which_groups_lose():
    c = _combat([AttackGroup("a", 2), AttackGroup("b", 1)], 2)
    d = SimpleNamespace(combat=c)
    ways = [o.groups for o in legal_losses(None, d, GERMANS)]
    assert ways[0] == default_losses(c) == (("a", 2), ("b", 0))  # the largest first, as before
    assert set(ways) == {(("a", 2), ("b", 0)), (("a", 1), ("b", 1))}
    take_losses(c, (("a", 1), ("b", 1)))
    assert [(grp.src, grp.n) for grp in c.groups] == [("a", 1)]


def test_4_2_step_6_one_group_has_no_choice():
    c = _combat([AttackGroup("a", 3)], 2)
    assert len(legal_losses(None, SimpleNamespace(combat=c), GERMANS)) == 1


def test_4_2_step_6_allied_attackers_lost_may_be_evacuated():
    c = _combat([AttackGroup("a", 2), AttackGroup("b", 2)], 1, att=ALLIES)
    take_losses(c, (("a", 1), ("b", 0)))
    assert c.al_lost == 1  # Kystevakuering is offered in the Allies' own round too


def test_4_4_a_card_the_opponent_plays_in_your_round_is_not_yours():
    copies = {1: SimpleNamespace(card="bakhold"), 2: SimpleNamespace(card="gebirgsjager")}
    g = SimpleNamespace(copies=copies)
    d = SimpleNamespace(faction=GERMANS, hand={NORWAY: [1], GERMANS: [2]}, deck={NORWAY: [], GERMANS: []},
                        used=0, cards_used={NORWAY: 0, GERMANS: 0})
    cards.use_card(g, d, NORWAY, 1, [])
    assert d.used == 0  # the German must still play or discard (4.4)
    cards.use_card(g, d, GERMANS, 2, [])
    assert d.used == 1
