"""What holds after every order of any game on the shared state (``UnitState``): each check
returns the broken rules as sentences, empty when all hold.

A game adds its own rules' invariants in its registry record (``GameInfo.invariants``); the
conformance suite checks both after every order of random games and of games between the
game's own bots (a rule broken only by a bot that plays well, as 13.2 was by landings, is
never met by random play).

>>> from hexwar.core.state import UnitState, Unit
>>> s = UnitState("demo", "demo", 1, units={"a": Unit("a", "inf", "x", "x", loc="0101", pool=None)})
>>> placement(s, {"0101"})
[]
>>> s.units["a"].pool = "eliminated"
>>> placement(s, {"0101"})
['a is both at 0101 and in the eliminated pool (a counter is in exactly one place)']
"""

from __future__ import annotations

from typing import Container

from hexwar.core.state import UnitState


def placement(state: UnitState, board: Container[str]) -> list[str]:
    """Every counter is in exactly one place: at a location of ``board`` or in one of the
    game's pools; and the state's location and side indexes (``at``, ``on_map(side)``) agree
    with a scan of the units (they are kept up to date, not rebuilt per query)."""
    out = []
    for u in state.units.values():
        if u.loc is not None and u.pool is not None:
            out.append(f"{u.id} is both at {u.loc} and in the {u.pool} pool (a counter is in exactly one place)")
        elif u.loc is None and u.pool is None:
            out.append(f"{u.id} is nowhere: neither at a location nor in a pool")
        elif u.loc is not None and u.loc not in board:
            out.append(f"{u.id} is at {u.loc!r}, which is not on the board")
        elif u.pool is not None and u.pool not in state.POOLS:
            out.append(f"{u.id} is in the pool {u.pool!r}, which {state.game} does not have")
    by_loc: dict[str, list[str]] = {}
    by_side: dict[str, list[str]] = {}
    for u in state.units.values():
        if u.loc is not None:
            by_loc.setdefault(u.loc, []).append(u.id)
            by_side.setdefault(u.side, []).append(u.id)
    for loc, ids in sorted(by_loc.items()):
        seen = [u.id for u in state.units_at(loc)]
        if seen != sorted(ids):  # ``at`` gives a location's units in id order
            out.append(f"the location index says {loc} holds {seen}, the units say {sorted(ids)}")
    for side, ids in sorted(by_side.items()):
        seen = [u.id for u in state.on_map(side)]
        if seen != ids:
            out.append(f"the side index says {side} has {seen} on the map, the units say {ids}")
    indexed = state._index()[0]
    for where in set(indexed) - set(by_loc):
        out.append(f"the location index says {where} holds {[u.id for u in indexed[where]]}, the units say none")
    return out
