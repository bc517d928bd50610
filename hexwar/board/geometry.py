"""Shapely geometry for boards: projection, hex polygons, and hex -> area aggregation.

Every board draws in one plane: kilometres, x east, y north, with the origin at the
projection's ``(lon0, lat0)``. The projection is a local equirectangular one, accurate to
well under a hex over the few hundred kilometres of a Narvik map; a country-sized map (the
Europa map of Norway, 1,400 km from south to north) uses the sinusoidal kind instead, which
keeps east-west distances true at every latitude.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from hexwar.board import hexes

KM_PER_DEG_LAT = 110.574
KM_PER_DEG_LON_EQUATOR = 111.320


def _cos_deg(lat: Any) -> Any:
    return np.cos(np.radians(lat)) if hasattr(lat, "__len__") else math.cos(math.radians(lat))


@dataclass(frozen=True)
class LocalProjection:
    """Local projection around ``(lon0, lat0)`` (km, x east, y north).

    ``equirectangular`` scales longitude by the cosine of ``lat0``; ``sinusoidal`` by the
    cosine of each point's own latitude, so a map spanning 12 degrees of latitude keeps its
    east-west distances.

    >>> p = LocalProjection(17.0, 68.0)
    >>> [round(v, 6) for v in p.to_lonlat(*p.to_xy(17.4272, 68.4384))]
    [17.4272, 68.4384]
    >>> s = LocalProjection(13.0, 70.0, "sinusoidal")
    >>> [round(v, 6) for v in s.to_lonlat(*s.to_xy(5.32, 60.39))]
    [5.32, 60.39]
    """

    lon0: float
    lat0: float
    kind: str = "equirectangular"

    @property
    def kx(self) -> float:
        return KM_PER_DEG_LON_EQUATOR * math.cos(math.radians(self.lat0))

    def to_xy(self, lon: Any, lat: Any) -> tuple[Any, Any]:
        """Return plane coordinates of a longitude/latitude."""
        if self.kind == "sinusoidal":
            return (lon - self.lon0) * KM_PER_DEG_LON_EQUATOR * _cos_deg(lat), (lat - self.lat0) * KM_PER_DEG_LAT
        return (lon - self.lon0) * self.kx, (lat - self.lat0) * KM_PER_DEG_LAT

    def to_lonlat(self, x: Any, y: Any) -> tuple[Any, Any]:
        """Return longitude/latitude of a plane point (floats or numpy arrays)."""
        lat = self.lat0 + y / KM_PER_DEG_LAT
        if self.kind == "sinusoidal":
            return self.lon0 + x / (KM_PER_DEG_LON_EQUATOR * _cos_deg(lat)), lat
        return self.lon0 + x / self.kx, lat

    def polygon(self, ring: Iterable[tuple[float, float]]) -> Polygon:
        """Project a lon/lat ring to a plane polygon."""
        return Polygon([self.to_xy(lon, lat) for lon, lat in ring])


def hex_polygon(a: hexes.Axial | tuple[int, int], hex_km: float) -> Polygon:
    """Return the polygon of one hex in the board plane."""
    return Polygon(hexes.corners_xy(a, hex_km))


def union(shapes: Iterable[BaseGeometry]) -> BaseGeometry:
    """Return the union of shapes (used to aggregate hexes into an area)."""
    return unary_union(list(shapes))


def box_point(x: float, y: float) -> Point:
    """Return the marker point of an off-map box."""
    return Point(x, y)
