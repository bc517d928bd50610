"""Land movement (Assault on Narvik 14.0-14.2, with ZoC exit costs from 12.1).

The chart of the current weather gives the MP to enter a location and to cross a border;
the road rate applies only along a road (or railway) that directly joins the two
locations (14.2). Leaving an enemy ZoC costs extra (12.1); artillery may leave one only
under 12.1's conditions. A unit never enters an enemy-occupied location (14.1) and may
always move one location into a location it may enter (14.1 minimum move). MP may be
fractions (Europa E4: halved ratings keep fractions).

Two implementations give the same answer: :func:`reach` runs a bucket queue (Dial's
algorithm) on integer costs compiled once per board, chart, weather and movement class;
:func:`reach_reference` is plain networkx Dijkstra and serves as the test oracle.
"""

from __future__ import annotations

import heapq
import math
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import networkx as nx

from hexwar.rules.cites import MoveCites
from hexwar.rules.ledger import Ledger

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.data.tables import TerrainChart


#: what a caller that reads only a total gives the ledger it never shows
_UNCITED = MoveCites(terrain="", road="", box="", zoc_exit="", blocked="", min_move="")


def step_cost(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str, a: str, b: str, ledger: Ledger | None = None,
    cites: MoveCites = _UNCITED,
) -> Fraction | None:
    """Return the MP to move from ``a`` into adjacent ``b`` (None = prohibited), 14.1-14.2;
    with a ``ledger``, each cost is written to it citing the game's sections (``cites``).

    Terrain and ZoC aside: boxes are never entered by land movement; along a road or
    railway the road rate replaces the hex and hexside costs (14.2), where it is cheaper
    or where they prohibit (16.1: artillery enters mountains only by road).
    """
    sec = chart.section(weather)
    tb = board.terrain(b)
    if tb == "box" or board.terrain(a) == "box":
        if ledger is not None:
            ledger.add(f"{b}: off-map box, not entered by land movement", "P", cites.box)
        return None
    border = board.border(a, b)
    tclass = chart.terrain_class(tb)
    normal: Fraction | None
    explain = ledger is not None  # the lines are written only for a ledger (a compiled map asks for thousands of costs)
    lines: list[tuple[str, object, str]] = []
    if tclass is None or tclass not in sec.terrain:
        normal = None
        if explain:
            lines.append((f"enter {b} ({tb}): not on chart {chart.name}", "P", cites.terrain))
    else:
        normal = sec.terrain[tclass].cost(mclass)
        if explain:
            lines.append((f"enter {b} ({tb} = {tclass})", "P" if normal is None else normal, cites.terrain))
        for f in sorted(border.features):
            row = sec.hexsides.get(f)
            if row is None:
                continue
            c = row.cost(mclass)
            if explain:
                lines.append((f"cross {f} border {a}/{b}", "P" if c is None else c, cites.terrain))
            if c is None:
                normal = None
            elif normal is not None:
                normal += c
    cost = normal
    if border.is_road:
        road = sec.road.cost(mclass)
        if road is not None and (normal is None or road < normal):
            cost = road
            if explain:
                lines = [(f"road {a}-{b} ({'/'.join(sorted(border.features & {'road', 'rail'}))})", road, cites.road)]
    if ledger is not None:
        for t, v, r in lines:
            ledger.add(t, v, r)  # type: ignore[arg-type]
    return cost


@dataclass(frozen=True)
class MoveQuery:
    """What a movement query needs to know beyond the map: the unit and the enemy around it.

    ``zoc`` are the locations in enemy ZoC; ``blocked`` the enemy-occupied ones;
    ``zoc_exit`` the MP to leave a ZoC location (12.1); ``artillery`` applies the 12.1
    artillery exit condition using ``friendly_inf`` (locations holding friendly infantry).
    """

    mp: Fraction
    zoc: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    zoc_exit: Fraction = Fraction(0)
    artillery: bool = False
    friendly_inf: frozenset[str] = frozenset()
    min_move: bool = True


class Reach:
    """Where a unit can get: MP left at each location, and a cheapest path to it.

    The search keeps integer costs (units of ``1/scale`` MP) by location index; the views
    by location id (``left``, ``mp_left`` as exact Fractions, ``parent``) are built on
    first use, so a caller that only needs a few locations pays for a few.
    """

    __slots__ = ("start", "mp", "scale", "_locs", "_index", "_dist", "_parent", "_top", "min_move", "_left", "_mp_left", "_par")

    def __init__(self, start: str, mp: Fraction, scale: int, locs: Sequence[str], index: Mapping[str, int],
                 dist: dict[int, int], parent: dict[int, int], min_move: frozenset[str] = frozenset()):
        self.start = start
        self.mp = mp
        self.scale = scale
        self._locs = locs
        self._index = index
        self._dist = dist  # index -> MP spent * scale (-1: reached by the minimum move)
        self._parent = parent
        self.min_move = min_move  # reached only by the 14.1 one-hex minimum
        self._left: dict[str, int] | None = None
        self._mp_left: dict[str, Fraction] | None = None
        self._par: dict[str, str | None] | None = None

    def _spent(self, d: int) -> Fraction:
        return self.mp if d < 0 else Fraction(d, self.scale)

    def left_at(self, loc: str) -> Fraction | None:
        """Return the exact MP left at one location (None: not reached), without building
        :attr:`mp_left` for every location."""
        i = self._index.get(loc)
        if i is None or i not in self._dist:
            return None
        return self.mp - self._spent(self._dist[i])

    @property
    def mp_left(self) -> dict[str, Fraction]:
        """Return location -> exact MP left."""
        if self._mp_left is None:
            locs, mp = self._locs, self.mp
            self._mp_left = {locs[i]: mp - self._spent(d) for i, d in self._dist.items()}
        return self._mp_left

    @property
    def parent(self) -> dict[str, str | None]:
        """Return location -> previous location on a cheapest path (None at the start)."""
        if self._par is None:
            locs = self._locs
            self._par = {locs[i]: (locs[p] if p >= 0 else None) for i, p in self._parent.items()}
        return self._par

    def __contains__(self, loc: object) -> bool:
        i = self._index.get(loc)  # type: ignore[call-overload]
        return i is not None and i in self._dist

    def __len__(self) -> int:
        return len(self._dist)

    def path(self, loc: str) -> list[str]:
        """Return a cheapest path from the start to ``loc`` (both included)."""
        i = self._index.get(loc)
        if i is None or i not in self._dist:
            raise KeyError(f"{loc} is not reachable from {self.start}")
        out = [i]
        par = self._parent
        while (p := par[out[-1]]) >= 0:
            out.append(p)
        return [self._locs[j] for j in reversed(out)]

    def paths(self) -> dict[str, tuple[str, ...]]:
        """Return every reached location's cheapest path (as :meth:`path` gives it), built in
        one pass: each path extends its parent's."""
        locs, par = self._locs, self._parent
        done: dict[int, tuple[str, ...]] = {}
        for i in self._dist:
            if i in done:
                continue
            chain = []
            j = i
            while j >= 0 and j not in done:
                chain.append(j)
                j = par[j]
            path = done[j] if j >= 0 else ()
            for k in reversed(chain):
                path = path + (locs[k],)
                done[k] = path
        return {locs[i]: p for i, p in done.items()}

    def destinations(self) -> list[str]:
        """Return every reachable location except the start, sorted."""
        locs = self._locs
        return sorted(locs[i] for i in self._dist if locs[i] != self.start)


def _art_may_leave(q: MoveQuery, a: str, b: str) -> bool:
    # 12.1: artillery leaves an enemy ZoC only if its hex holds friendly infantry and the
    # destination is outside enemy ZoC or holds friendly infantry.
    return a in q.friendly_inf and (b not in q.zoc or b in q.friendly_inf)


# --- compiled fast path -----------------------------------------------------------------


class CompiledMoves:
    """Integer step costs for one board, chart, weather and movement class."""

    def __init__(self, board: "Board", chart: "TerrainChart", weather: str, mclass: str):
        self.locs: list[str] = list(board.locations())
        self.index: dict[str, int] = {x: i for i, x in enumerate(self.locs)}
        self.scale = math.lcm(2, *chart.denominators())
        succ: list[tuple[tuple[int, int], ...]] = []
        # a step's cost reads only the two terrains and the border's features (step_cost):
        # worked out once for each such kind of step, not once a step
        kinds: dict[tuple[str, str, frozenset[str]], int | None] = {}
        for a in self.locs:
            row = []
            ta = board.terrain(a)
            for b in board.neighbours(a):
                kind = (ta, board.terrain(b), board.border(a, b).features)
                if kind in kinds:
                    scaled = kinds[kind]
                else:
                    c = step_cost(board, chart, weather, mclass, a, b)
                    scaled = kinds[kind] = None if c is None else int(c * self.scale)
                if scaled is not None:
                    row.append((self.index[b], scaled))
            succ.append(tuple(sorted(row, key=lambda vc: vc[1])))  # cheapest first: see reach()
        self.succ = succ
        self.neighbours: list[tuple[int, ...]] = [tuple(self.index[b] for b in board.neighbours(a)) for a in self.locs]
        self._ctx: dict[tuple[int, int, int], tuple[object, ...]] = {}
        self._regions: dict[tuple[int, int, int], frozenset[int]] = {}
        self.reaches: dict[tuple[object, ...], "Reach"] = {}
        self.passable: dict[str, frozenset[str]] | None = None  # see passable()
        self._costs: list[dict[int, int]] | None = None  # see costs()
        self.scaled: dict[tuple[tuple[int, int], tuple[int, int]], tuple[int, int]] = {}  # (MP, ZoC exit) as ratios -> (budget, exit) in 1/scale MP

    def costs(self) -> list[dict[int, int]]:
        """Each location's passable neighbours -> step cost in 1/scale MP, as ``succ`` has
        them (built on first use)."""
        if self._costs is None:
            self._costs = [dict(row) for row in self.succ]
        return self._costs

    def region(self, s: int, budget: int, zx: int) -> frozenset[int]:
        """The locations a search from ``s`` can touch with no enemy about (ZoC and enemy
        units only ever take locations away), and the start's neighbours (14.1 minimum move)."""
        key = (s, budget, zx)
        r = self._regions.get(key)
        if r is None:
            seen = {s: 0}
            todo = [(0, s)]
            while todo:
                d, u = heapq.heappop(todo)
                if d > seen[u]:
                    continue
                for v, c in self.succ[u]:
                    nd = d + c
                    if nd <= budget and nd < seen.get(v, budget + 1):
                        seen[v] = nd
                        heapq.heappush(todo, (nd, v))
            r = self._regions[key] = frozenset(seen) | frozenset(self.neighbours[s])
        return r

    def context(self, q: MoveQuery) -> tuple[set[int], set[int], set[int]]:
        """Return (blocked, zoc, friendly infantry) as index sets, cached per set objects.

        One game state asks for many units with the same ZoC and enemy sets, so their
        conversion is paid once, not per query (the cache keeps the sets alive, so their
        ids cannot be reused while cached).
        """
        key = (id(q.blocked), id(q.zoc), id(q.friendly_inf))
        hit = self._ctx.get(key)
        if hit is None:
            idx = self.index
            blocked = {idx[x] for x in q.blocked if x in idx}
            hit = (
                blocked,
                {idx[x] for x in q.zoc if x in idx},
                {idx[x] for x in q.friendly_inf if x in idx},
                q.blocked, q.zoc, q.friendly_inf,
            )
            if len(self._ctx) >= 16:
                self._ctx.pop(next(iter(self._ctx)))
            self._ctx[key] = hit
        return hit[0], hit[1], hit[2]  # type: ignore[return-value]


_COMPILED: "weakref.WeakKeyDictionary[object, dict[tuple[int, str, str], CompiledMoves]]" = weakref.WeakKeyDictionary()


def compiled(board: "Board", chart: "TerrainChart", weather: str, mclass: str) -> CompiledMoves:
    """Return (and cache on the board) the compiled costs for a chart, weather and class."""
    fast = _RECENT.get((id(board), id(chart), weather, mclass))  # a weak-keyed look-up makes a weakref
    if fast is not None and fast[0] is board and fast[1] is chart:
        return fast[2]
    per_board = _COMPILED.setdefault(board, {})
    key = (id(chart), weather, mclass)
    cm = per_board.get(key)
    if cm is None:
        cm = CompiledMoves(board, chart, weather, mclass)
        for other in per_board.values():  # one board's maps share their location index, so a
            if other.locs == cm.locs:     # side's sets are converted once for every class and weather
                cm._ctx = other._ctx
                break
        per_board[key] = cm
    if len(_RECENT) >= 32:
        _RECENT.clear()
    _RECENT[(id(board), id(chart), weather, mclass)] = (board, chart, cm)
    return cm


#: the last few answers of ``compiled``, checked by identity (they keep their boards alive: a few)
_RECENT: dict[tuple[int, int, str, str], tuple[Any, Any, CompiledMoves]] = {}


def passable(board: "Board", chart: "TerrainChart", weather: str, mclass: str) -> dict[str, frozenset[str]]:
    """Return each location's neighbours a unit of ``mclass`` may step into at all (14.1:
    ``step_cost`` is not None), once per board, chart, weather and class."""
    cm = compiled(board, chart, weather, mclass)
    if cm.passable is None:
        locs = cm.locs
        cm.passable = {a: frozenset(locs[i] for i, _ in cm.succ[k]) for k, a in enumerate(locs)}
    return cm.passable


def reach(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str, start: str, q: MoveQuery,
    cm: CompiledMoves | None = None,
) -> Reach:
    """Return every location a unit at ``start`` can reach in one movement action (14.1);
    ``cm``: the ``compiled`` map for the board, chart, weather and class, when the caller
    has it already (a listing asks for every unit of a class).

    >>> from hexwar.board import load_board
    >>> from hexwar.scenario import load_scenario
    >>> sc = load_scenario("fixtures/skirmish")
    >>> r = reach(sc.board, sc.tables.terrain, "winter", "leg", "1710", MoveQuery(Fraction(1)))
    >>> r.mp_left["1810"], r.path("1910")   # two road hexsides at 1/2 MP (14.2)
    (Fraction(1, 2), ['1710', '1810', '1910'])
    """
    if cm is None:
        cm = compiled(board, chart, weather, mclass)
    s = cm.index[start]
    mp = q.mp.as_integer_ratio()
    budget, zx = _scaled(cm, q.mp, q.zoc_exit)
    blocked, zoc, finf = cm.context(q)
    art = q.artillery
    # the answer depends only on the enemy and friends inside the unit's region: the same
    # unit, start and neighbourhood give the same Reach, whatever happens elsewhere
    region = cm.region(s, budget, zx)
    key = (s, budget, zx, art, q.min_move, mp, region & blocked, region & zoc, (region & finf) if art else None)
    hit = cm.reaches.get(key)
    if hit is not None:
        return hit
    r = _search(cm, s, start, budget, blocked, zoc, finf, zx, art, q)
    if len(cm.reaches) >= 20_000:
        cm.reaches.clear()
    cm.reaches[key] = r
    return r


def _scaled(cm: CompiledMoves, mp: Fraction, zoc_exit: Fraction) -> tuple[int, int]:
    """A unit's MP and ZoC exit cost in 1/scale MP (``reach``'s budget)."""
    # keyed by the allowances' integer ratios: a Fraction's hash is computed in Python at
    # every look-up, and this one is made for every unit at every decision
    skey = (mp.as_integer_ratio(), zoc_exit.as_integer_ratio())
    scaled = cm.scaled.get(skey)  # Fraction arithmetic once per allowance
    if scaled is None:
        scaled = cm.scaled[skey] = (math.floor(mp * cm.scale), int(zoc_exit * cm.scale))
    return scaled


def region_of(cm: CompiledMoves, start: str, mp: Fraction, zoc_exit: Fraction) -> frozenset[int]:
    """Where a unit at ``start`` with ``mp`` MP (and ``zoc_exit`` to leave a ZoC, 12.1) could
    end one movement action, whatever stands on the map: the locations, by ``cm``'s index,
    that every :func:`reach` of it lies within (ZoC and enemy units only add costs and take
    locations away; the 14.1 minimum move's neighbours included). A bound on a unit's
    destinations, known without a search (kept by ``cm``)."""
    budget, zx = _scaled(cm, mp, zoc_exit)
    return cm.region(cm.index[start], budget, zx)


def _search(cm: CompiledMoves, s: int, start: str, budget: int, blocked: set[int], zoc: set[int], finf: set[int],
            zx: int, art: bool, q: MoveQuery) -> Reach:
    """Dial's algorithm from ``s`` (see :func:`reach`)."""
    scale = cm.scale
    dist = {s: 0}
    parent: dict[int, int] = {s: -1}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(s)
    succ = cm.succ
    get = dist.get
    big = 1 << 60
    for d in range(budget + 1):
        for u in buckets[d]:
            if dist[u] != d:
                continue  # stale entry: reached more cheaply since
            in_zoc = u in zoc
            base = d + zx if in_zoc else d  # 12.1: leaving an enemy ZoC location
            if art and in_zoc:
                if u not in finf:
                    continue  # 12.1: artillery leaves a ZoC only from a hex with friendly infantry
                for v, c in succ[u]:
                    nd = base + c
                    if nd > budget:
                        break
                    if v in blocked or (v in zoc and v not in finf):
                        continue
                    if nd < get(v, big):
                        dist[v] = nd
                        parent[v] = u
                        buckets[nd].append(v)
                continue
            for v, c in succ[u]:  # sorted by cost: the first over budget ends the row
                nd = base + c
                if nd > budget:
                    break
                if nd < get(v, big) and v not in blocked:
                    dist[v] = nd
                    parent[v] = u
                    buckets[nd].append(v)
    mins: set[str] = set()
    if q.min_move:  # 14.1: one location, whatever it costs, unless prohibited or enemy-held
        start_zoc = s in zoc
        for v, _c in succ[s]:
            if v in dist or v in blocked:
                continue
            if art and start_zoc and not (s in finf and (v not in zoc or v in finf)):
                continue
            dist[v] = -1
            parent[v] = s
            mins.add(cm.locs[v])
    return Reach(start, q.mp, scale, cm.locs, cm.index, dist, parent, frozenset(mins))


# --- reference implementation -----------------------------------------------------------


def movement_graph(board: "Board", chart: "TerrainChart", weather: str, mclass: str) -> nx.DiGraph:
    """Return a directed networkx graph whose edge ``cost`` is the MP of each legal step."""
    g = nx.DiGraph()
    g.add_nodes_from(board.locations())
    for a in board.locations():
        for b in board.neighbours(a):
            c = step_cost(board, chart, weather, mclass, a, b)
            if c is not None:
                g.add_edge(a, b, cost=c)
    return g


def reach_reference(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str, start: str, q: MoveQuery,
    graph: nx.DiGraph | None = None,
) -> dict[str, Fraction]:
    """Return MP left per reachable location using networkx Dijkstra (the test oracle)."""
    g = graph if graph is not None else movement_graph(board, chart, weather, mclass)

    def weight(u: str, v: str, d: Mapping[str, Fraction]) -> Fraction | None:
        if v in q.blocked:
            return None
        if q.artillery and u in q.zoc and not _art_may_leave(q, u, v):
            return None
        return d["cost"] + (q.zoc_exit if u in q.zoc else 0)

    dist = nx.single_source_dijkstra_path_length(g, start, cutoff=q.mp, weight=weight)
    out = {x: q.mp - Fraction(c) for x, c in dist.items()}
    if q.min_move:
        for v in g.successors(start):
            if v not in out and v not in q.blocked and not (
                q.artillery and start in q.zoc and not _art_may_leave(q, start, v)
            ):
                out[v] = Fraction(0)
    return out


# --- explanations -----------------------------------------------------------------------


def path_mp(board: "Board", chart: "TerrainChart", weather: str, mclass: str, path: Sequence[str], q: MoveQuery) -> Fraction | None:
    """Return what :func:`explain_path` totals for a path (14.0, 14.1, 12.1: each step's
    cost, leaving enemy ZoC, the one-hex minimum move), or None where it refuses a step: the
    same arithmetic on the compiled integer costs, without writing the ledger. Applying a
    move needs the figure; a player asking why a step is refused gets ``explain_path``."""
    cm = compiled(board, chart, weather, mclass)
    zx = q.zoc_exit * cm.scale
    if zx.denominator != 1:  # pragma: no cover - every chart's ZoC cost is in its own steps
        explained: Fraction | None = explain_path(board, chart, weather, mclass, path, q, _UNCITED).total
        return explained
    costs = cm.costs()
    idx = cm.index
    total = 0
    for a, b in zip(path, path[1:]):
        if b in q.blocked:
            return None
        ia = idx.get(a)
        c = costs[ia].get(idx.get(b, -1)) if ia is not None else None
        if c is None:
            return None
        if a in q.zoc:
            if q.artillery and not _art_may_leave(q, a, b):
                return None
            c += int(zx)
        total += c
    spent = Fraction(total, cm.scale)
    if spent > q.mp and len(path) == 2 and q.min_move:
        return q.mp
    return spent


def explain_path(
    board: "Board", chart: "TerrainChart", weather: str, mclass: str, path: Sequence[str], q: MoveQuery,
    cites: MoveCites,
) -> Ledger:
    """Return the MP ledger of a path: each step's terrain, border, road and ZoC cost, with
    the sections of ``cites``."""
    led = Ledger(f"movement {' > '.join(path)} ({mclass}, {weather}, MP {q.mp})")
    spent = Fraction(0)
    for a, b in zip(path, path[1:]):
        if b in q.blocked:
            led.add(f"{b} holds enemy units: may not enter", "P", cites.blocked)
            led.total = None
            return led
        c = step_cost(board, chart, weather, mclass, a, b, led, cites)
        if c is None:
            led.add(f"{a} > {b} is prohibited", "P", cites.terrain)
            led.total = None
            return led
        if a in q.zoc:
            if q.artillery and not _art_may_leave(q, a, b):
                led.add(f"artillery may not leave enemy ZoC at {a} here", "P", cites.zoc_exit)
                led.total = None
                return led
            led.add(f"leave enemy ZoC at {a}", q.zoc_exit, cites.zoc_exit)
            c += q.zoc_exit
        spent += c
    if spent > q.mp and len(path) == 2 and q.min_move:
        led.add(f"costs {spent} > MP {q.mp}: allowed as the one-hex minimum move", None, cites.min_move)
        spent = q.mp
    led.add("MP left", q.mp - spent)
    led.total = spent
    return led
