"""The games on the shared engine, one package each; ``hexwar.games.registry`` finds them."""

from __future__ import annotations

from typing import Any

from hexwar.data.loader import Library


def game_for(scenario_name: str, library: Library | None = None) -> Any:
    """Load a generic scenario file and return the game its ``game:`` key names."""
    from hexwar.games.registry import for_scenario_file

    return for_scenario_file(scenario_name, library)
