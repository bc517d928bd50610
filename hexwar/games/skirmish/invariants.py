"""The skirmish ruleset's rules that hold after every order (the registry's ``invariants``;
Konflikt '47, played on this ruleset, checks the same): the stacking limit (13.2) in every
location (the ruleset refuses a move or an advance that would break it)."""

from __future__ import annotations

from typing import Any

from hexwar.core.state import UnitState
from hexwar.rules import stacking


def broken(g: Any, d: UnitState) -> list[str]:
    """Return every rule the state breaks (empty: all hold)."""
    return [r.message(g.cites.stack) for r in stacking.violations(g.board, d, g.tables)]
