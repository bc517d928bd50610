"""Supply (19.0): whether the German arrivals by rail and port are threatened (19.1, A28).
Allied lines of supply (19.2-19.4) are a query of the rules: ``context.NarvikRules.supplied``."""

# hexwar: native (issue 56)

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexwar.rules.supply import railway_locations

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board


def railway_constrained(
    board: Board, allied_land_locs: Iterable[str], port: str, railway: Iterable[str] | None = None,
) -> tuple[bool, str]:
    """Return whether arrivals by rail and port are threatened (19.1, read as A28) and why.

    True if any Allied land unit is on a railway location, or the Allies hold the port the
    arrivals come through (Assault on Narvik: Narvik). Railway locations default to those
    with a ``rail`` border.
    """
    rail = set(railway) if railway is not None else railway_locations(board)
    locs = set(allied_land_locs)
    place = board.place(port)
    name = place.name if place is not None and place.name else port
    if port in locs:
        return True, f"the Allies hold {name} port {port} (19.1)"
    on = sorted(locs & rail)
    if on:
        return True, f"Allied land units on the railway at {', '.join(on)} (19.1, A28)"
    return False, f"no Allied land unit on the railway or in {name} (19.1)"

