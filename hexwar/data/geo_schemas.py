"""Schemas of the geography files a map is built from (``maps/NAME/geography.yaml``)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field, model_validator

from hexwar.data.spec_base import Projection, Sourced, Strict

LonLat = tuple[float, float]


class GeoPlace(Sourced):
    lonlat: LonLat
    kinds: list[str] = []
    name: str = ""
    value: int = 0


class GeoLine(Sourced):
    line: list[LonLat]


class GeoPolygon(Sourced):
    polygon: list[LonLat]


class GeoAnchor(Strict):
    place: str
    hex: str


class GeoGrid(Strict):
    columns: tuple[int, int]
    rows: tuple[int, int]
    hex_km: float
    anchor: GeoAnchor
    projection: Literal["equirectangular", "sinusoidal"] = "equirectangular"


class GeoBorder(Sourced):
    border: list[LonLat]


class GeoRailway(Sourced):
    line: list[LonLat]


class GeoPoint(Sourced):
    lonlat: LonLat


class GeoBox(Sourced):
    """An off-map box (Assault on Narvik's Harstad, 22.1) and the map edges its sea links reach."""

    id: str
    name: str
    lonlat: LonLat
    edges: list[Literal["north", "south", "east", "west"]]
    min_water: float = Field(default=0.3, ge=0.0, le=1.0, description="share of water an edge hex needs to be linked")


class GeoRegion(Sourced):
    """A named set of land hexes, by rows counted from the north edge (a set-up band, 5.1)."""

    rows_from_north: tuple[int, Optional[int]]


class CitedTerrain(Sourced):
    """A hand edit of one hex's terrain, for a hex a rulebook cites (the rule in ``source``)."""

    to: Literal["sea", "coast", "clear", "rough", "forest", "mountain", "town", "glacier", "lake"]


class CitedHexside(Sourced):
    """Features added to or taken from one hexside, for a cited example."""

    add: list[Literal["road", "rail", "river", "ridge", "fjord", "coast", "waterway"]] = []
    remove: list[Literal["road", "rail", "river", "ridge", "fjord", "coast", "waterway", "all_sea"]] = []


class CitedPlace(Sourced):
    """A place (an objective) set on a cited hex."""

    name: str = ""
    kinds: list[str] = []
    value: int = 0


class Cited(Strict):
    """Hand edits that make the hexes a rulebook cites hold what it says of them."""

    terrain: dict[str, CitedTerrain] = {}
    hexsides: dict[str, CitedHexside] = {}
    places: dict[str, CitedPlace] = {}


class GeographySpec(Strict):
    """Real-world sources of a hex map: places, fjords, roads, railway, borders (lon/lat)."""

    kind: Literal["geography"]
    name: str
    description: str
    grid: GeoGrid
    places: dict[str, GeoPlace]
    box: Optional[GeoBox] = None
    regions: dict[str, GeoRegion] = {}
    fjords: dict[str, GeoLine] = {}
    lakes: dict[str, GeoPolygon] = {}
    glaciers: dict[str, GeoPolygon] = {}
    sweden: Optional[GeoBorder] = None
    railway: Optional[GeoRailway] = None
    #: more railway lines, by name (a country map has several; all are ``rail`` hexsides)
    railways: dict[str, GeoLine] = {}
    roads: dict[str, GeoLine] = {}
    rivers: dict[str, GeoLine] = {}
    ridges: dict[str, GeoLine] = {}
    cited: Optional[Cited] = None

    @model_validator(mode="after")
    def _anchor(self) -> "GeographySpec":
        if self.grid.anchor.place not in self.places:
            raise ValueError(f"grid.anchor.place: {self.grid.anchor.place!r} is not among places")
        return self


class AirOriginSpec(Sourced):
    """An off-board air base and its reach, e.g. Kampen om Norge's "Fra Tyskland" line."""

    name: str
    lonlat: LonLat
    air_range_km: float = Field(gt=0)


class AreaGeoSpec(Sourced):
    name: str
    lonlat: LonLat
    kinds: list[str] = []
    sea: list[str] = []
    air_range_km: Optional[float] = Field(default=None, gt=0)
    named: bool = True


class SeaGeoSpec(Sourced):
    name: str
    lonlat: LonLat
    mined: bool = False


class AreaGeographySpec(Strict):
    """Real-world sources of an area map: area towns, seas, borders (lon/lat)."""

    kind: Literal["area_geography"]
    name: str
    description: str
    projection: Projection
    areas: dict[str, AreaGeoSpec]
    unusable: dict[str, AreaGeoSpec] = {}
    seas: dict[str, SeaGeoSpec] = {}
    sea_borders: list[tuple[str, str]] = []
    air_origins: dict[str, AirOriginSpec] = {}
    sweden_border: list[LonLat] = []
    #: the neighbour east of Sweden, for drawing only: a ring; abroad land inside it is ``finland``
    finland_outline: list[LonLat] = []
    borders: list[list[str]]

    @model_validator(mode="after")
    def _refs(self) -> "AreaGeographySpec":
        names = set(self.areas) | set(self.seas)
        for i, pair in enumerate(self.borders):
            if len(pair) < 2 or any(x not in self.areas for x in pair[:2]):
                raise ValueError(f"borders.{i}: {pair} must start with two land areas")
        for i, (s1, s2) in enumerate(self.sea_borders):
            if s1 not in self.seas or s2 not in self.seas:
                raise ValueError(f"sea_borders.{i}: {s1}-{s2} must name sea areas")
        for k, area in self.areas.items():
            for x in area.sea:
                if x not in names:
                    raise ValueError(f"areas.{k}.sea: {x!r} is not a sea area")
        return self
