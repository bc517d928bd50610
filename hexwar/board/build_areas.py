"""Build an area map (``maps/NAME.yaml``) from area geography (``maps/NAME/geography.yaml``).

``hexwar map build norway`` reads the towns that name each area, the sea areas, the land
border with Sweden and the authored borders, and writes an ``area_map``. Polygons are drawn
by giving every 1 km land-mask cell (``global-land-mask``, build time only) to the nearest
area town (a Voronoi partition clipped to the coastline); sea cells go to the nearest sea
area. Adjacency is *not* derived from the polygons: it is the authored border list, because
the rules' board facts (which areas touch, which borders are fjords) decide play, and a
Voronoi cell cannot know that Åndalsnes has only three neighbours. The build is
deterministic.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

from hexwar.data.schemas import AreaGeographySpec

LON_STEP, LAT_STEP = 0.08, 0.04
BOUNDS = (3.0, 57.3, 31.6, 71.4)  # lon0, lat0, lon1, lat1 of the raster


def haversine_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return the great-circle distance between two (lon, lat) points in km.

    >>> round(haversine_km((10.40, 63.43), (16.5441, 68.8011)))   # Trondheim to Harstad
    657
    """
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def _norway_region(geo: AreaGeographySpec) -> Polygon:
    """West/north of the land border, north of the Skagerrak (for drawing only)."""
    border = [tuple(p) for p in geo.sweden_border]
    ring = border + [(32.0, 69.9), (32.0, 72.0), (0.0, 72.0), (0.0, 57.85), (9.0, 57.85), (10.9, 58.6)]
    return Polygon(ring)


def _nearest(xs: np.ndarray, ys: np.ndarray, seeds: list[tuple[float, float]]) -> np.ndarray:
    """Index of the nearest seed (km on a local equirectangular plane per point)."""
    kx = np.cos(np.radians(ys)) * 111.32
    best = np.full(xs.shape, np.inf)
    idx = np.zeros(xs.shape, dtype=int)
    for i, (lon, lat) in enumerate(seeds):
        d = ((xs - lon) * kx) ** 2 + ((ys - lat) * 110.57) ** 2
        closer = d < best
        best[closer] = d[closer]
        idx[closer] = i
    return idx


def _cells_polygon(xs: np.ndarray, ys: np.ndarray) -> Polygon | None:
    """Union the raster cells at (xs, ys); keep the largest part, simplified."""
    if len(xs) == 0:
        return None
    hx, hy = LON_STEP * 0.505, LAT_STEP * 0.505  # a hair of overlap so neighbouring cells fuse
    cells = [box(x - hx, y - hy, x + hx, y + hy) for x, y in zip(xs, ys)]
    shape = unary_union(cells).simplify(0.03)
    if isinstance(shape, MultiPolygon):
        shape = max(shape.geoms, key=lambda g: g.area)
    return shape if isinstance(shape, Polygon) and not shape.is_empty else None


def _ring(p: Polygon | None, fallback: tuple[float, float]) -> list[list[float]]:
    if p is None:  # no raster cell: a small square round the town
        p = Point(fallback).buffer(0.15, cap_style=3)
    return [[round(x, 3), round(y, 3)] for x, y in list(p.exterior.coords)[:-1]]


def build_area_map(geo: AreaGeographySpec, is_land: Any, source_file: str) -> dict[str, Any]:
    """Return the ``area_map`` document for an area geography.

    ``is_land(lat_array, lon_array) -> bool array`` is the land mask (``global_land_mask.is_land``).
    """
    lon0, lat0, lon1, lat1 = BOUNDS
    lons = np.arange(lon0, lon1, LON_STEP)
    lats = np.arange(lat0, lat1, LAT_STEP)
    gx, gy = np.meshgrid(lons, lats)
    xs, ys = gx.ravel().round(4), gy.ravel().round(4)
    land = np.asarray(is_land(ys, xs), dtype=bool)
    region = _norway_region(geo)
    from shapely import contains_xy

    in_norway = contains_xy(region, xs, ys)

    land_ids = list(geo.areas) + [k for k in geo.unusable if k not in ("sweden", "denmark")]
    land_seeds: list[tuple[float, float]] = [geo.areas[k].lonlat if k in geo.areas else geo.unusable[k].lonlat for k in land_ids]
    shapes: dict[str, Polygon | None] = {}
    sel = land & in_norway
    owner = _nearest(xs[sel], ys[sel], land_seeds)
    for i, k in enumerate(land_ids):
        m = owner == i
        shapes[k] = _cells_polygon(xs[sel][m], ys[sel][m])
    abroad = land & ~in_norway
    finland = (contains_xy(Polygon([tuple(p) for p in geo.finland_outline]), xs, ys)
               if "finland" in geo.unusable and len(geo.finland_outline) >= 3 else np.zeros(xs.shape, dtype=bool))
    for k, south in (("denmark", True), ("sweden", False)):
        if k in geo.unusable:
            m = abroad & ((ys < 57.9) if south else ((ys >= 57.9) & (xs < 24.0) & ~finland))
            shapes[k] = _cells_polygon(xs[m], ys[m])
    if "finland" in geo.unusable:  # drawn so the map's east is land, as it is; no play there (2.3)
        shapes["finland"] = _cells_polygon(xs[abroad & finland], ys[abroad & finland])
    sea_ids = list(geo.seas)
    sea = ~land & (in_norway | ((ys < 59.0) & (xs < 11.3)))  # the Norwegian Sea and the Skagerrak only
    sowner = _nearest(xs[sea], ys[sea], [geo.seas[k].lonlat for k in sea_ids])
    for i, k in enumerate(sea_ids):
        m = sowner == i
        shapes[k] = _cells_polygon(xs[sea][m], ys[sea][m])

    areas: dict[str, Any] = {}
    for k, a in geo.areas.items():
        doc: dict[str, Any] = {"name": a.name, "terrain": "land", "center": list(a.lonlat),
                               "polygon": _ring(shapes.get(k), a.lonlat)}
        kinds = list(a.kinds)
        if any(geo.seas[s].mined for s in a.sea if s in geo.seas):
            kinds.append("mined")
        if kinds:
            doc["kinds"] = kinds
        if a.sea:
            doc["sea"] = list(a.sea)
        if a.air_range_km:
            doc["air_range_km"] = a.air_range_km
        doc["source"] = a.source
        areas[k] = doc
    for k, u in geo.unusable.items():
        areas[k] = {"name": u.name, "terrain": "unusable", "center": list(u.lonlat), "kinds": ["unusable"],
                    "polygon": _ring(shapes.get(k), u.lonlat), "source": u.source}
    for k, sea_area in geo.seas.items():
        doc = {"name": sea_area.name, "terrain": "sea", "center": list(sea_area.lonlat),
               "polygon": _ring(shapes.get(k), sea_area.lonlat), "source": sea_area.source}
        if sea_area.mined:
            doc["kinds"] = ["mined"]
        areas[k] = doc
    borders: list[dict[str, Any]] = []
    for b in geo.borders:
        borders.append({"a": b[0], "b": b[1], **({"features": list(b[2:])} if len(b) > 2 else {})})
    for k, a in geo.areas.items():
        for s in a.sea:
            borders.append({"a": k, "b": s, "features": ["coast"]})
    for a_, b_ in geo.sea_borders:
        borders.append({"a": a_, "b": b_, "features": ["all_sea", "waterway"]})
    return {
        "kind": "area_map",
        "name": geo.name,
        "description": geo.description,
        "source": f"geography {source_file}, built by `hexwar map build {geo.name}`",
        "projection": {"lon0": geo.projection.lon0, "lat0": geo.projection.lat0},
        "areas": areas,
        "borders": borders,
        "air_origins": {k: {"name": o.name, "lonlat": list(o.lonlat), "air_range_km": o.air_range_km,
                            "source": o.source} for k, o in geo.air_origins.items()},
    }


def area_map_from_geography(geo_doc: Mapping[str, Any] | AreaGeographySpec, source_file: str) -> dict[str, Any]:
    """Build with the bundled 1 km land mask (needs ``pip install hexwar[mapbuild]``)."""
    from global_land_mask import globe  # type: ignore[import-untyped]

    geo = geo_doc if isinstance(geo_doc, AreaGeographySpec) else AreaGeographySpec.model_validate(geo_doc)
    return build_area_map(geo, globe.is_land, source_file)
