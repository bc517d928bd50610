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
