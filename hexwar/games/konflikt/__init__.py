"""Konflikt '47 scenario templates (seed 002) on the skirmish ruleset, on a hex table or an area
table cut from it; and the registry record."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.common import front, queries
from hexwar.games.konflikt import batch
from hexwar.games.konflikt.game import KonfliktGame
from hexwar.games.konflikt.state import SIDES, KonfliktData
from hexwar.games.konflikt.orders import ORDERS
from hexwar.games.konflikt.play import KonfliktPresenter, say
from hexwar.games.konflikt.table import BOARDS
from hexwar.registry import Batch, Bot, GameInfo
from hexwar.games.skirmish import invariants
from hexwar.games.common.analysis import LandAnalyst

__all__ = ["GAME", "ORDERS", "KonfliktData", "KonfliktGame"]

SCENARIOS = {
    "envelopment": "1 Envelopment (2.1): the attacker goes round a pocket into the defender's zone and off his edge",
    "maximum_attrition": "2 Maximum Attrition (2.2): both forces come on from their edges; destroy the enemy",
    "point_defence": "3 Point Defence (2.3): the attacker must take three objectives in the defender's zone",
    "hold_until_relieved": "4 Hold Until Relieved (2.4): hold the centre until the relief arrives",
    "top_secret": "5 Top Secret (2.5): carry the documents at the centre off your own edge",
    "demolition": "6 Demolition (2.6): reach the enemy base and keep your own",
    "random": "a scenario by the d6 chart (1), rolled at set-up",
}


def _make(scenario: str, board: str, switches: frozenset[str]) -> KonfliktGame:
    return KonfliktGame(scenario, board)


def _bot(kind: str) -> Any:
    def make(side: str, seed: int, think: float) -> Any:
        from hexwar.ai.random_bot import RandomBot

        if kind == "random":
            return RandomBot(seed + SIDES.index(side))
        from hexwar.games.konflikt.bots import KonfliktBot

        if kind == "search":
            from hexwar.ai.search import SearchBot
            from hexwar.games.konflikt.search import search_hooks

            return SearchBot.of(search_hooks, side, seed + SIDES.index(side), think)
        return KonfliktBot(side, seed)
    return make


def _render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None) -> str:
    from hexwar.games.common.palette import PALETTE
    from hexwar.ui.render import render_svg

    marks = sorted(d.objectives) + sorted(d.base_at.values()) + ([d.marker] if d.marker else [])
    lines = [g.spec_of(d).title] if d.template else []
    lines += [f"objective {loc}: {s or 'nobody'}" for loc, s in sorted(d.objectives.items())]
    lines += [f"{s} base {loc}" + (" (destroyed)" if s in d.razed else "") for s, loc in sorted(d.base_at.items())]
    lines += [f"documents at {d.marker}"] if d.marker else []
    # both tables at one scale: a 3-inch hex (1 nominal km) 56 px across
    return render_svg(g.board, d, palette=PALETTE, px_per_km=56.0, viewer=viewer, title=title, panel=(panel or []) + lines, highlight=marks)


def _validate(lib: Library) -> list[Problem]:
    """Every template builds on both tables."""
    out: list[Problem] = []
    for b in BOARDS:
        try:
            KonfliktGame("envelopment", b, lib)
        except DataError as e:
            out += e.problems
    return out


GAME: GameInfo[KonfliktGame, KonfliktData] = GameInfo(
    name="konflikt",
    title="Konflikt '47 scenario templates (skirmish ruleset)",
    sides=SIDES,
    seats={"allies": frozenset({"allies"}), "germans": frozenset({"germans"}), "both": frozenset(SIDES),
           "none": frozenset()},
    default_seat="allies",
    scenarios=SCENARIOS,
    default_scenario="random",
    boards=BOARDS,
    default_board="table",
    switches={},
    make=_make,
    bots={"priority": Bot(_bot("priority"), help="goes for the scenario's objective, assaults at good odds"),
          "random": Bot(_bot("random"), help="random legal orders"),
          "search": Bot(_bot("search"), fast=False, help="information-set MCTS over priority-bot rollouts (--think seconds a decision, a hard cap)")},
    default_bot="priority",
    presenter=KonfliktPresenter,
    describe=say,
    render=_render,
    batch=Batch(observer=batch.Observer, exact=batch.exact, scale=batch.SCALE,
                columns=front.COLUMNS + ("fatigue_germans", "fatigue_allies"), metrics=front.NO_TOWN,
                board_lines=batch.board_lines, board_notes=batch.BOARD_NOTES,
                board_scale=batch.board_scale, reach=batch.reach_lines),
    validate=_validate,
    queries=queries.QUERIES,
    odds=queries.odds,
    scenario_kinds=("konflikt_templates",),
    # every template once: the first on the hex table, the rest on its areas (quicker; the hex
    # table plays every template in tests/games/test_konflikt.py)
    variants=tuple((sc, "table" if i == 0 else "table-areas", ()) for i, sc in enumerate(s for s in SCENARIOS if s != "random")),
    test_games=1,
    invariants=invariants.broken,  # the skirmish ruleset's: one place per counter, 13.2 stacking
    analysis=LandAnalyst,
)
