"""Naval movement (20.1, 22.1; A31) on the Narvik map, against networkx as the oracle."""

from __future__ import annotations

import networkx as nx
import pytest

from hexwar.games.narvik import narvik_game
from hexwar.games.narvik.state import HARSTAD
from hexwar.rules.naval import WATER, naval_destinations, naval_path_ok


@pytest.fixture(scope="module")
def board():  # type: ignore[no-untyped-def]
    return narvik_game().board


def _oracle(board, box: str) -> nx.DiGraph:  # type: ignore[no-untyped-def]
    """20.1 and A31 as a graph of (location, crossed the box link yet): waterway steps into
    water, box to edge and edge to box (once: it sets ``crossed``), edge to edge."""
    links = set(board.neighbours(box))
    g = nx.DiGraph()
    for loc in board.locations():
        for x in board.neighbours(loc):
            if x != box and loc != box and board.terrain(x) in WATER and board.border(loc, x).has("waterway"):
                for c in (False, True):
                    g.add_edge((loc, c), (x, c))
    for e in links:
        g.add_edge((e, False), (box, True))
        g.add_edge((box, True), (e, True))
        for f in links - {e}:
            for c in (False, True):
                g.add_edge((e, c), (f, c))
    return g


def test_20_1_every_destination_by_fewest_steps_on_a_legal_path(board) -> None:  # type: ignore[no-untyped-def]
    """From every water hex and from Harstad: each destination's path is a legal naval move
    (20.1, A31), and no shorter one exists; every place the oracle reaches is offered."""
    g = _oracle(board, HARSTAD)
    starts = sorted(x for x in board.locations() if board.terrain(x) in WATER) + [HARSTAD]
    for start in starts:
        got = naval_destinations(board, start, HARSTAD)
        src = (start, start == HARSTAD)
        dist = nx.single_source_shortest_path_length(g, src) if src in g else {src: 0}
        best: dict[str, int] = {}
        for (loc, _), n in dist.items():
            if loc != start and not (start == HARSTAD and loc == HARSTAD):
                best[loc] = min(n, best.get(loc, n))
        assert set(got) == set(best), start
        for loc, path in got.items():
            assert path[0] == start and path[-1] == loc
            assert naval_path_ok(board, path, HARSTAD), (start, path)
            assert len(path) - 1 == best[loc], (start, loc)


def _breadth_first(board, start: str, box: str) -> dict[str, tuple[str, ...]]:  # type: ignore[no-untyped-def]
    """20.1, A31 written plainly: breadth first over (location, crossed the box link yet),
    each location's neighbours in map order, every box-linked edge location one step from
    every other; each destination's path is the first found."""
    links = sorted(board.neighbours(box))
    parent: dict[tuple[str, bool], tuple[str, bool] | None] = {(start, start == box): None}
    queue = [(start, start == box)]
    for loc, crossed in queue:
        if loc == box:
            nxt = [(x, True) for x in links]
        else:
            nxt = []
            for x in board.neighbours(loc):
                if x == box:
                    if not crossed:
                        nxt.append((box, True))  # the box link, crossed once in a move
                elif board.terrain(x) in WATER and board.border(loc, x).has("waterway"):
                    nxt.append((x, crossed))
            if loc in links:
                nxt += [(x, crossed) for x in links if x != loc]  # A31: edge to edge
        for st in nxt:
            if st not in parent:
                parent[st] = (loc, crossed)
                queue.append(st)
    out: dict[str, tuple[str, ...]] = {}
    for st in queue:
        path, at = [], st
        while at is not None:
            path.append(at[0])
            at = parent[at]
        if st[0] != start and st[0] not in out and not (start == box and st[0] == box):
            out[st[0]] = tuple(reversed(path))
    return out


def test_20_1_each_destinations_path_is_the_first_a_plain_breadth_first_search_finds(board) -> None:  # type: ignore[no-untyped-def]
    """The compiled search gives, from every water hex and from Harstad, the same
    destinations in the same order on the same paths as the rule written plainly: the paths
    a ship's naval moves are offered on (and so every seeded game) rest on it."""
    starts = sorted(x for x in board.locations() if board.terrain(x) in WATER) + [HARSTAD]
    for start in starts:
        assert list(naval_destinations(board, start, HARSTAD).items()) == list(_breadth_first(board, start, HARSTAD).items()), start
