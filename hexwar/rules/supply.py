"""Supply (Assault on Narvik 19.0-19.4, 12.2).

A unit is supplied if a line of at most ``max_len`` locations (10 in Assault on Narvik)
runs from its location (excluded) to a base (included, A29), through no location in enemy
ZoC unless that location holds friendly infantry (12.2, A20), and through nothing
impassable to infantry. Who is always supplied (Norwegians, 19.2) is the game's to say.

:func:`supply_status` checks many units at once with one breadth-first expansion from the
bases over bitsets (shifts on hex boards, neighbour masks on area boards);
:func:`line_of_supply` finds and explains one unit's line.
"""

from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

import numpy as np

from hexwar.board import hexes
from hexwar.rules.cites import SupplyCites
from hexwar.rules.ledger import Ledger
from hexwar.rules.movement import step_cost

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.data.tables import TerrainChart

@dataclass(frozen=True)
class SupplyResult:
    """A supply check: the line found, or the nearest base and what blocked the line."""

    loc: str
    supplied: bool
    path: tuple[str, ...] = ()
    base: str | None = None
    blocked_at: str | None = None
    reason: str = ""
    cites: SupplyCites = SupplyCites(line="", base="", zoc="")  # the game's sections

    def explain(self) -> Ledger:
        led = Ledger(f"line of supply from {self.loc}")
        if self.supplied and self.path:
            led.add(f"path {' > '.join(self.path)}", _hexes(len(self.path) - 1), self.cites.line)
            led.add(f"reaches base {self.base}", None, self.cites.base)
        led.add(self.reason, None, self.cites.line)
        led.total = "supplied" if self.supplied else "not supplied"
        return led


class SupplyNet:
    """Passability for supply lines, compiled once per board, chart, weather and class.

    Sets of locations are Python integers used as bitsets. On a hex board a hex's bit is
    its position in an axial grid with a guard slot above and below every column, so one
    step in a direction is a constant shift; on an area board (and for boxes) each location
    gets the next free bit and steps use per-location neighbour masks.
    """

    def __init__(self, board: "Board", chart: "TerrainChart", weather: str, mclass: str):
        self.locs = list(board.locations())
        # legal steps a -> b for infantry (terrain and border; enemy aside)
        steps: dict[str, list[str]] = {
            a: [b for b in board.neighbours(a) if step_cost(board, chart, weather, mclass, a, b) is not None]
            for a in self.locs
        }
        self.steps = steps
        self.pos: dict[str, int] = {}
        self.shifts: list[tuple[int, int]] = []  # (delta, bitset of hexes whose step by delta is legal)
        nbits = 0
        grid: set[str] = set()
        if board.kind == "hex":
            ax = {h: board.axial(h) for h in board.hexes()}  # type: ignore[attr-defined]
            grid = set(ax)
            q0 = min(a.q for a in ax.values())
            r0 = min(a.r for a in ax.values()) - 1
            w = max(a.r for a in ax.values()) - r0 + 2  # guard slots at 0 and w - 1
            for h, a in ax.items():
                self.pos[h] = (a.q - q0) * w + (a.r - r0)
            nbits = (max(a.q for a in ax.values()) - q0 + 1) * w
            for dq, dr in hexes.DIRECTIONS:
                mask = 0
                for h, a in ax.items():
                    nb = board.hex_at((a.q + dq, a.r + dr))  # type: ignore[attr-defined]
                    if nb is not None and nb in steps[h]:
                        mask |= 1 << self.pos[h]
                self.shifts.append((dq * w + dr, mask))
        for x in self.locs:
            if x not in self.pos:
                self.pos[x] = nbits
                nbits += 1
        self.nbits = nbits
        # rev[b]: locations with a legal step into b. Grid-to-grid steps go by shifts; every
        # step that touches a non-grid location (an area, a box) goes by these masks.
        rev: dict[str, int] = {x: 0 for x in self.locs}
        extra: dict[str, int] = {x: 0 for x in self.locs}
        for a, row in steps.items():
            for b in row:
                rev[b] |= 1 << self.pos[a]
                if a not in grid or b not in grid:
                    extra[b] |= 1 << self.pos[a]
        self.rev_extra = [(self.pos[x], m) for x, m in extra.items() if m]
        self.enterable = 0
        #: (bases, enemy ZoC, friendly infantry, max length) -> supplied locations (supply_status)
        self.status: dict[tuple[frozenset[str], frozenset[str], frozenset[str], int], np.ndarray] = {}
        for x, m in rev.items():
            if m:
                self.enterable |= 1 << self.pos[x]

    def bits(self, locs: Iterable[str]) -> int:
        """Return the bitset of some locations (unknown ones ignored)."""
        pos = self.pos
        idx = [pos[x] for x in locs if x in pos]
        if not idx:
            return 0
        arr = np.zeros(self.nbits, dtype=bool)
        arr[idx] = True
        return int.from_bytes(np.packbits(arr, bitorder="little").tobytes(), "little")

    def members(self, s: int) -> np.ndarray:
        """Return a boolean array over bit positions for a bitset."""
        nbytes = (self.nbits + 7) // 8
        raw = np.frombuffer(s.to_bytes(nbytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little").astype(bool)

    def expand_back(self, s: int) -> int:
        """Return the locations with a legal step into ``s`` (one step back from ``s``)."""
        out = 0
        for delta, mask in self.shifts:
            out |= ((s >> delta) if delta > 0 else (s << -delta)) & mask
        for p, m in self.rev_extra:
            if s >> p & 1:
                out |= m
        return out


_NETS: "weakref.WeakKeyDictionary[object, dict[tuple[int, str, str], SupplyNet]]" = weakref.WeakKeyDictionary()


def supply_net(board: "Board", chart: "TerrainChart", weather: str, mclass: str) -> SupplyNet:
    """Return (and cache on the board) the compiled supply passability."""
    per = _NETS.setdefault(board, {})
    key = (id(chart), weather, mclass)
    if key not in per:
        per[key] = SupplyNet(board, chart, weather, mclass)
    return per[key]


def supply_status(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str,
    locs: Sequence[str], bases: Iterable[str], enemy_zoc: Iterable[str], friendly_inf: Iterable[str],
    max_len: int,
) -> dict[str, bool]:
    """Return, for each location, whether a unit there has a line of supply (19.3).

    One expansion from the bases serves every unit: S_k holds the allowed locations from
    which a base is at most k steps away; a unit is supplied if it is on a base or one legal
    step from S_(max_len - 1).
    """
    net = supply_net(board, chart, weather, mclass)
    # the same bases, ZoC and friendly infantry give the same lines: one expansion serves
    # every decision until one of them changes
    key = (frozenset(bases), frozenset(enemy_zoc), frozenset(friendly_inf), max_len)
    ok = net.status.get(key)
    if ok is None:
        zoc = net.bits(enemy_zoc)
        inf = net.bits(friendly_inf)
        allowed = net.enterable & ~(zoc & ~inf)  # 12.2: ZoC blocks unless Allied infantry holds it
        base_bits = net.bits(bases)
        s = base_bits & allowed
        for _ in range(max_len - 1):
            s |= net.expand_back(s) & allowed
        ok = net.members(s | net.expand_back(s) | base_bits)
        if len(net.status) >= 256:
            net.status.clear()
        net.status[key] = ok
    pos = net.pos
    return {x: (x in pos and bool(ok[pos[x]])) for x in locs}


def line_of_supply(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str,
    loc: str, bases: Iterable[str], enemy_zoc: Iterable[str], friendly_inf: Iterable[str],
    max_len: int, cites: SupplyCites,
) -> SupplyResult:
    """Find one unit's line of supply, or explain what blocked it (19.3), with the game's
    sections (``cites``).

    >>> from hexwar.scenario import load_scenario
    >>> sc, c = load_scenario("fixtures/skirmish"), SupplyCites(line="19.3", base="19.4", zoc="12.2")
    >>> r = line_of_supply(sc.board, sc.tables.terrain, "winter", "leg", "1710", ["1612"], [], [], 10, c)
    >>> r.supplied, r.path
    (True, ('1710', '1711', '1612'))
    """
    net = supply_net(board, chart, weather, mclass)
    bases = set(bases)
    if not bases:
        return SupplyResult(loc, False, reason=f"no base designated ({cites.base})", cites=cites)
    if loc in bases:
        return SupplyResult(loc, True, (loc,), loc, reason=f"the unit is on a base ({cites.line})", cites=cites)
    zoc, inf = set(enemy_zoc), set(friendly_inf)

    def allowed(x: str) -> bool:
        return x not in zoc or x in inf

    found = _bfs(net, loc, bases, allowed, max_len)
    if found:
        return SupplyResult(loc, True, tuple(found), found[-1], reason=f"{_hexes(len(found) - 1)} <= {max_len} to base {found[-1]}",
                            cites=cites)
    free = _bfs(net, loc, bases, lambda x: True, 10**6)
    if not free:
        return SupplyResult(loc, False, reason=f"no base can be reached at all over passable ground ({cites.line})",
                            cites=cites)
    base = free[-1]
    for x in free[1:]:
        if not allowed(x):
            return SupplyResult(loc, False, tuple(free), base, x,
                                f"nearest base {base}: blocked at {x}, in enemy ZoC without friendly infantry ({cites.zoc})",
                                cites)
    return SupplyResult(loc, False, tuple(free), base, None,
                        f"nearest base {base} is {_hexes(len(free) - 1)} away, more than {max_len} ({cites.line})", cites)


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _bfs(net: SupplyNet, start: str, bases: set[str], allowed: Callable[[str], bool], max_len: int) -> list[str] | None:
    parent: dict[str, str | None] = {start: None}
    dq = deque([(start, 0)])
    while dq:
        u, d = dq.popleft()
        if u in bases and u != start:
            path = [u]
            while (p := parent[path[-1]]) is not None:
                path.append(p)
            return path[::-1]
        if d == max_len:
            continue
        for v in net.steps[u]:
            if v not in parent and allowed(v):
                parent[v] = u
                dq.append((v, d + 1))
    return None


def railway_locations(board: "Board") -> set[str]:
    """Return the locations touched by a ``rail`` border."""
    out = set()
    for a in board.locations():
        for b in board.neighbours(a):
            if board.border(a, b).has("rail"):
                out.add(a)
    return out


def supplied_reference(
    graph_adj: Mapping[str, Sequence[str]], loc: str, bases: set[str], allowed: set[str], max_len: int
) -> bool:
    """Return supply by plain breadth-first search (the test oracle; see tests)."""
    if loc in bases:
        return True
    seen = {loc}
    frontier = [loc]
    for _ in range(max_len):
        nxt = []
        for u in frontier:
            for v in graph_adj[u]:
                if v not in seen and v in allowed:
                    if v in bases:
                        return True
                    seen.add(v)
                    nxt.append(v)
        frontier = nxt
    return False
