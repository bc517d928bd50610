"""Supply (19.0): Allied lines of supply to a Base (19.3, 19.4) through terrain passable to
infantry and not through German zones of control unless Allied infantry holds the hex;
Norwegians are always supplied (19.2). The German side is never out of supply (19.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from hexwar.core.state import Unit
from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED, MAX_SUPPLY_LINE
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, NarvikData
from hexwar.rules.stacking import ABOARD
from hexwar.rules.supply import line_of_supply, railway_locations, supply_status

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.games.narvik.game import NarvikGame


def inputs(g: "NarvikGame", d: NarvikData) -> tuple[list[str], frozenset[str], list[str]]:
    """Return what Allied lines of supply run to and through (19.3, 19.4, 20.6, 12.2):
    the Bases (designated ports and Puffer bases), the German ZoC, and the hexes holding
    Allied infantry on land (which open a ZoC hex)."""
    bases = list(d.bases) + [s.loc for s in d.on_map(ALLIES) if "base" in s.flags and s.loc]
    zoc = g.zoc(d, GERMANS)
    inf = [u.loc for u in d.on_map(ALLIES) if g.t(u).infantry and not u.has(ABOARD) and u.loc]
    return bases, zoc, inf


def supplied(g: "NarvikGame", d: NarvikData, units: list[Unit]) -> dict[str, bool]:
    """19.2, 19.3: which Allied units have a line of supply (Norwegians always)."""
    locs = [u.loc for u in units if u.loc and u.loc != HARSTAD and u.nation not in ALWAYS_SUPPLIED]
    st = supply_status(g.board, g.tables.terrain, d.weather, "leg", locs, *inputs(g, d), MAX_SUPPLY_LINE) if locs else {}
    return {u.id: (u.nation in ALWAYS_SUPPLIED or u.loc == HARSTAD or bool(st.get(u.loc, False)))  # type: ignore[arg-type]
            for u in units}


def line(g: "NarvikGame", d: NarvikData, u: Unit) -> Any:
    """Return one Allied unit's line of supply, or what blocked it (19.3)."""
    bases, zoc, inf = inputs(g, d)
    return line_of_supply(g.board, g.tables.terrain, d.weather, "leg", u.loc, bases, zoc, inf,  # type: ignore[arg-type]
                          MAX_SUPPLY_LINE, g.cites.supply)


def railway_constrained(
    board: "Board", allied_land_locs: Iterable[str], port: str, railway: Iterable[str] | None = None,
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

