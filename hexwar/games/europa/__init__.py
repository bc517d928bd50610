"""The Europa "Narvik" variant (GDW; seed 004, digest Part 2): a third game on the engine, on
its own map of Norway in 26 km hexes, and its registry record."""

from __future__ import annotations

from typing import Any, Optional

import typer

from hexwar.data.loader import DataError, Library, Problem
from hexwar.games.common import front
from hexwar.games.europa.analysis import EuropaAnalyst
from hexwar.games.europa import batch, invariants, schemas  # noqa: F401 (schemas registers the data kinds)
from hexwar.games.europa.game import EuropaGame, Switches
from hexwar.games.europa.state import EuropaData
from hexwar.games.europa.play import EuropaPresenter, render, say
from hexwar.registry import Answer, Batch, Bot, GameInfo

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

        if kind == "search":
            from hexwar.ai.search import SearchBot
            from hexwar.games.europa.search import search_hooks

            return SearchBot.of(search_hooks, side, seed + GAME.sides.index(side), think)
        return PriorityBot(side, seed)
    return make


def _validate(lib: Library) -> list[Problem]:
    """Build the game from every Europa scenario: the map, charts and types it names must exist."""
    try:
        EuropaGame("campaign", lib)
    except DataError as e:
        return list(e.problems)
    return []


#: ``hexwar odds europa [OPTIONS]``
_odds = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)


@_odds.command()
def europa_odds(ctx: typer.Context, attack: Optional[int] = typer.Option(None, help="Attack strength"),
                defend: Optional[int] = typer.Option(None, help="Defence strength"),
                target: Optional[str] = typer.Option(None, help="Hex attacked (with --attackers): fought by the game on a copy, every die"),
                attackers: Optional[str] = typer.Option(None, help="Comma-separated attacking unit ids")) -> Answer:
    """The odds CRT (E1): the column of ``--attack`` against ``--defend`` and the exact chance of
    each result; without strengths, every column. With ``--target`` and ``--attackers``, the
    attack at the position as the game makes it (E3 D: strengths, terrain, supply, HQs, river,
    air support as flown; ``games.common.asked.fights``)."""
    from hexwar.rules.combat import (
        odds_column_index,
        odds_outcomes,
        odds_table_markdown,
    )

    for opt, v in (("--attack", attack), ("--defend", defend)):
        if v is not None and not 0 <= v <= 1000:
            raise ValueError(f"{opt} is {v}; it must be from 0 to 1000")
    g = ctx.obj.game
    if target is not None or attackers:
        return _attack_odds(ctx.obj, target, attackers)
    if attack is None or defend is None:
        return Answer({"table": odds_table_markdown(g.crt)}, odds_table_markdown(g.crt).splitlines())
    col = g.crt.columns[odds_column_index(g.crt, attack, defend)]
    dist = odds_outcomes(g.crt, attack, defend)
    lines = [f"{attack} to {defend}: column {col.label} (rounded for the defender) [E1]"]
    lines += [f"  {r} {g.crt.codes[r]}: {p} = {float(p) * 100:.1f}%" for r, p in dist]
    return Answer({"column": col.label, "odds": {r: str(p) for r, p in dist}}, lines)


def _attack_odds(pos: Any, target: Optional[str], attackers: Optional[str]) -> Answer:
    """An attack at a position, fought by the game on a copy for every die it rolls (a
    turn-1 Norwegian retreat before combat, E1; the CRT's): each result's chance and the
    ledger of its first column (``asked.fight_answer``)."""
    from hexwar.games.common import asked
    from hexwar.ui.words import render_ledger

    if not (target and attackers):
        raise ValueError("--target and --attackers go together")
    g, data = pos.game, pos.data
    ids = [x.strip() for x in attackers.split(",") if x.strip()]
    bad = [x for x in ids if x not in data.units or data.units[x].loc is None]
    if not ids or bad:
        raise ValueError(f"no unit on the map called {', '.join(bad) or '(none named)'}")
    ans = asked.fight_answer(g, data, g.assault_order(data, data.units[ids[0]].side, target, ids))
    odds = {o["result"]: o["p"] for o in ans["outcomes"]}
    lines = [f"{ans['order']}: {ans['fights']} dice fought (E1)"]
    lines += [f"  {o['result']} {g.crt.codes.get(o['result'], o['result'])}: {o['p']} = {o['percent']:.1f}%" for o in ans["outcomes"]]
    if len(ans["columns"]) > 1:
        lines += ["columns, by the rolls before the CRT's die:"] + [f"  column {c['column']}: {c['p']}" for c in ans["columns"]]
    return Answer({"order": ans["order"], "columns": ans["columns"], "odds": odds, "ledger": ans["ledger"]},
                  [*lines, render_ledger(ans["ledger"])])


GAME: GameInfo[EuropaGame, EuropaData] = GameInfo(
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
          "random": Bot(_bot("random"), help="random legal orders, one kind at a time"),
          "search": Bot(_bot("search"), fast=False, help="information-set MCTS over priority-bot rollouts (--think seconds a decision, a hard cap)")},
    default_bot="priority",
    presenter=EuropaPresenter,
    describe=say,
    render=render,
    batch=Batch(observer=batch.Observer, exact=batch.exact, scale=batch.SCALE, columns=front.COLUMNS, metrics=front.NARVIK_FRONT),
    validate=_validate,
    scenario_kinds=("europa_scenario",),
    odds=_odds,
    variants=(("campaign", "europa", ()), ("campaign", "europa", ("free_retreat", "assembled_start"))),
    test_games=1,  # a 16-turn game of 151 counters; more seeds: tests/games/test_europa_rules.py
    invariants=invariants.broken,
    analysis=EuropaAnalyst,
)
