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

from typing import Any, Container, Mapping

from hexwar.core.state import UnitState


def misplaced(state: UnitState, u: Any, board: Container[str]) -> tuple[str, str] | None:
    """Why a counter is not in exactly one place (the field to blame, and a sentence), or None.

    >>> from hexwar.core.state import UnitState, Unit
    >>> s = UnitState("demo", "demo", 1)
    >>> misplaced(s, Unit("a", "inf", "x", "x", loc=None, pool=None), {"0101"})
    ('loc', 'a is nowhere: neither at a location nor in a pool')
    """
    if u.loc is not None and u.pool is not None:
        return "pool", f"{u.id} is both at {u.loc} and in the {u.pool} pool (a counter is in exactly one place)"
    if u.loc is None and u.pool is None:
        return "loc", f"{u.id} is nowhere: neither at a location nor in a pool"
    if u.loc is not None and u.loc not in board:
        return "loc", f"{u.id} is at {u.loc!r}, which is not on the board"
    if u.pool is not None and u.pool not in state.POOLS:
        return "pool", f"{u.id} is in the pool {u.pool!r}, which {state.game} does not have"
    return None


def placement(state: UnitState, board: Container[str]) -> list[str]:
    """Every counter is in exactly one place: at a location of ``board`` or in one of the
    game's pools; and the state's location and side indexes (``at``, ``on_map(side)``) agree
    with a scan of the units (they are kept up to date, not rebuilt per query)."""
    out = [said for u in state.units.values() if (wrong := misplaced(state, u, board)) for said in wrong[1:]]
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


def counters(state: UnitState, board: Container[str], types: Container[str], oob: Mapping[str, Any] | None = None,
             weathers: Container[str] | None = None, turns: int | None = None, hidden: str | None = None,
             first: int = 1) -> list[str]:
    """What makes a counter game's state no state to play on (issue 70: a position file set
    up by hand is checked whole before a game starts from it), each as a sentence led by the
    state's key it is about: a counter not in exactly one place of the board or a pool, filed
    under another id, of a type the game does not have or not as its order of battle has it
    (``oob``: id -> its entry, with ``type`` and ``side``; None where play makes counters of
    its own), with fatigue below 0; a weather the game does not have; a turn outside
    ``first`` to ``turns``. A counter of the ``hidden`` type is a face-down counter as one
    side sees it (a position written with that side's eyes): its place is checked, not what
    it is.

    >>> from hexwar.core.state import UnitState, Unit
    >>> s = UnitState("demo", "demo", 1, turn=99, weather="tornado",
    ...               units={"a": Unit("a", "death_star", "x", "x", loc="9999", pool=None, fatigue=-3)})
    >>> for line in counters(s, {"0101"}, {"inf"}, weathers={"good"}, turns=10): print(line)
    units.a.loc: a is at '9999', which is not on the board
    units.a.type: a is of type 'death_star', which this game does not have
    units.a.fatigue: a has -3 fatigue points; fatigue is never below 0
    weather: the weather is 'tornado'; this game has good
    turn: the turn is 99; this game's turns are 1 to 10
    """
    out = []
    for key, u in state.units.items():
        wrong = misplaced(state, u, board)
        if wrong:
            out.append(f"units.{key}.{wrong[0]}: {wrong[1]}")
        if key != u.id:
            out.append(f"units.{key}.id: units.{key} holds the counter {u.id!r}: a counter is filed under its own id")
        if hidden is not None and u.type == hidden:
            continue
        if u.type not in types:
            out.append(f"units.{key}.type: {u.id} is of type {u.type!r}, which this game does not have")
        if oob is not None:
            entry = oob.get(u.id)
            if entry is None:
                out.append(f"units.{key}: {u.id} is no counter of the scenario's order of battle")
            elif (entry.type, entry.side) != (u.type, u.side):
                out.append(f"units.{key}.type: {u.id} is a {entry.type} of the {entry.side} in the order of battle, "
                           f"not a {u.type} of the {u.side}")
        if u.fatigue < 0:
            out.append(f"units.{key}.fatigue: {u.id} has {u.fatigue} fatigue points; fatigue is never below 0")
    if weathers is not None and state.weather not in weathers:
        out.append(f"weather: the weather is {state.weather!r}; this game has {', '.join(sorted(weathers))}")  # type: ignore[call-overload]
    if turns is not None and not first <= state.turn <= turns:
        out.append(f"turn: the turn is {state.turn}; this game's turns are {first} to {turns}")
    return out
