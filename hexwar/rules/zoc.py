"""Zones of control (Assault on Narvik 12.0).

Each visible infantry unit exerts a ZoC over the locations adjacent to it, but not across
borders made entirely of water (sea, lake, fjord). Non-infantry units, concealed units,
units at their fatigue limit and amphibious-assault attackers have none. Several ZoCs on
one location have no extra effect (12.3).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from hexwar.rules.cites import ZocCites
from hexwar.rules.ledger import Ledger

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.state import UnitState, Unit
    from hexwar.scenario import Tables

#: unit flag for amphibious-assault attackers, which have no ZoC (12.0, 20.3.1)
AMPHIBIOUS = "amphibious_attacker"


def zoc_exclusion(unit: "Unit", tables: "Tables", cites: ZocCites) -> str | None:
    """Return why a unit exerts no ZoC (with the game's section: ``cites``), or None if it
    does (12.0)."""
    t = tables.types[unit.type]
    if unit.loc is None:
        return "off the map"
    if not t.infantry:
        return f"{t.kind} is not infantry ({cites.zoc})"
    if unit.concealed:
        return f"concealed ({cites.concealed})"
    if t.fatigue_limit and unit.fatigue >= t.fatigue_limit:
        return f"at its fatigue limit {t.fatigue_limit} ({cites.fatigue_limit})"
    if unit.has(AMPHIBIOUS):
        return f"amphibious-assault attacker ({cites.amphibious})"
    if unit.has("aboard"):
        return f"aboard a ship ({cites.aboard})"
    return None


def projects_into(board: "Board", loc: str) -> list[str]:
    """Return the locations a ZoC at ``loc`` reaches: neighbours not across water (12.0)."""
    if board.terrain(loc) == "box":
        return []
    out = []
    for n in board.neighbours(loc):
        if board.terrain(n) == "box":
            continue
        if board.border(loc, n).is_water:
            continue
        out.append(n)
    return out


_PROJ_CACHE: "weakref.WeakKeyDictionary[object, dict[str, tuple[str, ...]]]" = weakref.WeakKeyDictionary()


def _projections(board: "Board") -> dict[str, tuple[str, ...]]:
    cached = _PROJ_CACHE.get(board)
    if cached is None:
        cached = _PROJ_CACHE[board] = {loc: tuple(projects_into(board, loc)) for loc in board.locations()}
    return cached


def zoc_of(board: "Board", state: "UnitState", tables: "Tables", side: str) -> frozenset[str]:
    """Return the locations in the ZoC of ``side``'s units.

    >>> from hexwar.scenario import load_scenario
    >>> from hexwar.games.skirmish import SkirmishGame
    >>> g = SkirmishGame.from_scenario("fixtures/skirmish"); st = g.new_state(1).data
    >>> sorted(zoc_of(g.board, st, g.tables, "germans"))[:3]
    ['1907', '1908', '2007']
    """
    proj = _projections(board)
    out: set[str] = set()
    types = tables.types
    for u in state.side_units(side):
        t = types[u.type]  # zoc_exclusion(u, tables) is None, inlined (this is on every decision's path)
        if (t.infantry and not u.concealed and not (t.fatigue_limit and u.fatigue >= t.fatigue_limit)
                and AMPHIBIOUS not in u.flags and "aboard" not in u.flags):
            out.update(proj[u.loc])  # type: ignore[index]
    return frozenset(out)


def enemy_zoc(board: "Board", state: "UnitState", tables: "Tables", side: str) -> frozenset[str]:
    """Return the locations in the ZoC of every side other than ``side``."""
    out: set[str] = set()
    for other in state.sides_on_map():
        if other != side:
            out |= zoc_of(board, state, tables, other)
    return frozenset(out)


def explain_zoc(board: "Board", state: "UnitState", tables: "Tables", loc: str, side: str, cites: ZocCites) -> Ledger:
    """Return which of ``side``'s units put ``loc`` in their ZoC, and which do not and why,
    with the game's sections (``cites``)."""
    led = Ledger(f"ZoC of {side} at {board.label(loc)}")
    hits = 0
    for n in board.neighbours(loc):
        if board.terrain(n) == "box" or board.terrain(loc) == "box":
            continue  # no ZoC into or out of an off-map box (as projects_into: 12.0, 22.1)
        for u in state.at(n):
            if u.side != side:
                continue
            why = zoc_exclusion(u, tables, cites)
            if board.border(n, loc).is_water:
                led.add(f"{u.id} at {n}: across a water border {sorted(board.border(n, loc).features)}", "no", cites.zoc)
            elif why:
                led.add(f"{u.id} at {n}: {why}", "no", cites.zoc)
            else:
                led.add(f"{u.id} at {n}", "yes", cites.zoc)
                hits += 1
    led.total = "in ZoC" if hits else "not in ZoC"
    return led
