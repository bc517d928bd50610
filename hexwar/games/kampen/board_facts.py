"""What Kampen om Norge's rules read off a board, on any backend.

Land areas are the board's locations that are not sea, unusable or boxes; a fjord or lake
border halves attack dice (4.2); an area's coasts are its map ``sea`` entries (area map) or
its sea neighbours (hex map). So the same rules play on the Norway area board, an area
board aggregated from hexes, or a hex board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hexwar.board.base import Board
from hexwar.board.build_areas import haversine_km

NOT_LAND = {"sea", "unusable", "box"}


@dataclass(frozen=True)
class BoardFacts:
    """The board as the card game sees it (2.3)."""

    land: tuple[str, ...]
    nbrs: dict[str, tuple[str, ...]]  # land neighbours
    water: frozenset[tuple[str, str]]  # land borders across a fjord or lake (4.2)
    coasts: dict[str, frozenset[str]]  # the sea areas an area touches
    mined_coast: dict[str, bool]  # on the mined seas I or II (2.3)
    allied_coast: dict[str, bool]  # Allied reinforcements land here: III-VII (2.3, 4.3)
    german_coast: dict[str, bool]  # German reinforcements by sea: I or II (4.3)
    point_cities: tuple[str, ...]
    mobilisation: tuple[str, ...]
    airfields: tuple[str, ...]
    from_germany: frozenset[str]  # south of the "Fra Tyskland" line: in German air range (2.3)
    reach: dict[str, frozenset[str]]  # airfield -> land areas within its air range (2.3)
    seas: tuple[str, ...] = ()  # the sea areas, south to north (I-VIII, 2.3; 8.3 "further south")
    sea_nbrs: dict[str, tuple[str, ...]] | None = None  # sea area -> adjacent sea areas (8.1)
    sea_coast: dict[str, tuple[str, ...]] | None = None  # sea area -> land areas on its coast (7.2, 8.3)
    mined: frozenset[str] = frozenset()  # I and II: closed to Allied ships (5.1)
    open_sea: frozenset[str] = frozenset()  # VIII: no coast (5.1)


def lonlat(board: Board, a: str) -> tuple[float, float] | None:
    """Return an area's longitude and latitude: its town, or its shape's centre."""
    centers = getattr(board, "centers", {}) or {}
    if a in centers:
        return tuple(centers[a])
    proj = getattr(board, "projection", None)
    if proj is None:
        return None
    try:
        c = board.geometry(a).centroid
    except Exception:
        return None
    lon, lat = proj.to_lonlat(c.x, c.y)
    return float(lon), float(lat)


def board_facts(b: Board, region: Sequence[str] = ()) -> BoardFacts:
    """Index a board for the rules; ``region`` keeps only those areas (S1: the top third)."""
    land = [a for a in b.locations() if b.terrain(a) not in NOT_LAND and not b.is_a(a, "sweden")
            and not b.is_a(a, "unusable")]
    if region and all(n in land for n in region):
        # S1: only the top third of the board is used (on a board cut to that region, all of it)
        keep = set(region)
        land = [a for a in land if a in keep]
    land_set = set(land)
    nbrs: dict[str, tuple[str, ...]] = {a: tuple(n for n in b.neighbours(a) if n in land_set) for a in land}
    water = set()
    for a in land:
        for n in nbrs[a]:
            if b.border(a, n).features & {"fjord", "lake"}:
                water.add((a, n))
    coasts: dict[str, frozenset[str]] = {}
    for a in land:
        p = b.place(a)
        seas: tuple[str, ...] = tuple(p.data.get("sea") or ()) if p else ()  # type: ignore[arg-type]
        if not seas:
            seas = tuple(n for n in b.neighbours(a) if b.terrain(n) == "sea")
        coasts[a] = frozenset(seas)
    mined = {a for a in b.locations() if b.terrain(a) == "sea" and b.is_a(a, "mined")}
    # 2.3: the reinforcement coasts are III-VII: not the mined I/II, not the open sea VIII
    open_sea = {s for s in b.locations() if b.terrain(s) == "sea" and not any(n in land_set for n in b.neighbours(s))}
    mined_coast = {a: bool(coasts[a] & mined) for a in land}
    allied_coast = {a: bool(coasts[a] - mined - open_sea) and not mined_coast[a] for a in land}
    german_coast = {a: mined_coast[a] for a in land}  # 4.3: coast on I or II
    airfields = [a for a in land if b.is_a(a, "airfield")]
    # 2.3: air range: the "Fra Tyskland" line needs no airfield; each airfield reaches its range
    ll = {a: lonlat(b, a) for a in land}
    origins = getattr(b, "air_origins", {}) or {}
    from_germany = frozenset(a for a in land for (o, km) in origins.values()
                             if ll[a] is not None and haversine_km(o, ll[a]) <= km)  # type: ignore[arg-type]
    reach: dict[str, frozenset[str]] = {}
    for f in airfields:
        p = b.place(f)
        km = float(p.data.get("air_range_km") or 0) if p else 0.0  # type: ignore[arg-type]
        reach[f] = frozenset(a for a in land if ll[f] is not None and ll[a] is not None
                             and haversine_km(ll[f], ll[a]) <= km)  # type: ignore[arg-type]
    seas = tuple(sorted((s for s in b.locations() if b.terrain(s) == "sea"), key=_roman))
    sea_set = set(seas)
    sea_nbrs = {s: tuple(sorted((n for n in b.neighbours(s) if n in sea_set), key=_roman)) for s in seas}
    sea_coast = {s: tuple(a for a in land if s in coasts[a]) for s in seas}
    return BoardFacts(tuple(land), nbrs, frozenset(water), coasts, mined_coast, allied_coast, german_coast,
                      tuple(a for a in land if b.is_a(a, "point_city")), tuple(a for a in land if b.is_a(a, "mobilisation")),
                      tuple(airfields), from_germany, reach, seas, sea_nbrs, sea_coast, frozenset(mined), frozenset(open_sea))


ROMAN = {"I": 1, "V": 5, "X": 10}


def _roman(name: str) -> tuple[int, str]:
    """Sort key of a sea area: its Roman numeral (I-VIII, south to north, 2.3), else its name.

    >>> sorted(["VIII", "II", "IV", "I"], key=_roman)
    ['I', 'II', 'IV', 'VIII']
    """
    if name and all(c in ROMAN for c in name):
        vals = [ROMAN[c] for c in name]
        return (sum(-v if i + 1 < len(vals) and v < vals[i + 1] else v for i, v in enumerate(vals)), name)
    return (99, name)
