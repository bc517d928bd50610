"""Skirmish: a small generic ruleset over the shared rules (fixture maps, engine tests), and
its registry record."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.common import queries
from hexwar.registry import Bot, GameInfo
from hexwar.games.skirmish import invariants
from hexwar.games.skirmish.game import ORDERS, SkirmishGame
from hexwar.games.skirmish.play import SkirmishPresenter
from hexwar.games.skirmish.state import SkirmishData
from hexwar.ui.words import describe
from hexwar.games.common.analysis import LandAnalyst

__all__ = ["GAME", "ORDERS", "SkirmishGame"]


def _make(scenario: str, board: str, switches: frozenset[str]) -> SkirmishGame[SkirmishData]:
    return SkirmishGame.from_scenario(scenario)


def _bot(side: str, seed: int, think: float) -> Any:
    from hexwar.ai.random_bot import RandomBot

    return RandomBot(seed)


def _render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None) -> str:
    from hexwar.games.common.palette import PALETTE
    from hexwar.ui.render import render_svg

    return render_svg(g.board, d, palette=PALETTE, viewer=viewer, title=title, panel=panel or [])


def _validate(lib: Library) -> list[Problem]:
    """Build every registered scenario: the files it names must exist and agree."""
    out: list[Problem] = []
    for name in GAME.scenarios:
        try:
            SkirmishGame.from_scenario(name, lib)
        except DataError as e:
            out += e.problems
    return out


GAME: GameInfo[SkirmishGame[SkirmishData], SkirmishData] = GameInfo(
    name="skirmish",
    title="Skirmish (the engine's fixture ruleset)",
    sides=("allies", "germans"),
    seats={"allies": frozenset({"allies"}), "germans": frozenset({"germans"}),
           "both": frozenset({"allies", "germans"}), "none": frozenset()},
    default_seat="allies",
    scenarios={"fixtures/skirmish": "a 20x10 fixture map with two small forces"},
    default_scenario="fixtures/skirmish",
    boards={"fixtures/skirmish": "the fixture hex map"},
    default_board="fixtures/skirmish",
    validate=_validate,
    switches={},
    make=_make,
    bots={"random": Bot(_bot, help="random legal orders")},
    default_bot="random",
    presenter=SkirmishPresenter,
    describe=describe,
    render=_render,
    scenario_kinds=("scenario",),
    from_scenario_file=lambda name: SkirmishGame.from_scenario(name),
    queries=queries.QUERIES,
    odds=queries.odds,
    invariants=invariants.broken,
    analysis=LandAnalyst,
)
