"""Supply (19.0): whether the German arrivals by rail and port are threatened (19.1, A28).
Allied lines of supply (19.2-19.4) are a query of the rules: ``context.NarvikRules.supplied``;
who takes the 19.2 penalty when attacked is ``unsupplied_attacked``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexwar.core.state import Unit
from hexwar.games.narvik.state import ALLIES, HARSTAD, NarvikData
from hexwar.rules.stacking import ABOARD
from hexwar.rules import fatigue as fat
from hexwar.rules.supply import railway_locations

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.games.narvik.context import NarvikRules


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



def unsupplied_attacked(g: NarvikRules, d: NarvikData, units: list[Unit]) -> list[str]:
    """19.2 (A21): which of ``units``, attacked in a land assault now, take +6 FP first: Allied
    land units that take fatigue, with no line of supply to a Base (``NarvikRules.supplied``:
    Norwegians and the Harstad box always have one), and not landed amphibiously this turn.
    The assault (15.1 step 1) and the supply query both ask this."""
    sup = g.supplied(d, units)
    return [u.id for u in units
            if u.side == ALLIES and not sup[u.id] and fat.takes_fatigue(g.tables, u) and u.id not in d.landed]


def german_supply(g: NarvikRules, d: NarvikData) -> tuple[bool, str]:
    """19.1 (A28): whether the German arrivals by rail and port are threatened now, and why:
    an Allied land unit ashore on the railway, or the Allies in Narvik. The arrivals of the
    events phase and the supply query both ask this."""
    allied_land = [u.loc for u in d.on_map(ALLIES) if g.is_land(u) and not u.has(ABOARD) and u.loc != HARSTAD]
    return railway_constrained(g.board, allied_land, g.narvik, g.railway)  # type: ignore[arg-type]
