"""Vestfjord Patrol: hexwar's example game, outside the ``hexwar`` package.

A U-boat slips up Vestfjord towards Narvik; destroyers hunt it with sonar and depth charges.
It registers itself with hexwar through the ``hexwar.games`` entry point (``pyproject.toml``)
and touches no file of hexwar's: ``docs/adding-a-game.md`` walks through it.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from hexwar.core.metrics import Mean, Rate
from hexwar.core.observe import Observer as BaseObserver
from hexwar.data.loader import DataError, Library, Problem
from hexwar.registry import Batch, Bot, GameInfo
from vestfjord.bots import HunterBot, search_bot
from vestfjord.game import ORDERS, UBOAT, PatrolData, PatrolGame, load_charts
from vestfjord.presenter import PatrolPresenter, describe

__all__ = ["GAME", "ORDERS", "PatrolData", "PatrolGame"]

CHARTS = load_charts()


def _make(scenario: str, board: str, switches: frozenset[str]) -> PatrolGame:
    return PatrolGame(scenario)


def _random(side: str, seed: int, think: float) -> Any:
    from hexwar.ai.random_bot import RandomBot

    return RandomBot(seed)


def _render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None) -> str:
    from hexwar.ui.render import render_svg

    return render_svg(g.board, d, viewer=viewer, title=title, panel=panel or [], highlight=[g.harbour])


def _validate(lib: Library) -> list[Problem]:
    """The example's own data (not under hexwar's data root): its charts and its board."""
    try:
        for name in CHARTS.scenarios:
            PatrolGame(name)
    except DataError as e:
        return list(e.problems)
    return []


class Observer(BaseObserver):
    """A batch row: who won and how, the turn it ended, depth charges and pings."""

    def __init__(self, game: PatrolGame):
        super().__init__({})
        self.charges = self.pings = self.contacts = 0

    def event(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "depth_charge":
            self.charges += 1
        elif ev["type"] == "sonar":
            self.pings += 1
            self.contacts += int(ev["contact"])

    def row(self, view: Any) -> dict[str, Any]:
        d: PatrolData = view.data
        r = view.result()
        return {"winner": r.winner or "", "level": r.level, "end_turn": d.turn, "orders": self.orders,
                "uboat_win": int(r.winner == "uboat"), "sunk": int(d.sunk), "charges": self.charges,
                "pings": self.pings, "contacts": self.contacts}


def _boards(boards: Sequence[tuple[str, Any]]) -> list[str]:
    out = ["| # | board | sea hexes | harbour |", "|---|---|---|---|"]
    for i, (name, g) in enumerate(boards, 1):
        out.append(f"| {i} | {name} | {sum(g.is_sea(h) for h in g.board.locations())} | {g.harbour} |")
    return out


METRICS = (
    Rate("uboat_win", "U-boat wins (95% CI)", lambda r: r["uboat_win"] == "1", ci=True, test="U-boat win rate",
         figure="U-boat win rate, 95% Wilson interval"),
    Rate("sunk", "U-boat sunk", lambda r: r["sunk"] == "1", test="sinking rate"),
    Mean("charges", "depth charges", lambda r: float(r["charges"]), test="depth charges a game",
         said="The depth charges dropped a game", box="depth charges"),
    Mean("pings", "pings", lambda r: float(r["pings"]), box="sonar pings"),
)

BATCH = Batch(observer=Observer, exact=None,  # no combat table to set the results beside
              board_lines=_boards,
              scale="Vestfjord Patrol: a turn is one U-boat move and one action per destroyer; a hex is 8 km of fjord.",
              columns=("uboat_win", "sunk", "charges", "pings", "contacts"), metrics=METRICS)

SEATS: Mapping[str, frozenset[str]] = {"navy": frozenset({"navy"}), "uboat": frozenset({"uboat"}),
                                       "both": frozenset({"navy", "uboat"}), "none": frozenset()}


def _at_sea(g: PatrolGame, d: PatrolData) -> list[str]:
    """The game's own invariant: the U-boat is never on land (3.1)."""
    at = d.units[UBOAT].loc
    return [] if at is None or g.is_sea(at) else [f"the U-boat is on land at {at} (3.1)"]

GAME: GameInfo[PatrolGame, PatrolData] = GameInfo(
    name="vestfjord",
    title="Vestfjord Patrol (hexwar's example game)",
    sides=("navy", "uboat"),
    seats=SEATS,
    default_seat="navy",
    scenarios={k: v.about for k, v in CHARTS.scenarios.items()},
    default_scenario="patrol",
    boards={"vestfjord": "the fjord from the open sea to the Ofotfjord mouth, 8 km hexes"},
    default_board="vestfjord",
    switches={},
    make=_make,
    bots={"random": Bot(_random, help="random legal orders"),
          "hunter": Bot(lambda side, seed, think: HunterBot(side, seed), help="rules of thumb for either side"),
          "search": Bot(search_bot, fast=False, help="ISMCTS over the hunter's rules of thumb")},
    default_bot="hunter",
    presenter=PatrolPresenter,
    describe=describe,
    render=_render,
    validate=_validate,
    batch=BATCH,
    tally="sinkings and escapes",
    variants=(("patrol", "vestfjord", ()), ("lone", "vestfjord", ())),
    invariants=_at_sea,
)
