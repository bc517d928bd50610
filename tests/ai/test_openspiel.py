"""The OpenSpiel adapter (issue 17): every registered game passes OpenSpiel's own random
simulation test, and an OpenSpiel algorithm plays on it. Skipped without the optional
extra (``pip install -e .[openspiel]``); CI installs it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hexwar import registry

pyspiel = pytest.importorskip("pyspiel")

from hexwar.ai.openspiel import register  # noqa: E402

#: random simulations per game: enough to reach every phase, few enough for CI (a random
#: Europa game is the slowest, ~20 s under the test's clone-and-compare at every step)
SIMS = {"narvik": 2, "kampen": 10, "europa": 1, "konflikt": 3, "skirmish": 5}


@pytest.mark.parametrize("game", registry.names())
def test_random_sim_test(game: str) -> None:
    """OpenSpiel's conformance run: legal actions sorted and empty for the other players,
    clones equal to the original and independent of it, returns within the utility range
    and equal to the summed rewards, history consistent."""
    pyspiel.random_sim_test(register(game), num_sims=SIMS.get(game, 1), serialize=False, verbose=False)


def _play_to_end(state, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_seed_is_the_only_chance_and_replays() -> None:
    """The game's seed is the one chance node; the same actions give the same game."""
    game = register("kampen")
    a = _play_to_end(game.new_initial_state(), np.random.default_rng(3))
    b = game.new_initial_state()
    for action in a.history():
        assert not b.is_terminal()
        b.apply_action(action)
    assert b.is_terminal() and b.returns() == a.returns()
    assert b.play.log == a.play.log
    assert sum(1 for x in a.full_history() if x.player == pyspiel.PlayerId.CHANCE) == 1


def test_clone_is_independent() -> None:
    """A clone (OpenSpiel deep-copies the state) moves on without touching the original."""
    state = register("narvik").new_initial_state()
    state.apply_action(7)
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    before = (str(state), state.history(), len(state.play.log))
    clone = state.clone()
    while len(clone.play.log) == before[2]:
        clone.apply_action(clone.legal_actions()[0])
    assert (str(state), state.history(), len(state.play.log)) == before
    assert len(clone.play.log) == before[2] + 1


def test_observation_hides_the_other_sides_hand() -> None:
    """Kampen 6.1: a faction's observation shows its own hand, and of another's only how
    many cards it holds."""
    sides = registry.get("kampen").sides
    state = register("kampen").new_initial_state()
    state.apply_action(0)
    hand = state.play.data.hand
    for p, side in enumerate(sides):
        seen = json.loads(state.observation_string(p))["hand"]
        for other in sides:
            assert seen[other] == (hand[other] if other == side else [-1] * len(hand[other]))


def test_openspiel_mcts_plays_kampen() -> None:
    """OpenSpiel's own MCTS bot (random rollouts) chooses legal actions in our game."""
    from open_spiel.python.algorithms import mcts

    game = register("kampen")
    rng = np.random.RandomState(5)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(5):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
