"""Kampen om Norge (Vega Forlag 2012): the area card game on the shared engine, and its
registry record."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.common import front
from hexwar.games.kampen.analysis import KampenAnalyst
from hexwar.games.kampen import batch, invariants
from hexwar.games.kampen.boards import BOARDS, kampen_board
from hexwar.games.kampen.game import KampenGame, kampen_game
from hexwar.games.kampen.odds import odds
from hexwar.games.kampen.play import KampenPresenter, render, say, say_in, words_in
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    FACTIONS,
    GERMANS,
    NORWAY,
    KampenData,
    enemies,
)
from hexwar.registry import Batch, Bot, GameInfo

__all__ = ["ALLIES", "COALITION", "FACTIONS", "GAME", "GERMANS", "NORWAY", "KampenData", "KampenGame", "enemies",
           "kampen_game"]

SCENARIOS = {
    "intro-narvik": "Scenario 1 (S1): the introductory Narvik scenario, top third of the board",
    "basic": "the basic game (rules 1-4): all of Norway, six point cities",
    "advanced": "the advanced game (rules 5-8): the 9 April round, ships at sea, all of Norway",
}


def _make(scenario: str, board: str, switches: frozenset[str]) -> KampenGame:
    return KampenGame(scenario, kampen_board(board))


def _bot(kind: str) -> Any:
    def make(side: str, seed: int, think: float) -> Any:
        from hexwar.ai.random_bot import RandomBot
        from hexwar.ai.search import SearchBot
        from hexwar.games.kampen.bots import KampenBot
        from hexwar.games.kampen.search import search_hooks

        if kind == "random":  # each faction its own random stream, so two random bots never play alike
            return RandomBot(seed + FACTIONS.index(side))
        if kind == "search":
            return SearchBot.of(search_hooks, side, seed + FACTIONS.index(side), think)
        return KampenBot(side, seed)
    return make


def _validate(lib: Library) -> list[Problem]:
    """Cards, start areas and objectives of every scenario against the cards file and its board."""
    from hexwar.board.areaboard import AreaBoard

    out: list[Problem] = []
    boards: dict[str, AreaBoard] = {}
    present = {n for n in lib.names("oob") if n.startswith("kampen/")}
    for name in sorted(present | {f"kampen/{sc}" for sc in GAME.scenarios}):  # a registered scenario must exist
        try:
            spec = lib.load("oob", name)
            if spec.kind != "kampen_scenario":
                continue
            if spec.board not in boards:  # one board per name: several scenarios share it
                boards[spec.board] = AreaBoard.load(spec.board, lib)
            KampenGame(name.removeprefix("kampen/"), boards[spec.board], library=lib)
        except DataError as e:
            out += e.problems
    return out


GAME: GameInfo[KampenGame, KampenData] = GameInfo(
    name="kampen",
    title="Kampen om Norge",
    sides=FACTIONS,
    seats={"germans": frozenset({GERMANS}), "norwegians": frozenset({NORWAY}), "allies": frozenset({ALLIES}),
           "coalition": frozenset(COALITION), "both": frozenset(COALITION), "all": frozenset(FACTIONS),
           "none": frozenset()},
    default_seat="coalition",
    scenarios=SCENARIOS,
    default_scenario="intro-narvik",
    boards=BOARDS,
    default_board="norway",
    switches={},
    make=_make,
    bots={"priority": Bot(_bot("priority"), help="a priority bot per faction, built on exact win chances"),
          "random": Bot(_bot("random"), help="random legal orders, one kind at a time"),
          "search": Bot(_bot("search"), fast=False, help="information-set MCTS over priority-bot rollouts, unseen cards and ships dealt at random (--think seconds a decision, a hard cap)")},
    default_bot="search",
    presenter=KampenPresenter,
    describe=say,
    describe_in=say_in,
    words_in=words_in,
    render=render,
    batch=Batch(observer=batch.Observer, exact=batch.exact, scale=batch.SCALE, columns=front.COLUMNS + ("cards_used",),
                metrics=front.NARVIK_FRONT, board_lines=batch.board_lines, board_notes=batch.BOARD_NOTES, turn="game round",
                reach=batch.reach_lines),
    validate=_validate,
    scenario_kinds=("kampen_scenario",),
    odds=odds,
    tally="battalions",
    variants=(("intro-narvik", "norway", ()), ("intro-narvik", "nordland-hex", ()), ("intro-narvik", "nordland-areas", ()),
              ("basic", "norway", ()), ("advanced", "norway", ())),
    test_games=4,  # the advanced game's 9 April round makes each game long; its state machine plays more
    invariants=invariants.broken,
    analysis=KampenAnalyst,
)
