"""Land stacking (Assault on Narvik 13.2; boxes such as Harstad 13.2.1).

Infantry counts stacking points by size (company 1, battalion 3) up to a limit of 6 per
location; artillery and tanks stack free; boxes are unlimited. Ships and units aboard
them do not count (13.1).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from hexwar.rules.cites import StackCites
from hexwar.rules.ledger import Ledger

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.state import UnitState, Unit
    from hexwar.scenario import Tables

ABOARD = "aboard"  # flag of a land unit carried by a ship (13.1)


@dataclass(frozen=True)
class StackReport:
    """The stacking of one side at one location."""

    loc: str
    side: str
    points: int
    limit: int | None  # None = unlimited (13.2.1)
    units: tuple[str, ...]

    @property
    def excess(self) -> int:
        return 0 if self.limit is None else max(0, self.points - self.limit)

    @property
    def ok(self) -> bool:
        return self.excess == 0

    def message(self, cites: StackCites) -> str:
        """Return a one-line description naming the location and the excess, with the
        game's section (13.2)."""
        lim = "unlimited" if self.limit is None else str(self.limit)
        if self.ok:
            return f"{self.loc}: {self.side} stack {self.points}/{lim} points"
        return f"{self.loc}: {self.side} stack {self.points} points exceeds the limit {lim} by {self.excess} ({cites.limit})"


def unit_points(tables: "Tables", unit: "Unit", ashore: bool = False) -> int:
    """Return one unit's stacking points (0 for free kinds and units aboard ships, unless
    ``ashore``: counted as it will stand once landed)."""
    st = tables.stacking
    assert st is not None, "this ruleset has no stacking table"
    t = tables.types[unit.type]
    if t.kind in st.free_kinds or (unit.has(ABOARD) and not ashore):
        return 0
    return st.points.get(t.size, 0)


def stack(board: "Board", state: "UnitState", tables: "Tables", loc: str, side: str,
          extra: Iterable["Unit"] = (), leaving: Iterable[str] = ()) -> StackReport:
    """Return the stacking at ``loc`` for ``side``, with ``extra`` units added and ``leaving`` taken out.

    ``extra`` units count as they will stand there: a unit coming ashore counts its size
    though it is still flagged aboard (13.1 frees it only while it is carried)."""
    st = tables.stacking
    assert st is not None, "this ruleset has no stacking table"
    gone = set(leaving)
    here = [u for u in state.units_at(loc) if u.side == side and u.id not in gone]
    extra = list(extra)
    units = here + extra
    pts = sum(unit_points(tables, u) for u in here) + sum(unit_points(tables, u, ashore=True) for u in extra)
    unlimited = any(board.is_a(loc, k) for k in st.unlimited_places)
    return StackReport(loc, side, pts, None if unlimited else st.limit, tuple(sorted(u.id for u in units)))


def points_by_location(state: "UnitState", tables: "Tables", side: str) -> dict[str, int]:
    """Return each location's stacking points for ``side`` in one pass (13.2)."""
    out: dict[str, int] = {}
    for u in state.side_units(side):
        out[u.loc] = out.get(u.loc, 0) + unit_points(tables, u)  # type: ignore[index, arg-type]
    return out


def room_for(board: "Board", tables: "Tables", points: dict[str, int], loc: str, extra_points: int) -> bool:
    """Return whether ``extra_points`` more fit at ``loc`` given :func:`points_by_location`."""
    st = tables.stacking
    assert st is not None, "this ruleset has no stacking table"
    if loc in unlimited(board, st.unlimited_places):
        return True
    return points.get(loc, 0) + extra_points <= st.limit


_UNLIMITED: "weakref.WeakKeyDictionary[object, dict[frozenset[str], frozenset[str]]]" = weakref.WeakKeyDictionary()


def unlimited(board: "Board", kinds: Iterable[str]) -> frozenset[str]:
    """The locations of kinds that stack without limit (13.2.1: boxes), once per board."""
    key = frozenset(kinds)
    per = _UNLIMITED.get(board)
    if per is None:
        per = _UNLIMITED[board] = {}
    hit = per.get(key)
    if hit is None:
        hit = per[key] = frozenset(x for x in board.locations() if any(board.is_a(x, k) for k in key))
    return hit


def violations(board: "Board", state: "UnitState", tables: "Tables") -> list[StackReport]:
    """Return every over-stacked location (13.2)."""
    out = []
    seen = set()
    for u in state.on_map():
        key = (u.loc, u.side)
        if key in seen:
            continue
        seen.add(key)
        rep = stack(board, state, tables, u.loc, u.side)  # type: ignore[arg-type]
        if not rep.ok:
            out.append(rep)
    return sorted(out, key=lambda r: (r.loc, r.side))


def explain_stack(board: "Board", state: "UnitState", tables: "Tables", loc: str, side: str, cites: StackCites) -> Ledger:
    """Return the stacking ledger of a location: points per unit, limit, excess, with the
    game's sections (``cites``)."""
    rep = stack(board, state, tables, loc, side)
    led = Ledger(f"stacking of {side} at {board.label(loc)}")
    for uid in rep.units:
        u = state.units[uid]
        t = tables.types[u.type]
        led.add(f"{uid} ({t.kind} {t.size})", unit_points(tables, u), cites.limit)
    led.add("limit", "unlimited" if rep.limit is None else rep.limit, cites.unlimited if rep.limit is None else cites.limit)
    led.total = rep.points
    return led
