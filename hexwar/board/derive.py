"""Derive a hex map from an area map: the same country cut into hexes.

This is how the same Kampen om Norge fight is put on a hex board (and, aggregated back with
:meth:`AreaBoard.from_hexes`, on an area board built from hexes). Each hex whose centre lies
in a land area belongs to that area (``regions``); other hexes are sea and belong to the
sea area whose polygon holds them (so an aggregated board keeps its coasts). A hexside between
hexes of two areas whose area border is a fjord or lake carries that feature; hexes holding
an area's town carry the area's place kinds and its id as name, so scenarios written for the
area map name the same places on the hex map.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from shapely import STRtree
from shapely.geometry import Point

from hexwar.board import hexes
from hexwar.board.areaboard import AreaBoard
from hexwar.board.base import place_name
from hexwar.board.geometry import LocalProjection

LAND_TERRAIN = "land"


def hex_map_from_areas(ab: AreaBoard, hex_km: float, areas: Iterable[str] | None = None, name: str | None = None,
                       margin_km: float = 30.0) -> dict[str, Any]:
    """Return a ``hex_map`` document covering ``areas`` (all land areas when None).

    >>> from hexwar.board.hexboard import HexBoard
    >>> from hexwar.data.schemas import HexMapSpec
    >>> ab = AreaBoard.load("norway")
    >>> doc = hex_map_from_areas(ab, 20.0, ["narvik", "bjornfjell", "tysfjord"])
    >>> hb = HexBoard(HexMapSpec.model_validate(doc))
    >>> sorted(doc["regions"])
    ['VI', 'VII', 'bjornfjell', 'finland', 'narvik', 'outside', 'sweden', 'tysfjord']
    """
    if ab.projection is None:
        raise ValueError(f"{ab.name}: an area map needs a projection to be cut into hexes")
    land = [a for a in ab.locations() if ab.terrain(a) == LAND_TERRAIN]
    keep = list(areas) if areas is not None else land
    shapes = {a: ab.geometry(a) for a in keep}
    minx = min(s.bounds[0] for s in shapes.values()) - margin_km
    miny = min(s.bounds[1] for s in shapes.values()) - margin_km
    maxx = max(s.bounds[2] for s in shapes.values()) + margin_km
    maxy = max(s.bounds[3] for s in shapes.values()) + margin_km
    size = hex_km / math.sqrt(3)
    cols = int((maxx - minx) / (1.5 * size)) + 2
    rows = int((maxy - miny) / hex_km) + 2
    digits = 2 if max(cols, rows) < 99 else 3
    # hex 00..00 sits at the NW corner: x grows east with the column, y falls with the row
    lon0, lat0 = ab.projection.to_lonlat(minx, maxy)
    plane = LocalProjection(float(lon0), float(lat0))
    tree_ids = list(shapes)
    tree = STRtree([shapes[a] for a in tree_ids])
    grid = hexes.HexGrid(digits)
    region: dict[str, str] = {}
    terrain: dict[str, str] = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            ax = hexes.offset_to_axial(c, r)
            hx, hy = hexes.center_xy(ax, hex_km)
            lon, lat = plane.to_lonlat(hx, hy)
            x, y = ab.projection.to_xy(lon, lat)
            hid = grid.format(c, r)
            hits = [tree_ids[i] for i in tree.query(Point(x, y), predicate="within")]
            if hits:
                region[hid] = hits[0]
                terrain[hid] = LAND_TERRAIN
    # sea hexes belong to the sea area whose polygon holds them (else the nearest): an
    # aggregated board keeps its coasts, which the rules read (Kampen 2.3, 4.3)
    seas = [a for a in ab.locations() if ab.terrain(a) == "sea"]
    sea_shapes = {a: ab.geometry(a) for a in seas}
    sea_of: dict[str, str] = {}
    towns: dict[str, str] = {}
    for a in keep:
        lonlat = ab.centers.get(a)
        if lonlat is None:
            continue
        px, py = plane.to_xy(*lonlat)
        best = min(((c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)),
                   key=lambda cr: math.dist(hexes.center_xy(hexes.offset_to_axial(*cr), hex_km), (px, py)))
        hid = grid.format(*best)
        towns[a] = hid
        region[hid] = a
        terrain[hid] = LAND_TERRAIN
    # land outside the cut (Sweden, Finland, the rest of Norway) stays land, out of play: not sea
    others = [a for a in ab.locations() if a not in keep and ab.terrain(a) != "sea" and not _point(ab, a)]
    other_tree = STRtree([ab.geometry(a) for a in others]) if others else None
    outside: dict[str, str] = {}
    if other_tree is not None:
        for c in range(1, cols + 1):
            for r in range(1, rows + 1):
                hid = grid.format(c, r)
                if hid in region:
                    continue
                lon, lat = plane.to_lonlat(*hexes.center_xy(hexes.offset_to_axial(c, r), hex_km))
                hits = other_tree.query(Point(*ab.projection.to_xy(lon, lat)), predicate="within")
                if len(hits):
                    outside[hid] = others[int(min(hits))]
                    terrain[hid] = "unusable"
    if seas:
        for c in range(1, cols + 1):
            for r in range(1, rows + 1):
                hid = grid.format(c, r)
                if hid in region or hid in outside:
                    continue
                lon, lat = plane.to_lonlat(*hexes.center_xy(hexes.offset_to_axial(c, r), hex_km))
                pt = Point(*ab.projection.to_xy(lon, lat))
                sea_of[hid] = min(seas, key=lambda s: (not sea_shapes[s].contains(pt), sea_shapes[s].distance(pt), s))
    hexsides: dict[str, list[str]] = {}
    for hid, a in region.items():
        for n in hexes.neighbour_ids(hid, grid):
            b = region.get(n)
            if b is None or b == a or n < hid:
                continue
            try:
                feats = ab.border(a, b).features & {"fjord", "lake"}
            except Exception:
                feats = frozenset()
            if feats:
                hexsides[f"{hid}/{n}"] = sorted(feats)
    places = []
    for a, hid in sorted(towns.items()):
        p = ab.place(a)
        kinds = sorted((p.kinds if p else frozenset()) - {"mined"}) or ["town"]
        places.append({"at": hid, "kinds": kinds, "name": _name(ab, a)})
    regions: dict[str, list[str]] = {}
    for hid, a in sorted(region.items()):
        regions.setdefault(a, []).append(hid)
    for hid, s in sorted(sea_of.items()):
        regions.setdefault(s, []).append(hid)
    for hid, a in sorted(outside.items()):
        abroad = a in ("sweden", "finland")
        places.append({"at": hid, "kinds": ["sweden", "unusable"] if a == "sweden" else ["unusable"],
                       "name": _name(ab, a) if abroad else "Norway (not in play)"})
        # aggregated, the land outside the cut is one area per country, out of play (2.3)
        regions.setdefault(a if abroad else "outside", []).append(hid)
    for s in sorted({s for s in sea_of.values() if ab.is_a(s, "mined")}):
        places += [{"at": h, "kinds": ["mined"], "name": s} for h in regions[s]]
    return {
        "kind": "hex_map",
        "name": name or f"{ab.name}-hex{int(hex_km)}",
        "description": f"{ab.name} cut into {hex_km:g} km hexes",
        "source": f"derived from the area map {ab.name} (hexwar.board.derive)",
        "grid": {"digits": digits, "columns": [1, cols], "rows": [1, rows], "hex_km": hex_km, "parity": "odd-q"},
        "projection": {"lon0": round(float(lon0), 6), "lat0": round(float(lat0), 6)},
        "default_terrain": "sea",
        "terrain": dict(sorted(terrain.items())),
        "hexsides": hexsides,
        "places": places,
        "regions": regions,
    }


def _point(ab: AreaBoard, a: str) -> bool:
    """An area without a shape of its own (a box), which no hex can lie in."""
    try:
        point: bool = ab.geometry(a).geom_type == "Point"
        return point
    except Exception:
        return True


def _name(ab: AreaBoard, a: str) -> str:
    """An area's name as players read it (Bjørnfjell), else its id."""
    return place_name(ab, a)
