"""Naval movement (Assault on Narvik 20.1, 22.1; A31).

Ships move only through water locations, from one to the next only where a ``waterway``
border joins them, and between an off-map box (the game names it: Assault on Narvik's
Harstad) and the map-edge locations it links to. Within one move a ship may pass box -> edge or edge -> box once, not both;
map-edge locations linked to the box are joined to each other (A31: edge to edge).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board

WATER = frozenset({"sea", "coast"})


_CACHE: "weakref.WeakKeyDictionary[object, dict[tuple[str, str], dict[str, tuple[str, ...]]]]" = weakref.WeakKeyDictionary()


def naval_destinations(board: "Board", start: str, box: str) -> dict[str, tuple[str, ...]]:
    """Return every location a ship at ``start`` may end a naval move in, with a path (20.1).

    A move that starts in the box may not end in it (20.1); a move may cross the box link
    once. Enemy units never stop ships (20.1), so the answer depends on the map only and is
    cached per board.
    """
    per = _CACHE.setdefault(board, {})
    key = (start, box)
    if key not in per:
        per[key] = _naval_destinations(board, start, box)
    return per[key]


_WATERWAYS: "weakref.WeakKeyDictionary[object, dict[str, tuple[tuple[str, bool], ...]]]" = weakref.WeakKeyDictionary()


def _waterways(board: "Board") -> dict[str, tuple[tuple[str, bool], ...]]:
    """Each location's neighbours in map order, each with whether a ship may step there by
    a ``waterway`` border into water: the map decides, once per board."""
    ways = _WATERWAYS.get(board)
    if ways is None:
        ways = _WATERWAYS[board] = {
            loc: tuple((x, board.border(loc, x).has("waterway") and board.terrain(x) in WATER) for x in board.neighbours(loc))
            for loc in board.locations()}
    return ways


_STEPS: "weakref.WeakKeyDictionary[object, dict[str, dict[str, tuple[tuple[tuple[str, bool], ...], ...]]]]" = weakref.WeakKeyDictionary()


def _steps(board: "Board", box: str) -> dict[str, tuple[tuple[tuple[str, bool], ...], ...]]:
    """Each location's next search states by waterway or into the box, in map order, for a
    ship that has not crossed the box link yet (index 0) and for one that has (index 1):
    the map decides, once per board and box."""
    per = _STEPS.setdefault(board, {})
    steps = per.get(box)
    if steps is None:
        ways = _waterways(board)
        steps = per[box] = {
            loc: (tuple((x, True) if x == box else (x, False) for x, wet in w if x == box or wet),
                  tuple((x, True) for x, wet in w if x != box and wet))
            for loc, w in ways.items()}
    return steps


class _Search:
    """The map's search states compiled to integers, once per board and box: state
    ``2 * i + crossed`` is location ``locs[i]`` before (0) or after (1) the box link is
    crossed, ``succ[state]`` its next states in map order (``_steps``), ``clique`` the
    box-linked edge locations' states for each ``crossed`` (A31)."""

    def __init__(self, board: "Board", box: str):
        steps = _steps(board, box)
        self.locs = list(steps) + ([] if box in steps else [box])
        index = self.index = {loc: i for i, loc in enumerate(self.locs)}
        links = sorted(set(board.neighbours(box))) if box in board else []
        self.links = frozenset(index[x] for x in links)
        self.box = index[box]
        succ: list[tuple[int, ...]] = [()] * (2 * len(self.locs))
        for loc, ways in steps.items():
            i = index[loc]
            for crossed in (0, 1):
                succ[2 * i + crossed] = tuple(2 * index[x] + c for x, c in ways[crossed])
        self.clique = (tuple(2 * index[x] for x in links), tuple(2 * index[x] + 1 for x in links))
        succ[2 * self.box] = succ[2 * self.box + 1] = self.clique[1]  # out of the box: to any edge location
        self.succ = succ


_SEARCH: "weakref.WeakKeyDictionary[object, dict[str, _Search]]" = weakref.WeakKeyDictionary()


def _naval_destinations(board: "Board", start: str, box: str) -> dict[str, tuple[str, ...]]:
    per = _SEARCH.setdefault(board, {})
    cs = per.get(box)
    if cs is None:
        cs = per[box] = _Search(board, box)
    succ, links, box_i, clique = cs.succ, cs.links, cs.box, cs.clique
    # breadth first over the states, so fewest steps, ties to the map's neighbour order
    first = 2 * cs.index[start] + (start == box)
    parent = [-2] * len(succ)  # -2: not reached yet; -1: the start
    parent[first] = -1
    found = [first]  # in the order reached (the loop reads it as it grows)
    add = found.append
    # the first edge location taken up with a given ``crossed`` finds all the others through
    # A31's clique, so later ones need not look again (they would find nothing new)
    clique_done = [False, False]
    for here in found:
        nxt = succ[here]
        if here >> 1 in links and here >> 1 != box_i:
            crossed = here & 1
            if not clique_done[crossed]:
                clique_done[crossed] = True
                nxt = nxt + tuple(st for st in clique[crossed] if st != here)
        for st in nxt:
            if parent[st] == -2:
                parent[st] = here
                add(st)
    # a state is reached after its parent: each path extends the parent's, in one pass
    locs = cs.locs
    paths: list[tuple[str, ...]] = [()] * len(succ)
    out: dict[str, tuple[str, ...]] = {}
    skip = {first >> 1, box_i} if start == box else {first >> 1}
    for st in found:
        p = parent[st]
        loc = locs[st >> 1]
        path = paths[st] = paths[p] + (loc,) if p >= 0 else (loc,)
        if st >> 1 not in skip and loc not in out:
            out[loc] = path
    return out


def naval_path_ok(board: "Board", path: tuple[str, ...] | list[str], box: str) -> bool:
    """Return whether a path is a legal naval move (20.1): waterway steps, box links, edge to
    edge between box-linked locations (A31), the box passed at most once, not back to it."""
    if len(path) < 2 or len(set(path)) != len(path):
        return False
    links = set(board.neighbours(box)) if box in board else set()
    for a, b in zip(path, path[1:]):
        if a == box or b == box:
            if (b if a == box else a) not in links:
                return False
        elif not (board.terrain(b) in WATER and b in board.neighbours(a) and board.border(a, b).has("waterway")):
            if not (a in links and b in links):
                return False
    return not (path[0] == box and path[-1] == box)
