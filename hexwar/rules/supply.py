"""Supply (Assault on Narvik 19.0-19.4, 12.2).

An Allied unit is supplied if a line of at most 10 locations runs from its location
(excluded) to a base (included, A29), through no location in German ZoC unless that
location holds Allied infantry (12.2, A20), and through nothing impassable to infantry.
Norwegians are always supplied (19.2). The German railway rule (19.1) is a predicate.

:func:`supply_status` checks many units at once with one breadth-first expansion from the
bases over bitsets (shifts on hex boards, neighbour masks on area boards);
:func:`line_of_supply` finds and explains one unit's line.
"""

from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from hexwar.board import hexes
from hexwar.rules.ledger import Ledger
from hexwar.rules.movement import step_cost

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.data.tables import TerrainChart

MAX_LINE = 10  # 19.3
ALWAYS_SUPPLIED = frozenset({"norwegian"})  # 19.2


@dataclass(frozen=True)
class SupplyResult:
    """A supply check: the line found, or the nearest base and what blocked the line."""

    loc: str
    supplied: bool
    path: tuple[str, ...] = ()
    base: str | None = None
    blocked_at: str | None = None
    reason: str = ""

    def explain(self) -> Ledger:
        led = Ledger(f"line of supply from {self.loc}")
        if self.supplied and self.path:
            led.add(f"path {' > '.join(self.path)}", _hexes(len(self.path) - 1), "19.3")
            led.add(f"reaches base {self.base}", None, "19.4")
        led.add(self.reason, None, "19.3")
        led.total = "supplied" if self.supplied else "not supplied"
        return led


class SupplyNet:
    """Passability for supply lines, compiled once per board, chart, weather and class."""

    def __init__(self, board: "Board", chart: "TerrainChart", weather: str, mclass: str):
        self.locs = list(board.locations())
        self.index = {x: i for i, x in enumerate(self.locs)}
        n = len(self.locs)
        # step i -> j allowed for infantry (terrain and border; enemy aside)
        self.adj: list[tuple[int, ...]] = []
        for a in self.locs:
            row = []
            for b in board.neighbours(a):
                if step_cost(board, chart, weather, mclass, a, b) is not None:
                    row.append(self.index[b])
            self.adj.append(tuple(row))
        # reverse adjacency as bit masks: rev_mask[j] = locations with a legal step into j
        self.rev_mask = [0] * n
        for i, row in enumerate(self.adj):
            for j in row:
                self.rev_mask[j] |= 1 << i
        # enterable: some legal step leads into it (19.3: nothing impassable on the line)
        self.enterable = 0
        for j in range(n):
            if self.rev_mask[j]:
                self.enterable |= 1 << j
        self.hex_shift = _HexShift(board, self) if board.kind == "hex" else None

    def bits(self, locs: Iterable[str]) -> int:
        m = 0
        for x in locs:
            i = self.index.get(x)
            if i is not None:
                m |= 1 << i
        return m

    def expand_back(self, s: int) -> int:
        """Return the locations with a legal step into ``s`` (one step back from ``s``)."""
        out = 0
        rev = self.rev_mask
        while s:
            low = s & -s
            out |= rev[low.bit_length() - 1]
            s ^= low
        return out


class _HexShift:
    """Bitboard over axial coordinates: one step in a direction is a constant shift."""

    def __init__(self, board: "Board", net: SupplyNet):
        ax = {h: board.axial(h) for h in board.hexes()}  # type: ignore[attr-defined]
        qs = [a.q for a in ax.values()]
        rs = [a.r for a in ax.values()]
        self.q0, self.r0 = min(qs), min(rs) - 1
        self.w = max(rs) - min(rs) + 3  # one guard slot above and below every column
        self.to_bb = [0] * len(net.locs)  # net index -> bitboard bit (boxes: none)
        self.perm_in: dict[int, int] = {}
        for h, a in ax.items():
            i = net.index[h]
            self.perm_in[i] = (a.q - self.q0) * self.w + (a.r - self.r0)
        self.deltas = [dq * self.w + dr for dq, dr in hexes.DIRECTIONS]
        # ok[d]: bitboard of hexes y whose step in direction d (into x) is legal
        self.ok = [0] * 6
        for h, a in ax.items():
            i = net.index[h]
            for d, (dq, dr) in enumerate(hexes.DIRECTIONS):
                nb = board.hex_at((a.q + dq, a.r + dr))  # type: ignore[attr-defined]
                if nb is not None and net.index[nb] in net.adj[i]:
                    self.ok[d] |= 1 << self.perm_in[i]
        self.net = net
        # boxes fall back to the generic path
        self.extra = [i for i in range(len(net.locs)) if i not in self.perm_in]

    def to_board(self, s: int) -> int:
        out = 0
        perm = self.perm_in
        while s:
            low = s & -s
            i = low.bit_length() - 1
            if i in perm:
                out |= 1 << perm[i]
            s ^= low
        return out

    def expand_back_bb(self, s: int) -> int:
        out = 0
        for d in range(6):
            delta = self.deltas[d]
            moved = (s >> delta) if delta > 0 else (s << -delta)
            out |= moved & self.ok[d]
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
    max_len: int = MAX_LINE,
) -> dict[str, bool]:
    """Return, for each location, whether a unit there has a line of supply (19.3).

    One expansion from the bases serves every unit: S_k holds the allowed locations from
    which a base is at most k steps away; a unit is supplied if it is on a base or one legal
    step from S_(max_len - 1).
    """
    net = supply_net(board, chart, weather, mclass)
    bases = list(bases)
    zoc = net.bits(enemy_zoc)
    inf = net.bits(friendly_inf)
    allowed = net.enterable & ~(zoc & ~inf)  # 12.2: ZoC blocks unless Allied infantry holds it
    base_bits = net.bits(bases)
    hs = net.hex_shift
    if hs is not None and not any(base_bits >> i & 1 for i in hs.extra):
        allowed_bb = hs.to_board(allowed)
        s = hs.to_board(base_bits) & allowed_bb
        for _ in range(max_len - 1):
            s |= hs.expand_back_bb(s) & allowed_bb
        reach = s | hs.expand_back_bb(s)
        base_bb = hs.to_board(base_bits)
        perm = hs.perm_in
        out = {}
        for x in locs:
            i = net.index.get(x)
            if i is None or i not in perm:
                out[x] = False
            else:
                b = 1 << perm[i]
                out[x] = bool(reach & b) or bool(base_bb & b)
        return out
    s = base_bits & allowed
    for _ in range(max_len - 1):
        s |= net.expand_back(s) & allowed
    reach = s | net.expand_back(s)
    return {x: (x in net.index and bool((reach | base_bits) >> net.index[x] & 1)) for x in locs}


def line_of_supply(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str,
    loc: str, bases: Iterable[str], enemy_zoc: Iterable[str], friendly_inf: Iterable[str],
    max_len: int = MAX_LINE,
) -> SupplyResult:
    """Find one unit's line of supply, or explain what blocked it (19.3).

    >>> from hexwar.data.scenario import load_scenario
    >>> sc = load_scenario("fixtures/skirmish")
    >>> r = line_of_supply(sc.board, sc.tables.terrain, "winter", "leg", "1710", ["1612"], [], [])
    >>> r.supplied, r.path
    (True, ('1710', '1711', '1612'))
    """
    net = supply_net(board, chart, weather, mclass)
    bases = set(bases)
    if not bases:
        return SupplyResult(loc, False, reason="no base designated (19.4)")
    if loc in bases:
        return SupplyResult(loc, True, (loc,), loc, reason="the unit is on a base (19.3)")
    zoc, inf = set(enemy_zoc), set(friendly_inf)

    def allowed(x: str) -> bool:
        return x not in zoc or x in inf

    found = _bfs(net, loc, bases, allowed, max_len)
    if found:
        return SupplyResult(loc, True, tuple(found), found[-1], reason=f"{_hexes(len(found) - 1)} <= {max_len} to base {found[-1]}")
    free = _bfs(net, loc, bases, lambda x: True, 10**6)
    if not free:
        return SupplyResult(loc, False, reason="no base can be reached at all over passable ground (19.3)")
    base = free[-1]
    for x in free[1:]:
        if not allowed(x):
            return SupplyResult(loc, False, tuple(free), base, x,
                                f"nearest base {base}: blocked at {x}, in enemy ZoC without Allied infantry (12.2)")
    return SupplyResult(loc, False, tuple(free), base, None,
                        f"nearest base {base} is {_hexes(len(free) - 1)} away, more than {max_len} (19.3)")


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _bfs(net: SupplyNet, start: str, bases: set[str], allowed, max_len: int) -> list[str] | None:
    s = net.index[start]
    parent = {s: -1}
    dq = deque([(s, 0)])
    targets = {net.index[b] for b in bases if b in net.index}
    while dq:
        u, d = dq.popleft()
        if u in targets and u != s:
            path = [u]
            while parent[path[-1]] != -1:
                path.append(parent[path[-1]])
            return [net.locs[i] for i in reversed(path)]
        if d == max_len:
            continue
        for v in net.adj[u]:
            if v not in parent and allowed(net.locs[v]):
                parent[v] = u
                dq.append((v, d + 1))
    return None


def railway_constrained(
    board: "Board", allied_land_locs: Iterable[str], narvik: str, railway: Iterable[str] | None = None,
) -> tuple[bool, str]:
    """Return whether German arrivals are threatened (19.1, read as A28) and why.

    True if any Allied land unit is on a railway location, or the Allies hold Narvik port.
    Railway locations default to those with a ``rail`` border.
    """
    rail = set(railway) if railway is not None else railway_locations(board)
    locs = set(allied_land_locs)
    if narvik in locs:
        return True, f"the Allies hold Narvik port {narvik} (19.1)"
    on = sorted(locs & rail)
    if on:
        return True, f"Allied land units on the railway at {', '.join(on)} (19.1, A28)"
    return False, "no Allied land unit on the railway or in Narvik (19.1)"


def railway_locations(board: "Board") -> set[str]:
    """Return the locations touched by a ``rail`` border."""
    out = set()
    for a in board.locations():
        for b in board.neighbours(a):
            if board.border(a, b).has("rail"):
                out.add(a)
    return out


def supplied_reference(
    graph_adj: Mapping[str, Sequence[str]], loc: str, bases: set[str], allowed: set[str], max_len: int = MAX_LINE
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
