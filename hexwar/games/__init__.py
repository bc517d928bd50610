"""Games on the shared engine, by the name scenarios give in their ``game:`` key."""

from __future__ import annotations

from typing import Any, Callable

from hexwar.data.loader import Library
from hexwar.data.scenario import load_scenario


def _skirmish() -> Any:
    from hexwar.games.skirmish import SkirmishGame

    return SkirmishGame


def _narvik() -> Any:
    from hexwar.games.narvik import NarvikGame

    return NarvikGame


GAMES: dict[str, Callable[[], Any]] = {"skirmish": _skirmish, "narvik": _narvik}


def game_for(scenario_name: str, library: Library | None = None) -> Any:
    """Load a scenario and return the game object its ``game:`` key names."""
    sc = load_scenario(scenario_name, library)
    try:
        cls = GAMES[sc.spec.game]()
    except KeyError:
        raise ValueError(f"{sc.file}: game {sc.spec.game!r} is not known; known: {sorted(GAMES)}") from None
    return cls(sc)
