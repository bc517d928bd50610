"""Naval movement (Assault on Narvik 20.1, 22.1; A31).

Ships move only through water locations, from one to the next only where a ``waterway``
border joins them, and between an off-map box (the game names it: Assault on Narvik's
Harstad) and the map-edge locations it links to. Within one move a ship may pass box -> edge or edge -> box once, not both;
map-edge locations linked to the box are joined to each other (A31: edge to edge).
"""

from __future__ import annotations

import weakref
from collections import deque
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


def _naval_destinations(board: "Board", start: str, box: str) -> dict[str, tuple[str, ...]]:
    links = set(board.neighbours(box)) if box in board else set()
    in_order = sorted(links)
    steps = _steps(board, box)
    # A31's edge-to-edge links make the box's edge locations a clique
    clique = (tuple((x, False) for x in in_order), tuple((x, True) for x in in_order))
    # state: (location, crossed the box link already); breadth first, so fewest steps, ties
    # to the map's neighbour order
    start_state = (start, start == box)
    parent: dict[tuple[str, bool], tuple[str, bool] | None] = {start_state: None}
    dq = deque([start_state])
    # the first edge location dequeued with a given ``crossed`` finds all the others through
    # the clique, so later ones need not look again (they would find nothing new)
    clique_done = [False, False]
    while dq:
        here = dq.popleft()
        loc, crossed = here
        if loc == box:
            nxt = clique[1]
        else:
            nxt = steps[loc][crossed]
            if loc in links and not clique_done[crossed]:  # A31: edge to edge within a move
                clique_done[crossed] = True
                nxt = nxt + tuple(st for st in clique[crossed] if st[0] != loc)
        for st in nxt:
            if st not in parent:
                parent[st] = here
                dq.append(st)
    # a state is found after its parent: each path extends the parent's, in one pass
    paths: dict[tuple[str, bool], tuple[str, ...]] = {}
    out: dict[str, tuple[str, ...]] = {}
    for st, p in parent.items():
        loc = st[0]
        path = paths[st] = (paths[p] + (loc,)) if p is not None else (loc,)
        if loc == start or loc in out:
            continue
        if start == box and loc == box:
            continue
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
