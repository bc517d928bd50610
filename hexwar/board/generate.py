"""Seeded random hex maps for property tests and benchmarks (not for play)."""

from __future__ import annotations

import random

from hexwar.board import hexes
from hexwar.data.schemas import GridSpec, HexMapSpec, PlaceSpec

TERRAIN_WEIGHTS = (("clear", 50), ("forest", 20), ("mountain", 15), ("glacier", 3), ("sea", 7), ("town", 5))
SIDE_FEATURES = (("road", 10), ("river", 6), ("ridge", 6), ("fjord", 3), ("rail", 2))


def random_hex_spec(seed: int, columns: int, rows: int, digits: int | None = None, feature_rate: float = 0.25) -> HexMapSpec:
    """Return a seeded random hex map of ``columns`` x ``rows`` hexes (ids from 01/01).

    Terrain and hexside features are drawn with fixed weights; every ``feature_rate`` of
    hexsides gets one feature. The same seed always gives the same map.
    """
    rng = random.Random(seed)
    d = digits or max(2, len(str(max(columns, rows))))
    grid = hexes.HexGrid(d)
    names = [t for t, _ in TERRAIN_WEIGHTS]
    weights = [w for _, w in TERRAIN_WEIGHTS]
    fnames = [f for f, _ in SIDE_FEATURES]
    fweights = [w for _, w in SIDE_FEATURES]
    terrain = {}
    ids = []
    for c in range(1, columns + 1):
        for r in range(1, rows + 1):
            h = grid.format(c, r)
            ids.append(h)
            t = rng.choices(names, weights)[0]
            if t != "clear":
                terrain[h] = t
    idset = set(ids)
    sides: dict[str, list[str]] = {}
    for h in ids:
        a = grid.to_axial(h)
        for dirn in (0, 1, 2):
            n = hexes.neighbour(a, dirn)
            col, row = hexes.axial_to_offset(*n)
            if col < 0 or row < 0:
                continue
            try:
                nid = grid.format(col, row)
            except hexes.HexIdError:
                continue
            if nid not in idset or rng.random() >= feature_rate:
                continue
            sides[hexes.hexside_key(h, nid)] = [rng.choices(fnames, fweights)[0]]
    return HexMapSpec(
        kind="hex_map",
        name=f"random-{seed}-{columns}x{rows}",
        description="seeded random map (tests and benchmarks)",
        source="fixture",
        grid=GridSpec(digits=d, columns=(1, columns), rows=(1, rows), hex_km=3.0, parity="odd-q"),
        default_terrain="clear",
        terrain=terrain,
        hexsides=dict(sorted(sides.items())),
        places=[PlaceSpec(at=ids[len(ids) // 2], kinds=["port", "town"], name="Middle")],
    )
