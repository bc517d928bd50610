"""Assault on Narvik (hex): the whole game on the shared engine, and its registry record."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.common import front, queries
from hexwar.games.narvik import batch, invariants
from hexwar.games.narvik.game import NarvikGame, Switches, narvik_game
from hexwar.games.narvik.state import NarvikData
from hexwar.games.narvik.play import NarvikPresenter, render, say
from hexwar.registry import Batch, Bot, GameInfo
from hexwar.games.narvik.analysis import NarvikAnalyst

__all__ = ["GAME", "NarvikGame", "Switches", "narvik_game"]

SWITCHES = {
    "random_setup": "5.1: a seeded set-up per side instead of the scenario's positions",
    "allied_concealment": "11.3 (optional, pro-Allied): Allied units face down, German air recon",
    "ap_bonus_per_action": "A26: +1 German AP after every Allied action instead of once a turn",
}


def _make(scenario: str, board: str, switches: frozenset[str]) -> NarvikGame:
    return NarvikGame.from_scenario(f"narvik/{scenario}", switches=Switches(**{k: True for k in switches}))


def _bot(kind: str) -> Any:
    def make(side: str, seed: int, think: float) -> Any:
        from hexwar.ai.random_bot import RandomBot
        from hexwar.ai.search import SearchBot
        from hexwar.games.narvik.bots import PriorityBot, search_hooks

        if kind == "random":  # each side its own stream, so two random bots never play alike
            return RandomBot(seed + GAME.sides.index(side))
        if kind == "priority":
            return PriorityBot(side, seed)
        return SearchBot.of(search_hooks, side, seed, think)
    return make


def _validate(lib: Library) -> list[Problem]:
    """Build the game from every Assault on Narvik scenario: the charts it reads by name must exist."""
    try:
        NarvikGame.from_scenario("narvik/scenario", lib)
    except DataError as e:
        return list(e.problems)
    return []


GAME: GameInfo[NarvikGame, NarvikData] = GameInfo(
    name="narvik",
    title="Assault on Narvik",
    sides=("allies", "germans"),
    seats={"allies": frozenset({"allies"}), "germans": frozenset({"germans"}),
           "both": frozenset({"allies", "germans"}), "none": frozenset()},
    default_seat="allies",
    scenarios={"scenario": "15 April to June 1940 (27.0): the British land at Harstad, the Germans hold Narvik"},
    default_scenario="scenario",
    boards={"narvik": "the Narvik area in 3 km hexes, built from geography"},
    default_board="narvik",
    switches=SWITCHES,
    make=_make,
    bots={"priority": Bot(_bot("priority"), help="rule-based priorities (about 1 ms a decision)"),
          "random": Bot(_bot("random"), help="random legal orders, one kind at a time"),
          "search": Bot(_bot("search"), fast=False, help="information-set MCTS over priority-bot rollouts (--think seconds a decision, a hard cap)")},
    default_bot="search",
    presenter=NarvikPresenter,
    describe=say,
    render=render,
    batch=Batch(observer=batch.Observer, exact=batch.exact, scale=batch.SCALE, columns=front.COLUMNS + ("fatigue_germans", "fatigue_allies", "reveals_germans", "reveals_allies"),
                metrics=front.NARVIK_FRONT),
    validate=_validate,
    scenario_kinds=("scenario",),
    from_scenario_file=lambda name: NarvikGame.from_scenario(name),
    queries=queries.QUERIES,
    odds=queries.odds,
    default=True,
    variants=(("scenario", "narvik", ()), ("scenario", "narvik", ("random_setup",)),
              ("scenario", "narvik", ("allied_concealment",)), ("scenario", "narvik", ("ap_bonus_per_action",))),
    test_games=3,
    invariants=invariants.broken,
    analysis=NarvikAnalyst,
)
