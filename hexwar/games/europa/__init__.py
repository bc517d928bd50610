"""The Europa "Narvik" variant (GDW; seed 004, digest Part 2): a third game on the engine, on
its own map of Norway in 26 km hexes, and its registry record."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.europa import batch, schemas  # noqa: F401 (schemas registers the data kinds)
from hexwar.games.europa.game import EuropaGame, Switches
from hexwar.games.europa.play import EuropaPlayer, render, say
from hexwar.games.registry import Batch, Bot, GameInfo

__all__ = ["GAME", "EuropaGame", "Switches"]

SWITCHES = {
    "free_retreat": "E1 limited retreat option: the Norwegian defender retreats before combat without a die roll",
    "assembled_start": "E1 breakdowns: the German regiments start assembled where their battalions stand together",
}


def _make(scenario: str, board: str, switches: frozenset[str]) -> EuropaGame:
    return EuropaGame(scenario, switches=Switches(**{k: True for k in switches}))


def _bot(kind: str) -> Any:
    def make(side: str, seed: int, think: float) -> Any:
        from hexwar.ai.random_bot import RandomBot

        if kind == "random":
            return RandomBot(seed + GAME.sides.index(side))
        from hexwar.games.europa.bots import PriorityBot

        return PriorityBot(side, seed)
    return make


def _validate(lib: Library) -> list[Problem]:
    """Build the game from every Europa scenario: the map, charts and types it names must exist."""
    try:
        EuropaGame("campaign", lib)
    except DataError as e:
        return list(e.problems)
    return []


GAME = GameInfo(
    name="europa",
    title="Narvik (Europa variant)",
    sides=("germans", "allies"),
    seats={"allies": frozenset({"allies"}), "germans": frozenset({"germans"}),
           "both": frozenset({"allies", "germans"}), "none": frozenset()},
    default_seat="allies",
    scenarios={"campaign": "9 April to 12 June 1940 (E2): the German invasion, 16 turns of 4 days"},
    default_scenario="campaign",
    boards={"europa": "Norway and the Swedish border region in 26 km (16 mile) hexes, built from geography"},
    default_board="europa",
    switches=SWITCHES,
    make=_make,
    bots={"priority": Bot(_bot("priority"), help="rule-based priorities"),
          "random": Bot(_bot("random"), help="random legal orders, one kind at a time")},
    default_bot="priority",
    player=EuropaPlayer,
    describe=say,
    render=render,
    batch=Batch(observer=batch.Observer, exact=batch.exact, scale=batch.SCALE),
    validate=_validate,
    scenario_kinds=("europa_scenario",),
    variants=(("campaign", "europa", ()), ("campaign", "europa", ("free_retreat", "assembled_start"))),
    test_games=2,
)
